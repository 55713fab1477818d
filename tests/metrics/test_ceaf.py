"""CEAF: the per-component solver against brute force and SciPy, and the CEAF family
(Luo 2005): phi1, phi2, custom similarities and the exposed entity alignment."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction as Fr
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.contingency import build_table
from corefscore.errors import InputError, UsageError
from corefscore.metrics import REGISTRY, Metric, MetricScore, ceaf
from corefscore.model import Document, Entity, document_from_clusters
from corefscore.report.alignment import format_alignment


def brute_force(matrix: list[list[float]]) -> float:
    n, m = len(matrix), len(matrix[0])
    if n > m:
        matrix = [list(col) for col in zip(*matrix)]
        n, m = m, n
    return max(sum(matrix[i][p[i]] for i in range(n)) for p in permutations(range(m), n))


matrices = st.integers(1, 6).flatmap(
    lambda n: st.integers(1, 6).flatmap(
        lambda m: st.lists(
            st.lists(
                st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0, 1 / 3, 0.8]), min_size=m, max_size=m
            ),
            min_size=n,
            max_size=n,
        )
    )
)


@settings(max_examples=300, deadline=None)
@given(matrices)
def test_assignment_is_optimal(matrix: list[list[float]]) -> None:
    pairs = ceaf._maximum_assignment(matrix)
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    assert len(pairs) == min(len(matrix), len(matrix[0]))
    value = sum(matrix[i][j] for i, j in pairs)
    assert math.isclose(value, brute_force(matrix), rel_tol=1e-12, abs_tol=1e-12)


def test_scipy_and_pure_python_solvers_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        n, m = rng.integers(2, 30, size=2)
        matrix = (rng.integers(0, 5, size=(n, m)) / rng.integers(1, 6, size=(n, m))).tolist()
        monkeypatch.setattr(ceaf, "_SCIPY_WORK", 10**9)
        python = sum(matrix[i][j] for i, j in ceaf._maximum_assignment(matrix))
        monkeypatch.setattr(ceaf, "_SCIPY_WORK", 0)
        scipy = sum(matrix[i][j] for i, j in ceaf._maximum_assignment(matrix))
        assert math.isclose(python, scipy, rel_tol=1e-12)


# Components as the alignment sees them: cells (row, column, weight) with every
# row and column used, weights from a few values so that ties are frequent.
components = st.integers(2, 6).flatmap(
    lambda n: st.integers(2, 6).flatmap(
        lambda m: st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.integers(0, m - 1),
                st.sampled_from([1.0, 2.0, 3.0, 0.5, 2 / 3, 0.4, 4 / 7, 1 / 3]),
            ),
            min_size=1,
            max_size=n * m,
            unique_by=lambda cell: (cell[0], cell[1]),
        )
    )
)


@settings(max_examples=500, deadline=None)
@given(components)
def test_the_component_solver_gives_the_pairs_of_the_dense_solver(
    cells: list[tuple[int, int, float]],
) -> None:
    # The shortcuts of _solve_layout (distinct maxima; the cost matrix built in
    # the orientation _hungarian needs) must give _dense_component's pairs exactly.
    cells.sort()
    layout = ceaf._ComponentLayout.of([r for r, _, _ in cells], [c for _, c, _ in cells])
    weights = [w for _, _, w in cells]
    n, m = len(layout.rows), len(layout.cols)
    dense = ceaf._dense_component(layout.local_rows, layout.local_cols, weights, n, m)
    expected = sorted((layout.rows[i], layout.cols[j], w) for i, j, w in dense)
    assert sorted(ceaf._solve_layout(layout, weights)) == expected
    if min(n, m) > 1:
        by_cost = ceaf._hungarian_component(layout.local_rows, layout.local_cols, weights, n, m)
        assert sorted(by_cost) == sorted(dense)
    plain = ceaf._distinct_maxima(layout.local_rows, layout.local_cols, weights, n <= m)
    if plain is not None:
        assert sorted(plain) == sorted(dense)


def _dense_pairs(cells: list[tuple[int, int, float]]) -> list[tuple[int, float]]:
    """(key entity, similarity) of the general solver's alignment of ``cells``."""
    layout = ceaf._ComponentLayout.of([r for r, _, _ in cells], [c for _, c, _ in cells])
    n, m = len(layout.rows), len(layout.cols)
    found = ceaf._dense_component(
        layout.local_rows, layout.local_cols, [w for *_, w in cells], n, m
    )
    return sorted((layout.rows[i], w) for i, _, w in found)


@settings(max_examples=500, deadline=None)
@given(components)
def test_the_list_solvers_give_the_pairs_of_the_dense_solver(
    cells: list[tuple[int, int, float]],
) -> None:
    # The exact shortcuts of the list formulas (two entities on one side, the
    # search) must give the general solver's pairs, ties included: a tie is
    # theirs to refuse, never to decide.
    cells.sort()
    rows = [r for r, _, _ in cells]
    cols = [c for _, c, _ in cells]
    weights = [w for _, _, w in cells]
    ids = list(range(len(cells)))
    expected = _dense_pairs(cells)
    if len(set(rows)) > 1 and len(set(cols)) > 1:
        assert sorted(ceaf._component_alignment(rows, cols, ids, weights)) == expected
    for lines, others in ((rows, cols), (cols, rows)):
        searched = ceaf._enumerated(lines, others, ids, weights, ties=True)
        if searched is not None:
            assert sorted((rows[c], weights[c]) for c in searched[0]) == expected
        if len(set(lines)) == 2:
            two = ceaf._two_line_alignment(lines, others, ids, weights)
            if two is not None:
                assert sorted((rows[c], weights[c]) for c in two) == expected


@settings(max_examples=25, deadline=None)
@given(st.integers(41, 56), st.integers(41, 56), st.data())
def test_a_large_component_is_solved_on_an_array_as_on_its_list_matrix(
    n: int, m: int, data: st.DataObject
) -> None:
    # Beyond the Python solver's size the matrix is made as an array for scipy:
    # the pairs and similarities (Python floats) of the list of lists it replaces,
    # ties included (few distinct weights).
    assert ceaf._scipy_sized(n, m)
    cells = data.draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, m - 1), st.integers(1, 4)),
            min_size=1,
            max_size=3 * max(n, m),
            unique_by=lambda cell: (cell[0], cell[1]),
        )
    )
    rows = [i for i, _, _ in cells]
    cols = [j for _, j, _ in cells]
    weights = [w / 3 for _, _, w in cells]
    matrix = [[0.0] * m for _ in range(n)]
    for i, j, w in zip(rows, cols, weights):
        matrix[i][j] = w
    expected = [(i, j, matrix[i][j]) for i, j in ceaf._maximum_assignment(matrix) if matrix[i][j]]
    found = ceaf._dense_component(rows, cols, weights, n, m)
    assert found == expected
    assert all(type(w) is float for _, _, w in found)


integer_components = st.integers(2, 6).flatmap(
    lambda n: st.integers(2, 6).flatmap(
        lambda m: st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, m - 1), st.integers(1, 4)),
            min_size=1,
            max_size=n * m,
            unique_by=lambda cell: (cell[0], cell[1]),
        )
    )
)


@settings(max_examples=500, deadline=None)
@given(integer_components)
def test_the_integer_optimum_is_the_dense_solvers(cells: list[tuple[int, int, int]]) -> None:
    # CEAFm's list formula finds Φ* without the pairs: it must be the optimum
    # the general solver reaches, whichever of the shortcuts finds it.
    cells.sort()
    rows = [r for r, _, _ in cells]
    cols = [c for _, c, _ in cells]
    counts = [n for _, _, n in cells]
    ids = list(range(len(cells)))
    expected = sum(w for _, w in _dense_pairs([(r, c, float(n)) for r, c, n in cells]))
    if len(set(rows)) > 1 and len(set(cols)) > 1:
        assert ceaf._component_value(rows, cols, ids, counts) == expected
    for lines, others in ((rows, cols), (cols, rows)):
        searched = ceaf._enumerated(lines, others, ids, counts, ties=False)
        if searched is not None:
            assert searched[1] == expected
        plain = ceaf._maxima_value(lines, others, ids, counts)
        if plain is not None:
            assert plain == expected
        if len(set(lines)) == 2:
            assert ceaf._two_line_value(lines, others, ids, counts) == expected


def test_the_search_refuses_ties_and_gives_up_when_too_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Rows 0 and 1 over columns 0 and 1: 1 + 1 on either diagonal.
    cells = [0, 1, 2, 3]
    rows, cols = [0, 0, 1, 1], [0, 1, 0, 1]
    assert ceaf._enumerated(rows, cols, cells, [1.0, 1.0, 1.0, 1.0], ties=True) is None
    assert ceaf._two_line_alignment(rows, cols, cells, [1.0, 1.0, 1.0, 1.0]) is None
    assert ceaf._enumerated(rows, cols, cells, [1, 1, 1, 1], ties=False) == ([0, 3], 2.0)
    assert ceaf._enumerated(rows, cols, cells, [2.0, 1.0, 1.0, 3.0], ties=True) == ([0, 3], 5.0)
    monkeypatch.setattr(ceaf, "_ENUMERATION_NODES", 2)
    assert ceaf._enumerated(rows, cols, cells, [2.0, 1.0, 1.0, 3.0], ties=True) is None


def test_the_maxima_shortcut_takes_the_first_of_ties_and_refuses_shared_columns() -> None:
    # Three key and three response entities; rows 0 and 1 both peak in column 0,
    # so the search decides: 3 + 1 + 1 or 1 + 2 + 2.
    rows, cols, counts = [0, 0, 1, 1, 2, 2], [0, 1, 0, 2, 1, 2], [3, 1, 2, 1, 1, 2]
    assert ceaf._maxima_value(rows, cols, list(range(6)), counts) is None
    assert ceaf._component_value(rows, cols, list(range(6)), counts) == 5
    # Row 1 peaks in column 2, and so does row 2: refused again.
    counts = [3, 1, 2, 4, 1, 2]
    assert ceaf._maxima_value(rows, cols, list(range(6)), counts) is None
    # Rows 0, 1 and 2 peak in columns 0, 2 and 1: their maxima, 3 + 4 + 2, are Φ*.
    counts = [3, 1, 2, 4, 2, 1]
    assert ceaf._maxima_value(rows, cols, list(range(6)), counts) == 9
    assert ceaf._component_value(rows, cols, list(range(6)), counts) == 9
    rows, cols, cells = [0, 0, 1, 1], [0, 1, 0, 1], [0, 1, 2, 3]
    # Row 0 ties; its first maximum (column 0) and row 1's (column 1) are distinct.
    assert ceaf._maxima_value(rows, cols, cells, [2, 2, 1, 5]) == 7
    # The first of row 1's ties is column 0, shared with row 0: refused, though
    # another choice of maxima would reach the bound (the search finds it).
    assert ceaf._maxima_value(rows, cols, cells, [4, 1, 3, 3]) is None
    assert ceaf._component_value(rows, cols, cells, [4, 1, 3, 3]) == 7


def test_distinct_maxima_refuses_ties_and_shared_columns() -> None:
    # Rows 0 and 1 both peak in column 0: not plain.
    assert ceaf._distinct_maxima([0, 0, 1, 1], [0, 1, 0, 1], [2.0, 1.0, 3.0, 1.0], True) is None
    # Row 1 ties between its two columns: not plain.
    assert ceaf._distinct_maxima([0, 0, 1, 1], [0, 1, 0, 1], [2.0, 1.0, 1.0, 1.0], True) is None
    # Row 0 ties, though its first maximum is in a column of its own: not plain.
    assert ceaf._distinct_maxima([0, 0, 1], [0, 1, 1], [2.0, 2.0, 3.0], True) is None
    # Each row's peak in its own column: that is the alignment.
    assert ceaf._distinct_maxima([0, 0, 1, 1], [0, 1, 0, 1], [2.0, 1.0, 1.0, 3.0], True) == [
        (0, 0, 2.0),
        (1, 1, 3.0),
    ]
    # More rows than columns: by columns.
    assert ceaf._distinct_maxima([0, 1, 2, 2], [0, 0, 0, 1], [1.0, 2.0, 1.0, 5.0], False) == [
        (1, 0, 2.0),
        (2, 1, 5.0),
    ]


entities = st.lists(
    st.lists(st.integers(0, 14).map(lambda s: (s, s)), min_size=1, max_size=4, unique=True),
    min_size=0,
    max_size=7,
)


def _unique(doc: list[list[tuple[int, int]]]) -> tuple[tuple[tuple[int, int], ...], ...]:
    seen: set[tuple[int, int]] = set()
    out = []
    for entity in doc:
        kept = tuple(s for s in entity if s not in seen)
        seen.update(kept)
        if kept:
            out.append(kept)
    return tuple(out)


@settings(max_examples=200, deadline=None)
@given(entities, entities)
def test_componentwise_alignment_equals_the_global_optimum(key: list, response: list) -> None:  # type: ignore[type-arg]
    k, r = _unique(key), _unique(response)
    table = build_table(Document("d", k), Document("d", r))
    for phi in (ceaf.phi3, ceaf.phi4):
        alignment = ceaf.align(table, phi)
        if not k or not r:
            assert alignment.total == 0
            continue
        dense = [
            [
                float(
                    phi(np.array([len(set(a) & set(b))]), np.array([len(a)]), np.array([len(b)]))[0]
                )
                for b in r
            ]
            for a in k
        ]
        assert math.isclose(alignment.total, brute_force(dense), rel_tol=1e-12, abs_tol=1e-12)
        # One-to-one, and each reported similarity is that pair's.
        assert len(set(alignment.key_entities.tolist())) == len(alignment.key_entities)
        assert len(set(alignment.response_entities.tolist())) == len(alignment.response_entities)
        for i, j, s in zip(
            alignment.key_entities, alignment.response_entities, alignment.similarity
        ):
            assert s == dense[i][j] > 0


def union_find_roots(edges: list[tuple[int, int]], n: int) -> list[int]:
    """The least node of each node's component, the slow obvious way."""
    members = {x: {x} for x in range(n)}
    for a, b in edges:
        if members[a] is not members[b]:
            joined = members[a] | members[b]
            for x in joined:
                members[x] = joined
    return [min(members[x]) for x in range(n)]


graphs = st.integers(1, 40).flatmap(
    lambda n: st.tuples(
        st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60)
    )
)


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_linked_roots_are_each_components_least_node(graph: tuple[int, list]) -> None:  # type: ignore[type-arg]
    n, edges = graph
    u = np.array([a for a, _ in edges], dtype=np.int64)
    v = np.array([b for _, b in edges], dtype=np.int64)
    assert ceaf._linked_roots(u, v, n).tolist() == union_find_roots(edges, n)


def test_linked_roots_of_a_long_shuffled_chain() -> None:
    order = np.random.default_rng(5).permutation(100_000)
    roots = ceaf._linked_roots(order[:-1], order[1:], 100_000)
    assert roots.tolist() == [0] * 100_000


@settings(max_examples=100, deadline=None)
@given(entities, entities)
def test_alignments_are_the_same_whichever_way_components_are_found(
    key: list,  # type: ignore[type-arg]
    response: list,  # type: ignore[type-arg]
) -> None:
    table = build_table(Document("d", _unique(key)), Document("d", _unique(response)))
    by_python = ceaf.align(table, ceaf.phi4)
    limit = ceaf._PYTHON_COMPONENTS
    try:
        ceaf._PYTHON_COMPONENTS = -1  # every component by array operations
        by_arrays = ceaf.align(table, ceaf.phi4)
    finally:
        ceaf._PYTHON_COMPONENTS = limit
    for field in ("key_entities", "response_entities", "similarity"):
        assert getattr(by_arrays, field).tolist() == getattr(by_python, field).tolist()


def test_luo_2005_phi4_example_alignment() -> None:
    # Luo 2005 Figure 1, system (b): key {1..5} {6,7} {8..C}; response {1..5,8..C} {6,7}.
    key = (tuple((i, i) for i in range(5)), ((5, 5), (6, 6)), tuple((i, i) for i in range(7, 12)))
    response = (tuple((i, i) for i in (*range(5), *range(7, 12))), ((5, 5), (6, 6)))
    alignment = ceaf.align(build_table(Document("d", key), Document("d", response)), ceaf.phi4)
    assert alignment.key_entities.tolist() == [0, 1]
    assert alignment.response_entities.tolist() == [0, 1]
    assert alignment.similarity.tolist() == [2 * 5 / 15, 1.0]


# --------------------------------------------------------------------------------------------
# The CEAF family: phi1, phi2, custom similarities and the exposed alignment.

Labels = Sequence[str]


def labelled(key: Sequence[Labels], response: Sequence[Labels]) -> tuple[Document, Document]:
    """Documents from paper labels: each distinct label is a single-token span (i, i)."""
    ids: dict[str, int] = {}

    def doc(clusters: Sequence[Labels]) -> Document:
        return Document(
            "d", tuple(tuple((ids.setdefault(m, len(ids)),) * 2 for m in c) for c in clusters)
        )

    key_doc = doc(key)
    return key_doc, doc(response)


def exact(x: float, want: Fr | int) -> bool:
    return abs(x - float(want)) <= 1e-12


# Luo 2005, Figure 1: the truth and the system responses (a)-(d).
LUO_KEY = ["12345", "67", "89ABC"]
LUO_RESPONSES = {
    "a": ["12345", "6789ABC"],
    "b": ["1234589ABC", "67"],
    "c": ["123456789ABC"],
    "d": list("123456789ABC"),
}

# phi1 and phi2 on Figure 1 (Luo prints no numbers for them; hand-derived, and equal to the
# ceaf_phi1/ceaf_phi2 vectors of paper-vectors.json): (Φ*, |K|, |R|).
# phi1: (a) only {1..5} is recovered exactly, (b) only {6,7}, (c) and (d) none.
# phi2: (a), (b) two key entities find a distinct overlapping partner; (c) the single
# response entity can serve one key entity only; (d) each key entity takes one singleton.
LUO_PHI12 = {
    "ceaf-phi1": {"a": (1, 3, 2), "b": (1, 3, 2), "c": (0, 3, 1), "d": (0, 3, 12)},
    "ceaf-phi2": {"a": (2, 3, 2), "b": (2, 3, 2), "c": (1, 3, 1), "d": (3, 3, 12)},
}


@pytest.mark.parametrize("system", sorted(LUO_RESPONSES))
@pytest.mark.parametrize("metric", sorted(LUO_PHI12))
def test_luo2005_figure1_phi1_phi2(metric: str, system: str) -> None:
    total, n_keys, n_responses = LUO_PHI12[metric][system]
    key, response = labelled(LUO_KEY, LUO_RESPONSES[system])
    stats = REGISTRY[metric].statistics(build_table(key, response))
    assert stats == (total, n_keys, total, n_responses)
    score = MetricScore.from_counts(*stats)
    assert exact(score.recall, Fr(total, n_keys))
    assert exact(score.precision, Fr(total, n_responses))


@pytest.mark.parametrize(("response", "phi1", "phi2"), [("ab", 0, 1), ("a", 0, 1), ("abc", 1, 1)])
def test_luo2005_section2_2_phi1_phi2(response: str, phi1: int, phi2: int) -> None:
    # §2.2: for R = {a,b,c}, S1 = {a,b}, S2 = {a}: "φ(R,S1) = φ(R,S2) = 0" under (6), and (7)
    # "lacks the desired discriminativity as well" (both 1). Identical entities get 1 from both.
    table = build_table(*labelled(["abc"], [response]))
    assert REGISTRY["ceaf-phi1"].statistics(table)[0] == phi1
    assert REGISTRY["ceaf-phi2"].statistics(table)[0] == phi2


def test_luo2005_section3_1_alignment_of_a() -> None:
    # §3.1: "the reference entity {1,2,3,4,5} is aligned to the system entity {1,2,3,4,5}, the
    # reference entity {8,9,A,B,C} is aligned to the system {6,7,8,9,A,B,C} and the reference
    # entity {6,7} is unaligned"; 10 common mentions (phi3), Φ(g*) = 1 + 10/12 (phi4).
    table = build_table(*labelled(LUO_KEY, LUO_RESPONSES["a"]))
    for metric, sims, total, denominators in (
        ("ceafm", [5, 5], 10, (12, 12)),
        ("ceafe", [1, Fr(10, 12)], 1 + Fr(10, 12), (3, 2)),
    ):
        alignment = ceaf.entity_alignment(table, metric)
        assert alignment.doc_id == "d" and alignment.metric == metric
        assert [(p.key_entity, p.response_entity) for p in alignment.pairs] == [(0, 0), (2, 1)]
        labels = [(p.key_label, p.response_label) for p in alignment.pairs]
        assert labels == [("0", "0"), ("2", "1")]
        assert all(exact(p.similarity, s) for p, s in zip(alignment.pairs, sims, strict=True))
        assert alignment.pairs[1].key_mentions == tuple((i, i) for i in range(7, 12))
        assert alignment.pairs[1].response_mentions == tuple((i, i) for i in range(5, 12))
        assert alignment.pairs[1].shared == 5
        assert alignment.unaligned_key == ("1",)
        assert alignment.unaligned_key_mentions == (((5, 5), (6, 6)),)
        assert alignment.unaligned_response == ()
        assert exact(alignment.total, total)
        assert (alignment.key_self, alignment.response_self) == denominators
        # The alignment's Φ* is the metric's numerator, to the bit.
        stats = REGISTRY[metric].statistics(table)
        assert alignment.total == stats[0] == stats[2]


# Luo 2005, Table 2, CEAF columns, through the alignment: (Φ*, Σφ(K,K), Σφ(R,R), pairs).
# (c): the one response entity goes to one key entity (phi3: 5 mentions; phi4: 10/17 for
# either big entity, a tie); (d): each key entity keeps one of its singletons.
LUO_TABLE2_ALIGNMENTS = {
    ("c", "ceafm"): (5, 12, 12, 1, ".417", ".417"),
    ("c", "ceafe"): (Fr(10, 17), 3, 1, 1, ".196", ".588"),
    ("d", "ceafm"): (3, 12, 12, 3, ".250", ".250"),
    ("d", "ceafe"): (Fr(1, 3) + Fr(2, 3) + Fr(1, 3), 3, 12, 3, ".444", ".111"),
}


@pytest.mark.parametrize(("system", "metric"), sorted(LUO_TABLE2_ALIGNMENTS))
def test_luo2005_table2_alignments(system: str, metric: str) -> None:
    total, key_self, response_self, n_pairs, r_text, p_text = LUO_TABLE2_ALIGNMENTS[
        (system, metric)
    ]
    table = build_table(*labelled(LUO_KEY, LUO_RESPONSES[system]))
    alignment = ceaf.entity_alignment(table, metric)
    assert exact(alignment.total, total)
    assert (alignment.key_self, alignment.response_self) == (key_self, response_self)
    assert len(alignment.pairs) == n_pairs
    assert len(alignment.unaligned_key) == 3 - n_pairs
    n_responses = len(LUO_RESPONSES[system])
    assert len(alignment.unaligned_response) == n_responses - n_pairs
    assert f"{alignment.recall:.3f}".lstrip("0") == r_text
    assert f"{alignment.precision:.3f}".lstrip("0") == p_text


def test_alignment_of_the_other_family_members() -> None:
    table = build_table(*labelled(LUO_KEY, LUO_RESPONSES["a"]))
    phi1 = ceaf.entity_alignment(table, "ceaf-phi1")
    # phi1 links {8..C} and {6..C} (they share mentions) but gives them 0: not aligned.
    assert [(p.key_entity, p.response_entity, p.similarity) for p in phi1.pairs] == [(0, 0, 1.0)]
    assert phi1.unaligned_key == ("1", "2") and phi1.unaligned_response == ("1",)
    assert (phi1.total, phi1.key_self, phi1.response_self) == (1, 3, 2)
    phi2 = ceaf.entity_alignment(table, "ceaf_phi2")  # an alias
    assert phi2.metric == "ceaf-phi2" and phi2.total == 2 and len(phi2.pairs) == 2
    with pytest.raises(UsageError, match="not a CEAF metric"):
        ceaf.entity_alignment(table, "muc")
    with pytest.raises(UsageError, match="not a CEAF metric"):
        ceaf.entity_alignment(table, REGISTRY["bcub"])


def test_alignment_to_dict_and_format() -> None:
    table = build_table(*labelled(LUO_KEY, LUO_RESPONSES["a"]))
    alignment = ceaf.entity_alignment(table)  # ceafe by default
    data = alignment.to_dict()
    assert data["metric"] == "ceafe" and data["doc_id"] == "d"
    assert data["pairs"][1]["key_mentions"] == [[i, i] for i in range(7, 12)]
    assert data["unaligned_key"] == ["1"] and data["unaligned_key_mentions"] == [[[5, 5], [6, 6]]]
    assert exact(data["recall"], Fr(11, 18)) and exact(data["precision"], Fr(11, 12))
    assert json.loads(format_alignment([alignment], fmt="json")) == [data]
    assert json.loads(format_alignment({"d": alignment}, fmt="json")) == [data]
    text = format_alignment({"d": alignment})
    assert (
        "d  ceafe: Φ* = 1.833333; recall 1.833333/3 = 61.11%; precision 1.833333/2 = 91.67%"
    ) in text
    assert "  key 2 -> response 1  φ = 0.833333" in text
    assert "      response: 5 6 7* 8* 9* 10* 11*" in text
    assert "  unaligned key entities: 1\n    1: 5 6\n  unaligned response entities: none" in text
    with pytest.raises(UsageError):
        format_alignment([alignment], fmt="xml")


# Luo 2005 §2.2: "when mention type is available, weights defined on the type confusion matrix
# can be incorporated ... ACE data defines three entity classes: NAME, NOMINAL and PRONOUN.
# Different weights can be assigned to the three classes." A similarity that sums, over the
# shared mentions, the smaller of the two level weights.
LEVEL_WEIGHT = {"NAM": 1.0, "NOM": 0.5, "PRO": 0.25}


def by_level(key: Entity, response: Entity) -> float:
    response_levels = dict(zip(response.mentions, response.levels, strict=True))
    return sum(
        min(LEVEL_WEIGHT[str(level)], LEVEL_WEIGHT[str(response_levels[m])])
        for m, level in zip(key.mentions, key.levels, strict=True)
        if m in response_levels
    )


def _m(token: int, level: str) -> dict[str, object]:
    return {"span": (token, token), "level": level}


# Document "ranked": K0 = {0 NAM, 1 NOM, 2 PRO}, K1 = {3 NAM, 4 PRO};
# R0 = {0 NAM, 1 NOM, 3 NAM}, R1 = {2 PRO, 4 PRO}, R2 = {5 NAM} (spurious).
# Linked pairs: K0-R0 shares {0, 1}: 1 + 0.5 = 1.5; K0-R1 {2}: 0.25; K1-R0 {3}: 1; K1-R1 {4}: 0.25.
# Alignments: K0-R0 + K1-R1 = 1.75 > K0-R1 + K1-R0 = 1.25, so Φ* = 1.75.
# φ(K,K): K0 = 1.75, K1 = 1.25 (sum 3); φ(R,R): R0 = 2.5, R1 = 0.5, R2 = 1 (sum 4).
# Document "flip": K0 = {0 PRO, 1 PRO, 2 NAM}; R0 = {0 PRO, 1 PRO}, R1 = {2 NAM, 3 NAM}.
# The weights flip the alignment: K0-R0 = 0.5 < K0-R1 = 1 (phi3 prefers R0: 2 > 1).
# Φ* = 1; φ(K,K) = 1.5; φ(R,R) = 0.5 + 2 = 2.5.
LEVEL_KEY = {
    "ranked": [
        [_m(0, "NAM"), _m(1, "NOM"), _m(2, "PRO")],
        [_m(3, "NAM"), _m(4, "PRO")],
    ],
    "flip": [[_m(0, "PRO"), _m(1, "PRO"), _m(2, "NAM")]],
}
LEVEL_RESPONSE = {
    "ranked": [
        [_m(0, "NAM"), _m(1, "NOM"), _m(3, "NAM")],
        [_m(2, "PRO"), _m(4, "PRO")],
        [_m(5, "NAM")],
    ],
    "flip": [[_m(0, "PRO"), _m(1, "PRO")], [_m(2, "NAM"), _m(3, "NAM")]],
}


def test_custom_similarity_weighting_mentions_by_level() -> None:
    metric = ceaf.custom(by_level, name="ceaf-level", symmetric=True, requires=("mention_levels",))
    assert metric.citation.startswith("Luo 2005") and metric.symmetric
    result = corefscore.score(
        LEVEL_KEY, LEVEL_RESPONSE, metrics=[metric, "ceafm"], per_document=True
    )
    assert result.documents is not None
    ranked = result.documents["ranked"]["ceaf-level"]
    assert (ranked.recall_num, ranked.recall_den, ranked.precision_den) == (1.75, 3, 4)
    assert exact(ranked.recall, Fr(7, 12)) and exact(ranked.precision, Fr(7, 16))
    assert exact(ranked.f1, Fr(1, 2))
    flip = result.documents["flip"]["ceaf-level"]
    assert (flip.recall_num, flip.recall_den, flip.precision_den) == (1, 1.5, 2.5)
    assert exact(flip.recall, Fr(2, 3)) and exact(flip.precision, Fr(2, 5))
    # Corpus: Φ* = 2.75 over 4.5 and 6.5.
    total = result["ceaf-level"]
    assert (total.recall_num, total.recall_den, total.precision_den) == (2.75, 4.5, 6.5)
    assert exact(total.recall, Fr(11, 18)) and exact(total.precision, Fr(11, 26))
    assert exact(total.f1, Fr(1, 2))
    # phi3 on "flip" aligns K0 with R0 (2 shared mentions) instead.
    assert result.documents["flip"]["ceafm"].recall_num == 2

    key = document_from_clusters("flip", LEVEL_KEY["flip"], side="key")
    response = document_from_clusters("flip", LEVEL_RESPONSE["flip"], side="response")
    table = build_table(key, response)
    weighted = ceaf.entity_alignment(table, metric)
    assert weighted.metric == "ceaf-level"
    assert [(p.key_entity, p.response_entity, p.similarity) for p in weighted.pairs] == [
        (0, 1, 1.0)
    ]
    assert weighted.unaligned_response == ("0",)
    by_phi3 = ceaf.entity_alignment(table, "ceafm")
    assert [(p.key_entity, p.response_entity) for p in by_phi3.pairs] == [(0, 0)]


def test_custom_similarity_needs_levels_when_declared() -> None:
    metric = ceaf.custom(by_level, name="ceaf-level", requires=("mention_levels",))
    with pytest.raises(InputError, match="mention levels"):
        corefscore.score({"d": [[(0, 0)]]}, {"d": [[(0, 0)]]}, metrics=[metric])


def test_custom_similarity_is_called_only_on_linked_pairs_and_self_pairs() -> None:
    calls: list[tuple[str, str]] = []

    def shared(key: Entity, response: Entity) -> float:
        calls.append((key.label, response.label))
        return float(len(set(key.mentions) & set(response.mentions)))

    key, response = labelled(["ab", "cd", "e"], ["ab", "c", "xy"])
    metric = ceaf.custom(shared, name="shared")
    stats = metric.statistics(build_table(key, response))
    # Linked pairs K0-R0 and K1-R1; self pairs of 3 key and 3 response entities.
    linked = [("0", "0"), ("1", "1")]
    self_pairs = [("0", "0"), ("1", "1"), ("2", "2")] * 2
    assert sorted(calls) == sorted(linked + self_pairs)
    assert stats == (3.0, 5.0, 3.0, 5.0)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (-1.0, "returned -1.0"),
        (float("nan"), "returned nan"),
        (float("inf"), "returned inf"),
        ("x", "failed"),
    ],
)
def test_custom_similarity_outputs_are_validated(value: object, message: str) -> None:
    def bad(key: Entity, response: Entity) -> float:
        if key is not response and key.mentions != response.mentions:
            return value  # type: ignore[return-value]
        return 1.0

    metric = ceaf.custom(bad, name="bad")
    with pytest.raises(UsageError, match=message) as info:
        corefscore.score({"d7": [[(0, 0), (1, 1)]]}, {"d7": [[(0, 0)]]}, metrics=[metric])
    assert "entities '0' and '0' of document 'd7'" in str(info.value)


def test_custom_metric_names_and_arguments_are_checked() -> None:
    with pytest.raises(UsageError, match="taken by a built-in"):
        corefscore.score({"d": []}, {"d": []}, metrics=[ceaf.custom(by_level, name="ceafe")])
    with pytest.raises(UsageError, match="non-empty name"):
        ceaf.custom(by_level, name=" ")
    with pytest.raises(UsageError, match="not callable"):
        ceaf.custom(3, name="x")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Properties of the CEAF family (phi1-phi4 and a custom similarity).


def jaccard(key: Entity, response: Entity) -> float:
    a, b = set(key.mentions), set(response.mentions)
    return len(a & b) / len(a | b)


JACCARD = ceaf.custom(jaccard, name="ceaf-jaccard", symmetric=True)
FAMILY = ("ceaf-phi1", "ceaf-phi2", "ceafm", "ceafe")

PHI: dict[str, Callable[[set[tuple[int, int]], set[tuple[int, int]]], float]] = {
    "ceaf-phi1": lambda a, b: float(a == b),
    "ceaf-phi2": lambda a, b: float(bool(a & b)),
    "ceafm": lambda a, b: float(len(a & b)),
    "ceafe": lambda a, b: 2 * len(a & b) / (len(a) + len(b)),
    "ceaf-jaccard": lambda a, b: len(a & b) / len(a | b),
}


def _family_score(name: str, key: Document, response: Document) -> tuple[float, ...]:
    metric = JACCARD if name == "ceaf-jaccard" else REGISTRY[name]
    return metric.statistics(build_table(key, response))


@settings(max_examples=150, deadline=None)
@given(entities, entities, st.randoms(use_true_random=False))
def test_ceaf_family_properties(key: list, response: list, rng: random.Random) -> None:  # type: ignore[type-arg]
    k, r = Document("d", _unique(key)), Document("d", _unique(response))
    for name in (*FAMILY, "ceaf-jaccard"):
        stats = _family_score(name, k, r)
        score = MetricScore.from_counts(*stats)
        assert 0 <= score.recall <= 1 + 1e-12 and 0 <= score.precision <= 1 + 1e-12, name
        # Identical key and response: everything aligned with itself.
        if k.entities:
            same = MetricScore.from_counts(*_family_score(name, k, k))
            assert same.recall == same.precision == same.f1 == 1, name
        # Swapping key and response swaps recall and precision.
        swapped = MetricScore.from_counts(*_family_score(name, r, k))
        assert math.isclose(swapped.recall, score.precision, abs_tol=1e-12), name
        assert math.isclose(swapped.precision, score.recall, abs_tol=1e-12), name
        # The optimum beats a random one-to-one alignment.
        phi = PHI[name]
        ks, rs = [set(e) for e in k.entities], [set(e) for e in r.entities]
        order = list(range(len(rs)))
        rng.shuffle(order)
        random_total = sum(phi(a, rs[j]) for a, j in zip(ks, order))
        assert stats[0] >= random_total - 1e-9, name
        # The exposed alignment is one-to-one, carries each pair's φ and sums to Φ*.
        metric: str | Metric = JACCARD if name == "ceaf-jaccard" else name
        alignment = ceaf.entity_alignment(build_table(k, r), metric)
        assert alignment.total == stats[0]
        assert len({p.key_entity for p in alignment.pairs}) == len(alignment.pairs)
        assert len({p.response_entity for p in alignment.pairs}) == len(alignment.pairs)
        for p in alignment.pairs:
            assert p.similarity == pytest.approx(phi(ks[p.key_entity], rs[p.response_entity]))
            assert p.similarity > 0
        assert len(alignment.pairs) + len(alignment.unaligned_key) == len(ks)
        assert len(alignment.pairs) + len(alignment.unaligned_response) == len(rs)


@settings(max_examples=100, deadline=None)
@given(entities, entities)
def test_custom_similarity_reproduces_phi3_and_phi4(key: list, response: list) -> None:  # type: ignore[type-arg]
    k, r = Document("d", _unique(key)), Document("d", _unique(response))
    table = build_table(k, r)

    def shared(a: Entity, b: Entity) -> float:
        return float(len(set(a.mentions) & set(b.mentions)))

    def dice(a: Entity, b: Entity) -> float:
        return 2 * len(set(a.mentions) & set(b.mentions)) / (len(a) + len(b))

    for similarity, builtin in ((shared, "ceafm"), (dice, "ceafe")):
        got = ceaf.custom(similarity, name="x").statistics(table)
        want = REGISTRY[builtin].statistics(table)
        assert all(math.isclose(g, w, abs_tol=1e-12) for g, w in zip(got, want, strict=True))
