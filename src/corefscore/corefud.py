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

from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from itertools import chain, pairwise, repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from ._record import field, record
from .errors import InputError, option
from .evaluation import ZERO_METHODS
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
#: The metrics of the CorefUD evaluation, in the official scorer's order (``all``).
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")
#: Which table each metric reads for recall and for precision ("key": each key
#: mention's resolution; "response": each response mention's; "membership":
#: key mentions counted in every response entity holding their match).
_READINGS = {
    "ceafm": ("membership", "membership"),
    "ceafe": ("membership", "membership"),
    "blanc": ("key", "key"),
    # MOR and the zero score read the pair itself, not a table: computed once.
    "mor": ("key", "key"),
    "zero": ("key", "key"),
}


class UDMention:
    """A mention as the CorefUD evaluation sees it.

    ``identity`` is what makes two mentions the same: the words, and in head
    matching the head too. ``order`` sorts mentions as the official scorer
    does: first word, last word, number of words. Two objects are equal only
    when they are the same object. (A plain class with slots: documents have
    thousands of mentions, made once per evaluation.)
    """

    __slots__ = ("deps", "first", "head", "identity", "last", "order", "words", "zero")

    def __init__(
        self,
        *,
        words: frozenset[NodeKey],
        first: NodeKey,
        last: NodeKey,
        head: NodeKey,
        zero: bool,
        deps: tuple[tuple[NodeKey, str], ...],
        identity: Hashable,
    ) -> None:
        self.words = words
        self.first = first
        self.last = last
        self.head = head
        self.zero = zero
        self.deps = deps
        self.identity = identity
        self.order: tuple[NodeKey, NodeKey, int] = (first, last, len(words))

    def __repr__(self) -> str:
        return f"UDMention(words={sorted(self.words)}, head={self.head})"


def ud_clusters(
    doc: Document,
    *,
    head_identity: bool,
    order: Sequence[int] | None = None,
    singletons: bool = True,
) -> list[list[UDMention]]:
    """The document's entities as word-set mentions (needs its CoNLL-U syntax), in
    ``order`` (entity indices; default: ``entity_orders`` of this document alone).

    Read the file with ``syntax=True`` and ``empty_nodes=True``: token
    positions are then the document's nodes, and the syntax names each one.
    With ``singletons=False`` (they are dropped), an entity of one mention
    within a sentence is only checked (its head's DEPS), and given as an
    empty list.
    """
    syntax = doc.syntax
    if syntax is None or syntax.node_ids is None or (len(syntax.node_ids) == 0 and doc.entities):
        raise InputError(
            f"document {doc.doc_id!r}: the CorefUD evaluation needs CoNLL-U input read with "
            "its syntax and empty nodes",
            path=doc.source,
        )
    node_ids = syntax.node_ids
    bounds = [*syntax.sentence_starts, len(node_ids)]
    # Each position's word: (sentence, 1-based; its ID as a number).
    sentences = chain.from_iterable(
        repeat(sentence, b - a) for sentence, (a, b) in enumerate(pairwise(bounds), 1)
    )
    keys: list[NodeKey] = list(zip(sentences, map(float, node_ids)))
    words_of: dict[int, set[float]] = {}  # each sentence's word IDs, made when asked
    deps_column = syntax.deps or ()
    token_lines = syntax.token_lines
    parsed_deps: dict[str, tuple[tuple[float, str], ...]] = {}  # by DEPS value

    def line_of(position: int) -> int | None:
        return token_lines[position] if token_lines else None

    def head_deps(position: int, sentence: int) -> tuple[tuple[float, str], ...]:
        """The DEPS items of a mention head, checked as the official scorer reads
        them (a bad one is an error); only zeros are paired by them."""
        raw = deps_column[position] if deps_column else "_"
        if raw == "_":
            return ()
        in_sentence = words_of.get(sentence)
        if in_sentence is None:
            a, b = bounds[sentence - 1], bounds[sentence]
            in_sentence = words_of[sentence] = {w for _, w in keys[a:b]}
        items = parsed_deps.get(raw)
        if items is None:
            items = _parse_deps(raw)
            if items is None:
                raise _deps_error(raw, in_sentence, doc, line_of(position))
            parsed_deps[raw] = items
        for parent, _ in items:
            if parent != 0 and parent not in in_sentence:
                raise _deps_error(raw, in_sentence, doc, line_of(position))
        return items

    entities, pieces_of, heads_of = doc.entities, doc.pieces, doc.heads
    clusters: list[list[UDMention]] = []
    if order is None:
        order = _local_order(doc)
    for e in order:
        entity_pieces = pieces_of[e] if pieces_of else None
        entity_heads = heads_of[e] if heads_of else None
        entity = entities[e]
        if not singletons and len(entity) == 1:
            # Dropped: nothing of it shows but an error in its head's DEPS, or a
            # warning if it crosses sentences (then it is made, as the others).
            (start, end), pieces = entity[0], entity_pieces[0] if entity_pieces else None
            first, last = (pieces[0][0], pieces[-1][1]) if pieces else (start, end)
            if keys[first][0] == keys[last][0]:
                head_position = entity_heads[0] if entity_heads else None
                if head_position is None:
                    head_position = first
                head_deps(head_position, keys[head_position][0])
                clusters.append([])
                continue
        mentions: list[UDMention] = []
        for k, (start, end) in enumerate(entity):
            pieces = entity_pieces[k] if entity_pieces else None
            if pieces:
                words = [keys[p] for a, b in pieces for p in range(a, b + 1)]
            else:
                words = keys[start : end + 1]
            head_position = entity_heads[k] if entity_heads else None
            if head_position is None:
                head_position = pieces[0][0] if pieces else start  # the first word, as udapi
            head = keys[head_position]
            zero = "." in node_ids[head_position]
            items = head_deps(head_position, head[0])
            deps = tuple(((head[0], p), relation) for p, relation in items) if zero else ()
            word_set = frozenset(words)
            mentions.append(
                UDMention(
                    words=word_set,
                    first=words[0],
                    last=words[-1],
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


def _parse_deps(raw: str) -> tuple[tuple[float, str], ...] | None:
    """The items of a node's enhanced dependencies (DEPS, not ``_``): (parent ID
    as a number, relation) each; ``None`` when one is malformed. Whether the
    parents are nodes of the sentence is the caller's check."""
    out = []
    for item in raw.split("|"):
        parent, sep, relation = item.partition(":")
        try:
            ord_ = float(parent)
        except ValueError:
            return None
        if not sep or ord_ < 0:
            return None
        out.append((ord_, relation))
    return tuple(out)


def _deps_error(raw: str, words: set[float], doc: Document, line: int | None) -> InputError:
    """The error for the first bad item of a mention head's DEPS (``words``: the
    IDs of its sentence's nodes)."""
    for item in raw.split("|"):
        parent, sep, _ = item.partition(":")
        try:
            ord_ = float(parent)
        except ValueError:
            ord_ = -1.0
        if not sep or ord_ < 0:
            return InputError(
                f"document {doc.doc_id!r}: bad DEPS item {item!r} of a mention head (expected "
                "'HEAD:relation' items joined by '|')",
                path=doc.source,
                line=line,
            )
        if ord_ != 0 and ord_ not in words:
            return InputError(
                f"document {doc.doc_id!r}: DEPS item {item!r} of a mention head names node "
                f"{parent}, which is not in its sentence",
                path=doc.source,
                line=line,
            )
    raise AssertionError(f"DEPS {raw!r} has no bad item")


# --------------------------------------------------------------------------------------------
# Preparing and aligning one document pair


@record(frozen=True, eq=False)
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
        read = ud_clusters(doc, head_identity=head_identity, order=order, singletons=keep)
        clusters = [_dedup(c) if len(c) > 1 else c for c in read]
        repeated = sum(len(c) for c in read) - sum(len(c) for c in clusters)
        if repeated:
            warnings.append(
                f"document {key_doc.doc_id!r}: {repeated} {side} mention(s) repeated in one "
                "entity; each counted once (as the CorefUD scorer does)"
            )
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
            zero_pairs = _assignment(key_zeros, response_zeros, "zeros")
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
        rest = _assignment(
            sorted(keys.values(), key=_order), sorted(responses.values(), key=_order), matching
        )
    return exact + rest + zero_pairs


def _order(m: UDMention) -> tuple[NodeKey, NodeKey, int]:
    return m.order


#: How often the assignment needed SciPy (ties): for the benchmark's notes.
ASSIGNMENT_STATS = {"documents": 0, "scipy": 0}
# Beyond this many response mentions in one component, ties are left to SciPy.
_EXACT_COLUMNS = 12


def _assignment(
    keys: Sequence[UDMention], responses: Sequence[UDMention], kind: str
) -> list[tuple[UDMention, UDMention]]:
    """The official scorer's one-to-one pairs: a maximum-weight assignment over the full
    matrix (rows and columns in the official scorer's order), its pairs of positive score.

    Only pairs that can score are looked at (the same head, the key head inside the
    response, zeros of one sentence). Each connected component of them whose best
    pairing is unique (in exact fractions) has that pairing, whatever the solver; only
    when some component has several best pairings does the choice among them depend on
    the solver, and then SciPy's ``linear_sum_assignment`` decides on the full matrix,
    as in the official scorer.
    """
    edges = _edges(keys, responses, kind)
    ASSIGNMENT_STATS["documents"] += 1
    if not edges:
        return []
    chosen = _unique_best(edges)
    if chosen is None:
        ASSIGNMENT_STATS["scipy"] += 1
        chosen = _scipy_assignment(edges, len(keys), len(responses))
    return [(keys[i], responses[j]) for i, j in sorted(chosen)]


# An edge: (key index, response index, float score as the official scorer computes it,
# exact score).
_Edge = tuple[int, int, float, Fraction]


def _edges(keys: Sequence[UDMention], responses: Sequence[UDMention], kind: str) -> list[_Edge]:
    out: list[_Edge] = []
    if kind == "head":
        by_head: dict[NodeKey, list[int]] = {}
        for j, r in enumerate(responses):
            by_head.setdefault(r.head, []).append(j)
        for i, k in enumerate(keys):
            for j in by_head.get(k.head, ()):
                r = responses[j]
                shared = len(k.words & r.words)
                if shared:
                    out.append((i, j, _head_score(k, r), Fraction(shared, len(k.words))))
    elif kind == "partial":
        by_word: dict[NodeKey, list[int]] = {}
        for j, r in enumerate(responses):
            for w in r.words:
                by_word.setdefault(w, []).append(j)
        for i, k in enumerate(keys):
            for j in by_word.get(k.head, ()):
                r = responses[j]
                if r.words <= k.words:
                    out.append((i, j, _partial_score(k, r), Fraction(len(r.words), len(k.words))))
    else:
        by_sentence: dict[int, list[int]] = {}
        for j, r in enumerate(responses):
            by_sentence.setdefault(r.head[0], []).append(j)
        for i, k in enumerate(keys):
            for j in by_sentence.get(k.head[0], ()):
                r = responses[j]
                exact = _zero_score_exact(k, r)
                if exact > 0:
                    out.append((i, j, _zero_score(k, r), exact))
    return out


def _unique_best(edges: list[_Edge]) -> list[tuple[int, int]] | None:
    """The best pairing, when every component has exactly one; else ``None``."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(x: tuple[str, int]) -> tuple[str, int]:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    for i, j, _, _ in edges:
        a, b = find(("k", i)), find(("r", j))
        if a != b:
            parent[a] = b
    components: dict[tuple[str, int], list[_Edge]] = {}
    for edge in edges:
        components.setdefault(find(("k", edge[0])), []).append(edge)
    chosen: list[tuple[int, int]] = []
    for members in components.values():
        if len(members) == 1:
            chosen.append((members[0][0], members[0][1]))
            continue
        found = _component_best(members)
        if found is None:
            return None
        chosen += found
    return chosen


def _component_best(edges: list[_Edge]) -> list[tuple[int, int]] | None:
    """The unique maximum-weight matching of one component (exact scores), or ``None``
    when several tie or the component is too wide to enumerate."""
    rows = sorted({e[0] for e in edges})
    cols = sorted({e[1] for e in edges})
    transpose = len(cols) > len(rows)
    if transpose:
        rows, cols = cols, rows
        edges = [(j, i, f, x) for i, j, f, x in edges]
    if len(cols) > _EXACT_COLUMNS:
        return None
    bit = {c: 1 << n for n, c in enumerate(cols)}
    by_row: dict[int, list[tuple[int, Fraction]]] = {}
    for i, j, _, x in edges:
        by_row.setdefault(i, []).append((j, x))
    memo: dict[tuple[int, int], tuple[Fraction, int]] = {}

    def best(n: int, used: int) -> tuple[Fraction, int]:
        """(best weight of rows[n:], how many matchings reach it)."""
        if n == len(rows):
            return Fraction(0), 1
        found = memo.get((n, used))
        if found is not None:
            return found
        top, count = best(n + 1, used)
        for j, x in by_row.get(rows[n], ()):
            if not used & bit[j]:
                value, ways = best(n + 1, used | bit[j])
                value += x
                if value > top:
                    top, count = value, ways
                elif value == top:
                    count += ways
        memo[(n, used)] = (top, count)
        return top, count

    total, count = best(0, 0)
    if count != 1:
        return None
    out: list[tuple[int, int]] = []
    used = 0
    for n, row in enumerate(rows):
        rest, _ = best(n + 1, used)
        if rest == total:
            continue  # this row stays unpaired
        for j, x in by_row.get(row, ()):
            if not used & bit[j] and best(n + 1, used | bit[j])[0] + x == total:
                out.append((j, row) if transpose else (row, j))
                used |= bit[j]
                total -= x
                break
    return out


def _scipy_assignment(edges: list[_Edge], n_keys: int, n_responses: int) -> list[tuple[int, int]]:
    """SciPy's assignment on the full matrix, as the official scorer computes it."""
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    sim = np.zeros((n_keys, n_responses), dtype=np.float64)
    for i, j, f, _ in edges:
        sim[i, j] = f
    rows, cols = linear_sum_assignment(-sim)
    return [(i, j) for i, j in zip(rows.tolist(), cols.tolist()) if sim[i, j] > 0]


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


def _zero_score_exact(key: UDMention, response: UDMention) -> Fraction:
    if key.head[0] != response.head[0]:
        return Fraction(0)
    deps = _f_exact(set(key.deps), set(response.deps))
    parents = _f_exact({p for p, _ in key.deps}, {p for p, _ in response.deps})
    return 10 * deps + parents


def _f_exact(a: set[Any], b: set[Any]) -> Fraction:
    common = len(a & b)
    if not a or not b or not common:
        return Fraction(0)
    return Fraction(2 * common, len(a) + len(b))


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
    if ks.words == rs.words and ks.sentence_ids == rs.sentence_ids and ks.node_ids == rs.node_ids:
        return  # the same sentences, words and empty nodes
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
