"""LEA, the link-based entity-aware metric (Moosavi & Strube 2016, P16-1060).

Recall = Σ_k |k|·resolved(k)/links(k) / Σ_k |k| with links(k) = |k|(|k|-1)/2
and resolved(k) = Σ_j C(n_kj, 2); a singleton has one self-link, resolved
when its mention is a singleton on the other side too. Precision swaps the
roles. Terms are added in entity order, as the LEA branch of the reference
scorer does.
"""

from __future__ import annotations

import numpy as np

from ..contingency import ContingencyTable
from .base import sequential_sum


def _side(
    sizes: np.ndarray,
    other_sizes: np.ndarray,
    owner: np.ndarray,
    partner: np.ndarray,
    counts: np.ndarray,
) -> float:
    pairs = counts * (counts - 1) // 2
    resolved = np.bincount(owner, weights=pairs, minlength=len(sizes))
    # A singleton is resolved when its twin is alone in its entity too.
    alone = (counts == 1) & (sizes[owner] == 1) & (other_sizes[partner] == 1)
    resolved[owner[alone]] = 1
    links = np.where(sizes == 1, 1.0, sizes * (sizes - 1) / 2)
    return sequential_sum(resolved / links * sizes)


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    recall_num = _side(
        table.key_sizes, table.response_sizes, table.rows, table.cols, table.key_counts
    )
    precision_num = _side(
        table.response_sizes, table.key_sizes, table.cols, table.rows, table.counts
    )
    return (
        recall_num,
        int(table.key_sizes.sum()),
        precision_num,
        int(table.response_sizes.sum()),
    )
