"""The key×response contingency table of one document.

Every metric is a function of this table alone. Rows are key entities and
columns response entities, both in document order; a cell counts the mentions
(exact span matches) the two entities share. Mentions of one side that have no
twin on the other side only show up in the entity sizes.

When a span occurs more than once on one side (only under
``--duplicates reference``), "the mentions two entities share" has several
readings, and the reference scorer uses a different one in each metric. The
table then carries each reading as its own array; without repeated spans they
are the same array.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from ._lazy import lazy_attributes
from ._record import NamedTuple, record
from .model import Document, Span, first_appearance_codes

if TYPE_CHECKING:
    import numpy as np

    from ._contingency_parts import IrregularSpan, Segmentation

    IntArray = np.ndarray
else:
    from ._numpy import np


# Only a table with repeated spans or of several documents holds these:
# creating their dataclasses in their own module, on first use, spares the
# start-up of a run that scores small documents by their lists.
__getattr__ = lazy_attributes(
    globals(), {"IrregularSpan": "._contingency_parts", "Segmentation": "._contingency_parts"}
)


@record(frozen=True, eq=False)
class ContingencyTable:
    """Sparse key×response overlap counts of one document, plus entity sizes.

    ``counts[c]`` is the number of response mentions of entity ``cols[c]``
    whose twin is in key entity ``rows[c]`` (for a span in several key
    entities, the last one, as in the reference scorer). ``response_cells``
    maps every response mention, in entity order then mention order, to its
    cell, or -1 when it has no twin; the reference scorer's floating-point
    sums run in that order.
    """

    key_sizes: IntArray
    response_sizes: IntArray
    rows: IntArray
    cols: IntArray
    counts: IntArray
    key_mentions: int
    response_mentions: int
    matched_mentions: int
    response_cells: IntArray
    response_overlap: IntArray
    key_counts: IntArray
    irregular: tuple[IrregularSpan, ...] = ()
    regular_counts: IntArray | None = None
    regular_key_sizes: IntArray | None = None
    regular_response_sizes: IntArray | None = None
    #: The documents the table was built from (after duplicates, regimes and
    #: matching), for metrics that need more than overlap counts.
    key: Document | None = None
    response: Document | None = None
    #: ``None`` for a table of one document (one segment, one group).
    segments: Segmentation | None = None
    #: The CorefUD evaluation's prepared pair (``corefscore.corefud.CorefUDPair``),
    #: for the metrics that read mentions (MOR, zero).
    corefud: Any = None

    @property
    def shape(self) -> tuple[int, int]:
        """(key entities, response entities)."""
        return len(self.key_sizes), len(self.response_sizes)

    @property
    def segment_count(self) -> int:
        """How many segments (documents) the table holds."""
        return 1 if self.segments is None else self.segments.count

    def dense(self) -> IntArray:
        """The full table as a dense array (for inspection and tests only)."""
        out = np.zeros(self.shape, dtype=np.int64)
        np.add.at(out, (self.rows, self.cols), self.counts)
        return out


class ListTable(NamedTuple):
    """The contingency table of one document without repeated spans, as Python lists.

    The same cells, in the same order, as ``ContingencyTable`` (``counts`` is
    then also ``response_overlap`` and ``key_counts``). Metrics with a
    ``list_statistics`` formula read it for small documents, where building
    arrays would cost more than the arithmetic (``CorefScorer.update`` in a
    training loop). A named tuple: made once per document, it must be cheap.

    ``key_mentions`` and ``response_mentions`` are the sums of ``key_sizes``
    and ``response_sizes``, ``matched_mentions`` the sum of ``counts``: the
    list formulas read these totals instead of adding the lists up again.
    """

    key_sizes: list[int]
    response_sizes: list[int]
    rows: list[int]
    cols: list[int]
    counts: list[int]
    response_cells: list[int]
    key_mentions: int
    response_mentions: int
    matched_mentions: int
    key: Document | None
    response: Document | None
    #: What the metrics of this table share (the CEAF components), found once.
    memo: dict[str, object]


def list_table(key: Document, response: Document) -> ListTable | None:
    """The table of one key/response document pair as lists; ``None`` when a span
    occurs twice on a side (``build_table`` then gives each metric its reading)."""
    return spans_list_table(key.entities, response.entities, key=key, response=response)


def spans_list_table(
    key_entities: Sequence[Sequence[Span]],
    response_entities: Sequence[Sequence[Span]],
    *,
    key: Document | None = None,
    response: Document | None = None,
) -> ListTable | None:
    """``list_table`` of two sides given as entities of spans (the documents, when
    there are some, are kept in the table); ``None`` when a span occurs twice on
    a side."""
    key_of = {span: i for i, entity in enumerate(key_entities) for span in entity}
    key_total = sum(map(len, key_entities))
    response_total = sum(map(len, response_entities))
    if len(key_of) < key_total or len(set(chain.from_iterable(response_entities))) < response_total:
        return None
    return entity_list_table(
        key_of, list(map(len, key_entities)), response_entities, key=key, response=response
    )


def clusters_list_table(
    key_clusters: object, response_clusters: object, limit: int
) -> ListTable | None:
    """The ``ListTable`` of two sides given as the usual clusters: a list or tuple
    of non-empty lists or tuples of valid ``(start, end)`` pairs (tuples or lists)
    of Python ints, no span twice on a side, at most ``limit`` mentions in all.
    ``None`` for anything else (``document_from_clusters`` then reads or refuses
    it, and the documents' path scores it).

    ``model.plain_entities`` then ``spans_list_table``, in one pass per side:
    checking each mention where it is tabulated saves a loop over every
    mention, which is most of the cost of ``CorefScorer.update`` on a
    model's clusters.
    """
    if type(key_clusters) is not list and type(key_clusters) is not tuple:
        return None
    if type(response_clusters) is not list and type(response_clusters) is not tuple:
        return None
    key_of: dict[Span, int] = {}
    key_sizes: list[int] = []
    for i, cluster in enumerate(key_clusters):
        if (type(cluster) is not list and type(cluster) is not tuple) or not cluster:
            return None
        for mention in cluster:
            if type(mention) is not tuple:
                if type(mention) is not list:
                    return None
                mention = tuple(mention)
            if len(mention) != 2:
                return None
            start, end = mention
            if type(start) is not int or type(end) is not int or not 0 <= start <= end:
                return None
            key_of[mention] = i
        key_sizes.append(len(cluster))
    key_total = sum(key_sizes)
    if len(key_of) < key_total or key_total > limit:
        return None
    # As in entity_list_table, with each mention checked as above: inlined, not
    # shared, as a call per mention would cost more than the rest of a cell.
    width = max(len(response_clusters), 1)
    cell_of: dict[int, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    counts: list[int] = []
    response_cells: list[int] = []
    response_sizes: list[int] = []
    # Spans given as lists, which the repeat check below must make hashable.
    listed = False
    for j, cluster in enumerate(response_clusters):
        if (type(cluster) is not list and type(cluster) is not tuple) or not cluster:
            return None
        for mention in cluster:
            if type(mention) is not tuple:
                if type(mention) is not list:
                    return None
                mention = tuple(mention)
                listed = True
            if len(mention) != 2:
                return None
            start, end = mention
            if type(start) is not int or type(end) is not int or not 0 <= start <= end:
                return None
            owner = key_of.get(mention)
            if owner is None:
                response_cells.append(-1)
                continue
            code = owner * width + j
            c = cell_of.get(code)
            if c is None:
                c = cell_of[code] = len(rows)
                rows.append(owner)
                cols.append(j)
                counts.append(1)
            else:
                counts[c] += 1
            response_cells.append(c)
        response_sizes.append(len(cluster))
    response_total = len(response_cells)
    spans = chain.from_iterable(response_clusters)
    if (
        key_total + response_total > limit
        or len(set(map(tuple, spans) if listed else spans)) < response_total
    ):
        return None
    return ListTable(
        key_sizes=key_sizes,
        response_sizes=response_sizes,
        rows=rows,
        cols=cols,
        counts=counts,
        response_cells=response_cells,
        key_mentions=key_total,
        response_mentions=response_total,
        matched_mentions=sum(counts),
        key=None,
        response=None,
        memo={},
    )


def entity_list_table(
    key_of: Mapping[Any, int],
    key_sizes: list[int],
    response_entities: Sequence[Sequence[Any]],
    *,
    key: Document | None = None,
    response: Document | None = None,
) -> ListTable:
    """The ``ListTable`` of response entities against the key entity of each
    mention (``key_of``; ``key_sizes``: each key entity's mention count).

    Mentions are anything hashable and must not repeat on a side (``key_of``
    cannot repeat them; the caller vouches for the response). For callers that
    keep their own mentions (the error analysis' corrected responses), so that
    no ``Document`` of spans is built to be tabulated.
    """
    width = max(len(response_entities), 1)
    cell_of: dict[int, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    counts: list[int] = []
    response_cells: list[int] = []
    for j, entity in enumerate(response_entities):
        for mention in entity:
            owner = key_of.get(mention)
            if owner is None:
                response_cells.append(-1)
                continue
            code = owner * width + j
            c = cell_of.get(code)
            if c is None:
                c = cell_of[code] = len(rows)
                rows.append(owner)
                cols.append(j)
                counts.append(1)
            else:
                counts[c] += 1
            response_cells.append(c)
    return ListTable(
        key_sizes=key_sizes,
        response_sizes=list(map(len, response_entities)),
        rows=rows,
        cols=cols,
        counts=counts,
        response_cells=response_cells,
        key_mentions=sum(key_sizes),
        response_mentions=len(response_cells),
        matched_mentions=sum(counts),
        key=key,
        response=response,
        memo={},
    )


def build_table(key: Document, response: Document) -> ContingencyTable:
    """Build the contingency table of one key/response document pair."""
    if max(key.mention_count, response.mention_count) >= ARRAY_MENTIONS:
        table = array_table(key, response)
        if table is not None:
            return table
    lists = list_table(key, response)
    if lists is None:
        return _build_with_repeats(key, response)
    return table_of_lists(lists)


#: From this many mentions on one side, ``build_table`` matches spans by sorting
#: arrays instead of through a dict of spans: hashing a million span tuples into
#: a table that no cache holds costs more per span the larger the document
#: (bench/suite.py's scaling series). The arrays are ahead from about a thousand
#: mentions (0.25 against 0.38 ms with the duplicates check, 1,000 a side); the
#: limit is 2,000 so that a document that reaches it is past
#: ``engines.objects.LIST_MENTIONS``: its table is then always an array table,
#: which reads again the codes its duplicates check made.
ARRAY_MENTIONS = 2_000

# A span (start, end) is coded start·2³² + end: one int64, ordered and equal as
# the pairs are, and the same for every document, so that a side's codes can
# be kept between the duplicates check and the table (``span_codes``).
_END_BITS = 32
_MAX_POSITION = (1 << 31) - 1


class SpanCodes(NamedTuple):
    """One side's spans as int64 codes, in entity order then mention order."""

    #: ``start << 32 | end`` of every mention.
    codes: IntArray
    #: The codes sorted (stable), and the mention position of each.
    order: IntArray
    sorted: IntArray
    #: Mentions per entity.
    sizes: IntArray

    @property
    def has_repeats(self) -> bool:
        """Whether a span occurs more than once."""
        return bool(len(self.sorted) > 1 and (self.sorted[1:] == self.sorted[:-1]).any())


# The codes of the last documents coded, kept with the documents themselves, so
# that an id is not reused while its entry lives: the duplicates policy codes a
# large document to look for repeated spans, and ``build_table`` reads the same
# codes a moment later. Two entries: one pair.
_recent_codes: dict[int, tuple[Document, SpanCodes]] = {}


def span_codes(doc: Document) -> SpanCodes | None:
    """The spans of ``doc`` as ``SpanCodes``; ``None`` when a position is outside
    0 .. 2³¹ − 1 (the callers then use their dict of spans)."""
    kept = _recent_codes.get(id(doc))
    if kept is not None and kept[0] is doc:
        return kept[1]
    entities = doc.entities
    sizes = np.fromiter(map(len, entities), dtype=np.int64, count=len(entities))
    n = int(sizes.sum())
    try:
        flat = np.fromiter(
            chain.from_iterable(chain.from_iterable(entities)), dtype=np.int64, count=2 * n
        )
    except (OverflowError, TypeError, ValueError):
        return None  # a document made in memory with positions no int64 holds
    if n and (int(flat.min()) < 0 or int(flat.max()) > _MAX_POSITION):
        return None
    codes = (flat[0::2] << _END_BITS) | flat[1::2]
    order = np.argsort(codes, kind="stable")
    coded = SpanCodes(codes, order, codes[order], sizes)
    if len(_recent_codes) >= 2:
        # Cleared rather than trimmed: one atomic step, so that threads scoring
        # at once can only cost each other a recomputation.
        _recent_codes.clear()
    _recent_codes[id(doc)] = (doc, coded)
    return coded


def forget_span_codes(doc: Document) -> None:
    """Drop the codes ``span_codes`` keeps for ``doc``, if any."""
    _recent_codes.pop(id(doc), None)


def array_table(key: Document, response: Document) -> ContingencyTable | None:
    """``table_of_lists(list_table(key, response))``, the same arrays, made by
    sorting span codes: linear-time array work instead of a dict lookup per
    mention. ``None`` when a span occurs twice on a side or a position does
    not fit a code (``build_table`` then makes the table its usual way)."""
    key_side, response_side = span_codes(key), span_codes(response)
    forget_span_codes(key)
    forget_span_codes(response)
    if key_side is None or response_side is None:
        return None
    if key_side.has_repeats or response_side.has_repeats:
        return None
    n_keys, n_responses = len(key_side.sizes), len(response_side.sizes)
    key_entity = np.repeat(np.arange(n_keys, dtype=np.int64), key_side.sizes)
    response_entity = np.repeat(np.arange(n_responses, dtype=np.int64), response_side.sizes)
    found = key_side.sorted
    # Sorted response codes looked up in the sorted key codes walk both arrays in
    # order: the lookups of codes in reading order would jump about the key's.
    at = np.empty(len(response_side.codes), dtype=np.int64)
    at[response_side.order] = np.searchsorted(found, response_side.sorted)
    if len(found):
        np.minimum(at, len(found) - 1, out=at)
        matched = np.flatnonzero(found[at] == response_side.codes)
    else:
        matched = np.zeros(0, dtype=np.int64)
    rows_of = key_entity[key_side.order[at[matched]]]
    cols_of = response_entity[matched]
    # Cells numbered in order of first appearance along the response, as
    # entity_list_table numbers them; a cell's number first appears where the
    # running maximum grows.
    cell = first_appearance_codes(rows_of * max(n_responses, 1) + cols_of)
    first_of_cell = np.flatnonzero(np.diff(np.maximum.accumulate(cell), prepend=-1) > 0)
    counts = np.bincount(cell, minlength=len(first_of_cell)).astype(np.int64)
    response_cells = np.full(len(response_side.codes), -1, dtype=np.int64)
    response_cells[matched] = cell
    return ContingencyTable(
        key_sizes=key_side.sizes,
        response_sizes=response_side.sizes,
        rows=rows_of[first_of_cell],
        cols=cols_of[first_of_cell],
        counts=counts,
        key_mentions=len(key_side.codes),
        response_mentions=len(response_side.codes),
        matched_mentions=len(matched),
        response_cells=response_cells,
        response_overlap=counts,
        key_counts=counts,
        key=key,
        response=response,
    )


def table_of_lists(lists: ListTable) -> ContingencyTable:
    """The ``ContingencyTable`` of a ``ListTable``."""
    count_array = np.array(lists.counts, dtype=np.int64)
    return ContingencyTable(
        key_sizes=np.array(lists.key_sizes, dtype=np.int64),
        response_sizes=np.array(lists.response_sizes, dtype=np.int64),
        rows=np.array(lists.rows, dtype=np.int64),
        cols=np.array(lists.cols, dtype=np.int64),
        counts=count_array,
        key_mentions=lists.key_mentions,
        response_mentions=lists.response_mentions,
        matched_mentions=lists.matched_mentions,
        response_cells=np.array(lists.response_cells, dtype=np.int64),
        response_overlap=count_array,
        key_counts=count_array,
        key=lists.key,
        response=lists.response,
    )


def _build_with_repeats(key: Document, response: Document) -> ContingencyTable:
    """General construction when a span occurs more than once on a side."""
    from ._contingency_parts import IrregularSpan

    key_occ: dict[Span, list[int]] = {}
    for i, entity in enumerate(key.entities):
        for span in entity:
            key_occ.setdefault(span, []).append(i)
    response_occ: dict[Span, list[int]] = {}
    for j, entity in enumerate(response.entities):
        for span in entity:
            response_occ.setdefault(span, []).append(j)

    cell_of: dict[tuple[int, int], int] = {}

    def cell(i: int, j: int) -> int:
        c = cell_of.get((i, j))
        if c is None:
            c = cell_of[(i, j)] = len(cell_of)
        return c

    assigned: Counter[int] = Counter()
    overlap: Counter[int] = Counter()
    key_side: Counter[int] = Counter()
    regular: Counter[int] = Counter()
    response_cells: list[int] = []
    for j, entity in enumerate(response.entities):
        for span in entity:
            owners = key_occ.get(span)
            if owners is None:
                response_cells.append(-1)
                continue
            c = cell(owners[-1], j)  # the last key entity holding the span
            assigned[c] += 1
            response_cells.append(c)
            for i in dict.fromkeys(owners):
                overlap[cell(i, j)] += 1
    for span, owners in key_occ.items():
        places = response_occ.get(span)
        if places is None:
            continue
        for j in dict.fromkeys(places):
            for i in owners:
                key_side[cell(i, j)] += 1
        if len(owners) == 1 and len(places) == 1:
            regular[cell(owners[0], places[0])] += 1

    irregular = tuple(
        IrregularSpan(tuple(key_occ.get(span, ())), tuple(response_occ.get(span, ())))
        for span in dict.fromkeys([*key_occ, *response_occ])
        if len(key_occ.get(span, ())) > 1 or len(response_occ.get(span, ())) > 1
    )
    n = len(cell_of)
    rows = np.zeros(n, dtype=np.int64)
    cols = np.zeros(n, dtype=np.int64)
    for (i, j), c in cell_of.items():
        rows[c], cols[c] = i, j

    def array(counter: Counter[int]) -> IntArray:
        out = np.zeros(n, dtype=np.int64)
        for c, v in counter.items():
            out[c] = v
        return out

    # Regular spans occur at most once on each side.
    regular_key = np.zeros(len(key.entities), dtype=np.int64)
    regular_response = np.zeros(len(response.entities), dtype=np.int64)
    for span, owners in key_occ.items():
        if len(owners) == 1 and len(response_occ.get(span, ())) <= 1:
            regular_key[owners[0]] += 1
    for span, places in response_occ.items():
        if len(places) == 1 and len(key_occ.get(span, ())) <= 1:
            regular_response[places[0]] += 1

    counts = array(assigned)
    return ContingencyTable(
        key_sizes=np.array([len(e) for e in key.entities], dtype=np.int64),
        response_sizes=np.array([len(e) for e in response.entities], dtype=np.int64),
        rows=rows,
        cols=cols,
        counts=counts,
        key_mentions=len(key_occ),
        response_mentions=len(response_occ),
        matched_mentions=sum(1 for span in response_occ if span in key_occ),
        response_cells=np.array(response_cells, dtype=np.int64),
        response_overlap=array(overlap),
        key_counts=array(key_side),
        irregular=irregular,
        regular_counts=array(regular),
        regular_key_sizes=regular_key,
        regular_response_sizes=regular_response,
        key=key,
        response=response,
    )


def empty_document(doc_id: str) -> Document:
    """A document with no entity: what a key document the response lacks is scored against."""
    return Document(doc_id=doc_id, entities=())


def stack_tables(tables: Sequence[ContingencyTable]) -> ContingencyTable:
    """One block-diagonal table of several one-document tables, a segment each.

    Every metric with segment statistics then computes all the documents in
    one pass, with the same bits as one table at a time (entities and
    mentions keep their order within each segment). Tables with repeated
    spans (``irregular``) cannot be stacked.
    """
    if any(t.irregular or t.segments is not None for t in tables):
        raise ValueError("only regular one-document tables can be stacked")
    from ._contingency_parts import Segmentation

    n = len(tables)
    key_counts = np.array([len(t.key_sizes) for t in tables], dtype=np.int64)
    response_counts = np.array([len(t.response_sizes) for t in tables], dtype=np.int64)
    cell_counts = np.array([len(t.rows) for t in tables], dtype=np.int64)
    mention_counts = np.array([len(t.response_cells) for t in tables], dtype=np.int64)
    key_offsets = np.repeat(np.cumsum(key_counts) - key_counts, cell_counts)
    response_offsets = np.repeat(np.cumsum(response_counts) - response_counts, cell_counts)
    cell_offsets = np.repeat(np.cumsum(cell_counts) - cell_counts, mention_counts)
    response_cells = _concatenate([t.response_cells for t in tables])
    response_cells = np.where(response_cells >= 0, response_cells + cell_offsets, -1)
    segment = np.arange(n, dtype=np.int64)
    counts = _concatenate([t.counts for t in tables])
    return ContingencyTable(
        key_sizes=_concatenate([t.key_sizes for t in tables]),
        response_sizes=_concatenate([t.response_sizes for t in tables]),
        rows=_concatenate([t.rows for t in tables]) + key_offsets,
        cols=_concatenate([t.cols for t in tables]) + response_offsets,
        counts=counts,
        key_mentions=sum(t.key_mentions for t in tables),
        response_mentions=sum(t.response_mentions for t in tables),
        matched_mentions=sum(t.matched_mentions for t in tables),
        response_cells=response_cells,
        response_overlap=counts,
        key_counts=counts,
        segments=Segmentation(
            count=n,
            key_entity=np.repeat(segment, key_counts),
            response_entity=np.repeat(segment, response_counts),
            response_mention=np.repeat(segment, mention_counts),
            key_mentions=np.array([t.key_mentions for t in tables], dtype=np.int64),
            response_mentions=np.array([t.response_mentions for t in tables], dtype=np.int64),
            matched_mentions=np.array([t.matched_mentions for t in tables], dtype=np.int64),
        ),
    )


def _concatenate(arrays: list[IntArray]) -> IntArray:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)


# --------------------------------------------------------------------------------------------
# Sums per segment: what every metric adds up, for one document or many at once

#: What a value array of a metric is indexed by.
Over = str  # "key" (key entities), "response" (response entities), "cells", "mentions"


def _groups(table: ContingencyTable, over: Over) -> IntArray:
    segments = table.segments
    assert segments is not None
    if over == "key":
        return segments.key_entity
    if over == "response":
        return segments.response_entity
    if over == "cells":
        cells: IntArray = segments.key_entity[table.rows]
        return cells
    if over == "mentions":
        return segments.response_mention
    raise ValueError(f"unknown table axis {over!r}")


def segment_totals(table: ContingencyTable, values: np.ndarray, over: Over) -> np.ndarray:
    """Per segment, the sum of ``values`` (exact for integer counts below 2**53)."""
    if table.segments is None:
        return np.array([values.sum()], dtype=np.float64)
    segments = table.segments
    groups = segments.segment_of(_groups(table, over))
    out: np.ndarray = np.bincount(groups, weights=values, minlength=segments.count)
    return out.astype(np.float64, copy=False)


def segment_counts(table: ContingencyTable, over: Over) -> np.ndarray:
    """Per segment, how many key entities, response entities, cells or response mentions."""
    if table.segments is None:
        size = {
            "key": len(table.key_sizes),
            "response": len(table.response_sizes),
            "cells": len(table.rows),
            "mentions": len(table.response_cells),
        }[over]
        return np.array([size], dtype=np.float64)
    segments = table.segments
    groups = segments.segment_of(_groups(table, over))
    return np.bincount(groups, minlength=segments.count).astype(np.float64)


def segment_ordered_sums(
    table: ContingencyTable, values: np.ndarray, over: Over, *, at: IntArray | None = None
) -> np.ndarray:
    """Per segment, ``values`` added one at a time in table order within each document.

    This is the reference scorer's floating-point order: terms of one
    document added left to right; documents' sums combined with ``math.fsum``.
    ``at`` gives the positions (along ``over``, ascending) of ``values`` when
    they are not one per element.
    """
    values = values.astype(np.float64, copy=False)
    if table.segments is None:
        total = float(np.add.accumulate(values)[-1]) if len(values) else 0.0
        return np.array([total], dtype=np.float64)
    segments = table.segments
    groups = _groups(table, over)
    if at is not None:
        groups = groups[at]
    sums = group_sums(values, groups, segments.groups)
    if segments.group_segment is None:
        return sums
    out = np.zeros(segments.count, dtype=np.float64)
    order = np.argsort(segments.group_segment, kind="stable")
    bounds = np.searchsorted(segments.group_segment[order], np.arange(segments.count + 1))
    ordered = sums[order].tolist()
    for s in np.flatnonzero(np.diff(bounds)).tolist():
        out[s] = math.fsum(ordered[bounds[s] : bounds[s + 1]])
    return out


# Groups longer than this are summed one numpy call each; shorter ones column by column.
_SHORT_GROUP = 64


def group_sums(values: np.ndarray, groups: IntArray, n_groups: int) -> np.ndarray:
    """Per group, ``values`` added left to right one at a time.

    ``values`` are in the order they must be added within their group; groups
    may interleave. Short groups are added column by column over all groups at
    once, long ones with one ``np.add.accumulate`` each.
    """
    out = np.zeros(n_groups, dtype=np.float64)
    if len(values) == 0:
        return out
    if len(groups) > 1 and (groups[1:] < groups[:-1]).any():
        ordered = values[np.argsort(groups, kind="stable")].astype(np.float64, copy=False)
    else:
        ordered = values.astype(np.float64, copy=False)
    lengths = np.bincount(groups, minlength=n_groups)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    short = np.flatnonzero((lengths > 0) & (lengths <= _SHORT_GROUP))
    if len(short):
        by_length = short[np.argsort(-lengths[short], kind="stable")]
        remaining = lengths[by_length]
        base = starts[by_length]
        acc = ordered[base].copy()
        negated = -remaining
        for k in range(1, int(remaining[0])):
            # Lengths are sorted descending: the first `active` groups have a value k.
            active = int(np.searchsorted(negated, -k, side="left"))
            acc[:active] += ordered[base[:active] + k]
        out[by_length] = acc
    for g in np.flatnonzero(lengths > _SHORT_GROUP).tolist():
        out[g] = np.add.accumulate(ordered[starts[g] : starts[g] + lengths[g]])[-1]
    return out


def choose2(values: np.ndarray) -> np.ndarray:
    """C(v, 2) elementwise, as exact integers."""
    v = values.astype(np.int64)
    out: np.ndarray = v * (v - 1) // 2
    return out


__all__ = [
    "ARRAY_MENTIONS",
    "ContingencyTable",
    "IrregularSpan",
    "ListTable",
    "Segmentation",
    "SpanCodes",
    "array_table",
    "build_table",
    "choose2",
    "clusters_list_table",
    "empty_document",
    "forget_span_codes",
    "group_sums",
    "list_table",
    "segment_counts",
    "segment_ordered_sums",
    "segment_totals",
    "span_codes",
    "spans_list_table",
    "stack_tables",
    "table_of_lists",
]
