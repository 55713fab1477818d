"""corefscore.integrations.e2e.CorefEvaluator: e2e-coref's interface, the reference numbers."""

from __future__ import annotations

import math

import pytest

import corefscore
from corefscore.integrations.e2e import CorefEvaluator, Evaluator, f1

from ..conftest import shared_path
from .conftest import CASES, REFERENCE_TESTS, Clusters, document_pairs


def _maps(clusters: Clusters) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """mention -> its cluster tuple, as e2e-coref's callers build mention_to_gold."""
    return {mention: cluster for cluster in clusters for mention in cluster}


def _update(evaluator: CorefEvaluator, predicted: Clusters, gold: Clusters) -> None:
    evaluator.update(predicted, gold, _maps(predicted), _maps(gold))


# Document 1: a gold singleton {(5,5)} that the prediction merges into {(0,0), (2,3)}.
# Document 2: a spurious predicted singleton {(5,5)}.
GOLD: list[Clusters] = [[((0, 0), (2, 3)), ((5, 5),)], [((0, 1), (3, 3))]]
PREDICTED: list[Clusters] = [[((0, 0), (2, 3), (5, 5))], [((0, 1), (3, 3)), ((5, 5),)]]


def test_singletons_count_as_in_the_reference_scorer() -> None:
    evaluator = CorefEvaluator()
    for predicted, gold in zip(PREDICTED, GOLD):
        _update(evaluator, predicted, gold)
    muc, bcub, ceafe = evaluator.evaluators
    assert (muc.metric, bcub.metric, ceafe.metric) == ("muc", "bcub", "ceafe")
    # Reference scorer, by hand. MUC: doc 1 R 1/1, P 1/2; doc 2 R 1/1, P 1/1.
    assert muc.get_counts() == (2, 3, 2, 2)  # (p_num, p_den, r_num, r_den)
    assert muc.get_prf() == (2 / 3, 1.0, 0.8)
    # B3, recall: doc 1 (2*2/2 + 1*1/1) / 3, doc 2 (2*2/2) / 2 -> 5/5; precision:
    # doc 1 (2*2/3 + 1*1/3) / 3, doc 2 (2*2/2 + 0) / 3 -> (5/3 + 2) / 6 = 11/18.
    assert (bcub.r_num, bcub.r_den, bcub.p_den) == (5, 5, 6)
    assert bcub.p_num == pytest.approx(11 / 3, rel=1e-15)
    assert bcub.get_f1() == pytest.approx(22 / 29, rel=1e-15)
    # CEAFe: doc 1 phi4({a,b}, {a,b,c}) = 2*2/(2+3) = 0.8 over 2 gold, 1 predicted entities;
    # doc 2 phi4 = 1 over 1 gold, 2 predicted entities -> 1.8/3 both ways.
    assert ceafe.get_counts() == (1.8, 3, 1.8, 3)
    assert ceafe.get_prf() == pytest.approx((0.6, 0.6, 0.6), rel=1e-15)
    # The means, in the original's (P, R, F) order; F is the CoNLL F1 as a fraction.
    expected = corefscore.score(
        {str(i): list(g) for i, g in enumerate(GOLD)},
        {str(i): list(p) for i, p in enumerate(PREDICTED)},
        metrics="conll",
    )
    assert evaluator.get_f1() == expected.conll
    assert evaluator.get_f1() == pytest.approx((0.8 + 22 / 29 + 0.6) / 3, rel=1e-15)
    assert evaluator.get_prf() == (
        evaluator.get_precision(),
        evaluator.get_recall(),
        evaluator.get_f1(),
    )
    assert evaluator.get_recall() == pytest.approx((1 + 1 + 0.6) / 3, rel=1e-15)
    assert evaluator.get_precision() == pytest.approx((2 / 3 + 11 / 18 + 0.6) / 3, rel=1e-15)


def test_where_the_original_e2e_evaluator_differs() -> None:
    """The original CorefEvaluator (kentonl/e2e-coref metrics.py) on the same documents.

    Worked by hand from its code (and checked with the research notes' Python 3 port,
    tools/e2e_vs_ref.py):
    * MUC, the same: P 2/3, R 2/2, F1 0.8.
    * B3 skips clusters of one mention on both sides and gives no credit through a
      gold singleton: precision doc 1 (2*2 / 3) over 3 (the (5,5) credit is dropped),
      doc 2 (2*2 / 2) over 2 (the predicted singleton is skipped) -> (4/3 + 2) / 5 = 2/3;
      recall doc 1 (2*2/2) over 2 (gold singleton skipped), doc 2 2/2 -> 4/4 = 1;
      F1 0.8 (the reference: P 11/18, R 1, F1 22/29 = 0.7586).
    * CEAFe drops predicted singletons only: similarity 0.8 + 1 = 1.8 over 2 predicted
      entities (the reference: 3) and 3 gold ones -> P 0.9, R 0.6, F1 0.72 (the
      reference: 0.6, 0.6, 0.6).
    * CoNLL F1 (0.8 + 0.8 + 0.72) / 3 = 0.77333 (the reference: 0.71954).
    """
    original = {"muc": (2 / 3, 1.0, 0.8), "bcub": (2 / 3, 1.0, 0.8), "ceafe": (0.9, 0.6, 0.72)}
    original_conll = (0.8 + 0.8 + 0.72) / 3
    evaluator = CorefEvaluator()
    for predicted, gold in zip(PREDICTED, GOLD):
        _update(evaluator, predicted, gold)
    ours = {e.metric: e.get_prf() for e in evaluator.evaluators}
    assert ours["muc"] == pytest.approx(original["muc"], rel=1e-15)
    assert ours["bcub"] != pytest.approx(original["bcub"])
    assert ours["ceafe"] != pytest.approx(original["ceafe"])
    assert evaluator.get_f1() == pytest.approx(0.7195402298850575, rel=1e-15)
    assert abs(evaluator.get_f1() - original_conll) > 0.05


def test_without_singletons_the_numbers_are_the_originals() -> None:
    """CoNLL-2012-shaped data (no singletons, no repeated spans): both evaluators agree.

    Gold G1 = {a, b, d}, G2 = {c, e}; predicted P1 = {a, b}, P2 = {c, d, x} (x twinless).
    The values below are worked by hand; the original's code gives the same.
    """
    a, b, c, d, e, x = (0, 0), (2, 3), (5, 5), (7, 7), (9, 10), (12, 12)
    gold = [(a, b, d), (c, e)]
    predicted = [(a, b), (c, d, x)]
    evaluator = CorefEvaluator()
    _update(evaluator, predicted, gold)
    # MUC precision: P1 keeps its 1 link; P2's 3 mentions lie in 3 parts -> 0 of 2: 1/3.
    # Recall: G1 is split in 2 parts -> 1 of 2 links; G2 = {c} + missed e -> 0 of 1: 1/3.
    assert evaluator.evaluators[0].get_counts() == (1, 3, 1, 3)
    # B3 precision: P1 2*2/2 = 2, P2 (1 + 1)/3 -> (2 + 2/3) / 5; recall: G1 (2*2 + 1)/3,
    # G2 1/2 -> (5/3 + 1/2) / 5.
    counts = evaluator.evaluators[1].get_counts()
    assert counts == pytest.approx((2 + 2 / 3, 5, 5 / 3 + 1 / 2, 5), rel=1e-15)
    # CEAFe: phi4(G1, P1) = 2*2/5 = 0.8 and phi4(G2, P2) = 2*1/5 = 0.4 -> 1.2 of 2 and 2.
    assert evaluator.evaluators[2].get_counts() == pytest.approx((1.2, 2, 1.2, 2), rel=1e-15)


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {REFERENCE_TESTS}")
@pytest.mark.parametrize("case", sorted(CASES))
def test_reference_cases(case: str) -> None:
    folder = shared_path("data", "reference-tests")
    spec = CASES[case]
    evaluator = CorefEvaluator()
    for _, gold, predicted in document_pairs(folder / spec["key"], folder / spec["response"]):
        _update(evaluator, predicted, gold)
    for e in evaluator.evaluators:
        ref = spec["reference"][e.metric]
        want = tuple(float(ref[k]) for k in ("pn", "pd", "rn", "rd"))
        assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(e.get_counts(), want)), (
            e.metric,
            e.get_counts(),
            want,
        )
        # The reference's printed percentages, truncated to 2 decimals.
        printed = [math.trunc(x * 10000) / 100 for x in (e.get_recall(), e.get_precision())]
        assert printed == [float(ref["rp"]), float(ref["pp"])], e.metric
    result = corefscore.score_files(
        folder / spec["key"], folder / spec["response"], metrics="conll"
    )
    assert evaluator.get_f1() == result.conll
    assert evaluator.get_recall() == sum(result[m].recall for m in ("muc", "bcub", "ceafe")) / 3


def test_evaluator_alone_beta_and_original_names() -> None:
    def muc() -> None:  # stands for e2e-coref's metrics.muc, passed as Evaluator(muc)
        ...

    by_function, by_name = Evaluator(muc), Evaluator("muc")
    b_cubed = Evaluator("b_cubed", beta=2)
    for predicted, gold in zip(PREDICTED, GOLD):
        by_function.update(predicted, gold, _maps(predicted), _maps(gold))
        by_name.update(predicted, gold)
        b_cubed.update(predicted, gold)
    assert by_function.metric == "muc" and b_cubed.metric == "bcub"
    assert by_function.get_prf() == by_name.get_prf() == (2 / 3, 1.0, 0.8)
    p, r = 11 / 18, 1.0
    assert b_cubed.get_f1() == pytest.approx(5 * p * r / (4 * p + r), rel=1e-15)
    assert f1(1, 2, 1, 1) == pytest.approx(2 / 3)
    assert f1(0, 0, 0, 0) == 0
    empty = CorefEvaluator()
    assert empty.get_prf() == (0.0, 0.0, 0.0)
    with pytest.raises(corefscore.UsageError, match="metrics= is not an option"):
        CorefEvaluator(metrics="muc")


def test_repeated_predicted_spans_follow_the_duplicates_policy() -> None:
    evaluator = CorefEvaluator()
    gold = [((0, 0), (2, 2))]
    predicted = [((0, 0), (2, 2)), ((2, 2), (4, 4))]
    _update(evaluator, predicted, gold)
    assert evaluator.warnings and "repeated" in evaluator.warnings[0]
    # The later (2, 2) is dropped: {a, c} -> P MUC 1/1 ({c} alone has no link).
    assert evaluator.evaluators[0].get_counts() == (1, 1, 1, 1)
