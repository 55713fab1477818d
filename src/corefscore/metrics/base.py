"""Metric results and the arithmetic shared by every metric."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._record import asdict, field, made_from, record

if TYPE_CHECKING:
    import numpy as np
else:
    from .._numpy import np


if TYPE_CHECKING:
    from ..contingency import ContingencyTable, ListTable


def sequential_sum(values: np.ndarray) -> float:
    """Add ``values`` left to right, one at a time, as the reference scorer does.

    ``np.sum`` adds pairwise and Python >= 3.12's ``sum`` compensates; either
    can differ from the reference in the last bit, and a truncated percentage
    can then differ in its last digit.
    """
    if len(values) == 0:
        return 0.0
    return float(np.add.accumulate(values.astype(np.float64, copy=False))[-1])


def ratio(num: float, den: float) -> float:
    """``num / den``, and 0 when ``den`` is 0 (as the reference scorer reports it)."""
    return num / den if den else 0.0


def f_measure(recall: float, precision: float) -> float:
    """The harmonic mean of recall and precision (0 when both are 0)."""
    # Same operation order as the reference scorer, so the same bits. The definition
    # the tests hold ``metric_score`` to: that hot path writes it (and ``ratio``) out.
    return 2 * precision * recall / (precision + recall) if recall + precision else 0.0


@record(frozen=True)
class MetricScore:
    """Recall, precision and F1 of one metric, with the counts they come from.

    Values are fractions in [0, 1] at full precision; numerators and
    denominators are the additive statistics summed over documents.
    """

    recall: float
    precision: float
    f1: float
    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float

    @classmethod
    def from_counts(
        cls, recall_num: float, recall_den: float, precision_num: float, precision_den: float
    ) -> MetricScore:
        """The score of summed numerators and denominators."""
        made = metric_score(recall_num, recall_den, precision_num, precision_den)
        if cls is MetricScore:
            return made
        return cls(**vars(made))  # a subclass may have more to set

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@record(frozen=True)
class BlancScore(MetricScore):
    """BLANC: the combined score plus its coreference and non-coreference parts.

    ``recall_num``/``precision_num`` hold the combined recall and precision
    over a denominator of 1, as the reference scorer prints them.
    """

    coref: MetricScore = MetricScore(0.0, 0.0, 0.0, 0, 0, 0, 0)
    noncoref: MetricScore = MetricScore(0.0, 0.0, 0.0, 0, 0, 0, 0)

    @classmethod
    def combined(
        cls,
        recall: float,
        precision: float,
        f1: float,
        coref: MetricScore,
        noncoref: MetricScore,
    ) -> BlancScore:
        """A combined BLANC score, its recall and precision over a denominator of 1."""
        fields: dict[str, Any] = {
            "recall": recall,
            "precision": precision,
            "f1": f1,
            "recall_num": recall,
            "recall_den": 1,
            "precision_num": precision,
            "precision_den": 1,
            "coref": coref,
            "noncoref": noncoref,
        }
        if cls is not BlancScore:
            return cls(**fields)
        return made_from(cls, fields)

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k not in ("coref", "noncoref")}
        out["coref"] = self.coref.to_dict()
        out["noncoref"] = self.noncoref.to_dict()
        return out


# What made_from does, bound once for metric_score.
_new, _set = object.__new__, object.__setattr__


def metric_score(
    recall_num: float, recall_den: float, precision_num: float, precision_den: float
) -> MetricScore:
    """``MetricScore.from_counts``, made in one call: every result makes one per
    metric (BLANC three), and ``score()`` on a small document in a training loop
    spent about a quarter of its instructions making them when ``ratio``,
    ``f_measure`` and ``made_from`` were each called. The same operations in the
    same order as those functions' (tests/metrics/test_base.py compares the two
    ways bit for bit)."""
    recall = recall_num / recall_den if recall_den else 0.0
    precision = precision_num / precision_den if precision_den else 0.0
    made = _new(MetricScore)
    _set(
        made,
        "__dict__",
        {
            "recall": recall,
            "precision": precision,
            "f1": 2 * precision * recall / (precision + recall) if recall + precision else 0.0,
            "recall_num": float(recall_num),
            "recall_den": float(recall_den),
            "precision_num": float(precision_num),
            "precision_den": float(precision_den),
        },
    )
    return made


def score_counts(stats: tuple[float, ...]) -> MetricScore:
    """The usual combination: (recall num, recall den, precision num, precision den)."""
    return metric_score(*stats)


SegmentStatistics = Callable[["ContingencyTable"], "np.ndarray"]


class PerDocument:
    """A table's statistics as a tuple, from a function that returns one row per segment.

    The statistics of one document are row 0 of a one-segment table; the same
    function computes every document of a block-diagonal table at once.
    """

    def __init__(self, segment_statistics: SegmentStatistics) -> None:
        self.segment_statistics = segment_statistics

    def __call__(self, table: ContingencyTable) -> tuple[float, ...]:
        if table.segment_count != 1:
            raise ValueError("statistics() takes a table of one segment; use segment_statistics")
        row: list[float] = self.segment_statistics(table)[0].tolist()
        return tuple(row)

    def __repr__(self) -> str:
        return f"PerDocument({getattr(self.segment_statistics, '__qualname__', '?')})"


@record(frozen=True)
class Metric:
    """A metric: a pure function from one document's table to additive statistics.

    ``statistics`` returns numbers that are summed over documents (``width``
    of them); ``combine`` turns the sums into a ``MetricScore``.
    ``requires`` names document facts the metric needs (``"entity_types"``,
    ``"mention_levels"``), checked before scoring. ``symmetric`` means that
    swapping key and response swaps recall and precision.

    ``segment_statistics``, when given, computes the statistics of every
    segment (document) of a table at once, one row each; ``statistics`` is
    then row 0 of it (``segmented`` builds such a metric). Only such
    metrics run on the columnar engines, which score many documents, or one
    cross-document partition, as one table.

    ``list_statistics``, when given, is the same formula on a ``ListTable``
    (Python lists, same operations in the same order, so the same bits): for
    small documents, where array calls cost more than the arithmetic.
    """

    name: str
    statistics: Callable[[ContingencyTable], tuple[float, ...]]
    summary: str
    citation: str
    combine: Callable[[tuple[float, ...]], MetricScore] = score_counts
    width: int = 4
    symmetric: bool = True
    requires: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=())
    options: str = ""
    segment_statistics: SegmentStatistics | None = field(default=None, compare=False)
    list_statistics: Callable[[ListTable], tuple[float, ...]] | None = field(
        default=None, compare=False
    )

    @classmethod
    def segmented(
        cls, *, name: str, segment_statistics: SegmentStatistics, **fields: Any
    ) -> Metric:
        """A metric whose one formula serves one document and many documents alike."""
        return cls(
            name=name,
            statistics=PerDocument(segment_statistics),
            segment_statistics=segment_statistics,
            **fields,
        )
