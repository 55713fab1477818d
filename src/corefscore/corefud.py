"""The CorefUD evaluation of the CRAC shared tasks, as corefud-scorer v1.2 computes it.

The CRAC shared tasks score CorefUD CoNLL-U files with ufal/corefud-scorer
(v1.2, on the Universal Anaphora scorer 2.0 engine). Its evaluation differs
from the CoNLL reference scorer's in what a mention is and how a response
mention meets a key mention, so it is a mode of its own (``compat="corefud"``):

* a mention is a **set of words**: the words of its brackets (every part of a
  discontinuous mention) and every empty node between them. A word is known
  by its place, (sentence of the document, ID), never by a running token
  number, so that key and response may have different empty nodes. The head
  is the word the head attribute names (counting empty nodes), else the first
  word; a mention whose head is an empty node is a **zero**;
* in each entity, a mention repeated (the same words; in head matching the
  same words and head) counts once; entities of one mention are then dropped
  from each side unless singletons are kept, before anything is matched;
* matching (``docs/formats.md`` has the CRAC settings): zeros are first paired
  with zeros by their enhanced dependencies (``zeros="dependent"``; with
  ``"linear"`` they are words like others); then mentions with the same words
  (and, in head matching, the same head) pair; then, for ``partial`` and
  ``head`` matching, the rest are paired one to one by a maximum-weight
  assignment over the whole document: ``partial`` scores |R|/|K| when the
  response's words lie in the key mention and include its head, ``head``
  scores |K ∩ R|/|K| when both have the same head;
* a mention finds the other side's entity through the pairs, and otherwise
  through a mention of the other side with the same words: the official
  scorer's own resolution (one lookup table of both directions), reproduced
  here because it decides numbers;
* BLANC averages only its parts that have links on either side, and two
  metrics exist only here: MOR, the mention overlap ratio, and ``zero``, the
  anaphor-level score of zero anaphors.

Every metric formula is the project's own (``corefscore.metrics``): the
evaluation builds, per document, the contingency tables each metric reads
from the key's and the response's resolutions (``tables``). Scores agree with
the official scorer to 1e-9 on its test cases and on GUM; where the official
scorer crashes (a mention across sentences, no ``# newdoc``, a zero without
dependencies), corefscore scores, as ``docs/compatibility.md`` lists.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import InputError, option
from .metrics import Metric
from .model import Document

if TYPE_CHECKING:
    from .contingency import ContingencyTable
    from .evaluation import Evaluation
    from .pipeline import Statistics

#: A word: (sentence of the document, 1-based; its ID as udapi reads it, 5.1 for an empty node).
NodeKey = tuple[int, float]
#: The matchings of the CorefUD evaluation.
MATCHINGS = ("exact", "partial", "head")
#: How zeros are paired before the other mentions.
ZERO_METHODS = ("dependent", "linear")
#: The metrics of the CorefUD evaluation, in the official scorer's order (``all``).
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")
#: Which table each metric reads for recall and for precision ("key": each key
#: mention's resolution; "response": each response mention's; "membership":
#: key mentions counted in every response entity holding their match).
_READINGS = {
    "ceafm": ("membership", "membership"),
    "ceafe": ("membership", "membership"),
    "blanc": ("key", "key"),
}


@dataclass(frozen=True, eq=False)
class UDMention:
    """A mention as the CorefUD evaluation sees it.

    ``identity`` is what makes two mentions the same: the words, and in head
    matching the head too. ``order`` sorts mentions as the official scorer
    does: first word, last word, number of words.
    """

    words: frozenset[NodeKey]
    first: NodeKey
    last: NodeKey
    head: NodeKey
    zero: bool
    deps: tuple[tuple[NodeKey, str], ...]
    identity: Hashable

    @property
    def order(self) -> tuple[NodeKey, NodeKey, int]:
        return (self.first, self.last, len(self.words))


def ud_clusters(
    doc: Document, *, head_identity: bool, order: Sequence[int] | None = None
) -> list[list[UDMention]]:
    """The document's entities as word-set mentions (needs its CoNLL-U syntax), in
    ``order`` (entity indices; default: ``entity_orders`` of this document alone).

    Read the file with ``syntax=True`` and ``empty_nodes=True``: token
    positions are then the document's nodes, and the syntax names each one.
    """
    syntax = doc.syntax
    if syntax is None or syntax.node_ids is None or (len(syntax.node_ids) == 0 and doc.entities):
        raise InputError(
            f"document {doc.doc_id!r}: the CorefUD evaluation needs CoNLL-U input read with "
            "its syntax and empty nodes",
            path=doc.source,
        )
    node_ids = syntax.node_ids
    starts = syntax.sentence_starts
    keys: dict[int, NodeKey] = {}

    def key(position: int) -> NodeKey:
        found = keys.get(position)
        if found is None:
            sentence = max(bisect_right(starts, position), 1)
            found = keys[position] = (sentence, float(node_ids[position]))
        return found

    clusters: list[list[UDMention]] = []
    if order is None:
        order = _local_order(doc)
    for e in order:
        entity = doc.entities[e]
        mentions: list[UDMention] = []
        for k, (start, end) in enumerate(entity):
            pieces = doc.pieces[e][k] if doc.pieces else None
            positions = [p for a, b in (pieces or ((start, end),)) for p in range(a, b + 1)]
            words = [key(p) for p in positions]
            head_position = doc.heads[e][k] if doc.heads else None
            if head_position is None:
                head_position = positions[0]  # the first word, as udapi sets it
            head = key(head_position)
            zero = "." in node_ids[head_position]
            deps = _deps(syntax.deps[head_position] if syntax.deps else "_", head[0], doc)
            word_set = frozenset(words)
            mentions.append(
                UDMention(
                    words=word_set,
                    first=min(words),
                    last=max(words),
                    head=head,
                    zero=zero,
                    deps=deps,
                    identity=(word_set, head) if head_identity else word_set,
                )
            )
        clusters.append(mentions)
    return clusters


def entity_orders(documents: Iterable[Document]) -> dict[str, tuple[int, ...]]:
    """Each document's entities in udapi's order, as corefud-scorer takes them.

    udapi orders the entities of the whole file by their first mention (first
    word; at the same word the longer mention; then the last word; then the
    entity id), and an entity id names one entity across documents: an entity
    that began in an earlier document comes first. The order decides which
    entity a mention repeated in two entities is found through (the last).
    """
    first_seen: dict[str, tuple[int, tuple[int, int, int, str]]] = {}
    out: dict[str, tuple[int, ...]] = {}
    for n, doc in enumerate(documents):
        keys = _entity_keys(doc)
        for e, label in enumerate(doc.labels):
            first_seen.setdefault(label, (n, keys[e]))
        out[doc.doc_id] = tuple(
            sorted(range(len(doc.entities)), key=lambda e: first_seen[doc.labels[e]])
        )
    return out


def _local_order(doc: Document) -> tuple[int, ...]:
    keys = _entity_keys(doc)
    return tuple(sorted(range(len(doc.entities)), key=keys.__getitem__))


def _entity_keys(doc: Document) -> list[tuple[int, int, int, str]]:
    """Each entity's first mention as udapi sorts mentions (token positions count
    empty nodes, so they follow the words' order)."""
    keys = []
    for e, entity in enumerate(doc.entities):
        best = None
        for k, (start, end) in enumerate(entity):
            pieces = doc.pieces[e][k] if doc.pieces else None
            size = sum(b - a + 1 for a, b in pieces) if pieces else end - start + 1
            key = (start, -size, end, doc.labels[e])
            if best is None or key < best:
                best = key
        keys.append(best if best is not None else (-1, 0, -1, doc.labels[e]))
    return keys


def _deps(raw: str, sentence: int, doc: Document) -> tuple[tuple[NodeKey, str], ...]:
    """The enhanced dependencies of a node: ((parent word, relation), ...)."""
    if raw in ("_", ""):
        return ()
    out = []
    for item in raw.split("|"):
        parent, sep, relation = item.partition(":")
        try:
            ord_ = float(parent)
        except ValueError:
            ord_ = -1.0
        if not sep or ord_ < 0:
            raise InputError(
                f"document {doc.doc_id!r}: bad DEPS item {item!r} of a mention head (expected "
                "'HEAD:relation' items joined by '|')",
                path=doc.source,
            )
        out.append(((sentence, ord_), relation))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Preparing and aligning one document pair


@dataclass(frozen=True, eq=False)
class CorefUDPair:
    """One document pair after deduplication, singletons and matching.

    ``key_map`` and ``response_map`` give each mention identity its entity
    (the last one holding it); ``lookup`` is the official scorer's table of
    matched mentions, both directions in one (``resolve``).
    """

    key: list[list[UDMention]]
    response: list[list[UDMention]]
    key_map: dict[Hashable, int]
    response_map: dict[Hashable, int]
    lookup: dict[Hashable, UDMention]
    pairs: tuple[tuple[UDMention, UDMention], ...]
    response_clusters_of: dict[Hashable, list[int]] = field(default_factory=dict)

    def resolve(self, mention: UDMention) -> UDMention:
        return self.lookup.get(mention.identity, mention)


def prepare(
    key_doc: Document,
    response_doc: Document,
    evaluation: Evaluation,
    warnings: list[str],
    *,
    orders: tuple[Sequence[int] | None, Sequence[int] | None] = (None, None),
) -> CorefUDPair:
    """Deduplicate, drop singletons, match: the pair the CorefUD metrics read.

    ``orders``: the key's and the response's entity order (``entity_orders`` of
    their files; default: each document's own).
    """
    head_identity = evaluation.regime.matching == "head"
    sides = []
    for doc, keep, side, order in (
        (key_doc, evaluation.regime.key_singletons == "keep", "key", orders[0]),
        (response_doc, evaluation.regime.response_singletons == "keep", "response", orders[1]),
    ):
        clusters = [_dedup(c) for c in ud_clusters(doc, head_identity=head_identity, order=order)]
        crossing = sum(m.first[0] != m.last[0] for c in clusters for m in c)
        if crossing:
            warnings.append(
                f"document {key_doc.doc_id!r}: {crossing} {side} mention(s) across sentences, "
                "which CorefUD does not allow (corefud-scorer stops); each is scored as its words"
            )
        if not keep:
            clusters = [c for c in clusters if len(c) > 1]
        sides.append(clusters)
    key, response = sides
    key_map = _index(key, "key", key_doc.doc_id, warnings)
    response_map = _index(response, "response", key_doc.doc_id, warnings)
    pairs = _align(key, response, evaluation)
    lookup: dict[Hashable, UDMention] = {}
    for k, s in pairs:
        if k.identity != s.identity:
            lookup[k.identity] = s
    for k, s in pairs:
        if k.identity != s.identity:
            lookup[s.identity] = k
    clusters_of: dict[Hashable, list[int]] = {}
    for j, cluster in enumerate(response):
        for m in cluster:
            holders = clusters_of.setdefault(m.identity, [])
            if j not in holders:
                holders.append(j)
    return CorefUDPair(key, response, key_map, response_map, lookup, tuple(pairs), clusters_of)


def _dedup(cluster: list[UDMention]) -> list[UDMention]:
    seen: dict[Hashable, UDMention] = {}
    for m in cluster:
        seen.setdefault(m.identity, m)
    return list(seen.values())


def _index(
    clusters: list[list[UDMention]], side: str, doc_id: str, warnings: list[str]
) -> dict[Hashable, int]:
    out: dict[Hashable, int] = {}
    repeated = 0
    for i, cluster in enumerate(clusters):
        for m in cluster:
            if m.identity in out and out[m.identity] != i:
                repeated += 1
            out[m.identity] = i
    if repeated:
        warnings.append(
            f"document {doc_id!r}: {repeated} {side} mention(s) in two entities; each is "
            "counted in both, and found through the last one (as the CorefUD scorer does)"
        )
    return out


def _align(
    key: list[list[UDMention]], response: list[list[UDMention]], evaluation: Evaluation
) -> list[tuple[UDMention, UDMention]]:
    """The official scorer's pairs: exact, then partial or head, then dependent zeros."""
    keys: dict[Hashable, UDMention] = {}
    for cluster in key:
        for m in cluster:
            keys.setdefault(m.identity, m)
    responses: dict[Hashable, UDMention] = {}
    for cluster in response:
        for m in cluster:
            responses.setdefault(m.identity, m)
    zero_pairs: list[tuple[UDMention, UDMention]] = []
    if evaluation.zeros == "dependent":
        key_zeros = sorted((m for m in keys.values() if m.zero), key=_order)
        response_zeros = sorted((m for m in responses.values() if m.zero), key=_order)
        if key_zeros and response_zeros:
            zero_pairs = _assignment(key_zeros, response_zeros, _zero_score)
            for k, s in zero_pairs:
                keys.pop(k.identity, None)
                responses.pop(s.identity, None)
    exact = [
        (k, responses[k.identity])
        for k in sorted(keys.values(), key=_order)
        if k.identity in responses
    ]
    for k, s in exact:
        del keys[k.identity]
        del responses[s.identity]
    rest: list[tuple[UDMention, UDMention]] = []
    matching = evaluation.regime.matching
    if matching != "exact" and keys and responses:
        score = _partial_score if matching == "partial" else _head_score
        rest = _assignment(
            sorted(keys.values(), key=_order), sorted(responses.values(), key=_order), score
        )
    return exact + rest + zero_pairs


def _order(m: UDMention) -> tuple[NodeKey, NodeKey, int]:
    return m.order


def _assignment(
    keys: Sequence[UDMention],
    responses: Sequence[UDMention],
    score: Callable[[UDMention, UDMention], float],
) -> list[tuple[UDMention, UDMention]]:
    """The maximum-weight one-to-one pairs (scipy's assignment on the full matrix, rows
    and columns in the official scorer's order), those of positive score."""
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    sim = np.array([[score(k, s) for s in responses] for k in keys], dtype=np.float64)
    rows, cols = linear_sum_assignment(-sim)
    return [(keys[i], responses[j]) for i, j in zip(rows.tolist(), cols.tolist()) if sim[i, j] > 0]


def _partial_score(key: UDMention, response: UDMention) -> float:
    if key.head in response.words and response.words <= key.words:
        return len(response.words) / len(key.words)
    return 0.0


def _head_score(key: UDMention, response: UDMention) -> float:
    if key.identity == response.identity:
        return 1.0
    if key.head == response.head:
        return len(key.words & response.words) / len(key.words)
    return 0.0


def _zero_score(key: UDMention, response: UDMention) -> float:
    if key.head[0] != response.head[0]:
        return 0.0
    deps = _f(set(key.deps), set(response.deps))
    parents = _f({p for p, _ in key.deps}, {p for p, _ in response.deps})
    return 10 * deps + parents


def _f(a: set[Any], b: set[Any]) -> float:
    # The official scorer divides by zero when a zero has no dependencies;
    # such a pair scores 0 here (docs/compatibility.md).
    if not a or not b:
        return 0.0
    common = len(a & b)
    p, r = common / len(a), common / len(b)
    return 2 * p * r / (p + r) if p > 0 and r > 0 else 0.0


# --------------------------------------------------------------------------------------------
# Tables and statistics


def tables(pair: CorefUDPair) -> dict[str, ContingencyTable]:
    """The three readings of a pair as contingency tables (rows key, columns response)."""
    key_sizes = [len(c) for c in pair.key]
    response_sizes = [len(c) for c in pair.response]
    by_key: dict[tuple[int, int], int] = {}
    by_membership: dict[tuple[int, int], int] = {}
    for i, cluster in enumerate(pair.key):
        for m in cluster:
            found = pair.resolve(m).identity
            last = pair.response_map.get(found)
            if last is not None:
                by_key[(i, last)] = by_key.get((i, last), 0) + 1
            for j in pair.response_clusters_of.get(found, ()):
                by_membership[(i, j)] = by_membership.get((i, j), 0) + 1
    by_response: dict[tuple[int, int], int] = {}
    for j, cluster in enumerate(pair.response):
        for m in cluster:
            owner = pair.key_map.get(pair.resolve(m).identity)
            if owner is not None:
                by_response[(owner, j)] = by_response.get((owner, j), 0) + 1
    return {
        name: _table(key_sizes, response_sizes, cells, pair)
        for name, cells in (
            ("key", by_key),
            ("response", by_response),
            ("membership", by_membership),
        )
    }


def _table(
    key_sizes: list[int],
    response_sizes: list[int],
    cells: dict[tuple[int, int], int],
    pair: CorefUDPair,
) -> ContingencyTable:
    from .contingency import ContingencyTable

    ordered = sorted(cells.items())
    counts = np.array([n for _, n in ordered], dtype=np.int64)
    # Each cell listed once per mention in it: the B³ terms' multiplicities.
    listed = np.repeat(np.arange(len(ordered), dtype=np.int64), counts)
    return ContingencyTable(
        key_sizes=np.array(key_sizes, dtype=np.int64),
        response_sizes=np.array(response_sizes, dtype=np.int64),
        rows=np.array([i for (i, _), _ in ordered], dtype=np.int64),
        cols=np.array([j for (_, j), _ in ordered], dtype=np.int64),
        counts=counts,
        key_mentions=sum(key_sizes),
        response_mentions=sum(response_sizes),
        matched_mentions=len(pair.pairs),
        response_cells=listed,
        response_overlap=counts,
        key_counts=counts,
        corefud=pair,
    )


def score_pair(
    key_doc: Document,
    response_doc: Document,
    evaluation: Evaluation,
    warnings: list[str],
    *,
    orders: tuple[Sequence[int] | None, Sequence[int] | None] = (None, None),
) -> Statistics:
    """Every metric's statistics for one document pair, as the CorefUD scorer counts them
    (``orders`` as for ``prepare``)."""
    pair = prepare(key_doc, response_doc, evaluation, warnings, orders=orders)
    readings = tables(pair)
    out: Statistics = {}
    for metric in evaluation.metrics:
        recall_from, precision_from = _READINGS.get(metric.name, ("key", "response"))
        recall = metric.statistics(readings[recall_from])
        if precision_from == recall_from:
            out[metric.name] = recall
            continue
        precision = metric.statistics(readings[precision_from])
        out[metric.name] = (recall[0], recall[1], precision[2], precision[3])
    return out


# --------------------------------------------------------------------------------------------
# Key and response must be the same sentences and words


def check_alignment(key: Document, response: Document, warnings: list[str]) -> None:
    """Refuse a pair whose sentences or words differ, as the official scorer does.

    Sentences are compared by ``# sent_id`` and their words by form, in order
    (empty nodes are not compared: each side may have its own). A response
    that stops early passes the official scorer's check; here it is said in a
    warning (the key mentions beyond its end are missed).
    """
    ks, rs = key.syntax, response.syntax
    if ks is None or rs is None or ks.words is None or rs.words is None:
        return
    k_sentences, r_sentences = _sentences(key), _sentences(response)
    for n, ((k_id, k_words), (r_id, r_words)) in enumerate(zip(k_sentences, r_sentences), 1):
        if k_id != r_id:
            first = r_words[0][1] if r_words else None
            raise InputError(
                f"document {key.doc_id!r}, sentence {n}: key sent_id {k_id!r} but response "
                f"sent_id {r_id!r}; key and response must be the same sentences",
                path=response.source,
                line=first,
            )
        for w, ((a, _), (b, line)) in enumerate(zip(k_words, r_words), 1):
            if a != b:
                raise InputError(
                    f"document {key.doc_id!r}, sentence {n} ({k_id}), word {w}: key "
                    f"{a!r}, response {b!r}; key and response must be the same words",
                    path=response.source,
                    line=line,
                )
        if len(r_words) < len(k_words):
            warnings.append(
                f"document {key.doc_id!r}, sentence {n} ({k_id}): the response stops after "
                f"word {len(r_words)} of {len(k_words)}; the key mentions beyond are missed"
            )
    if len(r_sentences) < len(k_sentences):
        warnings.append(
            f"document {key.doc_id!r}: the response has {len(r_sentences)} of the key's "
            f"{len(k_sentences)} sentences; the key mentions beyond are missed"
        )


def _sentences(doc: Document) -> list[tuple[str | None, list[tuple[str, int | None]]]]:
    """Each sentence's sent_id and its words (not empty nodes), with their lines."""
    syntax = doc.syntax
    assert syntax is not None and syntax.words is not None
    ids = syntax.node_ids or ()
    lines = syntax.token_lines
    bounds = [*syntax.sentence_starts, len(syntax.words)]
    out = []
    for n, (a, b) in enumerate(pairwise(bounds)):
        sent_id = syntax.sentence_ids[n] if n < len(syntax.sentence_ids) else None
        words = [
            (syntax.words[t], lines[t] if lines else None)
            for t in range(a, b)
            if not ids or "." not in ids[t]
        ]
        out.append((sent_id, words))
    return out


def corefud_metrics(spec: Any) -> tuple[Metric, ...]:
    """The metrics of a selection in the CorefUD evaluation: names among
    ``METRICS``, ``conll`` (MUC, B³, CEAFe) or ``all`` (the eight); BLANC is
    combined as corefud-scorer combines it."""
    from .metrics import ALTERNATIVES, resolve

    items = [spec] if isinstance(spec, (str, Metric)) else list(spec)
    expanded: list[Any] = []
    for item in items:
        if isinstance(item, str):
            names = [n.strip() for n in item.split(",") if n.strip()]
            expanded += [",".join(METRICS) if n.lower() == "all" else n for n in names]
        else:
            expanded.append(item)
    chosen = resolve(expanded)
    return tuple(ALTERNATIVES.get(m.name, m) for m in chosen)


def check_options(evaluation: Evaluation) -> None:
    """Refuse options the CorefUD evaluation does not have."""
    from .errors import UsageError
    from .evaluation import COREFUD_DUPLICATES

    unknown = [m.name for m in evaluation.metrics if m.name not in METRICS]
    if unknown:
        raise UsageError(
            f"metric {', '.join(unknown)}: not in the CorefUD evaluation, whose metrics are "
            f"{', '.join(METRICS)}; add {option('compat', 'conll')} for the others"
        )
    if evaluation.zeros not in ZERO_METHODS:
        raise UsageError(
            f"{option('zeros', evaluation.zeros)} is not a zero matching; choose "
            f"{' or '.join(ZERO_METHODS)}"
        )
    if evaluation.duplicates != COREFUD_DUPLICATES:
        raise UsageError(
            f"{option('duplicates', evaluation.duplicates)}: the CorefUD evaluation counts a "
            "repeated mention once per entity, as corefud-scorer does"
        )
    regime = evaluation.regime
    if regime.matching not in MATCHINGS:
        raise UsageError(
            f"{option('matching', regime.matching)} is not a CorefUD matching; choose "
            f"{', '.join(MATCHINGS)}"
        )
    extra = [
        name
        for name, on in (
            ("gold_mentions", regime.gold_mentions),
            ("anaphoric_only", regime.anaphoric_only),
            ("remove_nested", regime.remove_nested),
            ("cross_document", evaluation.scope.cross_document),
        )
        if on
    ]
    if extra:
        raise UsageError(
            f"{', '.join(option(n) for n in extra)} cannot be used with the CorefUD evaluation; "
            f"add {option('compat', 'conll')}"
        )


__all__ = [
    "MATCHINGS",
    "METRICS",
    "ZERO_METHODS",
    "CorefUDPair",
    "NodeKey",
    "UDMention",
    "check_alignment",
    "check_options",
    "corefud_metrics",
    "entity_orders",
    "prepare",
    "score_pair",
    "tables",
    "ud_clusters",
]
