"""Columnar scoring: mentions as numpy arrays, the contingency table without Python objects.

A :class:`MentionTable` holds one side of a corpus as parallel arrays, one row
per mention in reading order (documents, then entities, then mentions):
``doc``, ``start``, ``end`` and ``label`` (codes into ``doc_ids`` and
``labels``). Nothing is materialised per mention, so ten million mentions cost
a few hundred megabytes, and the contingency table is built with sorting and
grouping (:func:`contingency_from_arrays`).

Two entity scopes turn labels into entities (:meth:`MentionTable.entity_codes`):
``"document"`` (a label names an entity of its own document, as in CoNLL
files scored per document) and ``"global"`` (a label names one entity of the
whole corpus: cross-document coreference).

:func:`score_tables` computes the seven default metrics from the one table:

* with ``blanc_scope="document"`` and document-scoped entities it gives the
  numbers of ordinary per-document scoring (micro-averaged), bit for bit: the
  floating-point sums are added per document in the reference scorer's order
  and the documents' sums with ``math.fsum``, as :class:`~corefscore.scorer.CorefScorer`
  does;
* with ``blanc_scope="global"`` it scores one global partition
  (cross-document mode, :mod:`corefscore.crossdoc`).

The building blocks are public for other engines (e.g. ``corefscore.dask``):
:func:`encode_mentions`, :func:`contingency_from_arrays`,
:func:`ceaf_alignment`, :func:`segment_sums` and :func:`component_sizes`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .contingency import ContingencyTable
from .errors import InputError, UsageError
from .metrics import REGISTRY, MetricScore
from .metrics.lea import _resolution
from .model import Corpus

IntArray = np.ndarray
FloatArray = np.ndarray

#: The metrics :func:`score_tables` computes natively (the reference scorer's seven).
NATIVE_METRICS: tuple[str, ...] = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
SCOPES = ("document", "global")

# Segments longer than this are summed one numpy call each; shorter ones column by column.
_SHORT_SEGMENT = 64


# --------------------------------------------------------------------------------------------
# One side of a corpus


@dataclass(frozen=True, eq=False)
class MentionTable:
    """One side's mentions as parallel int64 arrays, in reading order.

    ``doc[k]`` indexes ``doc_ids`` and ``label[k]`` indexes ``labels`` (the
    entity id as written in the source). ``doc_ids`` may list documents that
    have no mention.
    """

    doc: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    doc_ids: tuple[str, ...]
    labels: Sequence[str]
    source: str | None = None
    warnings: tuple[str, ...] = field(default=())
    #: False when labels are only positions within a document (jsonlines), so
    #: that a corpus-wide reading of them would be meaningless.
    corpus_wide_labels: bool = True
    #: True when ``label`` already numbers the labels 0, 1, ... in order of first
    #: appearance (as readers make it), which saves a sort of every mention.
    dense_labels: bool = False

    def __len__(self) -> int:
        return len(self.doc)

    def entity_codes(self, scope: str) -> IntArray:
        """Entity of every mention: 0, 1, ... in order of first appearance.

        ``scope="document"``: a label is an entity of its own document;
        ``"global"``: one entity of the whole corpus.
        """
        if scope == "global":
            return self.label if self.dense_labels else first_appearance_codes(self.label)
        if scope == "document":
            width = max(len(self.labels), 1)
            return first_appearance_codes(self.doc * width + self.label)
        raise UsageError(f"entity scope must be one of {', '.join(SCOPES)}, got {scope!r}")

    def select(self, keep: np.ndarray) -> MentionTable:
        """The table with only the mentions where ``keep`` is true."""
        return MentionTable(
            self.doc[keep],
            self.start[keep],
            self.end[keep],
            self.label[keep],
            self.doc_ids,
            self.labels,
            self.source,
            self.warnings,
            self.corpus_wide_labels,
        )


def first_appearance_codes(values: IntArray) -> IntArray:
    """Dense codes 0, 1, ... for ``values``, numbered in order of first appearance."""
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64)
    _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int64)
    out: IntArray = rank[inverse.reshape(-1)]
    return out


def table_from_corpus(corpus: Corpus) -> MentionTable:
    """The mentions of a :class:`~corefscore.model.Corpus`, labels as the source wrote them.

    Documents, entities and mentions keep their order, so that document-scoped
    scoring adds its floating-point terms as the per-document path does.
    """
    doc_ids = tuple(corpus.documents)
    label_index: dict[str, int] = {}
    docs: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    labels: list[int] = []
    for d, document in enumerate(corpus.documents.values()):
        for label, entity in zip(document.labels, document.entities):
            code = label_index.setdefault(label, len(label_index))
            n = len(entity)
            docs.extend([d] * n)
            labels.extend([code] * n)
            for start, end in entity:
                starts.append(start)
                ends.append(end)
    return MentionTable(
        np.array(docs, dtype=np.int64),
        np.array(starts, dtype=np.int64),
        np.array(ends, dtype=np.int64),
        np.array(labels, dtype=np.int64),
        doc_ids,
        tuple(label_index),
        corpus.source,
        corpus.warnings,
        dense_labels=True,
    )


# --------------------------------------------------------------------------------------------
# Mention codes and the contingency table


def encode_mentions(
    doc: IntArray,
    start: IntArray,
    end: IntArray,
    *,
    widths: tuple[int, int, int] | None = None,
) -> IntArray:
    """One int64 per mention, equal exactly when (doc, start, end) are equal.

    The three numbers are packed into bit fields of ``widths`` bits (by
    default the fewest that hold this call's values). Codes of separate calls
    are comparable only with the same ``widths``: encode key and response
    together, or fix the widths (e.g. ``(20, 21, 21)``) for chunked or
    distributed data. Without ``widths``, values too large to pack in 63 bits
    are numbered instead (comparable within the call only).
    """
    if len(doc) == 0:
        return np.zeros(0, dtype=np.int64)
    if min(int(doc.min()), int(start.min()), int(end.min())) < 0:
        raise InputError("mention positions and document numbers must be >= 0")
    columns = (doc, start, end)
    needed = [max(int(a.max()), 1).bit_length() for a in columns]
    if widths is not None:
        if sum(widths) > 63 or any(n > w for n, w in zip(needed, widths)):
            raise UsageError(
                f"mention fields need {needed} bits, more than the widths {list(widths)} "
                "(at most 63 in all)"
            )
        needed = list(widths)
    if sum(needed) <= 63:
        out: IntArray = (doc << (needed[1] + needed[2])) | (start << needed[2]) | end
        return out
    triples = np.stack(columns, axis=1)
    _, inverse = np.unique(triples, axis=0, return_inverse=True)
    coded: IntArray = inverse.reshape(-1).astype(np.int64)
    return coded


def repeated_positions(codes: IntArray) -> IntArray:
    """Positions of every mention whose code already occurred earlier (reading order)."""
    if len(codes) == 0:
        return np.zeros(0, dtype=np.int64)
    _, inverse = np.unique(codes, return_inverse=True)
    inverse = inverse.reshape(-1)
    first = _first_positions(inverse, int(inverse.max()) + 1)
    out: IntArray = np.flatnonzero(first[inverse] != np.arange(len(codes)))
    return out


def _first_positions(inverse: IntArray, n: int) -> IntArray:
    """For each code 0..n-1, the first position holding it in ``inverse`` (or -1)."""
    first = np.full(n, -1, dtype=np.int64)
    # Fancy assignment keeps the last write: write in reverse so the earliest stays.
    first[inverse[::-1]] = np.arange(len(inverse) - 1, -1, -1)
    return first


def twins(key_mentions: IntArray, response_mentions: IntArray) -> IntArray:
    """For every response mention, the position of the key mention with its code, or -1.

    Codes must be distinct within each side. One sort of both sides together.
    """
    both = np.concatenate((key_mentions, response_mentions))
    if len(both) == 0:
        return np.zeros(0, dtype=np.int64)
    _, inverse = np.unique(both, return_inverse=True)
    inverse = inverse.reshape(-1)
    key_of_code = np.full(int(inverse.max()) + 1, -1, dtype=np.int64)
    key_of_code[inverse[: len(key_mentions)]] = np.arange(len(key_mentions))
    out: IntArray = key_of_code[inverse[len(key_mentions) :]]
    return out


def contingency_from_arrays(
    key_mentions: IntArray,
    key_entities: IntArray,
    response_mentions: IntArray,
    response_entities: IntArray,
    *,
    n_key_entities: int | None = None,
    n_response_entities: int | None = None,
) -> ContingencyTable:
    """The contingency table of two partitions given as mention arrays.

    ``key_mentions[k]`` is the code of key mention ``k`` (see
    :func:`encode_mentions`; codes are distinct within a side, equal codes
    across sides are twins) and ``key_entities[k]`` its entity, a dense code
    in ``0 .. n_key_entities - 1``; likewise for the response, whose order is
    the order of ``response_cells`` (B³'s sums). Entity counts default to the
    largest code + 1. The result has no documents attached, so every metric
    that reads only the table works on it (all built-in ones but ``ace-value``
    and user callables on entities).
    """
    key_mentions = np.asarray(key_mentions, dtype=np.int64)
    response_mentions = np.asarray(response_mentions, dtype=np.int64)
    if len(key_mentions) != len(key_entities) or len(response_mentions) != len(response_entities):
        raise UsageError("mention and entity arrays of a side must have the same length")
    return table_from_twins(
        np.asarray(key_entities, dtype=np.int64),
        np.asarray(response_entities, dtype=np.int64),
        twins(key_mentions, response_mentions),
        n_key_entities=n_key_entities,
        n_response_entities=n_response_entities,
    )


def table_from_twins(
    key_entities: IntArray,
    response_entities: IntArray,
    twin_of_response: IntArray,
    *,
    n_key_entities: int | None = None,
    n_response_entities: int | None = None,
) -> ContingencyTable:
    """The contingency table given each response mention's key twin position (-1: none)."""
    n_keys = n_key_entities if n_key_entities is not None else _count(key_entities)
    n_responses = (
        n_response_entities if n_response_entities is not None else _count(response_entities)
    )
    response_at = np.flatnonzero(twin_of_response >= 0)
    pair_rows = key_entities[twin_of_response[response_at]]
    pair_cols = response_entities[response_at]
    width = max(n_responses, 1)
    cell_codes, cell_of_pair, counts = np.unique(
        pair_rows * width + pair_cols, return_inverse=True, return_counts=True
    )
    response_cells = np.full(len(response_entities), -1, dtype=np.int64)
    response_cells[response_at] = cell_of_pair.reshape(-1)
    counts = counts.astype(np.int64)
    return ContingencyTable(
        key_sizes=np.bincount(key_entities, minlength=n_keys).astype(np.int64),
        response_sizes=np.bincount(response_entities, minlength=n_responses).astype(np.int64),
        rows=cell_codes // width,
        cols=cell_codes % width,
        counts=counts,
        key_mentions=len(key_entities),
        response_mentions=len(response_entities),
        matched_mentions=len(response_at),
        response_cells=response_cells,
        response_overlap=counts,
        key_counts=counts,
    )


def _count(codes: IntArray) -> int:
    return int(codes.max()) + 1 if len(codes) else 0


# --------------------------------------------------------------------------------------------
# Sums in the per-document order


def segment_sums(values: FloatArray, segments: IntArray, n_segments: int) -> FloatArray:
    """Per segment, ``values`` added left to right one at a time (as ``sequential_sum``).

    ``values`` are in the order they must be added within their segment;
    segments may interleave. Short segments are added column by column over
    all segments at once, long ones with one ``np.add.accumulate`` each.
    """
    out = np.zeros(n_segments, dtype=np.float64)
    if len(values) == 0:
        return out
    if len(segments) > 1 and (segments[1:] < segments[:-1]).any():
        ordered = values[np.argsort(segments, kind="stable")].astype(np.float64, copy=False)
    else:
        ordered = values.astype(np.float64, copy=False)
    lengths = np.bincount(segments, minlength=n_segments)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    short = np.flatnonzero((lengths > 0) & (lengths <= _SHORT_SEGMENT))
    if len(short):
        by_length = short[np.argsort(-lengths[short], kind="stable")]
        remaining = lengths[by_length]
        base = starts[by_length]
        acc = ordered[base].copy()
        negated = -remaining
        for k in range(1, int(remaining[0])):
            # Lengths are sorted descending: the first `active` segments have a value k.
            active = int(np.searchsorted(negated, -k, side="left"))
            acc[:active] += ordered[base[:active] + k]
        out[by_length] = acc
    for s in np.flatnonzero(lengths > _SHORT_SEGMENT).tolist():
        out[s] = np.add.accumulate(ordered[starts[s] : starts[s] + lengths[s]])[-1]
    return out


def _total(values: FloatArray, segments: IntArray, n_segments: int) -> float:
    return math.fsum(segment_sums(values, segments, n_segments).tolist())


# --------------------------------------------------------------------------------------------
# CEAF by connected component


def component_sizes(table: ContingencyTable) -> tuple[IntArray, IntArray]:
    """(key entities, response entities) of every connected component of the overlap graph.

    Entities without any overlap are left out. Useful to check that a corpus
    has no giant component before scoring it.
    """
    labels, n = components(table.shape, table.rows, table.cols)
    n_keys, n_responses = table.shape
    linked_rows = np.flatnonzero(np.bincount(table.rows, minlength=n_keys))
    linked_cols = np.flatnonzero(np.bincount(table.cols, minlength=n_responses))
    key_counts = np.bincount(labels[linked_rows], minlength=n)
    response_counts = np.bincount(labels[n_keys + linked_cols], minlength=n)
    present = (key_counts > 0) | (response_counts > 0)
    return key_counts[present], response_counts[present]


def components(shape: tuple[int, int], rows: IntArray, cols: IntArray) -> tuple[IntArray, int]:
    """Connected component of every key entity (0..n_keys-1), then every response entity."""
    from scipy.sparse import coo_matrix  # type: ignore[import-untyped]
    from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]

    n_keys, n_responses = shape
    size = n_keys + n_responses
    graph = coo_matrix(
        (np.ones(len(rows), dtype=np.int8), (rows, n_keys + cols)), shape=(size, size)
    ).tocsr()
    n, labels = connected_components(graph, directed=False)
    return labels.astype(np.int64), int(n)


def ceaf_alignment(
    shape: tuple[int, int],
    rows: IntArray,
    cols: IntArray,
    weights: FloatArray,
    *,
    component_labels: tuple[IntArray, int] | None = None,
) -> tuple[IntArray, IntArray, FloatArray]:
    """A maximum-weight one-to-one alignment of key rows and response columns.

    ``weights[c] > 0`` is the similarity of the pair ``(rows[c], cols[c])``;
    unlisted pairs have similarity 0. Returns the chosen pairs sorted by key
    row. Components with one key or one response entity take their best
    pair; the others are solved together as one sparse assignment
    (``scipy.sparse.csgraph.min_weight_full_bipartite_matching``), so a large
    component never becomes a dense matrix. ``component_labels`` (from
    :func:`components`) saves finding the components again.
    """
    n_keys, n_responses = shape
    if len(rows) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=np.float64)
    labels, n = component_labels or components(shape, rows, cols)
    comp = labels[rows]
    row_count = np.bincount(
        labels[np.flatnonzero(np.bincount(rows, minlength=n_keys))], minlength=n
    )
    col_count = np.bincount(
        labels[n_keys + np.flatnonzero(np.bincount(cols, minlength=n_responses))], minlength=n
    )
    simple = (row_count[comp] == 1) | (col_count[comp] == 1)
    chosen: list[IntArray] = []
    if simple.any():
        cells = np.flatnonzero(simple)
        # The first cell of largest weight in each component (any has the same weight).
        order = cells[np.lexsort((-weights[cells], comp[cells]))]
        first = np.ones(len(order), dtype=bool)
        first[1:] = comp[order][1:] != comp[order][:-1]
        chosen.append(order[first])
    if not simple.all():
        rest = _prune_leaves(np.flatnonzero(~simple), rows, cols, weights)
        chosen.append(_sparse_assignment(rest, rows, cols, weights))
    picked = np.concatenate(chosen)
    picked = picked[np.argsort(rows[picked], kind="stable")]
    return rows[picked], cols[picked], weights[picked]


def _prune_leaves(cells: IntArray, rows: IntArray, cols: IntArray, weights: FloatArray) -> IntArray:
    """``cells`` without the leaves no maximum matching needs.

    A leaf is an entity linked to one entity of the other side only. Of the
    leaves hanging on one entity, a matching uses at most one, and the best
    one can replace any other (nothing else competes for it), so only the
    first of largest weight is kept. Removing leaves can make new ones: a few
    rounds shrink a giant component (a popular entity with thousands of
    unlinked pieces) to its core.
    """
    for _ in range(4):
        before = len(cells)
        for leaf_side, hub_side in ((cols, rows), (rows, cols)):
            degree = np.bincount(leaf_side[cells])
            leaf = degree[leaf_side[cells]] == 1
            if not leaf.any():
                continue
            leaves = cells[leaf]
            order = leaves[np.lexsort((-weights[leaves], hub_side[leaves]))]
            best = np.ones(len(order), dtype=bool)
            best[1:] = hub_side[order][1:] != hub_side[order][:-1]
            cells = np.sort(np.concatenate((cells[~leaf], order[best])))
        if len(cells) == before:
            break
    return cells


def _sparse_assignment(
    cells: IntArray, rows: IntArray, cols: IntArray, weights: FloatArray
) -> IntArray:
    """The cells of a maximum-weight matching among ``cells`` (indices into rows/cols)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    key_ids, r = np.unique(rows[cells], return_inverse=True)
    response_ids, c = np.unique(cols[cells], return_inverse=True)
    r, c = r.reshape(-1), c.reshape(-1)
    n, m = len(key_ids), len(response_ids)
    # Every node gets a partner outside the real pairs, so that a full matching
    # always exists: key i <-> dummy column m+i, response j <-> dummy row n+j, and
    # dummy row n+j <-> dummy column m+i wherever (i, j) is a real pair. A full
    # matching is then a matching of real pairs plus dummies. Every edge gets +1,
    # so that none has weight 0 (a full matching has n+m edges whatever it
    # chooses, so the shift changes no choice).
    e = len(cells)
    arange_n, arange_m = np.arange(n), np.arange(m)
    edge_rows = np.concatenate((r, arange_n, n + arange_m, n + c))
    edge_cols = np.concatenate((c, m + arange_n, arange_m, m + r))
    edge_weights = np.concatenate((weights[cells] + 1.0, np.ones(n + m + e)))
    graph = coo_matrix((edge_weights, (edge_rows, edge_cols)), shape=(n + m, m + n)).tocsr()
    matched = min_weight_full_bipartite_matching(graph, maximize=True)[1][:n].astype(np.int64)
    real = np.flatnonzero(matched < m)
    # The cell of each chosen (row, column) pair: pairs are distinct, so search their codes.
    cell_codes = r * m + c
    order = np.argsort(cell_codes)
    wanted = real * m + matched[real]
    out: IntArray = cells[order[np.searchsorted(cell_codes, wanted, sorter=order)]]
    return out


# --------------------------------------------------------------------------------------------
# Scoring a pair of mention tables


@dataclass(frozen=True, eq=False)
class PairTable:
    """A contingency table with the document of every entity and response mention.

    ``key_entity_doc[i]`` is the document of key entity ``i``'s first mention
    (likewise for the response), ``response_mention_doc`` the document of
    every response mention in table order, and ``*_doc_mentions`` the mentions
    per document (for per-document BLANC).
    """

    table: ContingencyTable
    n_docs: int
    key_entity_doc: IntArray
    response_entity_doc: IntArray
    response_mention_doc: IntArray
    key_doc_mentions: IntArray
    response_doc_mentions: IntArray
    matched_doc_mentions: IntArray
    #: Components of the overlap graph, found once for both CEAFs.
    cache: dict[str, tuple[IntArray, int]] = field(default_factory=dict)


def pair_tables(
    key: MentionTable,
    response: MentionTable,
    *,
    key_scope: str,
    response_scope: str,
    duplicates: str = "default",
    key_singletons: str = "keep",
    response_singletons: str = "keep",
    warnings: list[str] | None = None,
) -> PairTable:
    """Build the global contingency table of two mention tables with the same ``doc_ids``.

    The duplicates policy is that of :mod:`corefscore.duplicates` (``default``
    or ``first``), applied to each side over (document, start, end); singleton
    entities are dropped after it when asked. One sort of all mentions finds
    both the repeats and the twins.
    """
    if tuple(key.doc_ids) != tuple(response.doc_ids):
        raise UsageError("key and response mention tables must share their doc_ids")
    sink = warnings if warnings is not None else []
    n_key = len(key)
    codes = encode_mentions(
        np.concatenate((key.doc, response.doc)),
        np.concatenate((key.start, response.start)),
        np.concatenate((key.end, response.end)),
    )
    if len(codes):
        _, inverse = np.unique(codes, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:
        inverse = codes
    key_inverse, response_inverse = inverse[:n_key], inverse[n_key:]
    n_codes = int(inverse.max()) + 1 if len(inverse) else 0
    key_keep = _first_copies(key, key_inverse, n_codes, "key", duplicates, sink)
    response_keep = _first_copies(response, response_inverse, n_codes, "response", duplicates, sink)
    if key_keep is not None:
        key, key_inverse = key.select(key_keep), key_inverse[key_keep]
    if response_keep is not None:
        response, response_inverse = response.select(response_keep), response_inverse[response_keep]
    key_entities = key.entity_codes(key_scope)
    response_entities = response.entity_codes(response_scope)
    if key_singletons == "drop":
        keep = _non_singletons(key_entities)
        if keep is not None:
            key, key_inverse = key.select(keep), key_inverse[keep]
            key_entities = first_appearance_codes(key_entities[keep])
    if response_singletons == "drop":
        keep = _non_singletons(response_entities)
        if keep is not None:
            response, response_inverse = response.select(keep), response_inverse[keep]
            response_entities = first_appearance_codes(response_entities[keep])
    key_of_code = np.full(n_codes, -1, dtype=np.int64)
    key_of_code[key_inverse] = np.arange(len(key_inverse))
    table = table_from_twins(key_entities, response_entities, key_of_code[response_inverse])
    n_docs = len(key.doc_ids)
    matched_docs = response.doc[table.response_cells >= 0]
    return PairTable(
        table=table,
        n_docs=n_docs,
        key_entity_doc=_entity_doc(key.doc, key_entities, table.shape[0]),
        response_entity_doc=_entity_doc(response.doc, response_entities, table.shape[1]),
        response_mention_doc=response.doc,
        key_doc_mentions=np.bincount(key.doc, minlength=n_docs),
        response_doc_mentions=np.bincount(response.doc, minlength=n_docs),
        matched_doc_mentions=np.bincount(matched_docs, minlength=n_docs),
    )


def _entity_doc(docs: IntArray, entities: IntArray, n: int) -> IntArray:
    out = np.zeros(n, dtype=np.int64)
    # Entities are numbered by first appearance; writing in reverse leaves each
    # entity the document of its first mention.
    out[entities[::-1]] = docs[::-1]
    return out


def _non_singletons(entities: IntArray) -> np.ndarray | None:
    keep = np.bincount(entities)[entities] > 1
    return None if keep.all() else keep


def _first_copies(
    side: MentionTable,
    inverse: IntArray,
    n_codes: int,
    name: str,
    policy: str,
    warnings: list[str],
) -> np.ndarray | None:
    """Which mentions to keep under the duplicates policy (None: all of them)."""
    if len(inverse) == 0:
        return None
    first = _first_positions(inverse, n_codes)
    repeats = np.flatnonzero(first[inverse] != np.arange(len(inverse)))
    if len(repeats) == 0:
        return None
    at = int(repeats[0])
    where = f"document {side.doc_ids[side.doc[at]]!r} span ({side.start[at]}, {side.end[at]})"
    docs = len(np.unique(side.doc[repeats]))
    if name == "key" and policy == "default":
        raise InputError(
            f"{len(repeats)} repeated key span(s) in {docs} document(s), first {where}; "
            "use --duplicates first to score anyway",
            path=side.source,
        )
    if policy not in ("default", "first"):
        raise UsageError(f"--duplicates {policy} is not available here (only default and first)")
    warnings.append(
        f"{name}: {len(repeats)} repeated span(s) in {docs} document(s) (first {where}); "
        "kept the copy in the first entity"
    )
    keep = np.ones(len(inverse), dtype=bool)
    keep[repeats] = False
    return keep


def statistics(pair: PairTable, metric: str, *, blanc_scope: str = "global") -> tuple[float, ...]:
    """The additive statistics of built-in ``metric`` over the whole pair.

    The seven default metrics are computed here; their floating-point sums
    run per document (the document of the mention or of the entity's first
    mention) and the documents' sums are added with ``math.fsum``. Any other
    registered metric that reads only the table is computed by its own
    function on the global table.
    """
    table = pair.table
    n_docs = max(pair.n_docs, 1)
    if metric == "bcub":
        cells = table.response_cells
        matched = cells >= 0
        shared = table.response_overlap[cells[matched]]
        segments = pair.response_mention_doc[matched]
        recall = shared / table.key_sizes[table.rows[cells[matched]]]
        precision = shared / table.response_sizes[table.cols[cells[matched]]]
        return (
            _total(recall, segments, n_docs),
            int(table.key_sizes.sum()),
            _total(precision, segments, n_docs),
            int(table.response_sizes.sum()),
        )
    if metric == "lea":
        recall = _resolution(
            table.key_sizes, table.response_sizes, table.rows, table.cols, table.key_counts
        )
        precision = _resolution(
            table.response_sizes, table.key_sizes, table.cols, table.rows, table.counts
        )
        return (
            _total(recall * table.key_sizes, pair.key_entity_doc, n_docs),
            int(table.key_sizes.sum()),
            _total(precision * table.response_sizes, pair.response_entity_doc, n_docs),
            int(table.response_sizes.sum()),
        )
    if metric in ("ceafm", "ceafe"):
        shared = table.key_counts
        if metric == "ceafm":
            weights = shared.astype(np.float64)
        else:
            weights = 2 * shared / (table.key_sizes[table.rows] + table.response_sizes[table.cols])
        if "components" not in pair.cache:
            pair.cache["components"] = components(table.shape, table.rows, table.cols)
        rows, _, sims = ceaf_alignment(
            table.shape,
            table.rows,
            table.cols,
            weights,
            component_labels=pair.cache["components"],
        )
        # The reference adds 1 - (1 - phi) per key entity, in key order.
        total = _total(1 - (1 - sims), pair.key_entity_doc[rows], n_docs)
        if metric == "ceafm":
            return (total, int(table.key_sizes.sum()), total, int(table.response_sizes.sum()))
        return (total, table.shape[0], total, table.shape[1])
    if metric == "blanc":
        return _blanc(pair, blanc_scope)
    if metric in REGISTRY:
        definition = REGISTRY[metric]
        if metric in ("mentions", "muc") or blanc_scope == "global":
            try:
                return definition.statistics(table)
            except (UsageError, AttributeError) as error:
                raise UsageError(
                    f"metric {metric} needs more than the contingency table; it cannot be "
                    "computed on mention arrays"
                ) from error
    raise UsageError(
        f"metric {metric!r} is not available per document on mention arrays; use "
        f"{', '.join(NATIVE_METRICS)}"
    )


def _pairs(values: np.ndarray) -> int:
    v = values.astype(np.int64)
    return int((v * (v - 1) // 2).sum())


def _blanc(pair: PairTable, scope: str) -> tuple[float, ...]:
    """BLANC's eight link counts; non-coreference links within documents or corpus-wide."""
    table = pair.table
    n_keys, n_responses = table.shape
    key_links = _pairs(table.key_sizes)
    response_links = _pairs(table.response_sizes)
    common_links = _pairs(table.counts)
    if scope == "document":
        key_all = _pairs(pair.key_doc_mentions)
        response_all = _pairs(pair.response_doc_mentions)
        matched_all = _pairs(pair.matched_doc_mentions)
    elif scope == "global":
        key_all = _pairs(np.array([table.key_mentions]))
        response_all = _pairs(np.array([table.response_mentions]))
        matched_all = _pairs(np.array([table.matched_mentions]))
    else:
        raise UsageError(f"BLANC scope must be document or global, got {scope!r}")
    row_sums = np.bincount(table.rows, weights=table.counts, minlength=n_keys)
    col_sums = np.bincount(table.cols, weights=table.counts, minlength=n_responses)
    common_non = matched_all - _pairs(row_sums) - _pairs(col_sums) + common_links
    key_non = key_all - key_links
    response_non = response_all - response_links
    return (
        common_links,
        key_links,
        common_links,
        response_links,
        common_non,
        key_non,
        common_non,
        response_non,
    )


def score_tables(
    pair: PairTable, metrics: Sequence[str], *, blanc_scope: str
) -> dict[str, tuple[float, ...]]:
    """Statistics of every metric in ``metrics`` (built-in names)."""
    return {m: statistics(pair, m, blanc_scope=blanc_scope) for m in metrics}


def combine(stats: dict[str, tuple[float, ...]]) -> dict[str, MetricScore]:
    """Recall, precision and F1 of built-in metrics from their statistics."""
    out: dict[str, MetricScore] = {}
    for name, values in stats.items():
        combiner: Callable[[tuple[float, ...]], MetricScore] = REGISTRY[name].combine
        out[name] = combiner(values)
    return out


__all__ = [
    "NATIVE_METRICS",
    "SCOPES",
    "MentionTable",
    "PairTable",
    "ceaf_alignment",
    "combine",
    "component_sizes",
    "components",
    "contingency_from_arrays",
    "encode_mentions",
    "first_appearance_codes",
    "pair_tables",
    "repeated_positions",
    "score_tables",
    "segment_sums",
    "statistics",
    "table_from_corpus",
    "table_from_twins",
    "twins",
]
