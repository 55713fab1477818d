"""The per-document contingency table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.contingency import build_table, entity_list_table, list_table
from corefscore.engines.objects import score_lists, score_pair
from corefscore.evaluation import Evaluation
from corefscore.model import Document


def doc(*entities: tuple[tuple[int, int], ...]) -> Document:
    return Document("d", tuple(entities))


def test_cells_sizes_and_mention_counts() -> None:
    key = doc(((0, 0), (1, 1), (2, 2)), ((5, 5),))
    response = doc(((0, 0), (1, 1)), ((2, 2), (5, 5), (9, 9)))
    table = build_table(key, response)
    assert table.dense().tolist() == [[2, 1], [0, 1]]
    assert table.key_sizes.tolist() == [3, 1]
    assert table.response_sizes.tolist() == [2, 3]
    assert (table.key_mentions, table.response_mentions, table.matched_mentions) == (4, 5, 4)
    # Response mentions in order; (9, 9) has no twin.
    cells = table.response_cells.tolist()
    assert cells[-1] == -1 and len(cells) == 5
    assert table.irregular == ()
    assert table.response_overlap is table.counts and table.key_counts is table.counts


def test_empty_documents() -> None:
    table = build_table(doc(), doc(((1, 1),)))
    assert table.shape == (0, 1) and table.matched_mentions == 0
    assert build_table(doc(), doc()).dense().shape == (0, 0)


def test_repeated_spans_keep_each_reading() -> None:
    # (0, 0) in key entities 0 and 1; the response holds it once, in entity 0.
    key = doc(((0, 0), (1, 1)), ((0, 0), (2, 2)))
    response = doc(
        ((0, 0), (1, 1), (2, 2)),
    )
    table = build_table(key, response)
    cells = {(int(r), int(c)): k for k, (r, c) in enumerate(zip(table.rows, table.cols))}
    # Assigned through the last key entity holding the span, as the reference does.
    assert table.counts[cells[(0, 0)]] == 1 and table.counts[cells[(1, 0)]] == 2
    # "Occurs in the entity" counts the span in both key entities.
    assert table.response_overlap[cells[(0, 0)]] == 2
    assert table.response_overlap[cells[(1, 0)]] == 2
    assert table.key_counts[cells[(0, 0)]] == 2 and table.key_counts[cells[(1, 0)]] == 2
    assert table.key_mentions == 3 and table.key_sizes.tolist() == [2, 2]
    assert [(s.key_entities, s.response_entities) for s in table.irregular] == [((0, 1), (0,))]


def test_entity_list_table_of_own_mentions_equals_the_span_table() -> None:
    # Mentions as any hashable (here names); the table is the span table's.
    key = doc(((0, 0), (1, 1), (2, 2)), ((5, 5),))
    response = doc(((0, 0), (1, 1)), ((2, 2), (5, 5), (9, 9)))
    names = {(0, 0): "a", (1, 1): "b", (2, 2): "c", (5, 5): "f", (9, 9): "z"}
    key_of = {names[s]: i for i, e in enumerate(key.entities) for s in e}
    lists = entity_list_table(key_of, [3, 1], [["a", "b"], ["c", "f", "z"]])
    span_lists = list_table(key, response)
    assert span_lists is not None
    fields = ("key_sizes", "response_sizes", "rows", "cols", "counts", "response_cells")
    for name in (*fields, "key_mentions", "response_mentions", "matched_mentions"):
        assert getattr(lists, name) == getattr(span_lists, name), name
    assert lists.counts == [2, 1, 1] and lists.response_cells == [0, 0, 1, 2, -1]
    assert (lists.key_mentions, lists.response_mentions, lists.matched_mentions) == (4, 5, 4)
    assert lists.key is None and lists.response is None


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=0, max_size=12),
    st.lists(st.integers(-1, 4), min_size=0, max_size=12),
)
def test_score_lists_equals_score_pair(key_labels: list[int], response_labels: list[int]) -> None:
    # Mention t is the span (t, t); label -1 leaves it out of the response.
    key_entities: dict[int, list[tuple[int, int]]] = {}
    for t, label in enumerate(key_labels):
        key_entities.setdefault(label, []).append((t, t))
    response_entities: dict[int, list[tuple[int, int]]] = {}
    for t, label in enumerate(response_labels):
        if label >= 0:
            response_entities.setdefault(label, []).append((t, t))
    key = doc(*map(tuple, key_entities.values()))
    response = doc(*map(tuple, response_entities.values()))
    evaluation = Evaluation.create(metrics="conll")
    key_of = {s: i for i, e in enumerate(key.entities) for s in e}
    lists = entity_list_table(key_of, [len(e) for e in key.entities], response.entities)
    assert score_lists(lists, evaluation) == score_pair(key, response, evaluation, [])


def test_score_lists_takes_arrays_for_large_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    from corefscore.engines import objects

    key = doc(((0, 0), (1, 1), (2, 2)), ((5, 5),))
    response = doc(((0, 0), (1, 1)), ((2, 2), (5, 5), (9, 9)))
    evaluation = Evaluation.create(metrics="conll")
    lists = list_table(key, response)
    assert lists is not None
    small = score_lists(lists, evaluation)
    monkeypatch.setattr(objects, "LIST_MENTIONS", 0)
    built: list[object] = []
    real = objects.table_of_lists
    monkeypatch.setattr(objects, "table_of_lists", lambda t: built.append(t) or real(t))
    large = score_lists(lists, evaluation)
    assert built == [lists]
    for metric in ("muc", "bcub", "ceafe"):
        assert large[metric] == pytest.approx(small[metric]), metric
    # MUC: key entity {0,1,2} falls into 2 response parts (1 link of 2 kept);
    # response entity {2,5,9} into 3 key parts, twinless (9,9) alone (1 of 3).
    assert small["muc"] == (1.0, 2.0, 1.0, 3.0)
