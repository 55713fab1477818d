"""The metric families. Each is a pure function from a contingency table to
additive statistics (numerators and denominators), summed over documents."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..contingency import ContingencyTable
from ..errors import UsageError
from . import bcub, blanc, ceaf, lea, mentions, muc
from .base import BlancScore, MetricScore

Statistics = Callable[[ContingencyTable], tuple[float, ...]]

#: Metric name -> statistics function, in the order results are reported.
STATISTICS: dict[str, Statistics] = {
    "mentions": mentions.statistics,
    "muc": muc.statistics,
    "bcub": bcub.statistics,
    "ceafm": ceaf.statistics_m,
    "ceafe": ceaf.statistics_e,
    "blanc": blanc.statistics,
    "lea": lea.statistics,
}
METRICS: tuple[str, ...] = tuple(STATISTICS)
#: The CoNLL score is the mean F1 of these.
CONLL_PARTS: tuple[str, ...] = ("muc", "bcub", "ceafe")

_ALIASES = {
    "mention": "mentions",
    "b3": "bcub",
    "bcubed": "bcub",
    "b-cubed": "bcub",
    "ceaf-m": "ceafm",
    "ceaf_m": "ceafm",
    "ceaf-e": "ceafe",
    "ceaf_e": "ceafe",
    "all": "all",
}


def resolve_metrics(metrics: str | Iterable[str] | None) -> tuple[str, ...]:
    """Normalise a metric selection to names from :data:`METRICS`, in report order.

    Accepts ``None`` (all), one name, a comma-separated list, or an iterable of
    names; ``conll`` selects its three parts.
    """
    if metrics is None:
        return METRICS
    items = [metrics] if isinstance(metrics, str) else list(metrics)
    chosen: set[str] = set()
    for item in items:
        if not isinstance(item, str):
            raise UsageError(f"metric names must be strings, got {item!r}")
        for raw in item.split(","):
            name = raw.strip().lower()
            if not name:
                continue
            name = _ALIASES.get(name, name)
            if name == "all":
                chosen.update(METRICS)
            elif name == "conll":
                chosen.update(CONLL_PARTS)
            elif name in STATISTICS:
                chosen.add(name)
            else:
                raise UsageError(
                    f"unknown metric {raw.strip()!r}; choose from "
                    f"{', '.join((*METRICS, 'conll', 'all'))}"
                )
    if not chosen:
        raise UsageError("no metric selected")
    return tuple(m for m in METRICS if m in chosen)


def to_score(name: str, stats: tuple[float, ...]) -> MetricScore:
    """Turn summed statistics into recall, precision and F1."""
    if name == "blanc":
        return blanc.score(stats)
    return MetricScore.from_counts(*stats)


__all__ = [
    "CONLL_PARTS",
    "METRICS",
    "STATISTICS",
    "BlancScore",
    "MetricScore",
    "resolve_metrics",
    "to_score",
]
