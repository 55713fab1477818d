"""CEAF (Luo 2005, H05-1004): the best one-to-one entity alignment.

``phi3`` (mention-based, CEAFm) is |K ∩ R|; ``phi4`` (entity-based, CEAFe)
is 2|K ∩ R| / (|K| + |R|). Two entities that share no mention have similarity
0, so the optimal alignment decomposes over the connected components of the
key–response overlap graph: each component is solved on its own, most of them
are a single pair, and SciPy is imported only for a large component.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..contingency import ContingencyTable
from .base import sequential_sum

# Components with more work than this (rows × rows × columns) go to SciPy;
# below it the pure-Python solver is faster than importing SciPy.
_SCIPY_WORK = 64_000

Similarity = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def phi3(shared: np.ndarray, key_sizes: np.ndarray, response_sizes: np.ndarray) -> np.ndarray:
    return shared.astype(np.float64)


def phi4(shared: np.ndarray, key_sizes: np.ndarray, response_sizes: np.ndarray) -> np.ndarray:
    out: np.ndarray = 2 * shared / (key_sizes + response_sizes)
    return out


@dataclass(frozen=True)
class Alignment:
    """The optimal alignment: ``similarity[k]`` between key row and response column."""

    key_entities: np.ndarray
    response_entities: np.ndarray
    similarity: np.ndarray
    total: float


def align(table: ContingencyTable, similarity: Similarity) -> Alignment:
    """Optimal one-to-one alignment of key and response entities."""
    present = table.key_counts > 0
    rows = table.rows[present]
    cols = table.cols[present]
    weights = similarity(
        table.key_counts[present], table.key_sizes[rows], table.response_sizes[cols]
    )
    n_keys, n_responses = table.shape
    chosen_rows: list[np.ndarray] = []
    chosen_cols: list[np.ndarray] = []
    chosen_sims: list[np.ndarray] = []

    row_degree = np.bincount(rows, minlength=n_keys)
    col_degree = np.bincount(cols, minlength=n_responses)
    lone = (row_degree[rows] == 1) & (col_degree[cols] == 1)
    chosen_rows.append(rows[lone])
    chosen_cols.append(cols[lone])
    chosen_sims.append(weights[lone])
    if not lone.all():
        rest = ~lone
        r, c, w = _solve_components(rows[rest], cols[rest], weights[rest], n_keys)
        chosen_rows.append(r)
        chosen_cols.append(c)
        chosen_sims.append(w)
    key_entities = np.concatenate(chosen_rows)
    order = np.argsort(key_entities, kind="stable")
    key_entities = key_entities[order]
    response_entities = np.concatenate(chosen_cols)[order]
    sims = np.concatenate(chosen_sims)[order]
    # The reference adds 1 - (1 - phi) per key entity, in key order.
    total = sequential_sum(1 - (1 - sims))
    return Alignment(key_entities, response_entities, sims, total)


def _solve_components(
    rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, n_keys: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve each connected component of the remaining cells separately."""
    parent = list(range(n_keys + int(cols.max()) + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    row_list = rows.tolist()
    col_list = cols.tolist()
    for r, c in zip(row_list, col_list):
        a, b = find(r), find(n_keys + c)
        if a != b:
            parent[a] = b
    groups: dict[int, list[int]] = {}
    for k, r in enumerate(row_list):
        groups.setdefault(find(r), []).append(k)
    out_r: list[int] = []
    out_c: list[int] = []
    out_w: list[float] = []
    weight_list = weights.tolist()
    for members in groups.values():
        comp_rows = sorted({row_list[k] for k in members})
        comp_cols = sorted({col_list[k] for k in members})
        ri = {r: i for i, r in enumerate(comp_rows)}
        ci = {c: i for i, c in enumerate(comp_cols)}
        matrix = [[0.0] * len(comp_cols) for _ in comp_rows]
        for k in members:
            matrix[ri[row_list[k]]][ci[col_list[k]]] = weight_list[k]
        for i, j in _maximum_assignment(matrix):
            if matrix[i][j] > 0:
                out_r.append(comp_rows[i])
                out_c.append(comp_cols[j])
                out_w.append(matrix[i][j])
    return (
        np.array(out_r, dtype=np.int64),
        np.array(out_c, dtype=np.int64),
        np.array(out_w, dtype=np.float64),
    )


def _maximum_assignment(matrix: list[list[float]]) -> list[tuple[int, int]]:
    """Row/column pairs of a maximum-weight assignment of a dense matrix."""
    n, m = len(matrix), len(matrix[0])
    if n == 1:
        row = matrix[0]
        return [(0, max(range(m), key=row.__getitem__))]
    if m == 1:
        return [(max(range(n), key=lambda i: matrix[i][0]), 0)]
    if min(n, m) ** 2 * max(n, m) > _SCIPY_WORK:
        from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

        r, c = linear_sum_assignment(np.array(matrix), maximize=True)
        return list(zip(r.tolist(), c.tolist()))
    if n <= m:
        return _hungarian([[-w for w in row] for row in matrix])
    transposed = _hungarian([[-matrix[i][j] for i in range(n)] for j in range(m)])
    return [(i, j) for j, i in transposed]


def _hungarian(cost: list[list[float]]) -> list[tuple[int, int]]:
    """Minimum-cost assignment of every row (rows <= columns).

    Shortest augmenting paths with potentials (Kuhn 1955, Munkres 1957, in
    the O(n²m) form of Jonker & Volgenant 1987).
    """
    n, m = len(cost), len(cost[0])
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    owner = [0] * (m + 1)  # owner[j]: row (1-based) assigned to column j
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            row = cost[i0 - 1]
            ui0 = u[i0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return [(owner[j] - 1, j - 1) for j in range(1, m + 1) if owner[j]]


def statistics_m(table: ContingencyTable) -> tuple[float, ...]:
    """CEAFm: (Φ*, Σ|K|, Φ*, Σ|R|) with φ3."""
    total = align(table, phi3).total
    return (total, int(table.key_sizes.sum()), total, int(table.response_sizes.sum()))


def statistics_e(table: ContingencyTable) -> tuple[float, ...]:
    """CEAFe: (Φ*, |K|, Φ*, |R|) with φ4."""
    total = align(table, phi4).total
    n_keys, n_responses = table.shape
    return (total, n_keys, total, n_responses)
