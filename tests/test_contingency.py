"""The per-document contingency table."""

from __future__ import annotations

from corefscore.contingency import build_table
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
