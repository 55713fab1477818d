"""BLANC variants: blanc-luo2014 (Luo, Pradhan, Recasens & Hovy 2014, P14-2005, per document)
and blanc-gold (Recasens & Hovy 2011, gold mentions only).

Mention labels of the papers (a, b, c, ...) become single-token spans numbered in order of
first appearance, key first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction as Fr
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import corefscore
from corefscore import BlancScore, InputError, UsageError
from corefscore.contingency import build_table
from corefscore.metrics import REGISTRY
from corefscore.metrics.blanc import luo2014, statistics_gold
from corefscore.model import Document

Clusters = Sequence[str]


def _docs(key: Clusters, response: Clusters) -> tuple[list[Any], list[Any]]:
    ids: dict[str, int] = {}

    def spans(clusters: Clusters) -> list[list[tuple[int, int]]]:
        return [[(ids.setdefault(m, len(ids)),) * 2 for m in c] for c in clusters]

    return spans(key), spans(response)


def run(key: Clusters, response: Clusters, metric: Any) -> BlancScore:
    k, r = _docs(key, response)
    name = metric if isinstance(metric, str) else metric.name
    score = corefscore.score({"doc": k}, {"doc": r}, metrics=[metric])[name]
    assert isinstance(score, BlancScore)
    return score


def same(x: float, want: Fr | int) -> bool:
    want = Fr(want)
    return x == 0 if want == 0 else math.isclose(x, float(want), rel_tol=1e-12)


def check(score: BlancScore, recall: Fr | int, precision: Fr | int, f: Fr | int) -> None:
    got = (score.recall, score.precision, score.f1)
    assert same(got[0], recall) and same(got[1], precision) and same(got[2], f), (
        f"got R, P, F = {got}, want {recall}, {precision}, {f}"
    )


# --------------------------------------------------------------------------------------------
# Luo et al. 2014, §4.2 "Toy Examples": the numbers printed in the paper


def test_luo2014_example_1() -> None:
    # Key {abc}{d}, response {bc}{de}: Rc = 1/3, Pc = 1/2, Fc = 2/5; Rn = 2/3, Pn = 2/4,
    # Fn = 4/7; BLANC = 17/35.
    score = run(["abc", "d"], ["bc", "de"], "blanc-luo2014")
    check(score.coref, Fr(1, 3), Fr(1, 2), Fr(2, 5))
    check(score.noncoref, Fr(2, 3), Fr(1, 2), Fr(4, 7))
    check(score, (Fr(1, 3) + Fr(2, 3)) / 2, (Fr(1, 2) + Fr(1, 2)) / 2, Fr(17, 35))
    assert (score.coref.recall_num, score.coref.recall_den) == (1, 3)
    assert (score.noncoref.precision_num, score.noncoref.precision_den) == (2, 4)


def test_luo2014_example_2_boundary_case_1() -> None:
    # Key {a}, response {b}: no link of either kind, M_k != M_r, BLANC = 0.
    check(run(["a"], ["b"], "blanc-luo2014"), 0, 0, 0)


def test_luo2014_example_3_boundary_case_2() -> None:
    # Key {a}{b}{c}, response {a}{b}{d}: no coreference link; Nk ∩ Nr = {(ab)},
    # Rn = Pn = 1/3, BLANC = Fn = 1/3.
    score = run(["a", "b", "c"], ["a", "b", "d"], "blanc-luo2014")
    check(score, Fr(1, 3), Fr(1, 3), Fr(1, 3))
    check(score.noncoref, Fr(1, 3), Fr(1, 3), Fr(1, 3))


def test_luo2014_example_4_boundary_case_3() -> None:
    # Key {abc}, response {bc}: no non-coreference link; Rc = 1/3, Pc = 1, BLANC = Fc = 1/2.
    check(run(["abc"], ["bc"], "blanc-luo2014"), Fr(1, 3), 1, Fr(1, 2))


@pytest.mark.parametrize(
    ("key", "response"),
    [(["abc", "d"], ["bc", "de"]), (["a"], ["b"]), (["a", "b", "c"], ["a", "b", "d"])],
)
def test_toy_examples_agree_with_the_reference_blanc(key: Clusters, response: Clusters) -> None:
    # On the paper's own examples the reference scorer's key-side rule gives the same numbers.
    a = run(key, response, "blanc-luo2014")
    b = run(key, response, "blanc")
    assert (a.recall, a.precision, a.f1) == pytest.approx((b.recall, b.precision, b.f1))


# --------------------------------------------------------------------------------------------
# Where the paper's boundary rules and the reference scorer differ (docs/compatibility.md)


def test_single_shared_mention_is_1_by_the_paper_and_0_by_the_reference() -> None:
    # Case (1): C_k = C_r = N_k = N_r = ∅ and M_k = M_r = {a}: BLANC = I(M_k = M_r) = 1.
    # The reference scorer (ComputeBLANCFromCounts) returns 0 when the key has no link.
    check(run(["a"], ["a"], "blanc-luo2014"), 1, 1, 1)
    check(run(["a"], ["a"], "blanc"), 0, 0, 0)


def test_empty_document_on_both_sides_is_1_by_the_paper() -> None:
    # "no more than one mention": with none at all, M_k = M_r = ∅ and I(M_k = M_r) = 1.
    score = corefscore.score({"d": []}, {"d": []}, metrics=["blanc-luo2014", "blanc"])
    check(score["blanc-luo2014"], 1, 1, 1)  # type: ignore[arg-type]
    check(score["blanc"], 0, 0, 0)  # type: ignore[arg-type]


def test_key_of_singletons_response_with_a_link() -> None:
    # Key {a}{b}{c}, response {ab}{c}: |C_k| = 0 < |C_r| = 1, so F_c = 2·0/(0 + 1) = 0 is
    # defined and BLANC = (F_c + F_n)/2 with F_n = 2·2/(3 + 2) = 4/5: 2/5.
    # R = (0 + 2/3)/2 (0/0 recall taken as 0), P = (0/1 + 2/2)/2.
    check(run(["a", "b", "c"], ["ab", "c"], "blanc-luo2014"), Fr(1, 3), Fr(1, 2), Fr(2, 5))
    # The reference uses the non-coreference part only, since the key has no coreference link.
    check(run(["a", "b", "c"], ["ab", "c"], "blanc"), Fr(2, 3), 1, Fr(4, 5))


def test_lea_paper_cr1_key_of_one_entity_response_split_in_two() -> None:
    # Moosavi & Strube 2016, Figure 1 / Table 2: key entity (1) has 8 mentions, cr1 splits it
    # into two entities of 4. |N_k| = 0 < |N_r| = 16, so by Luo et al. F_n = 0 is defined:
    # BLANC = (F_c + 0)/2 with F_c = 2·12/(28 + 12) = 3/5. The reference: F_c = 60.00 (the
    # value printed in the LEA paper's Table 3, computed with the reference scorer).
    key, cr1 = ["abcdefgh"], ["abcd", "efgh"]
    check(run(key, cr1, "blanc-luo2014"), Fr(12, 28) / 2, Fr(1, 2), Fr(3, 10))
    check(run(key, cr1, "blanc"), Fr(12, 28), 1, Fr(3, 5))


# --------------------------------------------------------------------------------------------
# Aggregation over documents


def _corpus(*pairs: tuple[Clusters, Clusters]) -> tuple[dict[str, Any], dict[str, Any]]:
    key: dict[str, Any] = {}
    response: dict[str, Any] = {}
    for i, (k, r) in enumerate(pairs):
        key[f"d{i}"], response[f"d{i}"] = _docs(k, r)
    return key, response


def test_macro_average_over_documents() -> None:
    # Example 1 (17/35; R = P = 1/2) and example 2 (0): the mean of the per-document scores.
    key, response = _corpus((["abc", "d"], ["bc", "de"]), (["a"], ["b"]))
    score = corefscore.score(key, response, metrics=["blanc-luo2014"])["blanc-luo2014"]
    check(score, Fr(1, 4), Fr(1, 4), Fr(17, 70))  # type: ignore[arg-type]
    assert (score.recall_num, score.recall_den) == (0.5, 2)
    assert (score.precision_num, score.precision_den) == (0.5, 2)
    # The coreference/non-coreference parts are the corpus link counts.
    assert isinstance(score, BlancScore)
    assert (score.coref.recall_num, score.coref.recall_den) == (1, 3)


def test_micro_variant_pools_links_then_applies_the_paper() -> None:
    micro = luo2014(aggregate="micro")
    assert micro.name == "blanc-luo2014-micro" and luo2014() is REGISTRY["blanc-luo2014"]
    key, response = _corpus((["abc", "d"], ["bc", "de"]), (["a"], ["b"]))
    pooled = corefscore.score(key, response, metrics=[micro])[micro.name]
    check(pooled, Fr(1, 2), Fr(1, 2), Fr(17, 35))  # type: ignore[arg-type]
    # Two one-mention documents: macro (1 + 0)/2; pooled, M_k != M_r for the corpus: 0.
    key, response = _corpus((["a"], ["a"]), (["b"], ["c"]))
    both = corefscore.score(key, response, metrics=["blanc-luo2014", micro])
    check(both["blanc-luo2014"], Fr(1, 2), Fr(1, 2), Fr(1, 2))  # type: ignore[arg-type]
    check(both[micro.name], 0, 0, 0)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="aggregate"):
        luo2014(aggregate="weighted")


# --------------------------------------------------------------------------------------------
# blanc-gold


def test_gold_refuses_system_mentions_naming_the_document() -> None:
    with pytest.raises(InputError, match=r"'doc7'.*1 key mention\(s\).*1 response mention"):
        corefscore.score({"doc7": [[(0, 0), (1, 1)]]}, {"doc7": [[(0, 0), (2, 2)]]},
                         metrics=["blanc-gold"])  # fmt: skip
    key = Document("doc7", (((0, 0), (1, 1)),), source="key.conll")
    response = Document("doc7", (((0, 0),),), source="response.conll")
    with pytest.raises(InputError) as error:
        statistics_gold(build_table(key, response))
    assert error.value.path == "key.conll" and "doc7" in str(error.value)


def test_gold_equals_blanc_on_gold_mentions() -> None:
    # Luo 2005 Fig. 1 partitions (gold mentions): BLANC 175/208, 541/871, 7/29, 15/37
    # (hand-derived, shared/data/paper-vectors.json "luo2005_fig1_*", metric blanc).
    key = ["12345", "67", "89ABC"]
    for response, f in [
        (["12345", "6789ABC"], Fr(175, 208)),
        (["1234589ABC", "67"], Fr(541, 871)),
        (["123456789ABC"], Fr(7, 29)),
        (list("123456789ABC"), Fr(15, 37)),
    ]:
        for name in ("blanc-gold", "blanc", "blanc-luo2014"):
            assert same(run(key, response, name).f1, f), (response, name)


def test_gold_boundary_cases() -> None:
    # One shared mention: identical partitions, 1 (the reference scorer: 0).
    check(run(["a"], ["a"], "blanc-gold"), 1, 1, 1)
    # Key all singletons: non-coreference links only (Rn = 2/3, Pn = 2/2).
    check(run(["a", "b", "c"], ["ab", "c"], "blanc-gold"), Fr(2, 3), 1, Fr(4, 5))
    # Key one entity: coreference links only (Rc = 1/3, Pc = 1/1).
    check(run(["abc"], ["ab", "c"], "blanc-gold"), Fr(1, 3), 1, Fr(1, 2))
    # Both sides all singletons / one entity: 1.
    check(run(["a", "b"], ["a", "b"], "blanc-gold"), 1, 1, 1)
    check(run(["ab"], ["ab"], "blanc-gold"), 1, 1, 1)
    # An empty document carries no link and no mention: 0.
    empty = corefscore.score({"d": []}, {"d": []}, metrics=["blanc-gold"])["blanc-gold"]
    check(empty, 0, 0, 0)  # type: ignore[arg-type]


def test_gold_is_not_symmetric() -> None:
    # The boundary rule looks at the key: swapping key {a}{b}{c} and response {ab}{c} does
    # not swap recall and precision. Key {ab}{c}: Rc = 0/1, Pc = 0/0 -> 0, Rn = 2/2,
    # Pn = 2/3, F = (0 + 4/5)/2.
    check(run(["ab", "c"], ["a", "b", "c"], "blanc-gold"), Fr(1, 2), Fr(1, 3), Fr(2, 5))
    assert not REGISTRY["blanc-gold"].symmetric and not REGISTRY["blanc"].symmetric
    assert REGISTRY["blanc-luo2014"].symmetric


def test_definitions() -> None:
    for name in ("blanc-luo2014", "blanc-gold"):
        metric = REGISTRY[name]
        assert metric.summary and metric.citation
    assert "P14-2005" in REGISTRY["blanc-luo2014"].citation
    assert "Recasens & Hovy 2011" in REGISTRY["blanc-gold"].citation


# --------------------------------------------------------------------------------------------
# Properties


@st.composite
def partitions(draw: st.DrawFn, universe: int = 8) -> list[list[tuple[int, int]]]:
    """A partition of a subset of single-token mentions 0..universe-1."""
    mentions = draw(st.lists(st.integers(0, universe - 1), unique=True, max_size=universe))
    labels = draw(st.lists(st.integers(0, 3), min_size=len(mentions), max_size=len(mentions)))
    groups: dict[int, list[tuple[int, int]]] = {}
    for m, label in zip(mentions, labels):
        groups.setdefault(label, []).append((m, m))
    return list(groups.values())


def _regroup(draw: st.DrawFn, doc: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    mentions = [m for e in doc for m in e]
    labels = draw(st.lists(st.integers(0, 3), min_size=len(mentions), max_size=len(mentions)))
    groups: dict[int, list[tuple[int, int]]] = {}
    for m, label in zip(mentions, labels):
        groups.setdefault(label, []).append(m)
    return list(groups.values())


def _score(key: Any, response: Any, name: str) -> BlancScore:
    score = corefscore.score({"d": key}, {"d": response}, metrics=[name])[name]
    assert isinstance(score, BlancScore)
    return score


def _links(doc: list[list[tuple[int, int]]]) -> tuple[int, int]:
    n = sum(len(e) for e in doc)
    coref = sum(len(e) * (len(e) - 1) // 2 for e in doc)
    return coref, n * (n - 1) // 2 - coref


@settings(max_examples=150, deadline=None)
@given(partitions(), partitions())
def test_luo2014_bounds_and_symmetry(key: Any, response: Any) -> None:
    forward = _score(key, response, "blanc-luo2014")
    backward = _score(response, key, "blanc-luo2014")
    for value in (forward.recall, forward.precision, forward.f1):
        assert 0 <= value <= 1
    assert backward.recall == pytest.approx(forward.precision, abs=1e-12)
    assert backward.precision == pytest.approx(forward.recall, abs=1e-12)
    assert backward.f1 == pytest.approx(forward.f1, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(partitions())
def test_identical_partitions_score_1(key: Any) -> None:
    # Any document, even with one mention or none (Luo et al. case 1).
    for name in ("blanc-luo2014", "blanc-gold"):
        score = _score(key, key, name)
        if name == "blanc-gold" and not key:
            continue  # no mention: 0 by definition (tested above)
        assert (score.recall, score.precision, score.f1) == pytest.approx((1, 1, 1)), name


@settings(max_examples=150, deadline=None)
@given(partitions(), partitions())
def test_luo2014_equals_reference_when_the_key_has_both_kinds_of_links(
    key: Any, response: Any
) -> None:
    # Then no boundary rule applies on either definition.
    coref, non = _links(key)
    assume(coref and non)
    a, b = _score(key, response, "blanc-luo2014"), _score(key, response, "blanc")
    assert (a.recall, a.precision, a.f1) == pytest.approx((b.recall, b.precision, b.f1))


@st.composite
def gold_pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    key = draw(partitions())
    return key, _regroup(draw, key)


@settings(max_examples=150, deadline=None)
@given(gold_pairs())
def test_gold_bounds_and_fallback_of_luo2014(pair: tuple[Any, Any]) -> None:
    key, response = pair
    gold = _score(key, response, "blanc-gold")
    for value in (gold.recall, gold.precision, gold.f1):
        assert 0 <= value <= 1
    # "If T_k = T_r, then BLANC = BLANC(g)" (Luo et al. 2014, §4) outside boundary cases.
    coref, non = _links(key)
    if coref and non:
        luo = _score(key, response, "blanc-luo2014")
        assert (gold.recall, gold.precision, gold.f1) == pytest.approx(
            (luo.recall, luo.precision, luo.f1)
        )
