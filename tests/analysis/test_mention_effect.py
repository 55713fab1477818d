"""The mention identification effect check (Moosavi & Strube 2016, §2)."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.analysis.mention_effect import (
    less_precise_a,
    less_precise_b,
    mention_effect,
    more_precise,
)
from corefscore.errors import UsageError
from corefscore.io import read_corpus
from corefscore.model import Corpus, Document, Span, corpus_from_mapping
from corefscore.report.mention_effect import format_mention_effect
from tests.conftest import shared_path

# Key: A={0,1,2}, B={3,4}, C={5,6}, D={7} (singleton), E={10,11,12}.
KEY = [
    [(0, 0), (1, 1), (2, 2)],
    [(3, 3), (4, 4)],
    [(5, 5), (6, 6)],
    [(7, 7)],
    [(10, 10), (11, 11), (12, 12)],
]
# (3,3) is the only B mention of its entity, (2,2) and (5,5) the only A and C
# mentions of theirs: all three are incorrectly resolved. (9,9) is spurious,
# (7,7) a response singleton (no link, so not "resolved").
RESPONSE = [[(0, 0), (1, 1), (3, 3)], [(2, 2), (5, 5), (9, 9)], [(7, 7)]]
MISSED_B, MISSED_C = (4, 4), (6, 6)
MISSED_E = {(10, 10), (11, 11), (12, 12)}


def doc(clusters: list[list[Span]], doc_id: str = "d") -> Document:
    return Document(doc_id, tuple(tuple(c) for c in clusters))


def corpus(clusters: list[list[Span]], side: str) -> Corpus:
    return corpus_from_mapping({"d": clusters}, side=side)


def test_more_precise_removes_exactly_the_incorrectly_resolved_mentions() -> None:
    out, removed = more_precise(doc(KEY), doc(RESPONSE))
    assert removed == 3
    assert out.entities == (((0, 0), (1, 1)), ((9, 9),), ((7, 7),))


def test_less_precise_a_pairs_missed_mentions_of_different_entities() -> None:
    out, pairs = less_precise_a(doc(KEY), doc(RESPONSE), seed=0)
    assert pairs == 2
    assert out.entities[:3] == doc(RESPONSE).entities
    added = out.entities[3:]
    # E has the most missed mentions, so each pair takes one of its mentions
    # and one of B's or C's; the third E mention is coreferent with whatever is
    # left, so it stays unlinked.
    assert sorted(len(e) for e in added) == [2, 2]
    assert {s for e in added for s in e} - MISSED_E == {MISSED_B, MISSED_C}
    assert all(len(set(e) & MISSED_E) == 1 for e in added)
    # The seed-0 choice, pinned so that a change of the generator is noticed.
    assert added == (((6, 6), (10, 10)), ((4, 4), (11, 11)))


def test_less_precise_b_links_one_mention_per_key_entity() -> None:
    out, entities = less_precise_b(doc(KEY), doc(RESPONSE), seed=0)
    assert entities == 1
    (added,) = out.entities[3:]
    assert len(added) == 3
    assert {MISSED_B, MISSED_C} <= set(added)
    assert len(set(added) & MISSED_E) == 1


def test_transformations_depend_on_the_seed_only() -> None:
    runs = {
        seed: (
            less_precise_a(doc(KEY), doc(RESPONSE), seed)[0].entities,
            less_precise_b(doc(KEY), doc(RESPONSE), seed)[0].entities,
        )
        for seed in range(12)
    }
    again = {
        seed: (
            less_precise_a(doc(KEY), doc(RESPONSE), seed)[0].entities,
            less_precise_b(doc(KEY), doc(RESPONSE), seed)[0].entities,
        )
        for seed in range(12)
    }
    assert runs == again
    assert len({r[0] for r in runs.values()}) > 1
    assert len({r[1] for r in runs.values()}) > 1
    first = mention_effect(corpus(KEY, "key"), corpus(RESPONSE, "response"), seed=3)
    second = mention_effect(corpus(KEY, "key"), corpus(RESPONSE, "response"), seed=3)
    assert first.to_dict() == second.to_dict()


def test_report_on_the_hand_example() -> None:
    report = mention_effect(corpus(KEY, "key"), corpus(RESPONSE, "response"), seed=0)
    # MUC by hand. Key links: A 2, B 1, C 1, E 2 = 6; only (0,1) is found: R = 1/6.
    # Response: {0,1,3} has 1 correct link of 2, {2,5,9} 0 of 2: P = 1/4.
    muc = report.base["muc"]
    assert (muc.recall, muc.precision) == (float(Fraction(1, 6)), 0.25)
    more, less_a, less_b = (report.variants[v] for v in report.variants)
    assert more.mentions_changed == 3 and more.entities_added == 0
    # More precise: {0,1} has 1 of 1 link; recall unchanged.
    assert more.changes["muc"].after.precision == 1.0
    assert more.changes["muc"].after.recall == muc.recall
    assert more.changes["muc"].flags == ()
    # Less precise a/b: two more wrong links each, so P = 1/6.
    for variant, mentions, entities in ((less_a, 4, 2), (less_b, 3, 1)):
        assert (variant.mentions_changed, variant.entities_added) == (mentions, entities)
        assert variant.changes["muc"].after.precision == pytest.approx(1 / 6)
        assert variant.changes["muc"].flags == ()
    # LEA: only the recall of a key singleton found as a response singleton is
    # a "self-link"; the edits never touch it, so LEA recall stays put.
    for variant in report.variants.values():
        assert "recall changed" not in variant.changes["lea"].flags
        assert "recall changed" not in variant.changes["muc"].flags
    # B³ recall rises when the missed mentions become response mentions.
    assert "recall changed" in less_a.changes["bcub"].flags
    assert less_a.changes["bcub"].after.recall > report.base["bcub"].recall  # type: ignore[operator]
    assert set(report.metrics) == {
        "mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll",
    }  # fmt: skip


def test_flags_say_which_way_a_metric_moved() -> None:
    # Removing the wrong mention of a two-mention response entity makes the
    # mention metric lose recall and precision; its flags say so.
    key = [[(0, 0), (1, 1)], [(2, 2), (3, 3)]]
    response = [[(0, 0), (2, 2)], [(1, 1), (3, 3)]]
    report = mention_effect(corpus(key, "key"), corpus(response, "response"), metrics=["mentions"])
    change = report.variants["more_precise"].changes["mentions"]
    assert change.before.recall == 1.0 and change.after.recall == 0.0
    assert change.flags == ("recall changed", "precision down", "F1 down")
    assert change.wrong_direction
    assert report.variants["more_precise"].wrong_direction == ("mentions", "conll")
    # Nothing was missed, so the less precise responses are the original.
    assert report.variants["less_precise_a"].entities_added == 0
    assert report.variants["less_precise_a"].wrong_direction == ()


def test_missing_response_document_counts_as_empty() -> None:
    key = corpus_from_mapping({"d": [[(0, 0), (1, 1)], [(2, 2)]], "e": []}, side="key")
    response = corpus_from_mapping({"e": []}, side="response")
    report = mention_effect(key, response)
    assert report.variants["less_precise_a"].entities_added == 1
    assert report.variants["less_precise_a"].response["d"].entities == (((0, 0), (2, 2)),)
    assert report.warnings == ("1 key document(s) not in the response, scored as all missed: 'd'",)


def test_bad_duplicates_policy() -> None:
    with pytest.raises(UsageError):
        mention_effect(corpus(KEY, "key"), corpus(RESPONSE, "response"), duplicates="bogus")


spans = st.integers(0, 14).map(lambda i: (i, i))


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Document, Document]:
    mentions = draw(st.lists(spans, unique=True, min_size=1, max_size=15))
    key_ids = draw(st.lists(st.integers(0, 4), min_size=len(mentions), max_size=len(mentions)))
    resp_pool = draw(st.lists(spans, unique=True, max_size=15))
    resp_ids = draw(st.lists(st.integers(0, 4), min_size=len(resp_pool), max_size=len(resp_pool)))

    def group(items: list[Span], ids: list[int]) -> list[list[Span]]:
        out: dict[int, list[Span]] = {}
        for span, i in zip(items, ids, strict=True):
            out.setdefault(i, []).append(span)
        return [sorted(v) for _, v in sorted(out.items())]

    return doc(group(mentions, key_ids)), doc(group(resp_pool, resp_ids))


@settings(max_examples=150, deadline=None)
@given(pairs(), st.integers(0, 3))
def test_properties_of_the_transformations(pair: tuple[Document, Document], seed: int) -> None:
    key, response = pair
    key_of = {s: e for e, entity in enumerate(key.entities) for s in entity}
    present = {s for e in response.entities for s in e}
    missed = Counter(key_of[s] for s in key_of if s not in present)
    sizes = [*sorted(missed.values(), reverse=True), 0, 0]
    n = sum(missed.values())
    a, n_pairs = less_precise_a(key, response, seed)
    b, n_entities = less_precise_b(key, response, seed)
    # Pairing from the largest groups links as many as a matching can.
    assert n_pairs == min(n // 2, n - sizes[0])
    # Each new b entity takes one mention of every key entity left.
    assert n_entities == sizes[1]
    for out, count in ((a, n_pairs), (b, n_entities)):
        assert out.entities[: len(response.entities)] == response.entities
        added = out.entities[len(response.entities) :]
        assert len(added) == count
        for entity in added:
            assert len(entity) >= 2
            assert all(s in key_of and s not in present for s in entity)
            # completely wrong: no two mentions of one key entity
            assert len({key_of[s] for s in entity}) == len(entity)
        flat = [s for e in added for s in e]
        assert len(flat) == len(set(flat))
    precise, removed = more_precise(key, response)
    kept = {s for e in precise.entities for s in e}
    assert len(present) - len(kept) == removed
    for entity in response.entities:
        for s in entity:
            others = {key_of.get(t) for t in entity if t != s}
            wrong = s in key_of and len(entity) > 1 and key_of[s] not in others
            assert (s not in kept) == wrong


def test_gum_test_wrong_directions() -> None:
    base = shared_path("data", "real", "gum", "pairs")
    key = read_corpus(str(base / "test.key_gum.conll"), side="key", syntax=False)
    response = read_corpus(str(base / "test.resp_xrenner.conll"), side="response", syntax=False)
    report = mention_effect(key, response, seed=0, duplicates="first")
    more, less_a, less_b = (report.variants[v] for v in report.variants)
    assert more.mentions_changed == 270
    assert (less_a.entities_added, less_a.mentions_changed) == (2840, 5680)
    assert (less_b.entities_added, less_b.mentions_changed) == (203, 5591)
    assert more.wrong_direction == ("mentions", "bcub", "ceafm", "ceafe", "blanc", "conll")
    assert less_a.wrong_direction == ("mentions", "bcub", "ceafm", "ceafe", "blanc", "conll")
    assert less_b.wrong_direction == ("mentions", "bcub", "ceafe", "blanc")
    for variant in (more, less_a, less_b):
        # MUC and LEA are the two metrics without the effect.
        assert variant.changes["muc"].flags == ()
        assert variant.changes["lea"].flags == ()
        assert variant.recall_changed == ("mentions", "bcub", "ceafm", "ceafe", "blanc")
    assert report.base["muc"].precision == pytest.approx(0.8114754098360656, abs=1e-12)
    assert more.changes["muc"].after.precision == pytest.approx(0.9132841328413284, abs=1e-12)
    assert less_a.changes["ceafe"].after.f1 == pytest.approx(0.481970008893573, abs=1e-9)


def test_format_text_and_json() -> None:
    report = mention_effect(corpus(KEY, "key"), corpus(RESPONSE, "response"))
    text = format_mention_effect(report)
    assert "More precise: incorrectly resolved mentions removed (3 mentions removed)" in text
    assert "Less precise a: missed key mentions linked into wrong pairs (2 entities of 4" in text
    muc_block = text[text.index("\nmuc\n") :]
    assert "  Base             16.67  25.00  20.00" in muc_block
    assert "  More precise     16.67 100.00  28.57" in muc_block
    data = json.loads(format_mention_effect(report, "json"))
    assert data["variants"]["more_precise"]["metrics"]["muc"]["delta"]["precision"] == 0.75
    assert data["seed"] == 0
    with pytest.raises(UsageError):
        format_mention_effect(report, "csv")
