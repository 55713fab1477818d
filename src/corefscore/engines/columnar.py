"""The columnar engine: mentions as numpy arrays, every document in one table.

One side of a corpus is a ``MentionTable`` (parallel
arrays, one row per mention, in reading order). The engine applies the
duplicates policy and the singleton regime with sorting and grouping, builds
one contingency table for all documents at once (block-diagonal, or one
cross-document partition) with a ``Segmentation``,
and hands it to each metric's ``segment_statistics``: the same formula that
scores a single document. Nothing is materialised per mention, so ten million
mentions cost a few hundred megabytes.

Per-document scoring gives, bit for bit, the numbers of the object engine:
the floating-point terms of a document are added in its order, and the
documents' sums with ``math.fsum``. Cross-document scoring reads entity ids
corpus-wide (``global``) or per document, and scores one partition.

The building blocks are public for other engines and for tests:
``encode_mentions``, ``contingency_from_arrays``,
``table_from_twins``, ``labelled_segments_table`` and ``component_sizes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

from .._record import NamedTuple, replace
from ..contingency import ContingencyTable, Segmentation
from ..errors import InputError, UsageError, option
from ..evaluation import Evaluation
from ..model import MentionTable, first_appearance_codes

IntArray = np.ndarray

#: Where the statistics of a cross-document evaluation are kept: its one segment.
CORPUS = "(corpus)"


def on_documents(side: MentionTable, doc_ids: Sequence[str]) -> MentionTable:
    """``side`` restricted to the documents ``doc_ids``, in that order (codes renumbered)."""
    if tuple(side.doc_ids) == tuple(doc_ids):
        return side
    position = {doc_id: d for d, doc_id in enumerate(doc_ids)}
    mapping = np.array([position.get(d, -1) for d in side.doc_ids], dtype=np.int64)
    moved = mapping[side.doc] if len(side) else side.doc
    keep = moved >= 0
    if not keep.all():
        side = side.select(keep)
        moved = moved[keep]
    return replace(side, doc=moved, doc_ids=tuple(doc_ids))


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
    ``encode_mentions``; codes are distinct within a side, equal codes
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
    segments: Segmentation | None = None,
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
    cell_codes, cell_of_pair, counts = _unique(pair_rows * width + pair_cols)
    response_cells = np.full(len(response_entities), -1, dtype=np.int64)
    response_cells[response_at] = cell_of_pair
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
        segments=segments,
    )


def _unique(codes: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """``np.unique(codes, return_inverse=True, return_counts=True)``."""
    by_code, ordered, firsts = _sorted_runs(codes)
    counts = np.diff(np.append(firsts, len(ordered)))
    inverse = np.empty(len(ordered), dtype=np.int64)
    inverse[by_code] = np.repeat(np.arange(len(firsts), dtype=np.int64), counts)
    return ordered[firsts], inverse, counts


def _sorted_runs(codes: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The stable order of ``codes``, the codes in that order, and where each
    distinct code begins there. A stable sort: codes come segment by segment or
    document by document, ascending blocks that it merges in a fraction of the
    time of a quicksort (and it takes about the same on codes in no order)."""
    by_code = np.argsort(codes, kind="stable")
    ordered = codes[by_code]
    new = np.empty(len(ordered), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    return by_code, ordered, np.flatnonzero(new)


def labelled_segments_table(
    key_entities: Sequence[Sequence[int]],
    twins_of: Sequence[Sequence[int]],
    labels: Sequence[Sequence[int]],
) -> ContingencyTable:
    """One table of several segments, each a response given as labels.

    Segment ``i`` has key mentions in entities ``key_entities[i]`` (dense codes
    in that segment) and candidate response mentions in text order: the one at
    position ``k`` is twin of key mention ``twins_of[i][k]`` (-1: none) and has
    response entity ``labels[i][k]`` (any code >= 0; -1: not in the response).
    A segment's response entities are its labels in order of first appearance,
    each with its mentions in text order: the table of ``entity_list_table`` on
    those entities (its cells in another order, which no statistic reads), all
    made in a few array operations instead of a Python loop per mention (the
    error analysis' corrected responses: thousands of small tables). Segments
    may share lists of ``key_entities`` and ``twins_of`` (one document's
    responses at several steps): a list given again, as the same object, is
    read once.
    """
    n = len(labels)
    sizes = np.fromiter(map(len, labels), dtype=np.int64, count=n)
    label = np.fromiter(chain.from_iterable(labels), dtype=np.int64, count=int(sizes.sum()))
    keys, twins = _Pool.of(key_entities), _Pool.of(twins_of)
    key_sizes = keys.lengths
    key_counts = np.array([max(x, default=-1) + 1 for x in keys.lists], dtype=np.int64)
    key_counts = key_counts[keys.which]
    key_offsets = np.cumsum(key_counts) - key_counts
    mention_offsets = np.cumsum(key_sizes) - key_sizes
    segment_of_key = np.repeat(np.arange(n, dtype=np.int64), key_sizes)
    key_entity = keys.values[
        np.arange(len(segment_of_key)) + (keys.begins - mention_offsets)[segment_of_key]
    ]

    position = np.flatnonzero(label >= 0)
    segment = np.repeat(np.arange(n, dtype=np.int64), sizes)[position]
    twin = twins.values[position + (twins.begins - (np.cumsum(sizes) - sizes))[segment]]
    label = label[position]
    width = int(label.max()) + 1 if len(label) else 1
    # One stable sort by (segment, label) gathers each entity's mentions in text
    # order; the entities are numbered by their first mentions (in segment order
    # too, as positions are) and moved into that order, a block each.
    by_code, code, starts = _sorted_runs(segment * width + label)
    lengths = np.diff(np.append(starts, len(code)))
    numbered = np.argsort(by_code[starts], kind="stable")  # entity e: block numbered[e]
    n_entities = len(starts)
    moved_starts = np.empty(n_entities, dtype=np.int64)
    moved_starts[numbered] = np.cumsum(lengths[numbered]) - lengths[numbered]
    order = np.empty(len(code), dtype=np.int64)
    order[np.repeat(moved_starts - starts, lengths) + np.arange(len(code))] = by_code
    entity = np.repeat(np.arange(n_entities, dtype=np.int64), lengths[numbered])
    twin, segment = twin[order], segment[order]
    twin = np.where(twin >= 0, twin + mention_offsets[segment], -1)
    return table_from_twins(
        key_entity + key_offsets[segment_of_key],
        entity,
        twin,
        n_key_entities=int(key_counts.sum()),
        n_response_entities=n_entities,
        segments=Segmentation(
            count=n,
            key_entity=np.repeat(np.arange(n, dtype=np.int64), key_counts),
            response_entity=code[starts][numbered] // width,
            response_mention=segment,
            key_mentions=key_sizes,
            response_mentions=np.bincount(segment, minlength=n).astype(np.int64),
            matched_mentions=np.bincount(segment[twin >= 0], minlength=n).astype(np.int64),
        ),
    )


class _Pool(NamedTuple):
    """Lists of integers with each distinct list (by identity) read once."""

    #: The distinct lists, in order of first appearance.
    lists: list[Sequence[int]]
    #: Their items end to end.
    values: IntArray
    #: For each list given: which distinct list it is, where that begins in
    #: ``values``, and its length.
    which: IntArray
    begins: IntArray
    lengths: IntArray

    @classmethod
    def of(cls, lists: Sequence[Sequence[int]]) -> _Pool:
        number: dict[int, int] = {}
        which = np.array([number.setdefault(id(x), len(number)) for x in lists], dtype=np.int64)
        distinct = list({id(x): x for x in lists}.values())
        lengths = np.fromiter(map(len, distinct), dtype=np.int64, count=len(distinct))
        values = np.fromiter(
            chain.from_iterable(distinct), dtype=np.int64, count=int(lengths.sum())
        )
        begins = np.cumsum(lengths) - lengths
        return cls(distinct, values, which, begins[which], lengths[which])


def _count(codes: IntArray) -> int:
    return int(codes.max()) + 1 if len(codes) else 0


def component_sizes(table: ContingencyTable) -> tuple[IntArray, IntArray]:
    """(key entities, response entities) of every connected component of the overlap graph.

    Entities without any overlap are left out. Useful to check that a corpus
    has no giant component before scoring it (the CEAF alignment is solved
    per component).
    """
    from scipy.sparse import coo_matrix  # type: ignore[import-untyped]
    from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]

    n_keys, n_responses = table.shape
    size = n_keys + n_responses
    graph = coo_matrix(
        (np.ones(len(table.rows), dtype=np.int8), (table.rows, n_keys + table.cols)),
        shape=(size, size),
    ).tocsr()
    n, labels = connected_components(graph, directed=False)
    linked_rows = np.flatnonzero(np.bincount(table.rows, minlength=n_keys))
    linked_cols = np.flatnonzero(np.bincount(table.cols, minlength=n_responses))
    key_counts = np.bincount(labels[linked_rows], minlength=n)
    response_counts = np.bincount(labels[n_keys + linked_cols], minlength=n)
    present = (key_counts > 0) | (response_counts > 0)
    return key_counts[present], response_counts[present]


# --------------------------------------------------------------------------------------------
# The table of a whole corpus


def corpus_table(
    key: MentionTable, response: MentionTable, evaluation: Evaluation, warnings: list[str]
) -> ContingencyTable:
    """One contingency table of two mention tables with the same ``doc_ids``.

    The duplicates policy (``default`` or ``first``) applies to each side
    over (document, start, end), then singleton entities are dropped when the
    regime asks; one sort of all mentions finds both the repeats and the
    twins. Segments are the documents, or the one corpus in cross-document
    scoring (whose float sums still run per document).
    """
    if tuple(key.doc_ids) != tuple(response.doc_ids):
        raise UsageError("key and response mention tables must share their doc_ids")
    scope, regime = evaluation.scope, evaluation.regime
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
    for name in ("key", "response"):
        side = key if name == "key" else response
        side_inverse = key_inverse if name == "key" else response_inverse
        keep = _first_copies(side, side_inverse, n_codes, name, evaluation.duplicates, warnings)
        if keep is not None:
            if name == "key":
                key, key_inverse = key.select(keep), key_inverse[keep]
            else:
                response, response_inverse = response.select(keep), response_inverse[keep]
    key_scope = scope.key if scope.cross_document else "document"
    response_scope = scope.response if scope.cross_document else "document"
    key_entities = key.entity_codes(key_scope)
    response_entities = response.entity_codes(response_scope)
    if regime.key_singletons == "drop":
        keep = _non_singletons(key_entities)
        if keep is not None:
            key, key_inverse = key.select(keep), key_inverse[keep]
            key_entities = first_appearance_codes(key_entities[keep])
    if regime.response_singletons == "drop":
        keep = _non_singletons(response_entities)
        if keep is not None:
            response, response_inverse = response.select(keep), response_inverse[keep]
            response_entities = first_appearance_codes(response_entities[keep])
    key_of_code = np.full(n_codes, -1, dtype=np.int64)
    key_of_code[key_inverse] = np.arange(len(key_inverse))
    twin_of_response = key_of_code[response_inverse]
    n_docs = len(key.doc_ids)
    n_keys, n_responses = _count(key_entities), _count(response_entities)
    segments = Segmentation(
        count=1 if scope.cross_document else n_docs,
        key_entity=_entity_doc(key.doc, key_entities, n_keys),
        response_entity=_entity_doc(response.doc, response_entities, n_responses),
        response_mention=response.doc,
        key_mentions=_per_segment(key.doc, n_docs, scope.cross_document),
        response_mentions=_per_segment(response.doc, n_docs, scope.cross_document),
        matched_mentions=_per_segment(
            response.doc[twin_of_response >= 0], n_docs, scope.cross_document
        ),
        group_segment=np.zeros(n_docs, dtype=np.int64) if scope.cross_document else None,
    )
    return table_from_twins(
        key_entities,
        response_entities,
        twin_of_response,
        n_key_entities=n_keys,
        n_response_entities=n_responses,
        segments=segments,
    )


def _per_segment(docs: IntArray, n_docs: int, one: bool) -> IntArray:
    if one:
        return np.array([len(docs)], dtype=np.int64)
    out: IntArray = np.bincount(docs, minlength=n_docs).astype(np.int64)
    return out


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
    if policy == "reference":
        raise AssertionError("repeated spans under the reference policy go to the object engine")
    if name == "key" and policy == "strict":
        raise InputError(
            f"{len(repeats)} repeated key span(s) in {docs} document(s), first {where}; "
            f"use {option('duplicates', 'first')} to score anyway",
            path=side.source,
        )
    warnings.append(
        f"{name}: {len(repeats)} repeated span(s) in {docs} document(s) (first {where}); "
        "kept the copy in the first entity"
    )
    keep = np.ones(len(inverse), dtype=bool)
    keep[repeats] = False
    return keep


def has_repeated_spans(side: MentionTable) -> bool:
    """Whether a (document, start, end) occurs more than once on this side."""
    if len(side) < 2:
        return False
    codes = np.sort(encode_mentions(side.doc, side.start, side.end))
    # Sorted neighbours, not len(np.unique(codes)): numpy 2.3 and later unique
    # int64 by hashing, ten times slower than a sort on a million codes.
    return bool((codes[1:] == codes[:-1]).any())


def document_statistics(
    key: MentionTable,
    response: MentionTable,
    evaluation: Evaluation,
    warnings: list[str],
) -> dict[str, dict[str, tuple[float, ...]]]:
    """The statistics of every metric per key document (or of the one corpus partition).

    ``key`` and ``response`` must already be on the same documents (see
    ``on_documents``); every metric must have ``segment_statistics``.
    """
    table = corpus_table(key, response, evaluation, warnings)
    rows = {}
    for metric in evaluation.metrics:
        if metric.segment_statistics is not None:
            rows[metric.name] = metric.segment_statistics(table).tolist()
        else:  # a metric of the table alone, on the one segment of a cross-document table
            rows[metric.name] = [list(metric.statistics(table))]
    names = (CORPUS,) if evaluation.scope.cross_document else key.doc_ids
    return {doc_id: {m: tuple(rows[m][s]) for m in rows} for s, doc_id in enumerate(names)}


__all__ = [
    "CORPUS",
    "component_sizes",
    "contingency_from_arrays",
    "corpus_table",
    "document_statistics",
    "encode_mentions",
    "has_repeated_spans",
    "on_documents",
    "repeated_positions",
    "table_from_twins",
    "twins",
]
