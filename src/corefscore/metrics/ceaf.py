"""CEAF (Luo 2005, H05-1004): the best one-to-one entity alignment.

Recall is Φ*/Σφ(K,K) and precision Φ*/Σφ(R,R), where Φ* is the largest total
similarity of a one-to-one alignment of key and response entities. The
similarities of Luo (2005, §2.2) are ``phi1`` (1 for identical entities),
``phi2`` (1 for entities that share a mention), ``phi3`` (|K ∩ R|, CEAFm) and
``phi4`` (2|K ∩ R| / (|K| + |R|), CEAFe); ``custom`` takes any
non-negative similarity on ``Entity`` objects.

Two entities that share no mention have similarity 0, so the optimal alignment
decomposes over the connected components of the key–response overlap graph:
each component is solved on its own, most of them are a single pair, and SciPy
is imported only for a large component. ``entity_alignment`` exposes the
alignment itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from .._lazy import lazy_attributes
from .._record import NamedTuple
from ..contingency import (
    ContingencyTable,
    ListTable,
    segment_counts,
    segment_ordered_sums,
    segment_totals,
)
from ..errors import UsageError
from ..model import Span
from .base import Metric, PerDocument

if TYPE_CHECKING:
    import numpy as np

    from ..model import Entity
    from ._ceaf_alignment import AlignedPair as AlignedPair
    from ._ceaf_alignment import Alignment as Alignment
    from ._ceaf_alignment import EntityAlignment as EntityAlignment
else:
    from .._numpy import np


# The alignment records live in their own module, created when an alignment
# is first made or named: a run that scores small documents by their list
# formulas makes none, and creating the dataclasses was milliseconds of its
# start-up.
__getattr__ = lazy_attributes(
    globals(), dict.fromkeys(("Alignment", "AlignedPair", "EntityAlignment"), "._ceaf_alignment")
)


# Components with more work than this (rows × rows × columns) go to SciPy;
# below it the pure-Python solver is faster than importing SciPy.
_SCIPY_WORK = 64_000
# A component whose dense matrix would have more cells than this, and is mostly
# empty, is solved as a sparse matching: memory then grows with the table's
# cells, not with rows × columns (a random regrouping makes one huge component).
_DENSE_CELLS = 100_000

#: A similarity on entity sizes: (shared mentions, |K|, |R|) -> φ, elementwise.
Similarity = Callable[["np.ndarray", "np.ndarray", "np.ndarray"], "np.ndarray"]
#: A user similarity on two entities (key first, response second).
EntitySimilarity = Callable[["Entity", "Entity"], float]


def phi1(shared: np.ndarray, key_sizes: np.ndarray, response_sizes: np.ndarray) -> np.ndarray:
    """Luo (2005) eq. 6: 1 if the two entities are identical, else 0."""
    out: np.ndarray = ((shared == key_sizes) & (shared == response_sizes)).astype(np.float64)
    return out


def phi2(shared: np.ndarray, key_sizes: np.ndarray, response_sizes: np.ndarray) -> np.ndarray:
    """Luo (2005) eq. 7: 1 if the two entities share a mention, else 0."""
    out: np.ndarray = (shared > 0).astype(np.float64)
    return out


def phi3(shared: np.ndarray, key_sizes: np.ndarray, response_sizes: np.ndarray) -> np.ndarray:
    """Luo (2005) eq. 8: the number of shared mentions (CEAFm)."""
    return shared.astype(np.float64)


def phi4(shared: np.ndarray, key_sizes: np.ndarray, response_sizes: np.ndarray) -> np.ndarray:
    """Luo (2005) eq. 9: 2|K ∩ R| / (|K| + |R|) (CEAFe)."""
    out: np.ndarray = 2 * shared / (key_sizes + response_sizes)
    return out


def align(table: ContingencyTable, similarity: Similarity) -> Alignment:
    """Optimal one-to-one alignment of key and response entities (of every segment)."""
    present = table.key_counts > 0
    rows = table.rows[present]
    cols = table.cols[present]
    weights = similarity(
        table.key_counts[present], table.key_sizes[rows], table.response_sizes[cols]
    )
    if similarity is phi3 or similarity is phi4:
        # Positive on every linked pair: skip the check on the reference metrics' path.
        return _align_positive(table.shape, rows, cols, weights)
    return align_weights(table.shape, rows, cols, weights)


def align_weights(
    shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray, weights: np.ndarray
) -> Alignment:
    """Optimal one-to-one alignment given the similarity of every linked pair.

    ``weights[c]`` is the similarity of key entity ``rows[c]`` and response
    entity ``cols[c]``; every pair not listed has similarity 0. Pairs of
    similarity 0 are never reported as aligned.
    """
    positive = weights > 0
    if not positive.all():
        # phi1 and custom similarities can be 0 on linked pairs; such a pair
        # adds nothing, and dropping it keeps it out of the reported alignment.
        rows, cols, weights = rows[positive], cols[positive], weights[positive]
    return _align_positive(shape, rows, cols, weights)


def _align_positive(
    shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray, weights: np.ndarray
) -> Alignment:
    """The alignment, solved component by component of the overlap graph.

    Each component is solved by a rule that depends on that component alone
    (its cells in key-then-response order), never on the rest of the table, so
    a document scored on its own and inside a table of many documents gets
    the same pairs, bit for bit:

    * a lone pair (an entity linked to one entity only, and back) is aligned;
    * a component with one key or one response entity aligns its first pair
      of largest similarity;
    * any other component is solved exactly (Hungarian algorithm, SciPy's
      ``linear_sum_assignment`` for a large dense one, a sparse matching for
      a large sparse one).
    """
    from ._ceaf_alignment import Alignment

    n_keys, n_responses = shape
    row_degree = np.bincount(rows, minlength=n_keys)
    col_degree = np.bincount(cols, minlength=n_responses)
    lone = (row_degree[rows] == 1) & (col_degree[cols] == 1)
    chosen_rows = [rows[lone]]
    chosen_cols = [cols[lone]]
    chosen_sims = [weights[lone]]
    if not lone.all():
        rest = np.flatnonzero(~lone)
        for r, c, w in _solve_components(rest, rows, cols, weights, shape):
            chosen_rows.append(r)
            chosen_cols.append(c)
            chosen_sims.append(w)
    key_entities = np.concatenate(chosen_rows)
    order = np.argsort(key_entities, kind="stable")
    return Alignment(
        key_entities[order],
        np.concatenate(chosen_cols)[order],
        np.concatenate(chosen_sims)[order].astype(np.float64, copy=False),
    )


# Up to this many linked pairs outside lone pairs, components are found in
# Python; beyond it by array operations (``_linked_roots``).
_PYTHON_COMPONENTS = 4096


def _component_labels(
    cells: np.ndarray, rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]
) -> np.ndarray:
    """The connected component of each of ``cells`` (a label per cell, arbitrary numbers)."""
    n_keys, n_responses = shape
    if len(cells) > _PYTHON_COMPONENTS:
        roots = _linked_roots(rows[cells], n_keys + cols[cells], n_keys + n_responses)
        out: np.ndarray = roots[rows[cells]]
        return out
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:
            parent[x], x = root, parent.get(x, x)
        return root

    row_list = rows[cells].tolist()
    col_list = cols[cells].tolist()
    for r, c in zip(row_list, col_list):
        a, b = find(r), find(n_keys + c)
        if a != b:
            parent[a] = b
    return np.array([find(r) for r in row_list], dtype=np.int64)


def _linked_roots(u: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """For each of the nodes ``0 .. n - 1``, the least node of its connected
    component, the edges being the pairs ``(u[i], v[i])``.

    Each round hooks the larger root of every edge whose ends have different
    roots under the smaller one, then shortens every path to its root by
    pointer jumping; roots only ever decrease, so the rounds end, after few of
    them (a chain of n entities takes about log2 n jumps in one round). It
    saves importing ``scipy.sparse`` (a quarter of a second) for one large
    document.
    """
    parent = np.arange(n, dtype=np.int64)
    while True:
        pu, pv = parent[u], parent[v]
        apart = pu != pv
        if not apart.any():
            return parent
        u, v, pu, pv = u[apart], v[apart], pu[apart], pv[apart]
        np.minimum.at(parent, np.maximum(pu, pv), np.minimum(pu, pv))
        while True:
            grand = parent[parent]
            if (grand == parent).all():
                break
            parent = grand


def _solve_components(
    cells: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    weights: np.ndarray,
    shape: tuple[int, int],
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The aligned (rows, columns, similarities) of the components ``cells`` form."""
    labels = _component_labels(cells, rows, cols, shape)
    # Cells by component, then key entity, then response entity: each
    # component's canonical order.
    order = np.lexsort((cols[cells], rows[cells], labels))
    cells, labels = cells[order], labels[order]
    starts = np.flatnonzero(np.r_[True, labels[1:] != labels[:-1]])
    ends = np.r_[starts[1:], len(cells)]
    comp = np.repeat(np.arange(len(starts)), ends - starts)
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    # Components with one key entity (rows all equal) or one response entity.
    first_row = rows[cells][starts]
    one_row = np.minimum.reduceat(rows[cells] == np.repeat(first_row, ends - starts), starts)
    first_col = cols[cells][starts]
    one_col = np.minimum.reduceat(cols[cells] == np.repeat(first_col, ends - starts), starts)
    simple = one_row.astype(bool) | one_col.astype(bool)
    if simple.any():
        in_simple = simple[comp]
        members = cells[in_simple]
        member_comp = comp[in_simple]
        # The first pair of largest similarity in the component's canonical order.
        best = np.lexsort((-weights[members], member_comp))
        keep = np.r_[True, member_comp[best][1:] != member_comp[best][:-1]]
        picked = members[best[keep]]
        out.append((rows[picked], cols[picked], weights[picked]))
    for k in np.flatnonzero(~simple).tolist():
        members = cells[starts[k] : ends[k]]
        out.append(_solve_component(rows[members], cols[members], weights[members]))
    return out


def _solve_component(
    rows: np.ndarray, cols: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The best alignment of one component with several key and response entities."""
    found = _solve_layout(_ComponentLayout.of(rows.tolist(), cols.tolist()), weights.tolist())
    return (
        np.array([r for r, _, _ in found], dtype=np.int64),
        np.array([c for _, c, _ in found], dtype=np.int64),
        np.array([w for _, _, w in found], dtype=np.float64),
    )


class _ComponentLayout(NamedTuple):
    """A component's key and response entities in ascending order, and each cell's
    place among them: what its matrix is made of, whatever the similarity. (A named
    tuple: small documents make several per update.)"""

    rows: list[int]
    cols: list[int]
    local_rows: list[int]
    local_cols: list[int]

    @classmethod
    def of(cls, rows: list[int], cols: list[int]) -> _ComponentLayout:
        comp_rows = sorted(set(rows))
        comp_cols = sorted(set(cols))
        ri = {r: i for i, r in enumerate(comp_rows)}
        ci = {c: i for i, c in enumerate(comp_cols)}
        return cls(comp_rows, comp_cols, [ri[r] for r in rows], [ci[c] for c in cols])


def _solve_layout(layout: _ComponentLayout, weights: list[float]) -> list[tuple[int, int, float]]:
    """The aligned pairs of a component: on its dense matrix, or as a sparse matching
    when that matrix would be large and mostly empty."""
    n_rows, n_cols = len(layout.rows), len(layout.cols)
    dense_cells = n_rows * n_cols
    if dense_cells > _DENSE_CELLS and 8 * len(weights) < dense_cells:
        found = _sparse_assignment(
            np.array(layout.local_rows, dtype=np.int64),
            np.array(layout.local_cols, dtype=np.int64),
            np.array(weights, dtype=np.float64),
            n_rows,
        )
    elif min(n_rows, n_cols) > 1 and not _scipy_sized(n_rows, n_cols):
        plain = _distinct_maxima(layout.local_rows, layout.local_cols, weights, n_rows <= n_cols)
        found = plain or _hungarian_component(
            layout.local_rows, layout.local_cols, weights, n_rows, n_cols
        )
    else:
        found = _dense_component(layout.local_rows, layout.local_cols, weights, n_rows, n_cols)
    return [(layout.rows[i], layout.cols[j], w) for i, j, w in found]


def _distinct_maxima(
    local_rows: list[int], local_cols: list[int], weights: list[float], by_rows: bool
) -> list[tuple[int, int, float]] | None:
    """The alignment when it is plain: each row (``by_rows``; else each column) has
    one cell larger than its others, and those cells lie in distinct columns (rows).

    That alignment reaches the sum of the rows' maxima, which bounds every
    alignment, and any other one misses some row's maximum (strictly): it is the
    only optimum, which ``_hungarian`` also finds, so no tie rule is involved.
    ``None`` when it is not so (a tie for a maximum, or two maxima in one column).
    Most components of a model's output are plain (about 3 in 4 in
    bench/library.py's documents).
    """
    lines, others = (local_rows, local_cols) if by_rows else (local_cols, local_rows)
    found = _line_maxima(lines, others, range(len(lines)), weights, refuse_ties=True)
    if found is None:
        return None
    return [(local_rows[cell], local_cols[cell], weights[cell]) for cell in found]


def _line_maxima(
    lines: Sequence[int],
    others: Sequence[int],
    cells: Iterable[int],
    weights: Sequence[float],
    *,
    refuse_ties: bool,
) -> list[int] | None:
    """The cell of each line's largest weight (the first of its ties), when those
    cells lie on distinct other entities: an alignment that reaches the sum of the
    lines' maxima, which bounds every alignment. ``None`` when two of them share an
    other entity, or, with ``refuse_ties``, when a line's maximum is tied (the
    optimum may then not be unique)."""
    best: dict[int, int] = {}  # line -> the cell of its largest weight
    tied: set[int] = set()
    for cell in cells:
        line = lines[cell]
        held = best.get(line)
        if held is None or weights[cell] > weights[held]:
            best[line] = cell
            tied.discard(line)
        elif refuse_ties and weights[cell] == weights[held]:
            tied.add(line)
    if tied or len({others[cell] for cell in best.values()}) < len(best):
        return None
    return list(best.values())


def _hungarian_component(
    local_rows: list[int], local_cols: list[int], weights: list[float], n_rows: int, n_cols: int
) -> list[tuple[int, int, float]]:
    """``_dense_component`` by ``_hungarian``, the cost matrix built in the orientation
    it needs (rows <= columns). The pairs are the same: an absent cell costs 0.0
    here and -0.0 through ``_maximum_assignment``, and the algorithm only adds,
    subtracts and compares, where the sign of a zero changes nothing."""
    if n_rows <= n_cols:
        cost = [[0.0] * n_cols for _ in range(n_rows)]
        for i, j, w in zip(local_rows, local_cols, weights):
            cost[i][j] = -w
        pairs = _hungarian(cost)
        return [(i, j, -cost[i][j]) for i, j in pairs if cost[i][j] < 0]
    cost = [[0.0] * n_rows for _ in range(n_cols)]
    for i, j, w in zip(local_rows, local_cols, weights):
        cost[j][i] = -w
    pairs = _hungarian(cost)
    return sorted((i, j, -cost[j][i]) for j, i in pairs if cost[j][i] < 0)


def _dense_component(
    local_rows: list[int], local_cols: list[int], weights: list[float], n_rows: int, n_cols: int
) -> list[tuple[int, int, float]]:
    """The aligned (row, column, similarity) of a component given in local indices
    (its rows and columns numbered in ascending order), on its dense matrix."""
    if _scipy_sized(n_rows, n_cols):
        # Made as an array: scipy solves such a matrix faster than a list of lists
        # of its size is made and converted (the same values: the same pairs).
        array = np.zeros((n_rows, n_cols))
        array[local_rows, local_cols] = weights
        pairs = _maximum_assignment(array)
        found = array[tuple(zip(*pairs))].tolist()
        return [(i, j, w) for (i, j), w in zip(pairs, found) if w > 0]
    matrix = [[0.0] * n_cols for _ in range(n_rows)]
    for i, j, w in zip(local_rows, local_cols, weights):
        matrix[i][j] = w
    return [(i, j, matrix[i][j]) for i, j in _maximum_assignment(matrix) if matrix[i][j] > 0]


class _ListComponents(NamedTuple):
    """How the cells of a ``ListTable`` fall apart for the alignment, whatever the
    similarity: lone pairs, the components with one key or one response entity,
    and the other components, each component's cells in (key, response) order.
    The layout a general solver needs is made only for the few components that
    reach it."""

    lone: list[int]
    simple: list[list[int]]
    solved: list[list[int]]


def _list_components(table: ListTable) -> _ListComponents:
    """The table's ``_ListComponents``, found once for all the CEAF metrics."""
    found = table.memo.get("ceaf components")
    if found is not None:
        assert isinstance(found, _ListComponents)
        return found
    rows, cols = table.rows, table.cols
    # Plain loops over lists: on a document's few dozen cells, Counter and
    # map/compress chains cost more than they save.
    row_degree = [0] * len(table.key_sizes)
    col_degree = [0] * len(table.response_sizes)
    for r, c in zip(rows, cols):
        row_degree[r] += 1
        col_degree[c] += 1
    lone: list[int] = []
    rest: list[int] = []
    for cell, r in enumerate(rows):
        # A cell alone in its row and its column is a component of its own.
        if row_degree[r] == 1 and col_degree[cols[cell]] == 1:
            lone.append(cell)
        else:
            rest.append(cell)
    simple: list[list[int]] = []
    solved: list[list[int]] = []
    if rest:
        # Union-find with path halving over the key entities only: the key
        # entities linked to one response entity are joined to the first of them.
        parent = list(range(len(row_degree)))
        anchor: dict[int, int] = {}
        for cell in rest:
            a = rows[cell]
            b = anchor.setdefault(cols[cell], a)
            if a != b:
                while parent[a] != a:
                    parent[a] = a = parent[parent[a]]
                while parent[b] != b:
                    parent[b] = b = parent[parent[b]]
                if a != b:
                    parent[a] = b
        groups: dict[int, list[tuple[int, int, int]]] = {}
        for cell in rest:
            a = r = rows[cell]
            while parent[a] != a:
                parent[a] = a = parent[parent[a]]
            members = groups.get(a)
            if members is None:
                groups[a] = [(r, cols[cell], cell)]
            else:
                members.append((r, cols[cell], cell))
        for members in groups.values():
            members.sort()
            cells = [cell for _, _, cell in members]
            # One key (response) entity holds the whole component when all of
            # that entity's cells are the component's.
            first_row, first_col, _ = members[0]
            if row_degree[first_row] == len(cells) or col_degree[first_col] == len(cells):
                simple.append(cells)
            else:
                solved.append(cells)
    found = table.memo["ceaf components"] = _ListComponents(lone, simple, solved)
    return found


# Two alignments whose totals differ by less than this fraction of the larger
# are a tie for ``_enumerated``: far above the rounding of a sum of a few
# similarities or of the Hungarian algorithm's potentials (about 1e-16 of the
# largest similarity), so that a unique optimum found there is the one
# ``_hungarian`` finds too, and far below the gap between different sums of a
# few fractions of small integers.
_TIE = 1e-9
# Search nodes ``_enumerated`` may visit on one component before it gives the
# component to the general solver: enough for the small, sparse components of
# a model's output, and a bound on the time lost on a large or dense one.
_ENUMERATION_NODES = 200


def _enumerated(
    lines: list[int],
    others: list[int],
    cells: list[int],
    weights: Sequence[float],
    *,
    ties: bool,
) -> tuple[list[int], float] | None:
    """The optimal alignment of one component, by search: its cells and Φ*.

    Each entity of one side (``lines``, by cell; ``others``: the entity on the
    other side) in turn takes one of its cells whose other entity is free, or
    none, pruned by the sum of the remaining entities' largest similarities.
    With ``ties`` the runner-up is tracked too and ``None`` is returned unless
    the optimum is unique by more than ``_TIE``: then it is the alignment every
    exact solver finds, whatever its rule for ties (``_solve_layout``'s decides
    the others). ``None`` too when the search would visit more than
    ``_ENUMERATION_NODES`` nodes.
    """
    by_line: dict[int, list[int]] = {}
    for cell in cells:
        found = by_line.get(lines[cell])
        if found is None:
            by_line[lines[cell]] = [cell]
        else:
            found.append(cell)
    options = [sorted(group, key=weights.__getitem__, reverse=True) for group in by_line.values()]
    # bound[t]: the most the entities from t on can add.
    bound = [0.0] * (len(options) + 1)
    for t in range(len(options) - 1, -1, -1):
        bound[t] = bound[t + 1] + weights[options[t][0]]
    depth = len(options)
    best = second = -1.0
    chosen: list[int] = []
    picked: list[int] = []
    taken: set[int] = set()
    budget = _ENUMERATION_NODES

    def visit(t: int, total: float) -> bool:
        """Search on from entity ``t``; False stops the whole search."""
        nonlocal best, second, chosen, budget
        budget -= 1
        if budget < 0:
            return False
        if t == depth:
            if total > best:
                best, second, chosen = total, best, picked[:]
            elif total > second:
                second = total
            # Without ties to find, reaching the bound ends the search.
            return ties or best < bound[0]
        if total + bound[t] <= (second if ties else best):
            return True
        for cell in options[t]:
            other = others[cell]
            if other not in taken:
                taken.add(other)
                picked.append(cell)
                if not visit(t + 1, total + weights[cell]):
                    return False
                picked.pop()
                taken.discard(other)
        return visit(t + 1, total)

    visit(0, 0.0)
    if budget < 0 or (ties and best - second <= _TIE * best):
        return None
    return chosen, best


def _two_line_alignment(
    lines: list[int], others: list[int], cells: list[int], weights: list[float]
) -> list[int] | None:
    """``_enumerated`` with ``ties`` on a component with exactly two entities on
    one side (``lines``): an alignment is then one cell, or two cells of
    different lines and different other entities, few enough to try all
    without a search."""
    first = lines[cells[0]]
    best = second = -1.0
    chosen: list[int] = []
    for a in cells:
        wa = weights[a]
        if wa > best:
            best, second, chosen = wa, best, [a]
        elif wa > second:
            second = wa
        if lines[a] != first:
            continue
        oa = others[a]
        for b in cells:
            if lines[b] != first and others[b] != oa:
                value = wa + weights[b]
                if value > best:
                    best, second, chosen = value, best, [a, b]
                elif value > second:
                    second = value
    if best - second <= _TIE * best:
        return None
    return chosen


def _two_line_value(
    lines: list[int], others: list[int], cells: list[int], counts: list[int]
) -> int:
    """``_two_line_alignment``'s Φ* with integer similarities (ties do not matter)."""
    first = lines[cells[0]]
    best = 0
    for a in cells:
        na = counts[a]
        if na > best:
            best = na
        if lines[a] != first:
            continue
        oa = others[a]
        for b in cells:
            if lines[b] != first and others[b] != oa and na + counts[b] > best:
                best = na + counts[b]
    return best


def _component_alignment(
    rows: list[int], cols: list[int], cells: list[int], weights: list[float]
) -> list[tuple[int, float]]:
    """(key entity, similarity) of the aligned pairs of one component with several
    key and several response entities (``cells`` in (key, response) order)."""
    found: list[int] | None = None
    if len({rows[c] for c in cells}) == 2:
        found = _two_line_alignment(rows, cols, cells, weights)
    elif len({cols[c] for c in cells}) == 2:
        found = _two_line_alignment(cols, rows, cells, weights)
    if found is not None:
        return [(rows[c], weights[c]) for c in found]
    member_rows = [rows[c] for c in cells]
    member_cols = [cols[c] for c in cells]
    member_weights = [weights[c] for c in cells]
    # _solve_layout's first rule, tried before the layout is made (it reads
    # entities by identity, not position): when it applies, the optimum is
    # unique, so every branch of _solve_layout would find these pairs.
    by_rows = len(set(member_rows)) <= len(set(member_cols))
    plain = _distinct_maxima(member_rows, member_cols, member_weights, by_rows)
    if plain is not None:
        return [(r, w) for r, _, w in plain]
    layout = _ComponentLayout.of(member_rows, member_cols)
    return [(r, w) for r, _, w in _solve_layout(layout, member_weights)]


def _maxima_value(
    lines: list[int], others: list[int], cells: list[int], counts: list[int]
) -> int | None:
    """Φ* of a component when each line's largest cell (the first of its ties) lies
    on a distinct other entity (``_line_maxima``). ``None`` otherwise
    (``_enumerated`` searches then). Under φ3 a tie does not matter, as only Φ* is
    wanted. Two in three of the components that come this far are settled here in
    bench/library.py's documents (41 of 62)."""
    found = _line_maxima(lines, others, cells, counts, refuse_ties=False)
    return None if found is None else sum(counts[cell] for cell in found)


def _component_value(rows: list[int], cols: list[int], cells: list[int], counts: list[int]) -> int:
    """Φ* of one component with several key and response entities under φ3 (an
    integer: any optimal alignment will do)."""
    n_rows = len({rows[c] for c in cells})
    if n_rows == 2:
        return _two_line_value(rows, cols, cells, counts)
    n_cols = len({cols[c] for c in cells})
    if n_cols == 2:
        return _two_line_value(cols, rows, cells, counts)
    lines, others = (rows, cols) if n_rows <= n_cols else (cols, rows)
    plain = _maxima_value(lines, others, cells, counts)
    if plain is not None:
        return plain
    found = _enumerated(lines, others, cells, counts, ties=False)
    if found is not None:
        return int(found[1])
    layout = _ComponentLayout.of([rows[c] for c in cells], [cols[c] for c in cells])
    return sum(int(w) for _, _, w in _solve_layout(layout, [float(counts[c]) for c in cells]))


def _list_alignment(table: ListTable, weights: list[float]) -> list[float]:
    """``_align_positive`` on a small ``ListTable`` (``weights``: each cell's
    similarity): the similarity of each aligned pair, in key entity order, by
    the same rules (a lone pair is aligned; a component with one key or one
    response entity aligns its first pair of largest similarity in (key,
    response) order; any other one is solved exactly, its ties by ``_solve_layout``)."""
    rows, cols = table.rows, table.cols
    parts = _list_components(table)
    # Each key entity is aligned at most once: a slot each keeps them in order.
    aligned: list[float | None] = [None] * len(table.key_sizes)
    for cell in parts.lone:
        aligned[rows[cell]] = weights[cell]
    for cells in parts.simple:
        best = cells[0]
        for cell in cells:
            if weights[cell] > weights[best]:
                best = cell
        aligned[rows[best]] = weights[best]
    for cells in parts.solved:
        for row, similarity in _component_alignment(rows, cols, cells, weights):
            aligned[row] = similarity
    return [similarity for similarity in aligned if similarity is not None]


def list_statistics_m(table: ListTable) -> tuple[float, ...]:
    """``segment_statistics_m`` of a one-document ``ListTable``.

    φ3 is an integer, so the reference's sum of 1 - (1 - φ) over the aligned
    pairs in key order is exact whatever the order and whichever optimal
    alignment is taken: Φ* is found as an integer, without the pairs."""
    counts, rows, cols = table.counts, table.rows, table.cols
    parts = _list_components(table)
    total = 0
    for cell in parts.lone:
        total += counts[cell]
    for cells in parts.simple:
        total += max(map(counts.__getitem__, cells))
    for cells in parts.solved:
        total += _component_value(rows, cols, cells, counts)
    found = float(total)
    return (found, float(table.key_mentions), found, float(table.response_mentions))


def list_statistics_e(table: ListTable) -> tuple[float, ...]:
    """``segment_statistics_e`` of a one-document ``ListTable``."""
    key_sizes, response_sizes = table.key_sizes, table.response_sizes
    weights = [
        2 * n / (key_sizes[i] + response_sizes[j])
        for i, j, n in zip(table.rows, table.cols, table.counts)
    ]
    total = 0.0
    for similarity in _list_alignment(table, weights):
        total += 1 - (1 - similarity)
    return (total, float(len(key_sizes)), total, float(len(response_sizes)))


def _sparse_assignment(
    rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, n_rows: int
) -> list[tuple[int, int, float]]:
    """Maximum-weight matching of a sparse bipartite graph: (row, column, weight).

    Every row also gets its own zero-gain dummy column, so a full matching of
    the rows always exists and leaving a row unaligned is allowed; costs are
    ``top - weight`` (all positive), so the minimum-cost full matching is the
    maximum-weight one.
    """
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]
    from scipy.sparse.csgraph import (  # type: ignore[import-untyped]
        min_weight_full_bipartite_matching,
    )

    n_cols = int(cols.max()) + 1
    top = float(weights.max()) + 1.0
    dummy = np.arange(n_rows, dtype=np.int64)
    graph = csr_matrix(
        (
            np.concatenate([top - weights, np.full(n_rows, top)]),
            (np.concatenate([rows, dummy]), np.concatenate([cols, n_cols + dummy])),
        ),
        shape=(n_rows, n_cols + n_rows),
    )
    row_ind, col_ind = min_weight_full_bipartite_matching(graph)
    real = col_ind < n_cols
    row_ind, col_ind = row_ind[real], col_ind[real]
    # The weights as given, not recovered from the costs (top - w loses bits).
    cell_keys = rows * n_cols + cols
    order = np.argsort(cell_keys, kind="stable")
    found = order[np.searchsorted(cell_keys, row_ind * n_cols + col_ind, sorter=order)]
    chosen = weights[found]
    keep = chosen > 0
    return list(zip(row_ind[keep].tolist(), col_ind[keep].tolist(), chosen[keep].tolist()))


def _scipy_sized(n: int, m: int) -> bool:
    """Whether an assignment of ``n`` rows and ``m`` columns is too large for the
    Hungarian algorithm in Python (``_maximum_assignment`` then gives it to scipy,
    unless one side has a single entity, which needs no solver)."""
    return min(n, m) ** 2 * max(n, m) > _SCIPY_WORK


def _maximum_assignment(matrix: list[list[float]] | np.ndarray) -> list[tuple[int, int]]:
    """Row/column pairs of a maximum-weight assignment of a dense matrix (an array
    only where ``_scipy_sized``)."""
    n, m = len(matrix), len(matrix[0])
    if n == 1:
        row = matrix[0]
        return [(0, max(range(m), key=row.__getitem__))]
    if m == 1:
        return [(max(range(n), key=lambda i: matrix[i][0]), 0)]
    if _scipy_sized(n, m):
        from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

        r, c = linear_sum_assignment(np.asarray(matrix), maximize=True)
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


def _segment_ceaf(table: ContingencyTable, similarity: Similarity, by_mentions: bool) -> np.ndarray:
    """(Φ*, Σφ(K,K), Φ*, Σφ(R,R)) per segment, Φ* added per key entity in key order."""
    alignment = align(table, similarity)
    total = segment_ordered_sums(
        table, 1 - (1 - alignment.similarity), "key", at=alignment.key_entities
    )
    if by_mentions:
        key_self = segment_totals(table, table.key_sizes, "key")
        response_self = segment_totals(table, table.response_sizes, "response")
    else:
        key_self = segment_counts(table, "key")
        response_self = segment_counts(table, "response")
    return np.column_stack((total, key_self, total, response_self))


def segment_statistics_m(table: ContingencyTable) -> np.ndarray:
    """CEAFm: (Φ*, Σ|K|, Φ*, Σ|R|) with φ3."""
    return _segment_ceaf(table, phi3, by_mentions=True)


def segment_statistics_e(table: ContingencyTable) -> np.ndarray:
    """CEAFe: (Φ*, |K|, Φ*, |R|) with φ4."""
    return _segment_ceaf(table, phi4, by_mentions=False)


def segment_statistics_phi1(table: ContingencyTable) -> np.ndarray:
    """CEAF with φ1: (Φ*, |K|, Φ*, |R|), as φ1(E, E) = 1 for every entity."""
    return _segment_ceaf(table, phi1, by_mentions=False)


def segment_statistics_phi2(table: ContingencyTable) -> np.ndarray:
    """CEAF with φ2: (Φ*, |K|, Φ*, |R|), as φ2(E, E) = 1 for every entity."""
    return _segment_ceaf(table, phi2, by_mentions=False)


statistics_m = PerDocument(segment_statistics_m)
statistics_e = PerDocument(segment_statistics_e)
statistics_phi1 = PerDocument(segment_statistics_phi1)
statistics_phi2 = PerDocument(segment_statistics_phi2)


# --------------------------------------------------------------------------------------------
# Similarities as weighted cells: what both the statistics and entity_alignment need.


# A named tuple, not a dataclass: generating a dataclass's methods was about
# 0.6 ms of the start-up of `corefscore score`.
class _Weighted(NamedTuple):
    """The linked pairs of one table with their similarity, and the self-similarity sums."""

    rows: np.ndarray
    cols: np.ndarray
    weights: np.ndarray
    key_self: float
    response_self: float


def _weigh_builtin(table: ContingencyTable, similarity: Similarity) -> _Weighted:
    present = table.key_counts > 0
    rows = table.rows[present]
    cols = table.cols[present]
    weights = similarity(
        table.key_counts[present], table.key_sizes[rows], table.response_sizes[cols]
    )
    # φ(E, E) of a size-only similarity: every mention shared with itself.
    ks, rs = table.key_sizes, table.response_sizes
    return _Weighted(
        rows,
        cols,
        weights,
        math.fsum(similarity(ks, ks, ks).tolist()),
        math.fsum(similarity(rs, rs, rs).tolist()),
    )


class CustomSimilarity:
    """The statistics of a CEAF whose similarity is a user function on entities.

    Calling it on a table returns (Φ*, Σφ(K,K), Φ*, Σφ(R,R)). The function is
    called only on pairs of entities that share a mention and on each entity
    with itself (see ``custom``).
    """

    def __init__(self, similarity: EntitySimilarity, name: str) -> None:
        self.similarity = similarity
        self.name = name

    def __repr__(self) -> str:
        return f"CustomSimilarity({self.similarity!r}, name={self.name!r})"

    def _value(self, key: Entity, response: Entity, doc_id: str) -> float:
        try:
            value = self.similarity(key, response)
            number = float(value)
        except (TypeError, ValueError) as error:
            raise UsageError(
                f"CEAF similarity of metric {self.name!r} failed on entities {key.label!r} and "
                f"{response.label!r} of document {doc_id!r}: {error}"
            ) from error
        if not math.isfinite(number) or number < 0:
            raise UsageError(
                f"CEAF similarity of metric {self.name!r} returned {value!r} for entities "
                f"{key.label!r} and {response.label!r} of document {doc_id!r}; it must be a "
                "finite number >= 0"
            )
        return number

    def weigh(self, table: ContingencyTable) -> _Weighted:
        if table.key is None or table.response is None:
            raise UsageError(
                f"metric {self.name!r} needs the documents of the table (build it with "
                "corefscore.contingency.build_table)"
            )
        key_doc, response_doc = table.key, table.response
        doc_id = key_doc.doc_id
        keys = [key_doc.entity(i) for i in range(len(key_doc.entities))]
        responses = [response_doc.entity(j) for j in range(len(response_doc.entities))]
        present = table.key_counts > 0
        rows = table.rows[present]
        cols = table.cols[present]
        weights = np.array(
            [
                self._value(keys[i], responses[j], doc_id)
                for i, j in zip(rows.tolist(), cols.tolist())
            ],
            dtype=np.float64,
        )
        key_self = math.fsum(self._value(k, k, doc_id) for k in keys)
        response_self = math.fsum(self._value(r, r, doc_id) for r in responses)
        return _Weighted(rows, cols, weights, key_self, response_self)

    def __call__(self, table: ContingencyTable) -> tuple[float, ...]:
        weighted = self.weigh(table)
        total = align_weights(table.shape, weighted.rows, weighted.cols, weighted.weights).total
        return (total, weighted.key_self, total, weighted.response_self)


def custom(
    similarity: EntitySimilarity,
    *,
    name: str,
    symmetric: bool = False,
    summary: str | None = None,
    requires: tuple[str, ...] = (),
) -> Metric:
    """A CEAF metric with a user similarity φ(K, R) on ``Entity``.

    ``similarity(key_entity, response_entity)`` must return a finite number
    at least 0, and 0 when the two entities have no mention in common: Luo (2005,
    §2) requires φ(K, R) = 0 for entities with nothing in common, and the
    alignment is solved per connected component of the overlap graph, so it
    is called only on pairs that share a mention, plus once on every entity
    with itself (φ(K, K), φ(R, R): the recall and precision denominators).
    Recall and precision stay in [0, 1] when φ(K, R) <= min(φ(K, K), φ(R, R)).
    ``symmetric=True`` declares φ(K, R) = φ(R, K) (then swapping key and
    response swaps recall and precision); ``requires`` names document facts
    the similarity reads (``"mention_levels"``, ``"entity_types"``), so that
    scoring refuses documents without them up front. A value that is not a finite
    number >= 0 raises ``UsageError`` naming the
    entities and the document.

    ```pycon
    >>> weighted = custom(lambda k, r: len(set(k.mentions) & set(r.mentions)), name="my-ceaf")
    ```
    """
    if not isinstance(name, str) or not name.strip():
        raise UsageError("a custom CEAF metric needs a non-empty name")
    if not callable(similarity):
        raise UsageError(f"the similarity of custom CEAF metric {name!r} is not callable")
    return Metric(
        name=name,
        statistics=CustomSimilarity(similarity, name),
        summary=summary or f"CEAF with the custom similarity {_callable_name(similarity)}",
        citation="Luo 2005 (H05-1004), custom φ",
        symmetric=symmetric,
        requires=tuple(requires),
    )


def _callable_name(function: object) -> str:
    return str(getattr(function, "__qualname__", None) or type(function).__name__)


# --------------------------------------------------------------------------------------------
# The alignment itself


#: Built-in CEAF metrics with one alignment: name -> similarity.
BUILTIN_SIMILARITIES: dict[str, Similarity] = {
    "ceafm": phi3,
    "ceafe": phi4,
    "ceaf-phi1": phi1,
    "ceaf-phi2": phi2,
}
_ALIASES = {
    "ceaf-phi3": "ceafm",
    "ceaf-m": "ceafm",
    "ceaf_m": "ceafm",
    "ceaf_phi3": "ceafm",
    "ceaf-phi4": "ceafe",
    "ceaf-e": "ceafe",
    "ceaf_e": "ceafe",
    "ceaf_phi4": "ceafe",
    "ceaf_phi1": "ceaf-phi1",
    "ceaf_phi2": "ceaf-phi2",
}


def _weigher(metric: str | Metric) -> tuple[str, Callable[[ContingencyTable], _Weighted]]:
    if isinstance(metric, Metric):
        if isinstance(metric.statistics, CustomSimilarity):
            return metric.name, metric.statistics.weigh
        name = metric.name
    elif isinstance(metric, str):
        name = metric.strip().lower()
        name = _ALIASES.get(name, name)
    else:
        raise UsageError(f"metric must be a name or a Metric, got {metric!r}")
    similarity = BUILTIN_SIMILARITIES.get(name)
    if similarity is None:
        raise UsageError(
            f"{name!r} is not a CEAF metric with one alignment; choose "
            f"{', '.join(BUILTIN_SIMILARITIES)} or a metric made by ceaf.custom()"
        )
    return name, lambda table: _weigh_builtin(table, similarity)


def entity_alignment(table: ContingencyTable, metric: str | Metric = "ceafe") -> EntityAlignment:
    """The optimal one-to-one entity alignment of ``metric`` on one document's table.

    ``metric`` is ``ceafm``, ``ceafe``, ``ceaf-phi1``, ``ceaf-phi2`` (or an
    alias) or a ``Metric`` made by ``custom``. ``total`` is the same
    number the metric's statistics use.
    """
    from ._ceaf_alignment import AlignedPair, EntityAlignment

    name, weigh = _weigher(metric)
    weighted = weigh(table)
    alignment = align_weights(table.shape, weighted.rows, weighted.cols, weighted.weights)
    n_keys, n_responses = table.shape

    def describe(side: str, index: int) -> tuple[str, tuple[Span, ...]]:
        doc = table.key if side == "key" else table.response
        if doc is None:
            return str(index), ()
        return doc.labels[index], doc.entities[index]

    pairs = []
    for i, j, sim in zip(
        alignment.key_entities.tolist(),
        alignment.response_entities.tolist(),
        alignment.similarity.tolist(),
    ):
        key_label, key_mentions = describe("key", i)
        response_label, response_mentions = describe("response", j)
        pairs.append(
            AlignedPair(i, j, key_label, response_label, sim, key_mentions, response_mentions)
        )
    aligned_keys = set(alignment.key_entities.tolist())
    aligned_responses = set(alignment.response_entities.tolist())
    lone_keys = [describe("key", i) for i in range(n_keys) if i not in aligned_keys]
    lone_responses = [
        describe("response", j) for j in range(n_responses) if j not in aligned_responses
    ]
    return EntityAlignment(
        doc_id=table.key.doc_id if table.key is not None else "",
        metric=name,
        pairs=tuple(pairs),
        unaligned_key=tuple(label for label, _ in lone_keys),
        unaligned_response=tuple(label for label, _ in lone_responses),
        total=alignment.total,
        key_self=weighted.key_self,
        response_self=weighted.response_self,
        unaligned_key_mentions=tuple(m for _, m in lone_keys),
        unaligned_response_mentions=tuple(m for _, m in lone_responses),
    )


_LUO = "Luo 2005 (H05-1004)"

DEFINITIONS: tuple[Metric, ...] = (
    Metric.segmented(
        name="ceafm",
        segment_statistics=segment_statistics_m,
        list_statistics=list_statistics_m,
        summary="CEAF with phi3 = |K ∩ R|: mentions in correctly aligned entities",
        citation=_LUO,
        aliases=("ceaf-phi3", "ceaf-m", "ceaf_m"),
    ),
    Metric.segmented(
        name="ceafe",
        segment_statistics=segment_statistics_e,
        list_statistics=list_statistics_e,
        summary="CEAF with phi4 = 2|K ∩ R| / (|K| + |R|): correctly aligned entities",
        citation=_LUO,
        aliases=("ceaf-phi4", "ceaf-e", "ceaf_e"),
    ),
    Metric.segmented(
        name="ceaf-phi1",
        segment_statistics=segment_statistics_phi1,
        summary="CEAF with phi1 = 1 if K = R else 0: entities recovered exactly",
        citation=_LUO + ", eq. 6",
        aliases=("ceaf_phi1",),
    ),
    Metric.segmented(
        name="ceaf-phi2",
        segment_statistics=segment_statistics_phi2,
        summary="CEAF with phi2 = 1 if K ∩ R ≠ ∅ else 0: entities found at all (one-to-one)",
        citation=_LUO + ", eq. 7",
        aliases=("ceaf_phi2",),
    ),
)
