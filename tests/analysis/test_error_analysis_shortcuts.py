"""The error analysis' shortcuts give exactly what its general path gives."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.analysis import error_analysis
from corefscore.analysis.error_analysis import CATEGORIES, _Document, _Mention, _Text
from corefscore.model import Syntax, corpus_from_mapping
from tests.conftest import examples

# Words that the analysis reads: pronouns, names, and tokens that trimming drops.
WORDS = {
    "he": "PRP",
    "it": "PRP",
    "they": "PRP",
    "this": "DT",
    "the": "DT",
    "'s": "POS",
    ",": ",",
    "John": "NNP",
    "Mary": "NNP",
    "dog": "NN",
    "house": "NN",
}
SIZE = 12

tokens = st.lists(
    st.sampled_from([*sorted(WORDS), "he", "it", "they"]), min_size=SIZE, max_size=SIZE
)
breaks = st.sets(st.integers(1, SIZE - 1), max_size=3).map(lambda b: (0, *sorted(b)))
# One-token mentions mostly: only they can be pronouns, which decide extra and
# missing entities and anchors.
spans = st.tuples(st.integers(0, SIZE - 1), st.sampled_from((0, 0, 0, 1, 3))).map(
    lambda p: (p[0], min(p[0] + p[1], SIZE - 1))
)
clusters = st.lists(st.lists(spans, min_size=1, max_size=5, unique=True), max_size=6)


def _document(
    key: list[list[tuple[int, int]]],
    response: list[list[tuple[int, int]]],
    words: list[str],
    starts: tuple[int, ...],
) -> _Document:
    syntax = Syntax(words=tuple(words), pos=tuple(WORDS[w] for w in words), sentence_starts=starts)
    key_doc = replace(corpus_from_mapping({"d": key}, side="key").documents["d"], syntax=syntax)
    response_doc = corpus_from_mapping({"d": response}, side="response").documents["d"]
    text = _Text(key_doc, syntax, "last")
    warnings: list[str] = []
    return _Document(
        text,
        error_analysis._mentions(key_doc, text, "key", warnings, drop_singletons=False),
        error_analysis._mentions(response_doc, text, "response", warnings, drop_singletons=False),
    )


def _all_facing(
    extra: Iterable[_Mention], missing: Iterable[_Mention]
) -> tuple[list[_Mention], list[_Mention]]:
    # Every unmatched mention, whatever its sentence holds.
    return sorted(extra), sorted(missing)


def _outcome(doc: _Document, found: dict[str, list[Any]] | None = None) -> tuple[Any, ...]:
    return (doc.auto, doc.errors, Counter(doc.operations), doc.states, found)


@settings(max_examples=examples(300), deadline=None)
@given(clusters, clusters, tokens, breaks)
def test_span_corrections_look_only_at_sentences_with_both_sides(
    key: list[list[tuple[int, int]]],
    response: list[list[tuple[int, int]]],
    words: list[str],
    starts: tuple[int, ...],
) -> None:
    shortcut = _document(key, response, words, starts)
    shortcut.correct_spans()
    general = _document(key, response, words, starts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(error_analysis, "_facing", _all_facing)
        general.correct_spans()
    assert _outcome(shortcut) == _outcome(general)


@settings(max_examples=examples(300), deadline=None)
@given(clusters, clusters, tokens, breaks)
def test_groups_of_one_or_two_entities_take_shortcuts_that_match_the_general_path(
    key: list[list[tuple[int, int]]],
    response: list[list[tuple[int, int]]],
    words: list[str],
    starts: tuple[int, ...],
) -> None:
    probe = _document(key, response, words, starts)
    probe.correct_spans()
    auto = [frozenset(e) for e in probe.auto if e]
    auto_of = {m: i for i, e in enumerate(auto) for m in e}
    groups = error_analysis._confusion_groups(auto, probe.gold, auto_of, probe.gold_of)
    for auto_ids, gold_ids in groups:
        if len(auto_ids) + len(gold_ids) > 2:
            continue
        shortcut, general = (_document(key, response, words, starts) for _ in range(2))
        for doc in (shortcut, general):
            doc.correct_spans()
        found: tuple[dict[str, list[Any]], ...] = tuple(
            {category: [] for category in CATEGORIES[1:]} for _ in range(2)
        )
        if not gold_ids:
            shortcut._extra_entity(auto[auto_ids[0]], found[0])
        elif not auto_ids:
            shortcut._missing_entity(probe.gold[gold_ids[0]], found[0])
        elif auto[auto_ids[0]] != probe.gold[gold_ids[0]]:
            shortcut._one_on_one(auto[auto_ids[0]], probe.gold[gold_ids[0]], found[0])
        else:
            continue
        general._group([auto[a] for a in auto_ids], gold_ids, auto_of, found[1])
        assert _outcome(shortcut, found[0]) == _outcome(general, found[1])


def _correct_spans_recomputing(doc: _Document) -> None:
    # correct_spans with the unmatched mentions found again from the response
    # after the first moves, instead of carried over from before them.
    text, gold_of = doc.text, doc.gold_of
    auto_of = doc.auto_of
    doc.states["original"] = dict(auto_of)
    mapping: dict[_Mention, _Mention] = {}
    used: set[_Mention] = set()
    extra, missing = error_analysis._facing(
        auto_of.keys() - gold_of.keys(), gold_of.keys() - auto_of.keys()
    )
    candidates: dict[tuple[int, int, int], list[_Mention]] = {}
    for g in missing:
        candidates.setdefault(text.trimmed(g), []).append(g)
    for a in extra:
        for g in candidates.get(text.trimmed(a), ()):
            if g not in used:
                mapping[a] = g
                used.add(g)
    doc._move(mapping, auto_of)
    by_head: dict[tuple[int, int], tuple[list[_Mention], list[_Mention]]] = {}
    facing = error_analysis._facing(
        auto_of.keys() - gold_of.keys(), gold_of.keys() - auto_of.keys()
    )
    for side, mentions in enumerate(facing):
        for m in mentions:
            by_head.setdefault((m[0], text.head(m)), ([], []))[side].append(m)
    mapping = {a[0]: g[0] for a, g in by_head.values() if len(a) == 1 and len(g) == 1}
    doc._move(mapping, auto_of)


@settings(max_examples=examples(300), deadline=None)
@given(clusters, clusters, tokens, breaks)
def test_span_corrections_carry_the_unmatched_mentions_over_the_first_moves(
    key: list[list[tuple[int, int]]],
    response: list[list[tuple[int, int]]],
    words: list[str],
    starts: tuple[int, ...],
) -> None:
    carried = _document(key, response, words, starts)
    carried.correct_spans()
    recomputed = _document(key, response, words, starts)
    _correct_spans_recomputing(recomputed)
    assert _outcome(carried) == _outcome(recomputed)
    assert carried.auto_of == recomputed.auto_of == error_analysis._entity_of(carried.auto)


@settings(max_examples=examples(300), deadline=None)
@given(clusters, tokens, breaks)
def test_anchor_is_the_earliest_non_pronoun(
    key: list[list[tuple[int, int]]], words: list[str], starts: tuple[int, ...]
) -> None:
    doc = _document(key, [], words, starts)
    for entity in doc.gold:
        expected = min((m for m in entity if not doc.text.is_pronoun(m)), default=None)
        assert doc.text.anchor(entity) == expected
        assert doc.text.anchor(iter(entity)) == expected
