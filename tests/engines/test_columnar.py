"""The columnar engine: arrays to contingency tables, ordered sums, CEAF on arrays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.contingency import build_table, group_sums
from corefscore.engines.columnar import (
    component_sizes,
    contingency_from_arrays,
    encode_mentions,
    repeated_positions,
)
from corefscore.errors import UsageError
from corefscore.metrics import REGISTRY
from corefscore.metrics.base import sequential_sum
from corefscore.metrics.ceaf import align, align_weights, phi3, phi4
from corefscore.model import Document, first_appearance_codes


@st.composite
def _documents(draw: st.DrawFn) -> Document:
    spans = draw(
        st.lists(
            st.tuples(st.integers(0, 12), st.integers(0, 3)).map(lambda t: (t[0], t[0] + t[1])),
            max_size=14,
            unique=True,
        )
    )
    labels = draw(st.lists(st.integers(0, 4), min_size=len(spans), max_size=len(spans)))
    entities: dict[int, list[tuple[int, int]]] = {}
    for span, label in zip(spans, labels):
        entities.setdefault(label, []).append(span)
    return Document("d", tuple(tuple(e) for e in entities.values()))


def _arrays(doc: Document) -> tuple[np.ndarray, np.ndarray]:
    spans = [s for e in doc.entities for s in e]
    entity = [i for i, e in enumerate(doc.entities) for _ in e]
    codes = encode_mentions(
        np.zeros(len(spans), dtype=np.int64),
        np.array([s for s, _ in spans], dtype=np.int64),
        np.array([e for _, e in spans], dtype=np.int64),
        widths=(1, 8, 8),
    )
    return codes, np.array(entity, dtype=np.int64)


@settings(max_examples=200, deadline=None)
@given(_documents(), _documents())
def test_table_from_arrays_equals_build_table(key: Document, response: Document) -> None:
    ordinary = build_table(key, response)
    key_codes, key_entities = _arrays(key)
    response_codes, response_entities = _arrays(response)
    table = contingency_from_arrays(
        key_codes,
        key_entities,
        response_codes,
        response_entities,
        n_key_entities=len(key.entities),
        n_response_entities=len(response.entities),
    )
    assert (table.dense() == ordinary.dense()).all()
    assert table.matched_mentions == ordinary.matched_mentions
    # Cells are numbered differently; each response mention must land on the same pair.
    for mine, theirs in zip(table.response_cells.tolist(), ordinary.response_cells.tolist()):
        assert (mine < 0) == (theirs < 0)
        if mine >= 0:
            assert (table.rows[mine], table.cols[mine]) == (
                ordinary.rows[theirs],
                ordinary.cols[theirs],
            )
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "bcub-all"):
        assert REGISTRY[name].statistics(table) == REGISTRY[name].statistics(ordinary), name


@settings(max_examples=200, deadline=None)
@given(_documents(), _documents())
def test_ceaf_alignment_total_is_optimal(key: Document, response: Document) -> None:
    table = build_table(key, response)
    for similarity in (phi3, phi4):
        weights = similarity(
            table.counts, table.key_sizes[table.rows], table.response_sizes[table.cols]
        )
        found = align_weights(table.shape, table.rows, table.cols, weights)
        rows, cols, sims = found.key_entities, found.response_entities, found.similarity
        assert len(set(rows.tolist())) == len(rows) and len(set(cols.tolist())) == len(cols)
        assert (np.diff(rows) > 0).all()
        assert sequential_sum(1 - (1 - sims)) == pytest.approx(align(table, similarity).total)


def test_sparse_assignment_on_a_chain() -> None:
    """A component where greedy choice is wrong: (0,0)=2, (0,1)=3, (1,1)=2 -> 2 + 2."""
    rows = np.array([0, 0, 1])
    cols = np.array([0, 1, 1])
    found = align_weights((2, 2), rows, cols, np.array([2.0, 3.0, 2.0]))
    assert found.key_entities.tolist() == [0, 1]
    assert found.response_entities.tolist() == [0, 1]
    assert found.similarity.tolist() == [2.0, 2.0]


def test_component_sizes() -> None:
    table = contingency_from_arrays(
        np.array([1, 2, 3, 4]),
        np.array([0, 0, 1, 2]),
        np.array([1, 2, 3, 9]),
        np.array([0, 1, 1, 2]),
    )
    keys, responses = component_sizes(table)
    # {K0, K1 | R0, R1}; K2 and R2 share nothing (mentions 4 and 9 differ).
    assert sorted(zip(keys.tolist(), responses.tolist())) == [(2, 2)]


def test_group_sums_add_left_to_right() -> None:
    values = np.array([1e16, 1.0, -1e16, 0.5, 1.0, 1e-3] * 30)
    segments = np.array([0, 0, 0, 1, 1, 2] * 30)
    # Segment 0 is long (90 values): one accumulate; the others go column by column.
    out = group_sums(values, segments, 4)
    for s in range(3):
        assert out[s] == sequential_sum(values[segments == s])
    assert out[3] == 0.0
    shuffled = np.array([2, 0, 1] * 60)
    assert group_sums(values, shuffled, 3)[1] == sequential_sum(values[shuffled == 1])


def test_codes() -> None:
    assert first_appearance_codes(np.array([7, 3, 7, 9, 3])).tolist() == [0, 1, 0, 2, 1]
    assert repeated_positions(np.array([5, 6, 5, 5, 7])).tolist() == [2, 3]
    big = np.array([2**40, 0, 2**40])
    codes = encode_mentions(big, big, np.array([1, 1, 1]))  # too wide to pack: numbered
    assert codes[0] == codes[2] != codes[1]
    small = np.array([3])
    assert encode_mentions(small, small, small, widths=(2, 4, 4)) == [3 << 8 | 3 << 4 | 3]
    with pytest.raises(UsageError, match="need"):
        encode_mentions(small, np.array([16]), small, widths=(2, 4, 4))


@st.composite
def _labelled(draw: st.DrawFn) -> tuple[list[int], list[int], list[int]]:
    """One segment: key entities of the key mentions, and candidate response
    mentions (in text order) with their twins and labels."""
    key_entities = draw(st.lists(st.integers(0, 3), max_size=8))
    dense = {e: i for i, e in enumerate(dict.fromkeys(key_entities))}
    key_entities = [dense[e] for e in key_entities]
    twins = draw(st.permutations(list(range(len(key_entities)))))
    twins = [*twins, *([-1] * draw(st.integers(0, 4)))]
    twins = draw(st.permutations(twins))
    labels = draw(st.lists(st.integers(-1, 9), min_size=len(twins), max_size=len(twins)))
    return key_entities, list(twins), labels


@settings(max_examples=200, deadline=None)
@given(st.lists(_labelled(), min_size=1, max_size=5))
def test_labelled_segments_give_each_entity_lists_statistics(
    segments: list[tuple[list[int], list[int], list[int]]],
) -> None:
    # Each segment scored as the entity-list table of its labels' entities, bit for bit.
    from corefscore.contingency import entity_list_table
    from corefscore.engines.columnar import labelled_segments_table
    from corefscore.evaluation import Evaluation

    evaluation = Evaluation.create(metrics="conll")
    table = labelled_segments_table(*map(list, zip(*segments)))
    for metric in evaluation.metrics:
        assert metric.segment_statistics is not None and metric.list_statistics is not None
        rows = [tuple(r) for r in metric.segment_statistics(table).tolist()]
        expected = []
        for key_entities, twins, labels in segments:
            key_of = {("key", k): e for k, e in enumerate(key_entities)}
            sizes = [key_entities.count(e) for e in range(max(key_entities, default=-1) + 1)]
            entities: dict[int, list[object]] = {}
            for position, (twin, label) in enumerate(zip(twins, labels)):
                if label >= 0:
                    mention = ("key", twin) if twin >= 0 else ("response", position)
                    entities.setdefault(label, []).append(mention)
            lists = entity_list_table(key_of, sizes, list(entities.values()))
            expected.append(metric.list_statistics(lists))
        assert rows == expected, metric.name


def _same_table(a: object, b: object) -> None:
    from dataclasses import fields

    for f in fields(a):  # type: ignore[arg-type]
        x, y = getattr(a, f.name), getattr(b, f.name)
        if hasattr(x, "__dataclass_fields__"):
            _same_table(x, y)
        elif isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.tolist() == y.tolist(), f.name
        else:
            assert x == y, f.name


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_labelled(), st.integers(1, 3)), min_size=1, max_size=4), st.data())
def test_labelled_segments_read_a_shared_list_as_its_copies(
    documents: list[tuple[tuple[list[int], list[int], list[int]], int]], data: st.DataObject
) -> None:
    # A document at several steps: its key entities and twins given as one list
    # object per document, or copied per segment, make the same table.
    from corefscore.engines.columnar import labelled_segments_table

    keys, twins, labels = [], [], []
    for (key_entities, twin, label), steps in documents:
        for _ in range(steps):
            keys.append(key_entities)
            twins.append(twin)
            labels.append(data.draw(st.permutations(label)))
    shared = labelled_segments_table(keys, twins, labels)
    copied = labelled_segments_table([list(k) for k in keys], [list(t) for t in twins], labels)
    _same_table(shared, copied)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=60))
def test_unique_by_stable_sort_is_numpys(values: list[int]) -> None:
    from corefscore.engines.columnar import _unique

    codes = np.array(values, dtype=np.int64)
    found = _unique(codes)
    expected = np.unique(codes, return_inverse=True, return_counts=True)
    for mine, numpys in zip(found, expected):
        assert mine.dtype == np.int64 and mine.tolist() == numpys.reshape(-1).tolist()
