"""Evaluation regimes (Stoyanov et al. 2009): what each option keeps, and the numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore import CorefScorer, UsageError
from corefscore.model import Document
from corefscore.regimes import EvaluationSetup, drop_singletons, maximal_spans, regime_setups

# Key: A = {(0,1), (5,5), (9,9)}, B = {(3,3)} (a singleton), C = {(12,12), (14,14)}.
# Response: X = {(0,1), (5,5), (7,7)}, Y = {(3,3), (9,9)}, Z = {(20,20)}.
# (7,7) and (20,20) are spurious; (12,12) and (14,14) are missed.
KEY = {"d": [[(0, 1), (5, 5), (9, 9)], [(3, 3)], [(12, 12), (14, 14)]]}
RESPONSE = {"d": [[(0, 1), (5, 5), (7, 7)], [(3, 3), (9, 9)], [(20, 20)]]}


def counts(result: corefscore.ScoreResult, metric: str) -> tuple[Fraction, ...]:
    m = result[metric]
    values = (m.recall_num, m.recall_den, m.precision_num, m.precision_den)
    return tuple(Fraction(v).limit_denominator(1000) for v in values)


@pytest.mark.parametrize(
    ("options", "muc", "bcub"),
    [
        # MUC: A is split over X and Y (1 of 2 links), C is missed; X gets 1 of 2 links.
        # B3 recall: (0,1), (5,5) 2/3 each, (9,9) 1/3, (3,3) 1, missed 0.
        ({}, (1, 3, 1, 3), (Fraction(8, 3), 6, Fraction(7, 3), 6)),
        # Perfect CEs: (7,7) and (20,20) go; X = {(0,1), (5,5)} is all right.
        ({"gold_mentions": True}, (1, 3, 1, 2), (Fraction(8, 3), 6, 3, 4)),
        # Anaphoric CEs: B goes from the key, (3,3) from the response with the spurious ones.
        ({"anaphoric_only": True}, (1, 3, 1, 1), (Fraction(5, 3), 5, 3, 3)),
        # Singletons dropped: B and Z go; (3,3) in Y is now spurious.
        ({"singletons": "drop"}, (1, 3, 1, 3), (Fraction(5, 3), 5, Fraction(11, 6), 5)),
        (
            {"key_singletons": "drop"},
            (1, 3, 1, 3),
            (Fraction(5, 3), 5, Fraction(11, 6), 6),
        ),
    ],
)
def test_regime_numbers_by_hand(
    options: dict[str, object], muc: tuple[int, ...], bcub: tuple[Fraction, ...]
) -> None:
    result = corefscore.score(KEY, RESPONSE, metrics="muc,bcub", **options)  # type: ignore[arg-type]
    assert counts(result, "muc") == tuple(Fraction(x) for x in muc)
    assert counts(result, "bcub") == tuple(Fraction(x) for x in bcub)


def test_signature_and_options_state_the_regime() -> None:
    result = corefscore.score(KEY, RESPONSE, metrics="muc", gold_mentions=True, anaphoric_only=True)
    assert "|mentions:gold+anaphoric|" in result.signature
    assert result.options["gold_mentions"] and result.options["anaphoric_only"]
    result = corefscore.score(KEY, RESPONSE, metrics="muc", response_singletons="drop")
    assert "|singletons:key-keep+response-drop|" in result.signature
    result = corefscore.score(KEY, RESPONSE, metrics="muc", remove_nested=True)
    assert "|nested:removed|" in result.signature
    plain = corefscore.score(KEY, RESPONSE, metrics="muc").signature
    assert "|match:exact|singletons:keep|mentions:system|nested:kept|" in plain


def test_maximal_spans_keeps_outermost_spans_only() -> None:
    doc = Document("d", (((0, 5), (1, 2), (7, 7)), ((0, 2), (6, 9)), ((2, 2), (8, 9))))
    kept = maximal_spans(doc)
    # (1,2), (0,2), (2,2) lie inside (0,5); (7,7) and (8,9) inside (6,9).
    assert kept.entities == (((0, 5),), ((6, 9),))
    assert kept.labels == ("0", "1")
    # Crossing spans are both maximal.
    crossing = Document("d", (((0, 2), (1, 3)),))
    assert maximal_spans(crossing) is crossing


def test_nested_removal_runs_before_singletons_are_dropped() -> None:
    # (1,1) is nested in (0,2); once removed, entity {(1,1)... } would still have (5,5).
    key = {"d": [[(0, 2), (6, 6)], [(1, 1), (5, 5)]]}
    response = {"d": [[(0, 2), (6, 6)], [(1, 1), (5, 5)]]}
    result = corefscore.score(
        key, response, metrics="mentions", remove_nested=True, singletons="drop"
    )
    # (1,1) goes first, then the entity {(5,5)} is a singleton and goes too.
    assert counts(result, "mentions") == (2, 2, 2, 2)


def test_drop_singletons_keeps_facts_aligned() -> None:
    doc = Document(
        "d",
        (((0, 0),), ((1, 1), (2, 2))),
        labels=("a", "b"),
        heads=((0,), (1, 2)),
        entity_types=("PER", "ORG"),
    )
    kept = drop_singletons(doc)
    assert kept.entities == (((1, 1), (2, 2)),)
    assert kept.labels == ("b",) and kept.heads == ((1, 2),) and kept.entity_types == ("ORG",)


def test_bad_regime_options_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="unknown singletons policy 'some'"):
        corefscore.score(KEY, RESPONSE, singletons="some")
    with pytest.raises(UsageError, match="unknown response singletons policy"):
        EvaluationSetup(response_singletons="maybe")
    with pytest.raises(UsageError, match="unknown matching method 'fuzzy'"):
        corefscore.score(KEY, RESPONSE, matching="fuzzy")


def test_scorers_with_different_regimes_do_not_merge() -> None:
    a = CorefScorer(metrics="muc", gold_mentions=True)
    b = CorefScorer(metrics="muc")
    with pytest.raises(UsageError, match="regime"):
        a.merge(b)


def test_regime_presets_build_on_the_given_setup() -> None:
    setups = regime_setups(EvaluationSetup(matching="overlap"))
    assert list(setups) == [
        "as-given",
        "singletons-dropped",
        "gold-mentions",
        "anaphoric-only",
        "nested-removed",
    ]
    assert all(s.matching == "overlap" for s in setups.values())
    assert setups["as-given"] == EvaluationSetup(matching="overlap")


spans = st.tuples(st.integers(0, 15), st.integers(0, 3)).map(lambda t: (t[0], t[0] + t[1]))
clusters = st.lists(st.lists(spans, min_size=1, max_size=4), max_size=5)


def _dedupe(cs: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    seen: set[tuple[int, int]] = set()
    out = []
    for c in cs:
        kept = [s for s in dict.fromkeys(c) if s not in seen]
        seen.update(kept)
        if kept:
            out.append(kept)
    return out


@settings(max_examples=150, deadline=None)
@given(clusters, clusters)
def test_regimes_only_ever_remove_mentions(
    key: list[list[tuple[int, int]]], response: list[list[tuple[int, int]]]
) -> None:
    key, response = _dedupe(key), _dedupe(response)
    base = corefscore.score({"d": key}, {"d": response}, metrics="mentions")["mentions"]
    for options in (
        {"gold_mentions": True},
        {"anaphoric_only": True},
        {"singletons": "drop"},
        {"remove_nested": True},
    ):
        m = corefscore.score({"d": key}, {"d": response}, metrics="mentions", **options)["mentions"]
        assert m.recall_den <= base.recall_den and m.precision_den <= base.precision_den
        if options.get("gold_mentions"):
            # Every response mention left has a twin.
            assert m.precision_num == m.precision_den
        for name in ("recall", "precision", "f1"):
            assert 0 <= getattr(m, name) <= 1


def test_an_evaluation_made_from_options_is_made_once_and_stays_right() -> None:
    from corefscore.evaluation import Evaluation

    first = Evaluation.of(None, {"metrics": ["muc", "bcub"], "singletons": "drop"})
    again = Evaluation.of(None, {"singletons": "drop", "metrics": ["muc", "bcub"]})
    assert again is first
    assert Evaluation.of(None, {"metrics": ["muc"]}) is not first
    # The cached parts of an evaluation are those of a fresh one.
    fresh = Evaluation.create(metrics=["muc", "bcub"], singletons="drop")
    assert fresh == first and fresh is not first
    assert first.signature() == fresh.signature() == fresh._make_signature(None, None)
    record = first.to_dict()
    record["metrics"].append("changed")
    record["extra"] = 1
    assert first.to_dict() == fresh.to_dict() == {**fresh._record()}
    assert "extra" not in first.to_dict() and "changed" not in first.to_dict()["metrics"]
    # Options that cannot be hashed still make an evaluation (afresh each time).
    custom = {"metrics": [corefscore.metrics.REGISTRY["muc"]], "singletons": "drop"}
    assert Evaluation.of(None, custom).metric_names == ("muc",)
    # A bad option is refused each time, never remembered.
    for _ in range(2):
        with pytest.raises(UsageError):
            Evaluation.of(None, {"matching": "nope"})
    result = corefscore.score(KEY, RESPONSE, metrics=["muc", "bcub"], singletons="drop")
    assert result.signature == fresh.signature()
