"""Mention identification: exact span matches between key and response."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..contingency import ContingencyTable, ListTable
from .base import Metric

if TYPE_CHECKING:
    import numpy as np
else:
    from .._numpy import np


def segment_statistics(table: ContingencyTable) -> np.ndarray:
    """(matched, distinct key spans, matched, distinct response spans) per segment."""
    segments = table.segments
    if segments is None:
        found = table.matched_mentions
        counts = [[found, table.key_mentions, found, table.response_mentions]]
        return np.array(counts, dtype=np.float64)
    matched = segments.matched_mentions
    columns = (matched, segments.key_mentions, matched, segments.response_mentions)
    return np.column_stack(columns).astype(np.float64)


def list_statistics(table: ListTable) -> tuple[float, ...]:
    """``segment_statistics`` of a one-document ``ListTable``."""
    found = float(table.matched_mentions)
    return (found, float(table.key_mentions), found, float(table.response_mentions))


DEFINITIONS: tuple[Metric, ...] = (
    Metric.segmented(
        name="mentions",
        segment_statistics=segment_statistics,
        list_statistics=list_statistics,
        summary="mention identification: key and response spans that match exactly",
        citation="Pradhan et al. 2014 (P14-2006), reference scorer v8.01",
        aliases=("mention",),
    ),
)
