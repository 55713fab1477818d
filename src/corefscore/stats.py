"""Confidence intervals and significance tests over documents.

Every procedure works on the additive per-document statistics that
``corefscore.CorefScorer`` keeps (``scorer.document_statistics``):
``{doc_id: {metric: tuple}}``. Documents are never re-scored: a resample, or a
swap of two systems' outputs, only re-weights the rows of a documents x
statistics matrix, so each procedure is one matrix product followed by a
vectorised combination of the sums into recall, precision and F1.

- ``bootstrap``: percentile confidence intervals (Efron & Tibshirani 1993).
- ``approximate_randomization``: paired two-sided randomization test
  (Noreen 1989), as used by Moosavi & Strube (2016, §6).
- ``exact_randomization``: the same test with all ``2**D`` swap patterns.
- ``paired_bootstrap``: paired bootstrap test (Koehn 2004;
  Berg-Kirkpatrick et al. 2012), made two-sided.
- ``compare_systems``: all pairwise tests, Holm (1979) correction and a
  ranking with shared ranks (Moosavi & Strube 2016, Table 5).

``docs/statistics.md`` gives the formulas.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ._record import field, record
from .errors import UsageError
from .metrics import CONLL_PARTS, REGISTRY, Metric, MetricSpec, resolve
from .metrics.base import score_counts

DocStats = Mapping[str, Mapping[str, Sequence[float]]]

#: Name under which the CoNLL score (mean F1 of MUC, B³, CEAFe) is reported.
CONLL = "conll"
#: Enumerating more swap patterns than ``2**MAX_EXACT_DOCUMENTS`` is refused.
MAX_EXACT_DOCUMENTS = 20
TESTS = ("ar", "bootstrap", "exact")

# Random matrices are drawn in blocks of about this many cells, so that memory
# stays bounded for large corpora. The block height depends only on the number
# of documents, hence results depend only on the seed and the inputs.
_BLOCK_CELLS = 1 << 21
# Randomization counts a pseudo-difference "at least as large as" the observed
# one. The identity pattern must count, but sums computed in another order can
# differ from the observed ones in the last bits when statistics are not
# integers, so equality is judged with this relative tolerance.
_TIE_TOLERANCE = 1e-9

#: The seed of every resampling and randomization unless another is given, so that
#: intervals, p-values and rankings are the same from run to run (``None`` draws a
#: fresh one). Results state the seed they used.
DEFAULT_SEED = 0


# --------------------------------------------------------------------------- data


@record(frozen=True)
class Interval:
    """A point estimate with its percentile interval ``[low, high]``."""

    estimate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


@record(frozen=True)
class MetricInterval:
    """Intervals for the recall, precision and F1 of one metric."""

    recall: Interval
    precision: Interval
    f1: Interval

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {
            "recall": self.recall.to_dict(),
            "precision": self.precision.to_dict(),
            "f1": self.f1.to_dict(),
        }


@record(frozen=True)
class BootstrapResult:
    """Percentile bootstrap intervals of every metric and of the CoNLL score."""

    metrics: dict[str, MetricInterval]
    conll: Interval | None
    n: int
    ci: float
    seed: int | None
    documents: int
    method: str = "percentile (numpy linear interpolation)"

    def __getitem__(self, metric: str) -> MetricInterval:
        return self.metrics[metric]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "procedure": "bootstrap",
            "n": self.n,
            "ci": self.ci,
            "seed": self.seed,
            "documents": self.documents,
            "method": self.method,
            "metrics": {name: m.to_dict() for name, m in self.metrics.items()},
        }
        if self.conll is not None:
            out["metrics"][CONLL] = {"f1": self.conll.to_dict()}
        return out


@record(frozen=True)
class PairTest:
    """One metric's paired test: the two F1 values, their difference, the p-value."""

    metric: str
    score_a: float
    score_b: float
    p_value: float

    @property
    def difference(self) -> float:
        return self.score_a - self.score_b

    def to_dict(self) -> dict[str, float | str]:
        return {
            "metric": self.metric,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "difference": self.difference,
            "p_value": self.p_value,
        }


@record(frozen=True)
class SignificanceResult:
    """A paired test of two systems, per metric and for the CoNLL score (``"conll"``)."""

    tests: dict[str, PairTest]
    test: str
    trials: int
    seed: int | None
    documents: int
    system_a: str = "A"
    system_b: str = "B"

    def __getitem__(self, metric: str) -> PairTest:
        return self.tests[metric]

    def to_dict(self) -> dict[str, Any]:
        return {
            "procedure": _TEST_NAMES[self.test],
            "test": self.test,
            "trials": self.trials,
            "seed": self.seed,
            "documents": self.documents,
            "system_a": self.system_a,
            "system_b": self.system_b,
            "tests": {name: t.to_dict() for name, t in self.tests.items()},
        }


@record(frozen=True)
class PairComparison:
    """One pair of systems in a ranking; ``a`` has the higher (or equal) score."""

    a: str
    b: str
    difference: float
    p_value: float
    p_holm: float
    significant: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "difference": self.difference,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "significant": self.significant,
        }


@record(frozen=True)
class RankedSystem:
    """A system in a ranking: its score and rank (shared where differences are not significant)."""

    name: str
    score: float
    rank: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "score": self.score, "rank": self.rank}


@record(frozen=True)
class Ranking:
    """Systems sorted by ``metric`` (best first), with ranks shared where not significant."""

    metric: str
    systems: tuple[RankedSystem, ...]
    pairs: tuple[PairComparison, ...]
    alpha: float
    test: str
    trials: int
    seed: int | None
    documents: int
    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    #: What produced the statistics (set by the caller who scored the systems).
    signature: str = ""

    def pair(self, a: str, b: str) -> PairComparison:
        for p in self.pairs:
            if {p.a, p.b} == {a, b}:
                return p
        raise KeyError((a, b))

    def to_dict(self) -> dict[str, Any]:
        return {
            "procedure": "ranking",
            "metric": self.metric,
            "alpha": self.alpha,
            "correction": "holm",
            "test": self.test,
            "trials": self.trials,
            "seed": self.seed,
            "documents": self.documents,
            "signature": self.signature,
            "systems": [s.to_dict() for s in self.systems],
            "pairs": [p.to_dict() for p in self.pairs],
            "scores": self.scores,
        }


_TEST_NAMES = {
    "ar": "approximate randomization",
    "exact": "exact randomization",
    "bootstrap": "paired bootstrap",
}


# --------------------------------------------------------------------------- matrices


@record(frozen=True)
class _Layout:
    """Which columns of the stacked statistics matrix belong to which metric."""

    metrics: tuple[Metric, ...]
    slices: dict[str, slice]

    @property
    def width(self) -> int:
        return max((s.stop for s in self.slices.values()), default=0)

    @property
    def has_conll(self) -> bool:
        return all(m in self.slices for m in CONLL_PARTS)


def _select_metrics(
    doc_stats: DocStats, metrics: MetricSpec | Iterable[MetricSpec] | None
) -> tuple[Metric, ...]:
    if metrics is not None:
        chosen = resolve(metrics)
    else:
        first = next(iter(doc_stats.values()), None)
        if first is None:
            raise UsageError("no documents: statistics over documents need at least one")
        unknown = [name for name in first if name not in REGISTRY]
        if unknown:
            raise UsageError(
                f"metric {unknown[0]!r} is not built in; pass its Metric object in metrics="
            )
        chosen = resolve(list(first))
    return chosen


def _layout(metrics: Sequence[Metric]) -> _Layout:
    slices: dict[str, slice] = {}
    start = 0
    for metric in metrics:
        slices[metric.name] = slice(start, start + metric.width)
        start += metric.width
    return _Layout(tuple(metrics), slices)


def _matrix(doc_stats: DocStats, doc_ids: Sequence[str], layout: _Layout) -> np.ndarray:
    """The documents x statistics matrix (all metrics side by side)."""
    out = np.zeros((len(doc_ids), layout.width), dtype=np.float64)
    for row, doc_id in enumerate(doc_ids):
        stats = doc_stats[doc_id]
        for metric in layout.metrics:
            values = stats.get(metric.name)
            if values is None:
                raise UsageError(f"document {doc_id!r} has no statistics for {metric.name}")
            cols = layout.slices[metric.name]
            if len(values) != cols.stop - cols.start:
                raise UsageError(
                    f"document {doc_id!r}: {metric.name} has {len(values)} statistics, "
                    f"expected {metric.width}"
                )
            out[row, cols] = values
    return out


def _point(matrix: np.ndarray, layout: _Layout) -> dict[str, tuple[float, float, float]]:
    """Scores of the whole corpus, summed exactly as the scorer sums (``math.fsum``)."""
    sums = tuple(math.fsum(col) for col in matrix.T.tolist())
    out: dict[str, tuple[float, float, float]] = {}
    for metric in layout.metrics:
        cols = layout.slices[metric.name]
        score = metric.combine(sums[cols])
        out[metric.name] = (score.recall, score.precision, score.f1)
    if layout.has_conll:
        f1 = sum(out[m][2] for m in CONLL_PARTS) / len(CONLL_PARTS)
        out[CONLL] = (f1, f1, f1)
    return out


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    safe = np.where(den != 0, den, 1.0)
    return np.where(den != 0, num / safe, 0.0)


def _f(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    # Same operation order as MetricScore.from_counts, so equal sums give equal bits.
    total = precision + recall
    safe = np.where(total != 0, total, 1.0)
    return np.where(total != 0, 2 * precision * recall / safe, 0.0)


def _combine_rows(
    sums: np.ndarray, layout: _Layout
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Recall, precision and F1 of each row of summed statistics, per metric (+ CoNLL)."""
    out: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for metric in layout.metrics:
        block = sums[:, layout.slices[metric.name]]
        if metric.combine is score_counts and metric.width == 4:
            recall = _ratio(block[:, 0], block[:, 1])
            precision = _ratio(block[:, 2], block[:, 3])
            out[metric.name] = (recall, precision, _f(recall, precision))
        else:
            # Other layouts (BLANC, ACE value, custom metrics) have their own
            # arithmetic; calling it per row keeps it the single definition.
            scores = [metric.combine(tuple(row)) for row in block.tolist()]
            out[metric.name] = (
                np.array([s.recall for s in scores], dtype=np.float64),
                np.array([s.precision for s in scores], dtype=np.float64),
                np.array([s.f1 for s in scores], dtype=np.float64),
            )
    if layout.has_conll:
        f1 = (out["muc"][2] + out["bcub"][2] + out["ceafe"][2]) / len(CONLL_PARTS)
        out[CONLL] = (f1, f1, f1)
    return out


def _blocks(total: int, documents: int) -> Iterator[int]:
    height = max(1, _BLOCK_CELLS // max(1, documents))
    done = 0
    while done < total:
        step = min(height, total - done)
        yield step
        done += step


def _resample_counts(rng: np.random.Generator, rows: int, documents: int) -> np.ndarray:
    """How often each document is drawn in each of ``rows`` resamples of size ``documents``."""
    draws = rng.integers(0, documents, size=(rows, documents))
    offsets = (np.arange(rows) * documents)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=rows * documents)
    return counts.reshape(rows, documents).astype(np.float64)


def _check_pair(stats_a: DocStats, stats_b: DocStats) -> list[str]:
    doc_ids = list(stats_a)
    if set(doc_ids) != set(stats_b):
        only_a = sorted(set(stats_a) - set(stats_b))
        only_b = sorted(set(stats_b) - set(stats_a))
        raise UsageError(
            "paired tests need the same documents on both sides; "
            f"only in A: {only_a[:3]}, only in B: {only_b[:3]}"
        )
    if not doc_ids:
        raise UsageError("no documents: statistics over documents need at least one")
    return doc_ids


def _check_positive(name: str, value: int) -> None:
    if value < 1:
        raise UsageError(f"{name} must be at least 1, got {value}")


# --------------------------------------------------------------------------- bootstrap


def bootstrap(
    doc_stats: DocStats,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    n: int = 1000,
    ci: float = 95,
    seed: int | None = DEFAULT_SEED,
) -> BootstrapResult:
    """Percentile bootstrap intervals over documents (Efron & Tibshirani 1993, ch. 13).

    Each of ``n`` resamples draws as many documents as the corpus has, with
    replacement; its statistics are the count-weighted sums of the documents'
    statistics (micro-averaging, as for the corpus score). The interval is the
    ``(100 - ci) / 2`` and ``(100 + ci) / 2`` percentiles of the resampled
    scores, with numpy's default linear interpolation. ``metrics`` defaults to
    those present in the statistics. The result depends only on the inputs and
    ``seed``.
    """
    _check_positive("the number of bootstrap resamples", n)
    if not 0 < ci < 100:
        raise UsageError(f"the confidence level must be between 0 and 100 (percent), got {ci}")
    layout = _layout(_select_metrics(doc_stats, metrics))
    doc_ids = list(doc_stats)
    if not doc_ids:
        raise UsageError("no documents: statistics over documents need at least one")
    matrix = _matrix(doc_stats, doc_ids, layout)
    point = _point(matrix, layout)
    rng = np.random.default_rng(seed)
    parts = [
        _resample_counts(rng, rows, len(doc_ids)) @ matrix for rows in _blocks(n, len(doc_ids))
    ]
    scores = _combine_rows(np.vstack(parts), layout)
    q = [(100 - ci) / 2, (100 + ci) / 2]

    def interval(name: str, which: int) -> Interval:
        low, high = np.percentile(scores[name][which], q)
        return Interval(point[name][which], float(low), float(high))

    intervals = {
        m.name: MetricInterval(interval(m.name, 0), interval(m.name, 1), interval(m.name, 2))
        for m in layout.metrics
    }
    conll = interval(CONLL, 2) if layout.has_conll else None
    return BootstrapResult(intervals, conll, n, ci, seed, len(doc_ids))


# --------------------------------------------------------------------------- paired tests


def swap_differences(
    stats_a: DocStats,
    stats_b: DocStats,
    swaps: np.ndarray,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
) -> dict[str, np.ndarray]:
    """F1(A) - F1(B) after swapping the documents marked 1 in each row of ``swaps``.

    ``swaps`` is a patterns x documents 0/1 matrix, columns in the order of
    ``stats_a``. With Δ = B - A per document, the swapped sums are
    ``sum(A) + swaps @ Δ`` and ``sum(B) - swaps @ Δ``: one matrix product.
    Keys are the metric names and ``"conll"`` when MUC, B³ and CEAFe are present.
    """
    doc_ids = _check_pair(stats_a, stats_b)
    layout = _layout(_select_metrics(stats_a, metrics))
    a = _matrix(stats_a, doc_ids, layout)
    b = _matrix(stats_b, doc_ids, layout)
    return _swap_differences(a, b, np.asarray(swaps, dtype=np.float64), layout)


def _swap_differences(
    a: np.ndarray, b: np.ndarray, swaps: np.ndarray, layout: _Layout
) -> dict[str, np.ndarray]:
    moved = swaps @ (b - a)
    scores_a = _combine_rows(a.sum(axis=0) + moved, layout)
    scores_b = _combine_rows(b.sum(axis=0) - moved, layout)
    return {name: scores_a[name][2] - scores_b[name][2] for name in scores_a}


def _observed(
    a: np.ndarray, b: np.ndarray, layout: _Layout
) -> tuple[dict[str, float], dict[str, float]]:
    point_a = _point(a, layout)
    point_b = _point(b, layout)
    return ({k: v[2] for k, v in point_a.items()}, {k: v[2] for k, v in point_b.items()})


def _at_least(pseudo: np.ndarray, observed: float) -> np.ndarray:
    return pseudo >= observed - _TIE_TOLERANCE * max(1.0, observed)


def _paired_setup(
    stats_a: DocStats,
    stats_b: DocStats,
    metrics: MetricSpec | Iterable[MetricSpec] | None,
) -> tuple[list[str], _Layout, np.ndarray, np.ndarray, dict[str, float], dict[str, float]]:
    doc_ids = _check_pair(stats_a, stats_b)
    layout = _layout(_select_metrics(stats_a, metrics))
    a = _matrix(stats_a, doc_ids, layout)
    b = _matrix(stats_b, doc_ids, layout)
    f_a, f_b = _observed(a, b, layout)
    return doc_ids, layout, a, b, f_a, f_b


def _result(
    f_a: Mapping[str, float],
    f_b: Mapping[str, float],
    p: Callable[[str], float],
    test: str,
    trials: int,
    seed: int | None,
    documents: int,
    names: tuple[str, str],
) -> SignificanceResult:
    tests = {m: PairTest(m, f_a[m], f_b[m], p(m)) for m in f_a}
    return SignificanceResult(tests, test, trials, seed, documents, *names)


def approximate_randomization(
    stats_a: DocStats,
    stats_b: DocStats,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    trials: int = 10000,
    seed: int | None = DEFAULT_SEED,
    names: tuple[str, str] = ("A", "B"),
) -> SignificanceResult:
    """Paired two-sided approximate randomization test (Noreen 1989).

    In each of ``trials`` trials every document's pair of outputs is swapped
    with probability 1/2; the statistic is ``|F1(A) - F1(B)|`` on the
    micro-aggregated sums. ``p = (c + 1) / (trials + 1)`` where ``c`` counts
    trials whose statistic is at least the observed one.
    """
    _check_positive("the number of trials", trials)
    doc_ids, layout, a, b, f_a, f_b = _paired_setup(stats_a, stats_b, metrics)
    observed = {m: abs(f_a[m] - f_b[m]) for m in f_a}
    hits = dict.fromkeys(f_a, 0)
    rng = np.random.default_rng(seed)
    for rows in _blocks(trials, len(doc_ids)):
        swaps = rng.integers(0, 2, size=(rows, len(doc_ids))).astype(np.float64)
        diffs = _swap_differences(a, b, swaps, layout)
        for m, d in diffs.items():
            hits[m] += int(np.count_nonzero(_at_least(np.abs(d), observed[m])))
    return _result(
        f_a,
        f_b,
        lambda m: (hits[m] + 1) / (trials + 1),
        "ar",
        trials,
        seed,
        len(doc_ids),
        names,
    )


def exact_randomization(
    stats_a: DocStats,
    stats_b: DocStats,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    names: tuple[str, str] = ("A", "B"),
) -> SignificanceResult:
    """The randomization test over all ``2**D`` swap patterns: ``p = c / 2**D``.

    The identity pattern is one of them, so ``p >= 2**-D``. Refused above
    ``MAX_EXACT_DOCUMENTS`` documents.
    """
    doc_ids, layout, a, b, f_a, f_b = _paired_setup(stats_a, stats_b, metrics)
    count = len(doc_ids)
    if count > MAX_EXACT_DOCUMENTS:
        raise UsageError(
            f"exact randomization enumerates 2**{count} swap patterns; use "
            f"approximate randomization above {MAX_EXACT_DOCUMENTS} documents"
        )
    diffs = _swap_differences(a, b, all_swap_patterns(count), layout)
    hits = {
        m: int(np.count_nonzero(_at_least(np.abs(d), abs(f_a[m] - f_b[m]))))
        for m, d in diffs.items()
    }
    total = 1 << count
    return _result(f_a, f_b, lambda m: hits[m] / total, "exact", total, None, count, names)


def all_swap_patterns(documents: int) -> np.ndarray:
    """Every 0/1 swap pattern over ``documents`` documents; the first document is the
    most significant bit (row 1 swaps only the last document)."""
    codes = np.arange(1 << documents)[:, None]
    bits = np.arange(documents - 1, -1, -1)[None, :]
    return ((codes >> bits) & 1).astype(np.float64)


def paired_bootstrap(
    stats_a: DocStats,
    stats_b: DocStats,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    trials: int = 10000,
    seed: int | None = DEFAULT_SEED,
    names: tuple[str, str] = ("A", "B"),
) -> SignificanceResult:
    """Paired bootstrap test, two-sided (Berg-Kirkpatrick et al. 2012; Koehn 2004).

    Both systems are scored on the same ``trials`` resamples of the documents
    (drawn with replacement). With δ the observed F1(A) - F1(B) and δ_i that of
    resample i, the bootstrap distribution of δ_i - δ approximates the null
    distribution (Berg-Kirkpatrick et al. count δ_i > 2δ, one-sided); here
    ``c = #{i : |δ_i - δ| >= |δ|}`` and ``p = (c + 1) / (trials + 1)``.
    """
    _check_positive("the number of trials", trials)
    doc_ids, layout, a, b, f_a, f_b = _paired_setup(stats_a, stats_b, metrics)
    observed = {m: f_a[m] - f_b[m] for m in f_a}
    hits = dict.fromkeys(f_a, 0)
    rng = np.random.default_rng(seed)
    both = np.hstack([a, b])
    for rows in _blocks(trials, len(doc_ids)):
        sums = _resample_counts(rng, rows, len(doc_ids)) @ both
        scores_a = _combine_rows(sums[:, : a.shape[1]], layout)
        scores_b = _combine_rows(sums[:, a.shape[1] :], layout)
        for m, delta in observed.items():
            shifted = np.abs(scores_a[m][2] - scores_b[m][2] - delta)
            hits[m] += int(np.count_nonzero(_at_least(shifted, abs(delta))))
    return _result(
        f_a,
        f_b,
        lambda m: (hits[m] + 1) / (trials + 1),
        "bootstrap",
        trials,
        seed,
        len(doc_ids),
        names,
    )


# --------------------------------------------------------------------------- ranking


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm (1979) step-down adjusted p-values, in the input order.

    With the m p-values sorted ascending, p_(1) <= ... <= p_(m), the adjusted
    value is ``max over j <= i of min(1, (m - j + 1) * p_(j))``; a hypothesis
    is rejected at level α when its adjusted value is <= α.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (m - step) * p_values[i]))
        adjusted[i] = running
    return adjusted


def compare_systems(
    systems: Mapping[str, DocStats],
    *,
    metric: str = CONLL,
    alpha: float = 0.05,
    trials: int = 10000,
    seed: int | None = DEFAULT_SEED,
    test: str = "ar",
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
) -> Ranking:
    """Rank systems by ``metric`` with all pairwise paired tests and Holm's correction.

    Systems are sorted by the metric's F1 (best first, ties by name). Ranks
    are competition ranks, shared where differences are not significant:
    walking down the sorted list, a system opens a new rank (its 1-based
    position) only if it differs significantly, after Holm's correction over
    all pairs, from every system of the current rank group; otherwise it joins
    the group. ``test`` is ``"ar"`` (approximate randomization), ``"bootstrap"``
    (paired bootstrap) or ``"exact"``. Every pair uses the same ``seed``.
    """
    if test not in TESTS:
        raise UsageError(f"unknown test {test!r}; choose one of {', '.join(TESTS)}")
    if not 0 < alpha < 1:
        raise UsageError(f"alpha must be between 0 and 1, got {alpha}")
    if len(systems) < 2:
        raise UsageError("a comparison needs at least two systems")
    names = list(systems)
    wanted: MetricSpec | Iterable[MetricSpec] = (
        metrics if metrics is not None else ("conll" if metric == CONLL else metric)
    )
    results: dict[tuple[str, str], SignificanceResult] = {}
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            if test == "ar":
                res = approximate_randomization(
                    systems[x], systems[y], metrics=wanted, trials=trials, seed=seed, names=(x, y)
                )
            elif test == "bootstrap":
                res = paired_bootstrap(
                    systems[x], systems[y], metrics=wanted, trials=trials, seed=seed, names=(x, y)
                )
            else:
                res = exact_randomization(systems[x], systems[y], metrics=wanted, names=(x, y))
            if metric not in res.tests:
                raise UsageError(
                    f"metric {metric!r} is not among the compared ones: {', '.join(res.tests)}"
                )
            results[(x, y)] = res
    first = next(iter(results.values()))
    score = {names[0]: first[metric].score_a}
    score_table: dict[str, dict[str, float]] = {}
    for (x, y), res in results.items():
        score[x] = res[metric].score_a
        score[y] = res[metric].score_b
        score_table[x] = {m: t.score_a for m, t in res.tests.items()}
        score_table[y] = {m: t.score_b for m, t in res.tests.items()}
    keys = list(results)
    adjusted = holm([results[k][metric].p_value for k in keys])
    pairs: list[PairComparison] = []
    significant: dict[frozenset[str], bool] = {}
    for k, p_holm in zip(keys, adjusted, strict=True):
        t = results[k][metric]
        x, y = k if t.score_a >= t.score_b else (k[1], k[0])
        sig = p_holm <= alpha
        significant[frozenset(k)] = sig
        pairs.append(PairComparison(x, y, abs(t.difference), t.p_value, p_holm, sig))
    order = sorted(names, key=lambda s: (-score[s], s))
    ranked: list[RankedSystem] = []
    group: list[str] = []
    rank = 0
    for position, name in enumerate(order, start=1):
        if not group or all(significant[frozenset((name, g))] for g in group):
            rank = position
            group = []
        group.append(name)
        ranked.append(RankedSystem(name, score[name], rank))
    doc_count = first.documents
    return Ranking(
        metric,
        tuple(ranked),
        tuple(pairs),
        alpha,
        test,
        first.trials,
        seed if test != "exact" else None,
        doc_count,
        {s: score_table[s] for s in order},
    )


# --------------------------------------------------------------------------- benchmark


def benchmark(documents: int = 348, n: int = 1000, seed: int = 0) -> float:
    """Seconds taken by ``bootstrap`` with the seven default metrics on a
    random corpus of ``documents`` documents (CoNLL-2012 test has 348).

    The documents are scored first (not timed), so the statistics have the
    real layouts, BLANC's eight columns included.
    """
    import time

    from .scorer import CorefScorer

    rng = np.random.default_rng(seed)
    scorer = CorefScorer()

    def clusters(mentions: int) -> list[list[tuple[int, int]]]:
        labels = rng.integers(0, max(1, mentions // 4), size=mentions)
        groups: dict[int, list[tuple[int, int]]] = {}
        for i, label in enumerate(labels.tolist()):
            groups.setdefault(label, []).append((2 * i, 2 * i + int(rng.integers(0, 2))))
        return list(groups.values())

    for d in range(documents):
        size = int(rng.integers(10, 120))
        scorer.update(clusters(size), clusters(size), doc_id=f"doc{d}")
    doc_stats = scorer.document_statistics
    start = time.perf_counter()
    bootstrap(doc_stats, n=n, seed=seed)
    return time.perf_counter() - start
