"""MUC (Vilain et al. 1995, M95-1005): common coreference links.

The links a response entity gets right number its mentions with a key twin
minus the key entities they fall in, so over the whole table the correct links
are ``sum(n_ij) - #(nonzero cells)``: no mention pair is ever visited.
"""

from __future__ import annotations

import numpy as np

from ..contingency import ContingencyTable
from .base import Metric


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    counts = table.counts
    correct = int(counts.sum()) - int(np.count_nonzero(counts))
    key_links = int(np.maximum(table.key_sizes - 1, 0).sum())
    response_links = int(np.maximum(table.response_sizes - 1, 0).sum())
    return (correct, key_links, correct, response_links)


DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="muc",
        statistics=statistics,
        summary="link-based: coreference links kept, as partitions of each entity",
        citation="Vilain et al. 1995 (M95-1005)",
    ),
)
