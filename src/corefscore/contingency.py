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

from collections import Counter
from dataclasses import dataclass

import numpy as np

from .model import Document, Span

IntArray = np.ndarray


@dataclass(frozen=True, eq=False)
class IrregularSpan:
    """A span that occurs more than once on a side: the entities holding each copy."""

    key_entities: tuple[int, ...]
    response_entities: tuple[int, ...]


@dataclass(frozen=True, eq=False)
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

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.key_sizes), len(self.response_sizes)

    def dense(self) -> IntArray:
        """The full table as a dense array (for inspection and tests only)."""
        out = np.zeros(self.shape, dtype=np.int64)
        np.add.at(out, (self.rows, self.cols), self.counts)
        return out


def build_table(key: Document, response: Document) -> ContingencyTable:
    """Build the contingency table of one key/response document pair."""
    key_of: dict[Span, int] = {}
    key_total = 0
    for i, entity in enumerate(key.entities):
        key_total += len(entity)
        for span in entity:
            key_of[span] = i
    response_total = sum(len(e) for e in response.entities)
    if len(key_of) < key_total:
        return _build_with_repeats(key, response)

    width = max(len(response.entities), 1)
    cell_of: dict[int, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    counts: list[int] = []
    response_cells: list[int] = []
    seen: set[Span] = set()
    for j, entity in enumerate(response.entities):
        for span in entity:
            seen.add(span)
            owner = key_of.get(span)
            if owner is None:
                response_cells.append(-1)
                continue
            code = owner * width + j
            c = cell_of.get(code)
            if c is None:
                c = cell_of[code] = len(rows)
                rows.append(owner)
                cols.append(j)
                counts.append(0)
            counts[c] += 1
            response_cells.append(c)
    if len(seen) < response_total:
        return _build_with_repeats(key, response)
    count_array = np.array(counts, dtype=np.int64)
    return ContingencyTable(
        key_sizes=np.array([len(e) for e in key.entities], dtype=np.int64),
        response_sizes=np.array([len(e) for e in response.entities], dtype=np.int64),
        rows=np.array(rows, dtype=np.int64),
        cols=np.array(cols, dtype=np.int64),
        counts=count_array,
        key_mentions=key_total,
        response_mentions=response_total,
        matched_mentions=int(count_array.sum()),
        response_cells=np.array(response_cells, dtype=np.int64),
        response_overlap=count_array,
        key_counts=count_array,
        key=key,
        response=response,
    )


def _build_with_repeats(key: Document, response: Document) -> ContingencyTable:
    """General construction when a span occurs more than once on a side."""
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
    return Document(doc_id=doc_id, entities=())


__all__ = ["ContingencyTable", "IrregularSpan", "build_table", "empty_document"]
