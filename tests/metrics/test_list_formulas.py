"""The list formulas (``Metric.list_statistics``) against the array formulas.

Small documents are scored on Python lists (``corefscore.contingency.ListTable``);
every number must be the array formula's, bit for bit, so that a document
gives the same result whichever path scored it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.contingency import build_table, list_table
from corefscore.engines import objects
from corefscore.metrics import REGISTRY
from corefscore.model import Document, document_from_clusters

from ..conftest import examples

LISTED = [name for name, metric in REGISTRY.items() if metric.list_statistics is not None]


def test_the_default_metrics_have_list_formulas() -> None:
    assert set(corefscore.Evaluation.create().metric_names) <= set(LISTED)


@st.composite
def document_pairs(draw: st.DrawFn) -> tuple[Document, Document]:
    """Key and response over one pool of nested and crossing spans, with many
    entities sharing mentions (CEAF components of several rows and columns, ties)."""
    tokens = draw(st.integers(1, 30))
    pool = draw(
        st.lists(st.tuples(st.integers(0, tokens - 1), st.integers(0, 3)), max_size=40, unique=True)
    )
    spans = list(dict.fromkeys((s, min(s + n, tokens - 1)) for s, n in pool))
    sides = []
    for side in ("key", "response"):
        entities = draw(st.integers(1, 8))
        clusters: list[list[tuple[int, int]]] = [[] for _ in range(entities)]
        for span in spans:
            choice = draw(st.integers(-1, entities - 1))
            if choice >= 0:
                clusters[choice].append(span)
        sides.append(document_from_clusters("d", clusters, side=side))
    return sides[0], sides[1]


def _bits(values: tuple[float, ...]) -> tuple[str, ...]:
    return tuple(float(v).hex() for v in values)


@settings(max_examples=examples(400), deadline=None)
@given(document_pairs())
@pytest.mark.parametrize("name", LISTED)
def test_list_formulas_give_the_array_formulas_bits(
    name: str, pair: tuple[Document, Document]
) -> None:
    key, response = pair
    metric = REGISTRY[name]
    assert metric.list_statistics is not None
    lists = list_table(key, response)
    assert lists is not None  # no repeated span in these pairs
    by_arrays = metric.statistics(build_table(key, response))
    by_lists = metric.list_statistics(lists)
    assert all(type(v) is float for v in by_lists)
    assert _bits(by_lists) == _bits(by_arrays)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(document_pairs(), min_size=1, max_size=4))
def test_a_scorer_gives_the_same_bits_by_lists_and_by_arrays(
    pairs: list[tuple[Document, Document]],
) -> None:
    def statistics() -> dict[str, Any]:
        scorer = corefscore.CorefScorer()
        for key, response in pairs:
            scorer.update([list(e) for e in key.entities], [list(e) for e in response.entities])
        return {name: _bits(stats) for name, stats in scorer.statistics.items()}

    by_lists = statistics()
    saved = objects.LIST_MENTIONS
    objects.LIST_MENTIONS = -1  # every document by arrays
    try:
        by_arrays = statistics()
    finally:
        objects.LIST_MENTIONS = saved
    assert by_lists == by_arrays


def test_repeated_spans_are_left_to_the_arrays() -> None:
    # (0, 0) twice in the response: the reference scorer's handling (the later
    # copy of a key mention dropped, with a warning), which only the contingency
    # table's readings hold.
    key = [[(0, 0), (2, 2)], [(4, 4)]]
    response = [[(0, 0), (2, 2)], [(0, 0), (4, 4)]]
    sides = [document_from_clusters("d", c, side=s) for c, s in ((key, "key"), (response, "r"))]
    assert list_table(*sides) is None
    scorer = corefscore.CorefScorer()
    stats = scorer.update(key, response)
    assert scorer.warnings and "repeated spans" in scorer.warnings[0]
    # Response {(0,0) (2,2)} {(4,4)} once the copy is dropped: the key itself.
    assert stats["muc"] == (1.0, 1.0, 1.0, 1.0)


@pytest.mark.parametrize("name", ["ceafm", "ceafe"])
def test_a_large_sparse_component_is_aligned_as_the_arrays_align_it(name: str) -> None:
    # Key entity i = {2i, 2i+1}, response entity i = {2i+1, 2i+2}: one chain of 400
    # key and 400 response entities, whose dense matrix (160,000 cells for 800
    # linked pairs) is solved as a sparse matching, by lists as by arrays.
    key = document_from_clusters(
        "d", [[(2 * i, 2 * i), (2 * i + 1, 2 * i + 1)] for i in range(400)], side="key"
    )
    response = document_from_clusters(
        "d", [[(2 * i + 1, 2 * i + 1), (2 * i + 2, 2 * i + 2)] for i in range(400)], side="r"
    )
    lists = list_table(key, response)
    assert lists is not None
    metric = REGISTRY[name]
    assert metric.list_statistics is not None
    by_lists = metric.list_statistics(lists)
    assert _bits(by_lists) == _bits(metric.statistics(build_table(key, response)))
    # Key i with response i: 400 pairs sharing one mention each (φ4 = 2/4).
    assert by_lists[0] == (400.0 if name == "ceafm" else 200.0)


def test_an_empty_entity_adds_no_muc_link() -> None:
    # The list formula counts |e| - 1 links per non-empty entity from the table's
    # totals; an empty entity (possible in a table of the caller's own mentions)
    # must not count -1.
    from corefscore.contingency import entity_list_table

    key_of = {"a": 0, "b": 0, "c": 2}
    lists = entity_list_table(key_of, [2, 0, 1], [[], ["a", "b"], [], ["c"]])
    assert REGISTRY["muc"].list_statistics is not None
    assert REGISTRY["muc"].list_statistics(lists) == (1.0, 1.0, 1.0, 1.0)


@settings(max_examples=examples(100), deadline=None)
@given(
    document_pairs(), st.lists(st.sampled_from([*LISTED, "ceaf-phi1", "lea-uniform"]), min_size=1)
)
def test_the_named_metrics_of_a_pair_are_the_array_formulas_bits(
    pair: tuple[Document, Document], names: list[str]
) -> None:
    # plain_statistics (what split antecedents leave to the ordinary formulas, such
    # as mention identification) takes the lists when every metric named has a
    # formula on them (ceaf-phi1 and lea-uniform have none), and gives exactly the
    # named metrics.
    key, response = pair
    evaluation = corefscore.Evaluation.create(metrics=[*LISTED, "ceaf-phi1", "lea-uniform"])
    found = objects.plain_statistics(key, response, evaluation, names)
    assert list(found) == [m for m in evaluation.metric_names if m in names]
    table = build_table(key, response)
    assert {name: _bits(stats) for name, stats in found.items()} == {
        name: _bits(REGISTRY[name].statistics(table)) for name in found
    }
