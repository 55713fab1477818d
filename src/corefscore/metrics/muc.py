"""MUC (Vilain et al. 1995, M95-1005): common coreference links.

The links a response entity gets right number its mentions with a key twin
minus the key entities they fall in, so over the whole table the correct links
are ``sum(n_ij) - #(nonzero cells)``: no mention pair is ever visited.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..contingency import ContingencyTable, ListTable, segment_totals
from .base import Metric

if TYPE_CHECKING:
    import numpy as np
else:
    from .._numpy import np


def segment_statistics(table: ContingencyTable) -> np.ndarray:
    """(correct links, key links, correct links, response links) per segment."""
    counts = table.counts
    correct = segment_totals(table, counts, "cells") - segment_totals(
        table, (counts > 0).astype(np.int64), "cells"
    )
    key_links = segment_totals(table, np.maximum(table.key_sizes - 1, 0), "key")
    response_links = segment_totals(table, np.maximum(table.response_sizes - 1, 0), "response")
    return np.column_stack((correct, key_links, correct, response_links))


def list_statistics(table: ListTable) -> tuple[float, ...]:
    """``segment_statistics`` of a one-document ``ListTable`` (every cell is nonzero)."""
    correct = float(table.matched_mentions - len(table.counts))
    # Σ (|e| - 1) over the non-empty entities, from counts the table holds.
    key_sizes, response_sizes = table.key_sizes, table.response_sizes
    key_links = float(table.key_mentions - len(key_sizes) + key_sizes.count(0))
    response_links = float(table.response_mentions - len(response_sizes) + response_sizes.count(0))
    return (correct, key_links, correct, response_links)


DEFINITIONS: tuple[Metric, ...] = (
    Metric.segmented(
        name="muc",
        segment_statistics=segment_statistics,
        list_statistics=list_statistics,
        summary="link-based: coreference links kept, as partitions of each entity",
        citation="Vilain et al. 1995 (M95-1005)",
    ),
)
