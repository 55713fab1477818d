"""B³ (Bagga & Baldwin 1998) on system mentions, as the reference scorer v8.01.

Each response mention m in entity R_j with its twin in key entity K_i adds
n_ij/|R_j| to precision and n_ij/|K_i| to recall; a twinless mention adds 0 but
counts in the denominator. The sums run over response mentions in file order,
one addition each, so that the floating-point result is the reference's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..contingency import ContingencyTable, ListTable, segment_ordered_sums, segment_totals
from .base import Metric

if TYPE_CHECKING:
    import numpy as np
else:
    from .._numpy import np


def segment_statistics(table: ContingencyTable) -> np.ndarray:
    """(Σ recall terms, Σ|K|, Σ precision terms, Σ|R|) per segment."""
    cells = table.response_cells
    twinned = cells >= 0
    matched = cells[twinned]
    shared = table.response_overlap[matched]
    recall_terms = np.zeros(len(cells))
    precision_terms = np.zeros(len(cells))
    recall_terms[twinned] = shared / table.key_sizes[table.rows[matched]]
    precision_terms[twinned] = shared / table.response_sizes[table.cols[matched]]
    return np.column_stack(
        (
            segment_ordered_sums(table, recall_terms, "mentions"),
            segment_totals(table, table.key_sizes, "key"),
            segment_ordered_sums(table, precision_terms, "mentions"),
            segment_totals(table, table.response_sizes, "response"),
        )
    )


def list_statistics(table: ListTable) -> tuple[float, ...]:
    """``segment_statistics`` of a one-document ``ListTable``: the same terms added
    in the same order."""
    counts, rows, cols = table.counts, table.rows, table.cols
    key_sizes, response_sizes = table.key_sizes, table.response_sizes
    recall = precision = 0.0
    for c in table.response_cells:
        if c >= 0:
            shared = counts[c]
            recall += shared / key_sizes[rows[c]]
            precision += shared / response_sizes[cols[c]]
    return (recall, float(table.key_mentions), precision, float(table.response_mentions))


DEFINITIONS: tuple[Metric, ...] = (
    Metric.segmented(
        name="bcub",
        segment_statistics=segment_statistics,
        list_statistics=list_statistics,
        summary="mention-based: per-mention overlap of its key and response entities",
        citation="Bagga & Baldwin 1998; system mentions as in Pradhan et al. 2014",
        aliases=("b3", "bcubed", "b-cubed"),
    ),
)
