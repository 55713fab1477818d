"""corefscore.integrations.torchmetrics.CorefMetric: the numbers of CorefScorer, bit for bit."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import corefscore
from corefscore import CorefScorer, UsageError

from ..conftest import shared_path
from .conftest import CASES, REFERENCE_TESTS, document_pairs

torch = pytest.importorskip(
    "torch", reason="torch is not installed (it comes with: pip install 'corefscore[torch]')"
)
torchmetrics = pytest.importorskip(
    "torchmetrics",
    reason="torchmetrics is not installed (it comes with: pip install 'corefscore[torch]')",
)

from corefscore.integrations.torchmetrics import CorefMetric  # noqa: E402

GOLD = [
    [[(0, 0), (2, 3)], [(5, 5)]],
    [[(0, 1), (4, 4), (6, 6)]],
]
PREDICTED = [
    [[(0, 0), (2, 3), (5, 5)]],
    [[(0, 1), (4, 4)], [(6, 6), (8, 8)]],
]


def _scorer_numbers(scorer: CorefScorer) -> dict[str, float]:
    result = scorer.compute()
    out: dict[str, float] = {}
    for name, score in result.metrics.items():
        out[f"{name}/recall"] = score.recall
        out[f"{name}/precision"] = score.precision
        out[f"{name}/f1"] = score.f1
    if result.conll is not None:
        out["conll"] = result.conll
    return out


def test_class_contract() -> None:
    metric = CorefMetric()
    assert isinstance(metric, torchmetrics.Metric)
    assert CorefMetric.full_state_update is False
    assert CorefMetric.higher_is_better is True
    assert CorefMetric.is_differentiable is False
    # One float64 tensor per statistic, summed across processes.
    assert sorted(metric._defaults) == sorted(
        f"{name}_{i}"
        for name, width in (
            ("mentions", 4),
            ("muc", 4),
            ("bcub", 4),
            ("ceafm", 4),
            ("ceafe", 4),
            ("blanc", 8),
            ("lea", 4),
        )
        for i in range(width)
    )
    for name in metric._defaults:
        assert getattr(metric, name).dtype == torch.float64
        assert metric._reductions[name] is torchmetrics.utilities.data.dim_zero_sum


def test_small_batch_real_numbers() -> None:
    metric = CorefMetric(metrics="conll")
    metric.update(PREDICTED, GOLD)
    got = metric.compute()
    # d1: MUC 1 of 1 key link found, 1 of 2 response links right; d2: 1 of 2, 1 of 2.
    assert metric.statistics["muc"] == (2, 3, 2, 4)
    assert got["muc/recall"] == 2 / 3
    assert got["muc/precision"] == 0.5
    # B3 recall: d1 (2*2/2 + 1) / 3 = 3/3... summed (3 + 5/3) / 6 = 0.777...
    assert metric.statistics["bcub"][:2] == (4.666666666666666, 6)
    # CEAFe: d1 phi4 = 2*2/(2+3) = 0.8; d2 max(2*2/(3+2), 2*1/(3+2)) = 0.8.
    assert metric.statistics["ceafe"] == (1.6, 3, 1.6, 3)
    assert list(got) == [
        "muc/recall",
        "muc/precision",
        "muc/f1",
        "bcub/recall",
        "bcub/precision",
        "bcub/f1",
        "ceafe/recall",
        "ceafe/precision",
        "ceafe/f1",
        "conll",
    ]
    assert got["conll"] == pytest.approx(0.5930452335076613, abs=0)
    scorer = CorefScorer(metrics="conll")
    for gold, predicted in zip(GOLD, PREDICTED):
        scorer.update(gold, predicted)
    assert got == _scorer_numbers(scorer)
    assert all(type(v) is float for v in got.values())


def test_one_document_or_a_batch() -> None:
    one_by_one, batched = CorefMetric(), CorefMetric()
    for gold, predicted in zip(GOLD, PREDICTED):
        one_by_one.update(predicted, gold)
    batched.update(PREDICTED, GOLD)
    assert one_by_one.compute() == batched.compute()
    # Arrays and tensors as clusters.
    tensors = CorefMetric()
    tensors.update(
        [
            [torch.tensor([[0, 0], [2, 3], [5, 5]])],
            torch.tensor([[[0, 1], [4, 4]], [[6, 6], [8, 8]]]),
        ],
        [[np.array([[0, 0], [2, 3]]), np.array([[5, 5]])], [np.array([[0, 1], [4, 4], [6, 6]])]],
    )
    assert tensors.compute() == batched.compute()
    # Empty predictions: one document with nothing found.
    empty = CorefMetric(metrics="muc")
    empty.update([], GOLD[1])
    assert empty.statistics["muc"] == (0, 2, 0, 0)


def test_shapes_must_agree() -> None:
    metric = CorefMetric()
    with pytest.raises(UsageError, match="same shape"):
        metric.update(PREDICTED, GOLD[0])
    with pytest.raises(UsageError, match="preds has 1 documents and target 2"):
        metric.update(PREDICTED[:1], GOLD)
    with pytest.raises(UsageError, match="one document"):
        metric.update([[[[[0, 1]]]]], [[[[[0, 1]]]]])
    with pytest.raises(corefscore.InputError, match=r"invalid span \(3, 2\)"):
        metric.update([[(3, 2)]], [[(0, 0)]])


def test_options_and_torchmetrics_keywords() -> None:
    metric = CorefMetric(["muc", "bcub"], singletons="drop", compute_with_cache=False)
    assert metric.evaluation.regime.key_singletons == "drop"
    assert metric.compute_with_cache is False
    metric.update(PREDICTED, GOLD)
    scorer = CorefScorer(metrics=["muc", "bcub"], singletons="drop")
    for gold, predicted in zip(GOLD, PREDICTED):
        scorer.update(gold, predicted)
    assert metric.compute() == _scorer_numbers(scorer)
    with pytest.raises(ValueError, match="Unexpected keyword"):
        CorefMetric(no_such_option=1)
    with pytest.raises(UsageError, match="unknown metric"):
        CorefMetric("nope")
    with pytest.raises(UsageError, match="cross-document"):
        CorefMetric(cross_document=True)


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {REFERENCE_TESTS}")
def test_reference_cases_bit_for_bit() -> None:
    folder = shared_path("data", "reference-tests")
    for case, spec in sorted(CASES.items()):
        metric, scorer = CorefMetric(), CorefScorer()
        for doc_id, gold, predicted in document_pairs(
            folder / spec["key"], folder / spec["response"]
        ):
            metric.update(predicted, gold)
            scorer.update(gold, predicted, doc_id=doc_id)
        assert metric.compute() == _scorer_numbers(scorer), case
        assert metric.statistics == scorer.statistics, case
        # And those are the reference scorer's counts.
        for name in ("muc", "bcub", "ceafe", "lea"):
            if name not in spec["reference"]:  # LEA is not run on every case
                continue
            want = tuple(float(spec["reference"][name][k]) for k in ("rn", "rd", "pn", "pd"))
            assert metric.statistics[name] == pytest.approx(want, rel=1e-12), (case, name)


def test_real_file_bit_for_bit() -> None:
    folder = shared_path("data", "real", "gum", "pairs")
    key, response = folder / "test.key_gum.conll", folder / "test.resp_xrenner.conll"
    metric, scorer = CorefMetric(), CorefScorer()
    pairs = list(document_pairs(key, response))
    assert len(pairs) == 30
    for doc_id, gold, predicted in pairs:
        metric.update(predicted, gold)
        scorer.update(gold, predicted, doc_id=doc_id)
    expected = _scorer_numbers(scorer)
    assert metric.compute() == expected
    assert metric.statistics == scorer.statistics
    # The whole file scored by the pipeline: the same bits.
    assert corefscore.score_files(key, response).metrics == scorer.compute().metrics
    # Reference scorer v8.01, B3 recall of the GUM test split (research notes, section 7).
    assert metric.statistics["bcub"][:2] == (1383.0500843007924, 7927)


Docs = list[tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]]]


def _documents() -> Docs:
    import random

    rnd = random.Random(3)
    docs = []
    for _ in range(12):
        gold = [[(s, s + rnd.randint(0, 2))] for s in rnd.sample(range(0, 60, 3), 6)]
        predicted = [list(c) for c in gold[: rnd.randint(1, 6)]]
        predicted[0] = predicted[0] + [(70 + rnd.randint(0, 9), 80)]
        docs.append(([*gold[:3], gold[3] + gold[4]], predicted))
    return docs


def _parts(splits: int) -> tuple[CorefMetric, list[CorefMetric]]:
    docs = _documents()
    whole = CorefMetric()
    parts = [CorefMetric() for _ in range(splits)]
    for i, (gold, predicted) in enumerate(docs):
        whole.update(predicted, gold)
        parts[i % splits].update(predicted, gold)
    return whole, parts


def test_distributed_sum_of_states() -> None:
    """What a DDP sync does: gather every process's state tensors, stack, sum over dim 0."""
    whole, (a, b) = _parts(2)
    reduced = CorefMetric()
    for name in reduced._defaults:
        gathered = torch.stack([getattr(a, name), getattr(b, name)])
        setattr(reduced, name, reduced._reductions[name](gathered))
    reduced._update_count = 2
    assert reduced.compute() == whole.compute()
    assert reduced.statistics == whole.statistics


def test_sync_through_torchmetrics_with_a_fake_gather() -> None:
    whole, (_, b) = _parts(2)
    peers: dict[int, Any] = {}

    def gather(tensor: Any, group: Any = None) -> list[Any]:
        return [tensor, peers[id(tensor)]]

    a = CorefMetric(dist_sync_fn=gather, distributed_available_fn=lambda: True)
    for gold, predicted in _documents()[::2]:  # the documents of the first part
        a.update(predicted, gold)
    local = a.statistics
    peers.update({id(getattr(a, name)): getattr(b, name) for name in a._defaults})
    assert a.compute() == whole.compute()
    assert a.statistics == local  # unsynced after compute, as torchmetrics does


def test_merge_state_clears_the_cache_and_is_order_free() -> None:
    whole, (a, b, c) = _parts(3)
    before = a.compute()
    a.merge_state(b)
    assert a.compute() != before
    a.merge_state(c.metric_state)  # a state dict works too
    assert a.compute() == whole.compute()
    for order in ((2, 0, 1), (1, 2, 0)):
        _, parts = _parts(3)
        merged = parts[order[0]]
        merged.merge_state(parts[order[1]])
        merged.merge_state(parts[order[2]])
        assert merged.compute() == whole.compute()
        assert merged.statistics == whole.statistics
    with pytest.raises(UsageError, match="different metrics"):
        a.merge_state(CorefMetric(metrics="muc", singletons="drop"))


def test_forward_reset_clone_pickle() -> None:
    metric = CorefMetric(metrics="conll")
    first = metric(PREDICTED[0], GOLD[0])  # batch value: the first document alone
    assert first["muc/precision"] == 0.5
    second = metric(PREDICTED[1], GOLD[1])
    assert second["muc/recall"] == 0.5
    together = CorefMetric(metrics="conll")
    together.update(PREDICTED, GOLD)
    assert metric.compute() == together.compute()
    assert pickle.loads(pickle.dumps(metric)).compute() == together.compute()
    assert metric.clone().compute() == together.compute()
    metric.reset()
    assert metric.statistics["muc"] == (0, 0, 0, 0)


def test_states_stay_float64() -> None:
    metric = CorefMetric(metrics="bcub")
    metric.update(PREDICTED, GOLD)
    want = metric.compute()
    metric.set_dtype(torch.float32)
    metric.half()
    metric.float()
    assert all(getattr(metric, n).dtype == torch.float64 for n in metric._defaults)
    metric.update(PREDICTED, GOLD)
    metric.reset()
    metric.update(PREDICTED, GOLD)
    assert metric.compute() == want


def test_duplicates_warnings_are_kept() -> None:
    metric = CorefMetric(metrics="muc")
    metric.update([[(0, 0), (1, 1)], [(1, 1), (3, 3)]], [[(0, 0), (1, 1)]])
    assert len(metric.warnings) == 1 and "repeated" in metric.warnings[0]
    metric(PREDICTED[0], GOLD[0])  # forward resets around the batch; warnings stay
    assert len(metric.warnings) == 1
    metric.reset()
    assert metric.warnings == ()
