"""The per-document contingency table."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.contingency import (
    build_table,
    clusters_list_table,
    entity_list_table,
    list_table,
    spans_list_table,
)
from corefscore.engines.objects import score_lists, score_pair
from corefscore.evaluation import Evaluation
from corefscore.model import Document, plain_entities


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


# Each way a span can fail to be the usual input: other numbers, negative or
# reversed ends, another length, another type.
_NUMBER = st.one_of(st.integers(-1, 6), st.sampled_from([True, 1.0]))
_SPAN = st.tuples(st.integers(0, 6), st.integers(0, 2)).map(lambda p: (p[0], p[0] + p[1]))
_ODD = st.one_of(
    st.tuples(_NUMBER, _NUMBER),
    st.tuples(_NUMBER, st.integers(1, 6)),
    st.lists(st.integers(0, 6), min_size=1, max_size=3).map(tuple),
    st.sampled_from(["ab", {"span": (0, 0)}, frozenset({1, 2}), [3, 3]]),
)


@st.composite
def _sides(draw: st.DrawFn) -> object:
    """Clusters of distinct spans (a repeat now and then), as lists or tuples, with
    spans as lists (decoded from JSON) or one odd mention or cluster now and then."""
    spans = draw(st.lists(_SPAN, max_size=12, unique=True))
    if spans and draw(st.integers(0, 5)) == 0:
        spans.append(draw(st.sampled_from(spans)))
    clusters: list[Any] = []
    while spans:
        size = draw(st.integers(1, 4))
        cluster: list[Any] = spans[:size]
        del spans[:size]
        if draw(st.integers(0, 3)) == 0:
            cluster = [list(span) for span in cluster]
        clusters.append(tuple(cluster) if draw(st.booleans()) else cluster)
    if clusters and draw(st.booleans()):
        where = draw(st.integers(0, len(clusters) - 1))
        odd = draw(st.one_of(_ODD, st.just(None)))
        if odd is None:
            clusters.insert(where, draw(st.sampled_from([[], (), "x"])))
        else:
            clusters[where] = [*clusters[where], odd]
    return draw(st.sampled_from([clusters, clusters, tuple(clusters), {}, "(0, 0)"]))


@settings(max_examples=600, deadline=None)
@given(_sides(), _sides(), st.sampled_from([2_000, 12]))
def test_clusters_list_table_is_plain_entities_then_spans_list_table(
    key: object, response: object, limit: int
) -> None:
    # The one-pass table of CorefScorer.update's usual input: the same table, and
    # None for every input that the two steps refuse (or that is too large).
    found = clusters_list_table(key, response, limit)
    key_entities, response_entities = plain_entities(key), plain_entities(response)
    if key_entities is None or response_entities is None:
        assert found is None
        return
    expected = spans_list_table(key_entities, response_entities)
    if expected is None or expected.key_mentions + expected.response_mentions > limit:
        assert found is None
        return
    assert found == expected
    assert all(type(v) is int for v in found.rows + found.cols + found.counts)
    # The totals the list formulas read instead of adding the lists up.
    assert found.key_mentions == sum(found.key_sizes)
    assert found.response_mentions == sum(found.response_sizes)
    assert found.matched_mentions == sum(found.counts)


@pytest.mark.parametrize(
    "odd",
    [(1.0, 2), (True, 2), (1, 2.0), (1, True), (-1, 0), (2, 1), (1,), (1, 2, 3), "12", {1, 2}],
)
@pytest.mark.parametrize("side", ["key", "response"])
def test_clusters_list_table_refuses_an_odd_mention_among_usual_ones(
    odd: object, side: str
) -> None:
    usual = [[(0, 0), (1, 2)], [(4, 4)]]
    assert clusters_list_table(usual, usual, 2_000) is not None
    odd_side = [[(0, 0), (1, 2)], [(4, 4), odd]]
    sides = (odd_side, usual) if side == "key" else (usual, odd_side)
    assert clusters_list_table(*sides, 2_000) is None


def _same_tables(a: Any, b: Any) -> None:
    import dataclasses

    import numpy as np

    for field in dataclasses.fields(b):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(y, np.ndarray):
            assert x.dtype == y.dtype and x.tolist() == y.tolist(), field.name
        else:
            assert x is y or x == y, field.name


spans_strategy = st.tuples(st.integers(0, 6), st.integers(0, 3)).map(lambda p: (p[0], p[0] + p[1]))
entities_strategy = st.lists(st.lists(spans_strategy, min_size=1, max_size=5), max_size=6)


@settings(max_examples=300, deadline=None)
@given(entities_strategy, entities_strategy)
def test_array_table_is_the_list_table_in_arrays(
    key_entities: list[list[tuple[int, int]]], response_entities: list[list[tuple[int, int]]]
) -> None:
    from corefscore.contingency import array_table, table_of_lists

    key = doc(*map(tuple, key_entities))
    response = doc(*map(tuple, response_entities))
    lists = list_table(key, response)
    table = array_table(key, response)
    if lists is None:
        # A span twice on a side: each metric's reading, which only build_table makes.
        assert table is None
        return
    assert table is not None
    _same_tables(table, table_of_lists(lists))


def test_array_table_cells_in_order_of_first_appearance() -> None:
    from corefscore.contingency import array_table

    key = doc(((0, 0), (4, 4)), ((1, 1), (3, 3)), ((2, 2),))
    # Response entity 0 meets key entity 1 first, then 0; entity 1 meets 2, then 1.
    response = doc(((1, 1), (0, 0), (4, 4)), ((2, 2), (3, 3), (7, 7)))
    table = array_table(key, response)
    assert table is not None
    assert list(zip(table.rows.tolist(), table.cols.tolist(), table.counts.tolist())) == [
        (1, 0, 1),
        (0, 0, 2),
        (2, 1, 1),
        (1, 1, 1),
    ]
    assert table.response_cells.tolist() == [0, 1, 1, 2, 3, -1]
    assert table.key is key and table.response is response


def test_array_table_refuses_what_codes_cannot_hold() -> None:
    from corefscore.contingency import array_table

    # Positions past 2**31 - 1 do not fit a code: build_table's dict of spans makes it.
    key = doc(((0, 2**31),))
    assert array_table(key, doc(((0, 2**31),))) is None
    assert build_table(key, doc(((0, 2**31),))).counts.tolist() == [1]
    # Nor past int64, nor negative.
    huge = doc(((0, 2**70),))
    assert array_table(huge, huge) is None
    assert array_table(doc(((-1, 0),)), doc(((-1, 0),))) is None


def test_build_table_sorts_codes_from_array_mentions(monkeypatch: pytest.MonkeyPatch) -> None:
    from corefscore import contingency

    big = doc(*(((t, t), (t + 1000, t + 1001)) for t in range(0, 1000, 2)))
    response = doc(*(((t, t),) for t in range(0, 1000)))
    assert big.mention_count == 1000
    calls: list[int] = []
    original = contingency.array_table

    def counted(key: Document, response: Document) -> Any:
        calls.append(key.mention_count)
        return original(key, response)

    monkeypatch.setattr(contingency, "array_table", counted)
    monkeypatch.setattr(contingency, "ARRAY_MENTIONS", 1000)
    table = build_table(big, response)
    assert calls == [1000]
    _same_tables(table, contingency.table_of_lists(list_table(big, response)))  # type: ignore[arg-type]
    monkeypatch.setattr(contingency, "ARRAY_MENTIONS", 1001)
    build_table(big, response)
    assert calls == [1000]


def test_span_codes_of_a_document_are_kept_for_its_table() -> None:
    from corefscore import contingency
    from corefscore.duplicates import _has_repeats

    key = doc(*(((t, t),) for t in range(contingency.ARRAY_MENTIONS)))
    repeated = doc(((0, 0), (1, 1)), ((1, 1),))
    assert not _has_repeats(key)  # by codes, kept for the table
    coded = contingency.span_codes(key)
    assert coded is not None and contingency.span_codes(key) is coded
    table = build_table(key, key)
    assert table.matched_mentions == contingency.ARRAY_MENTIONS
    # The table took the codes: none are held for a document that was tabulated.
    assert id(key) not in contingency._recent_codes
    assert contingency.span_codes(repeated) is not None
    assert contingency.span_codes(repeated).has_repeats  # type: ignore[union-attr]
    assert len(contingency._recent_codes) <= 2


def test_array_tables_made_in_threads_at_once_are_each_their_own() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from corefscore import contingency
    from corefscore.duplicates import _has_repeats

    n = contingency.ARRAY_MENTIONS
    pairs = [
        (
            doc(*(((t, t), (t + 1, t + 1)) for t in range(shift, shift + n, 2))),
            doc(*(((t, t),) for t in range(shift, shift + n))),
        )
        for shift in range(8)
    ]
    serial = [contingency.table_of_lists(list_table(k, r)) for k, r in pairs]  # type: ignore[arg-type]

    def tabulate(i: int) -> Any:
        key, response = pairs[i % len(pairs)]
        assert not _has_repeats(key) and not _has_repeats(response)
        return i % len(pairs), build_table(key, response)

    with ThreadPoolExecutor(4) as pool:
        for i, table in pool.map(tabulate, range(64)):
            _same_tables(table, serial[i])


def test_no_span_codes_kept_for_a_document_the_policy_replaced() -> None:
    from corefscore import contingency
    from corefscore.pipeline import prepare

    n = contingency.ARRAY_MENTIONS
    key = doc(*(((t, t),) for t in range(n)))
    # A repeated span: the reference policy drops the response's later copy.
    response = doc(*(((t, t),) for t in range(n)), ((0, 0),))
    warnings: list[str] = []
    prepared_key, prepared_response = prepare(
        key, response, Evaluation.create(metrics="conll"), warnings
    )
    assert prepared_key is key and prepared_response is not response and warnings
    assert id(response) not in contingency._recent_codes
    assert contingency._recent_codes[id(key)][0] is key
    build_table(prepared_key, prepared_response)
    assert not contingency._recent_codes


@pytest.mark.parametrize("split", ["dev", "test"])
def test_array_table_is_the_list_table_on_real_documents(split: str) -> None:
    """GUM with xrenner's output, and the same with every document's spans perturbed
    (one in seven dropped, one in eleven shifted, one in thirteen repeated in
    another entity): the sorted codes give the dict's table, or refuse a repeat."""
    from corefscore.contingency import array_table, table_of_lists
    from corefscore.io import read_corpus

    from .conftest import shared_path

    key = read_corpus(shared_path("data", "real", "gum", "pairs", f"{split}.key_gum.conll"))
    response = read_corpus(
        shared_path("data", "real", "gum", "pairs", f"{split}.resp_xrenner.conll")
    )

    def perturbed(d: Document) -> Document:
        entities = [list(e) for e in d.entities]
        for i, entity in enumerate(entities):
            for m, (start, end) in enumerate(list(entity)):
                if (i + m) % 7 == 0 and len(entity) > 1:
                    entity.remove((start, end))
                elif (i + m) % 11 == 0:
                    entity[entity.index((start, end))] = (start + 1, end + 1)
                elif (i + m) % 13 == 0 and entities:
                    entities[(i + 1) % len(entities)].append((start, end))
        return Document(d.doc_id, tuple(tuple(e) for e in entities if e))

    compared = refused = 0
    for doc_id in key.documents:
        if doc_id not in response.documents:
            continue
        for k, r in ((key[doc_id], response[doc_id]), (perturbed(key[doc_id]), response[doc_id])):
            lists = list_table(k, r)
            table = array_table(k, r)
            if lists is None:
                assert table is None
                refused += 1
                continue
            assert table is not None
            _same_tables(table, table_of_lists(lists))
            compared += 1
    assert compared >= 20 and refused >= 1, (compared, refused)
