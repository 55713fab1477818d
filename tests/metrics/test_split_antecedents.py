"""Split antecedents in the coreference metrics (Paun, Yu, Moosavi & Poesio 2022).

The hand-checked cases are the plural test cases of the Universal Anaphora
scorer's documentation (PluralTestCases.README), rebuilt here in memory:
mentions a..h are tokens 0..7, and ``{{ac}fg}`` is an entity of f and g whose
split antecedent is the entities holding a and c. The agreement with the UA
scorer itself, on random documents, is in tests/metrics/test_ua_oracle.py.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.errors import UsageError
from corefscore.evaluation import Evaluation
from corefscore.metrics.split_antecedents import Side, align
from corefscore.model import Corpus, Document, Span
from corefscore.pipeline import evaluate

SIX = "muc,bcub,ceafm,ceafe,blanc,lea"
LETTERS = "abcdefgh"


def side(text: str) -> Document:
    """A document in the README's notation: ``{ab} {cd} {e} {{ac}fg}``."""
    entities: list[tuple[Span, ...]] = []
    plural: list[str | None] = []
    for item in text.split():
        body = item[1:-1]
        split = None
        if body.startswith("{"):
            split, body = body[1 : body.index("}")], body[body.index("}") + 1 :]
        entities.append(tuple((LETTERS.index(c), LETTERS.index(c)) for c in body))
        plural.append(split)
    owner = {span: e for e in entities for span in e}
    splits = tuple(
        frozenset(owner[(LETTERS.index(c), LETTERS.index(c))] for c in p) if p else None
        for p in plural
    )
    return Document("d", tuple(entities), split_antecedents=splits)


def scores(key: str, response: str, **options: Any) -> dict[str, tuple[float, float, float]]:
    result = evaluate(
        Corpus({"d": side(key)}),
        Corpus({"d": side(response)}),
        Evaluation.create(metrics=options.pop("metrics", SIX), **options),
    )
    return {m: (s.recall, s.precision, s.f1) for m, s in result.metrics.items()}


KEY_A = "{ab} {cd} {e} {{ac}fg}"
KEY_B = "{ab} {cd} {e} {{ac}fg} {{ae}h}"
F = Fraction
# (name, key, response, {metric: (recall, precision)}) from PluralTestCases.README.
CASES = [
    ("PA-1 perfect", KEY_A, KEY_A, {m: (1, 1) for m in SIX.split(",")}),
    ("PA-2 equivalent", KEY_A, "{ab} {cd} {e} {{ad}fg}", {m: (1, 1) for m in SIX.split(",")}),
    ("PA-3 equivalent", KEY_A, "{ab} {cd} {e} {{bd}fg}", {m: (1, 1) for m in SIX.split(",")}),
    (
        "PA-4 missing plural",
        KEY_A,
        "{ab} {cd} {e} {fg}",
        {
            "bcub": (F(19, 24), 1),
            "muc": (F(3, 4), 1),
            "ceafm": (F(7, 8), 1),
            "ceafe": (F(19, 20), F(19, 20)),
            "lea": (F(6, 8), 1),
        },
    ),
    (
        "PA-5 extra plural",
        KEY_A,
        "{ab} {cd} {e} {{ace}fg}",
        {
            "bcub": (1, 0.95167),
            "muc": (1, F(11, 12)),
            "ceafm": (0.98611, 0.98611),
            "ceafe": (0.98333, 0.98333),
            "lea": (1, F(19, 20)),
        },
    ),
    (
        "PA-6 partially correct plural",
        KEY_A,
        "{ab} {cd} {e} {{ae}fg}",
        {
            "bcub": (0.88542, 0.92130),
            "muc": (F(7, 8), F(7, 8)),
            "ceafm": (0.94643, 0.94643),
            "ceafe": (0.95833, 0.95833),
            "lea": (F(7, 8), F(11, 12)),
        },
    ),
    (
        "PA-7 missing mention of a member",
        KEY_A,
        "{ab} {c} {e} {{ac}fg}",
        {
            "bcub": (0.72461, 1),
            "muc": (F(5, 8), F(5, 6)),
            "ceafm": (0.85714, 0.97959),
            "ceafe": (0.90278, 0.90278),
            "lea": (F(5, 8), F(16, 21)),
        },
    ),
    (
        "PA-8 merged plurals",
        KEY_A,
        "{ab} {cd} {e} {{ac}f} {{bc}g}",
        {m: (1, 1) for m in SIX.split(",")},
    ),
    (
        "PA-9 merged singular",
        KEY_A,
        "{ab} {cde} {{ac}fg}",
        {
            "bcub": (1, 0.75463),
            "muc": (1, F(11, 15)),
            "ceafm": (0.86111, 0.86111),
            "ceafe": (0.69167, 0.92222),
            "lea": (F(7, 8), F(13, 20)),
        },
    ),
    (
        "PA-10 aligned plurals",
        KEY_A,
        "{ab} {cd} {e} {{ac}f} {{bce}g}",
        {
            "bcub": (0.83333, 0.83333),
            "muc": (F(3, 4), F(3, 4)),
            "ceafm": (F(7, 8), F(7, 9)),
            "ceafe": (F(19, 20), F(19, 25)),
            "lea": (F(6, 8), F(7, 9)),
        },
    ),
    (
        "PA-11 plural of one entity",
        KEY_A,
        "{ab} {cd} {e} {{ab}fg}",
        {
            "bcub": (0.88542, 1),
            "muc": (F(7, 8), 1),
            "ceafm": (0.95833, 0.95833),
            "ceafe": (0.97222, 0.97222),
            "lea": (F(7, 8), 1),
        },
    ),
    ("PB-1 perfect", KEY_B, KEY_B, {m: (1, 1) for m in SIX.split(",")}),
    (
        "PB-2 equivalent",
        KEY_B,
        "{ab} {cd} {e} {{ad}fg} {{be}h}",
        {m: (1, 1) for m in SIX.split(",")},
    ),
    (
        "PB-3 aligned plural",
        KEY_B,
        "{ab} {cd} {e} {{ac}fg} {{ace}h}",
        {
            "bcub": (1, F(928, 1000)),
            "muc": (1, F(14, 15)),
            "ceafm": (0.975, 0.975),
            "ceafe": (F(49, 50), F(49, 50)),
            "lea": (1, F(92, 100)),
        },
    ),
    (
        "PB-4 merged plural",
        KEY_B,
        "{ab} {cd} {e} {{ac}fgh}",
        {
            "bcub": (F(85, 100), F(75, 90)),
            "muc": (F(4, 5), F(4, 5)),
            "ceafm": (F(8, 10), F(8, 9)),
            "ceafe": (0.77143, 0.96429),
            "lea": (F(8, 10), F(7, 9)),
        },
    ),
]


@pytest.mark.parametrize("compat", ["conll", "ua"])
@pytest.mark.parametrize(("name", "key", "response", "expected"), CASES, ids=[c[0] for c in CASES])
def test_plural_test_cases(
    name: str, key: str, response: str, expected: dict[str, Any], compat: str
) -> None:
    got = scores(key, response, compat=compat)
    for metric, (recall, precision) in expected.items():
        exact = isinstance(recall, (int, Fraction)) and isinstance(precision, (int, Fraction))
        tolerance = 1e-12 if exact else 5e-6
        assert got[metric][0] == pytest.approx(float(recall), abs=tolerance), (metric, "recall")
        assert got[metric][1] == pytest.approx(float(precision), abs=tolerance), (metric, "P")


def test_only_split_antecedents_scores_their_alignment() -> None:
    # The README's worked example: split sets {{ab},{cd}} vs {{ab},{e}}.
    got = scores(KEY_A, "{ab} {cd} {e} {{ae}fg}", split_antecedents="only")
    assert got["bcub"][:2] == (pytest.approx(2 / 4), pytest.approx(2 / 3))
    assert got["muc"][:2] == (pytest.approx(1 / 2), pytest.approx(1 / 2))
    assert got["ceafe"][:2] == (pytest.approx(1 / 2), pytest.approx(1 / 2))
    assert got["ceafm"][:2] == (pytest.approx(2 / 4), pytest.approx(2 / 3))
    # PA-10: of two response split antecedents, one is aligned (f1 1) and one not.
    got = scores(KEY_A, "{ab} {cd} {e} {{ac}f} {{bce}g}", split_antecedents="only")
    assert got["bcub"][:2] == (pytest.approx(4 / 4), pytest.approx(4 / 9))


def test_drop_scores_as_if_there_were_none() -> None:
    plain = "{ab} {cd} {e} {fg}"
    dropped = scores(KEY_A, "{ab} {cd} {e} {{ae}fg}", split_antecedents="drop")
    assert dropped == scores(plain, plain)


def test_lea_split_importance_weighs_plural_entities() -> None:
    # PA-4: the key's plural entity {fg + split} resolves 1 of its 3 links and weighs w*3.
    for w in (1.0, 2.0, 0.5):
        recall = scores(KEY_A, "{ab} {cd} {e} {fg}", split_importance=w)["lea"][0]
        assert recall == pytest.approx((2 + 2 + 1 + w * 3 * (1 / 3)) / (2 + 2 + 1 + w * 3))


def test_options_are_checked() -> None:
    with pytest.raises(UsageError, match="split_antecedents='some'"):
        Evaluation.create(split_antecedents="some")
    with pytest.raises(UsageError, match="not with mentions"):
        Evaluation.create(metrics="mentions,muc", split_antecedents="only")
    with pytest.raises(UsageError, match="split_importance"):
        Evaluation.create(split_importance=-1.0)
    with pytest.raises(UsageError, match="CorefUD evaluation leaves split"):
        Evaluation.create(compat="corefud", split_antecedents="drop")


def test_signature_states_a_policy_that_is_not_the_default() -> None:
    assert "anaphora:" not in Evaluation.create().signature()
    assert (
        "|anaphora:split-only|"
        in Evaluation.create(metrics="conll", split_antecedents="only").signature()
    )
    signature = Evaluation.create(split_importance=2.0, layer="discourse_deixis").signature()
    assert "|anaphora:discourse_deixis,split-importance=2|" in signature


def test_alignment_credits_by_metric() -> None:
    key, response = Side.of(side(KEY_A)), Side.of(side("{ab} {cd} {e} {{ae}fg}"))
    found = align("bcub", key, response)
    # Entity 3 on both sides: recall 2/4, precision 2/3, F1 4/7.
    assert found.recall == {3: (3, pytest.approx(0.5))}
    assert found.precision == {3: (3, pytest.approx(2 / 3))}
    assert found.f1 == {3: (3, pytest.approx(4 / 7))}


# ---------------------------------------------------------------------------------------------
# The closed forms against the definitions, pair by pair


def naive_link_scores(key: Document, response: Document) -> dict[str, tuple[float, ...]]:
    """LEA recall numerator/denominator and BLANC's common links by enumerating
    mention pairs, split-antecedent mentions found in their partner's entity
    with their credit (the metric's alignment, from the module)."""
    k, r = Side.of(key), Side.of(response)
    lea_credit = align("lea", k, r).recall
    blanc_c = align("blanc-c", k, r).f1
    blanc_n = align("blanc-n", k, r).f1

    def elements(credits: dict[int, tuple[int, float]]) -> list[tuple[int, int | None, float]]:
        """(key entity, response entity or None, weight) of every key element."""
        out: list[tuple[int, int | None, float]] = []
        for i, entity in enumerate(k.entities):
            out += [(i, r.entity_of.get(s), 1.0) for s in entity]
            if k.splits[i] is not None:
                partner = credits.get(i)
                out.append((i, partner[0], partner[1]) if partner else (i, None, 0.0))
        return out

    lea_num = lea_den = 0.0
    for i, entity in enumerate(k.entities):
        size = k.sizes[i]
        if size == 1:
            j = r.entity_of.get(entity[0])
            lea_num += 1.0 if j is not None and r.sizes[j] == 1 else 0.0
        else:
            mine = [e for e in elements(lea_credit) if e[0] == i]
            links = sum(
                a[2] * b[2] for a, b in combinations(mine, 2) if a[1] is not None and a[1] == b[1]
            )
            lea_num += size * links / (size * (size - 1) / 2)
        lea_den += size
    coref = sum(
        a[2] * b[2]
        for a, b in combinations(elements(blanc_c), 2)
        if a[0] == b[0] and a[1] is not None and a[1] == b[1]
    )
    non = sum(
        a[2] * b[2]
        for a, b in combinations(elements(blanc_n), 2)
        if a[0] != b[0] and a[1] is not None and b[1] is not None and a[1] != b[1]
    )
    return {"lea": (lea_num, lea_den), "blanc": (coref, non)}


@st.composite
def plural_documents(draw: st.DrawFn) -> Document:
    n = draw(st.integers(2, 9))
    labels = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    groups: dict[int, list[Span]] = {}
    for t, label in enumerate(labels):
        if draw(st.booleans()) or t < 2:
            groups.setdefault(label, []).append((t, t))
    entities = [tuple(g) for g in groups.values()]
    splits: list[frozenset[tuple[Span, ...]] | None] = [None] * len(entities)
    for i in range(len(entities)):
        others = [e for j, e in enumerate(entities) if j != i]
        if len(others) >= 1 and draw(st.integers(0, 2)) == 0:
            members = draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
            splits[i] = frozenset(members)
    return Document("d", tuple(entities), split_antecedents=tuple(splits))


@settings(max_examples=300, deadline=None)
@given(plural_documents(), plural_documents())
def test_closed_forms_equal_the_pairwise_definitions(key: Document, response: Document) -> None:
    from corefscore.metrics.split_antecedents import _blanc, _lea

    k, r = Side.of(key), Side.of(response)
    naive = naive_link_scores(key, response)
    assert _lea(k, r, align("lea", k, r).recall, 1.0) == pytest.approx(naive["lea"])
    counts = _blanc(k, r, align("blanc-c", k, r).f1, align("blanc-n", k, r).f1)
    assert (counts[0], counts[4]) == pytest.approx(naive["blanc"])


@settings(max_examples=300, deadline=None)
@given(plural_documents(), plural_documents(), st.data())
def test_ceaf_shares_what_it_derives_only_between_the_same_cells(
    key: Document, response: Document, data: st.DataObject
) -> None:
    # A side keeps CEAF's components by the cells aligned: a credit that adds a
    # cell (here one drawn at random) must get components of its own.
    from corefscore.metrics.split_antecedents import _ceaf

    k, r = Side.of(key), Side.of(response)
    plural = [i for i, split in enumerate(k.splits) if split is not None]
    credit: dict[int, tuple[int, float]] = {}
    if plural:
        partner = data.draw(st.integers(0, len(r.entities) - 1))
        credit[data.draw(st.sampled_from(plural))] = (
            partner,
            data.draw(st.sampled_from([0.5, 1.0])),
        )
    calls = [({}, False), (credit, False), ({}, True), (credit, True), ({}, False)]
    shared = [_ceaf(k, r, c, by_entities=e) for c, e in calls]
    alone = [_ceaf(Side.of(key), Side.of(response), c, by_entities=e) for c, e in calls]
    assert shared == alone


@settings(max_examples=200, deadline=None)
@given(plural_documents())
def test_a_perfect_response_scores_1(doc: Document) -> None:
    for compat in ("conll", "ua"):
        result = evaluate(
            Corpus({"d": doc}), Corpus({"d": doc}), Evaluation.create(metrics=SIX, compat=compat)
        )
        for name, score in result.metrics.items():
            if name == "muc" and all(size == 1 for size in Side.of(doc).sizes):
                continue  # MUC: no link at all, 0/0
            assert score.f1 == pytest.approx(1.0), (compat, name)


@pytest.mark.parametrize(("name", "key", "response", "expected"), CASES, ids=[c[0] for c in CASES])
def test_grouped_assignment_gives_the_same_numbers(
    name: str, key: str, response: str, expected: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Large documents solve the alignment per group of overlapping split antecedents.
    from corefscore.metrics import split_antecedents

    whole = (scores(key, response, split_antecedents="only"), scores(key, response))
    monkeypatch.setattr(split_antecedents, "_WHOLE", 0)
    grouped = (scores(key, response, split_antecedents="only"), scores(key, response))
    assert grouped == whole


def test_a_response_without_split_antecedents_is_warned_about() -> None:
    # E.g. a CorefUD key (SplitAnte) against a CoNLL-2012 response, which cannot hold them.
    plain = "{ab} {cd} {e} {fg}"
    result = evaluate(
        Corpus({"d": side(KEY_A)}), Corpus({"d": side(plain)}), Evaluation.create(metrics="muc")
    )
    assert any("the response none" in w for w in result.warnings)
    assert result.metrics["muc"].recall == pytest.approx(3 / 4)  # PA-4: scored all the same
    result = evaluate(
        Corpus({"d": side(KEY_A)}),
        Corpus({"d": side("{ab} {cd} {e} {{ae}fg}")}),
        Evaluation.create(metrics="muc"),
    )
    assert not any("the response none" in w for w in result.warnings)
