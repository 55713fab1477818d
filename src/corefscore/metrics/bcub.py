"""B³ (Bagga & Baldwin 1998) on system mentions, as the reference scorer v8.01.

Each response mention m in entity R_j with its twin in key entity K_i adds
n_ij/|R_j| to precision and n_ij/|K_i| to recall; a twinless mention adds 0 but
counts in the denominator. The sums run over response mentions in file order,
one addition each, so that the floating-point result is the reference's.
"""

from __future__ import annotations

import numpy as np

from ..contingency import ContingencyTable
from .base import Metric, sequential_sum


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    cells = table.response_cells
    matched = cells[cells >= 0]
    shared = table.response_overlap[matched]
    recall_terms = np.zeros(len(cells))
    precision_terms = np.zeros(len(cells))
    recall_terms[cells >= 0] = shared / table.key_sizes[table.rows[matched]]
    precision_terms[cells >= 0] = shared / table.response_sizes[table.cols[matched]]
    return (
        sequential_sum(recall_terms),
        int(table.key_sizes.sum()),
        sequential_sum(precision_terms),
        int(table.response_sizes.sum()),
    )


DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="bcub",
        statistics=statistics,
        summary="mention-based: per-mention overlap of its key and response entities",
        citation="Bagga & Baldwin 1998; system mentions as in Pradhan et al. 2014",
        aliases=("b3", "bcubed", "b-cubed"),
    ),
)
