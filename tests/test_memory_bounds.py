"""Memory bound: scoring one document needs at most 3× its contingency table plus the input.

tracemalloc (which sees NumPy's buffers too) records the peak of what scoring one
key/response pair allocates with the seven default metrics, from the Documents to
the statistics; the bound is three times the bytes of the table's arrays plus the
deep size of the two input Documents. Shapes at the extremes: one entity of 100k
mentions, 100k singletons, and one side's single entity against the other's
singletons (20k table cells in one row).

One large CEAF component (a random regrouping) used to cost O(rows · columns)
memory on a dense matrix, 10× the bound; large sparse components are now solved
as a sparse matching, whose memory grows with the table's cells.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import tracemalloc
from typing import Any

import numpy as np
import pytest

from corefscore.contingency import build_table
from corefscore.model import Document, document_from_clusters
from corefscore.scorer import CorefScorer

Clusters = list[list[tuple[int, int]]]


def deep_size(obj: Any, seen: set[int] | None = None) -> int:
    """Bytes held by ``obj`` and everything it refers to, each object counted once."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return obj.nbytes + sys.getsizeof(obj)
    size = sys.getsizeof(obj)
    if isinstance(obj, (tuple, list, set, frozenset)):
        size += sum(deep_size(x, seen) for x in obj)
    elif isinstance(obj, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    elif dataclasses.is_dataclass(obj):
        size += sum(deep_size(getattr(obj, f.name), seen) for f in dataclasses.fields(obj))
    return size


def table_bytes(key: Document, response: Document) -> int:
    table = build_table(key, response)
    return sum(v.nbytes for v in vars(table).values() if isinstance(v, np.ndarray))


def measure(key: Clusters, response: Clusters) -> tuple[int, int, int]:
    """(peak bytes while scoring, table bytes, input bytes)."""
    key_doc = document_from_clusters("d", key, side="key")
    response_doc = document_from_clusters("d", response, side="response")
    inputs = deep_size(key_doc) + deep_size(response_doc)
    table = table_bytes(key_doc, response_doc)
    scorer = CorefScorer()
    # Modules loaded on first use (SciPy's sparse matching) are a one-time cost
    # of the process, not memory that scoring this document holds.
    import scipy.sparse.csgraph  # noqa: F401

    tracemalloc.start()
    try:
        scorer.update_document(key_doc, response_doc)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, table, inputs


N = 100_000
ONE = [[(i, i) for i in range(N)]]
SINGLETONS = [[(i, i)] for i in range(N)]
CROSS = 20_000
SHAPES = {
    "one entity of 100k mentions": (ONE, ONE),
    "100k singletons": (SINGLETONS, SINGLETONS),
    "one key entity, 20k response singletons": (
        [[(i, i) for i in range(CROSS)]],
        SINGLETONS[:CROSS],
    ),
    "20k key singletons, one response entity": (
        SINGLETONS[:CROSS],
        [[(i, i) for i in range(CROSS)]],
    ),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_peak_memory_is_within_3_tables_plus_the_input(shape: str) -> None:
    peak, table, inputs = measure(*SHAPES[shape])
    assert peak <= 3 * table + inputs, (
        f"{shape}: peak {peak / 1e6:.1f} MB > 3 × table {table / 1e6:.2f} MB "
        f"+ input {inputs / 1e6:.1f} MB"
    )
    assert table > 0 and inputs > 0


def _one_big_component(entities: int, size: int) -> tuple[Clusters, Clusters]:
    spans = [(i, i) for i in range(entities * size)]
    key = [spans[i * size : (i + 1) * size] for i in range(entities)]
    shuffled = random.Random(0).sample(spans, len(spans))
    response = [shuffled[i * size : (i + 1) * size] for i in range(entities)]
    return key, response


def test_peak_memory_with_one_large_ceaf_component() -> None:
    peak, table, inputs = measure(*_one_big_component(600, 10))
    assert peak <= 3 * table + inputs, (peak, table, inputs)
