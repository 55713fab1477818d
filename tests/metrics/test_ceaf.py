"""CEAF's alignment: the per-component solver against brute force and SciPy."""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.contingency import build_table
from corefscore.metrics import ceaf
from corefscore.model import Document


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


def test_luo_2005_phi4_example_alignment() -> None:
    # Luo 2005 Figure 1, system (b): key {1..5} {6,7} {8..C}; response {1..5,8..C} {6,7}.
    key = (tuple((i, i) for i in range(5)), ((5, 5), (6, 6)), tuple((i, i) for i in range(7, 12)))
    response = (tuple((i, i) for i in (*range(5), *range(7, 12))), ((5, 5), (6, 6)))
    alignment = ceaf.align(build_table(Document("d", key), Document("d", response)), ceaf.phi4)
    assert alignment.key_entities.tolist() == [0, 1]
    assert alignment.response_entities.tolist() == [0, 1]
    assert alignment.similarity.tolist() == [2 * 5 / 15, 1.0]
