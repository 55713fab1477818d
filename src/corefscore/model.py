"""The canonical corpus every reader produces.

A corpus is an ordered mapping of document ids to documents. A document is an
ordered sequence of entities; an entity is an ordered sequence of mentions; a
mention is an inclusive token span ``(start, end)`` counted from 0 over the
document's tokens. Order is kept on purpose: the reference scorer's floating
point sums, and which copy of a repeated mention it keeps, depend on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ._lazy import lazy_attributes
from ._record import field, record, replace
from .errors import InputError, UsageError

if TYPE_CHECKING:
    import numpy as np

    from ._entity import Entity as Entity

Span = tuple[int, int]
#: A split antecedent: the entities a plural mention refers to together, each
#: as the tuple of its mentions.
SplitAntecedent = frozenset[tuple[Span, ...]]
T = TypeVar("T")


# Only user callables (custom CEAF similarities, LEA importance) receive an
# Entity: creating its dataclass on first use spares every other run.
__getattr__ = lazy_attributes(globals(), {"Entity": "._entity"})


@record(frozen=True)
class Syntax:
    """Token-level columns of one document, when the reader was asked for them.

    Every column has one item per token (the document's token positions);
    ``None`` means the source has no such column. Columns are tuples, except
    that the CoNLL-U reader gives UPOS, FEATS and MISC as sequences that it
    decodes when they are first read (equal to the tuples of their items).
    ``dependency_heads[t]`` is the document position of token ``t``'s
    syntactic head, or -1 for a root; ``parse`` holds CoNLL-2012 parse bits such as ``"(NP(DT*"``.
    """

    def sentence_of(self, token: int) -> int:
        """The 1-based sentence number of ``token`` (1 without sentence breaks)."""
        from bisect import bisect_right

        return max(bisect_right(self.sentence_starts, token), 1)

    words: tuple[str, ...] | None = None
    pos: Sequence[str] | None = None
    parse: tuple[str, ...] | None = None
    named_entities: tuple[str, ...] | None = None
    dependency_heads: tuple[int, ...] | None = None
    sentence_starts: tuple[int, ...] = ()
    #: CoNLL-U FEATS strings (``"Gender=Masc|Number=Sing|Person=3"``, ``"_"`` if none),
    #: for resolution classes and the CoNLL-U writer. Left out of equality because
    #: only the CoNLL-U writer outputs them, so other round trips would differ.
    feats: Sequence[str] | None = field(default=None, compare=False)
    #: CoNLL-U: each token's ID column (``"5"``, ``"5.1"`` for an empty node),
    #: its enhanced dependencies (DEPS, ``"8:nsubj|9:obj"``), and each
    #: sentence's ``# sent_id`` (``None`` where it has none): what the CorefUD
    #: evaluation identifies words, zeros and sentences by. Not written back,
    #: hence out of equality.
    node_ids: tuple[str, ...] | None = field(default=None, compare=False)
    deps: tuple[str, ...] | None = field(default=None, compare=False)
    #: CoNLL-U: each token's MISC column as read (``"SpaceAfter=No|Entity=(e1"``),
    #: so that the CoNLL-U writer keeps the items it does not interpret
    #: (``SplitAnte``, ``Bridge``, ``SpaceAfter``, ...). Out of equality: the
    #: other writers cannot hold it.
    misc: Sequence[str] | None = field(default=None, compare=False)
    sentence_ids: tuple[str | None, ...] = field(default=(), compare=False)
    #: CoNLL-U: each token's line in its file, for messages.
    token_lines: tuple[int, ...] | None = field(default=None, compare=False)


@record(frozen=True, slots=True)
class Document:
    """One document: entities of mention spans, with where each came from.

    ``labels[i]`` is the entity id written in the source (e.g. ``"12"``), and
    ``lines[i][k]`` the source line of mention ``entities[i][k]`` (0 when the
    document was built in memory).

    Optional per-mention facts, parallel to ``entities`` (empty when the
    source has none): ``heads`` (the head token), ``min_spans`` (MUC's MIN,
    the least a response must cover), ``mention_levels`` (``NAM``, ``NOM``,
    ``PRO`` or ``PRE``), ``optional`` (MUC's ``STATUS="OPT"``: a response
    need not find the mention, and is not penalised when it does), ``pieces``
    (the contiguous parts of a discontinuous mention, whose span is then the
    range they cover; ``None`` for a contiguous one); and per entity,
    ``entity_types`` (e.g. ``PER``). ``annotations`` keeps what a format has
    beyond coreference (bridging, split antecedents, ...) for conversion; no
    metric reads it.
    """

    doc_id: str
    entities: tuple[tuple[Span, ...], ...]
    labels: tuple[str, ...] = ()
    lines: tuple[tuple[int, ...], ...] = ()
    source: str | None = None
    heads: tuple[tuple[int | None, ...], ...] = ()
    min_spans: tuple[tuple[Span | None, ...], ...] = ()
    mention_levels: tuple[tuple[str | None, ...], ...] = ()
    entity_types: tuple[str | None, ...] = ()
    syntax: Syntax | None = None
    optional: tuple[tuple[bool, ...], ...] = ()
    pieces: tuple[tuple[tuple[Span, ...] | None, ...], ...] = ()
    annotations: Mapping[str, Any] = field(default_factory=dict)
    #: Universal Anaphora facts (``docs/formats.md``), read by the metrics when
    #: present. ``split_antecedents``, parallel to ``entities``: for a plural
    #: entity ("John ... Mary ... they"), its split antecedent, the set of the
    #: entities it is made of, each as its mentions (``None`` for the others).
    #: ``non_referring``: the spans of non-referring markables (expletives,
    #: UA ``-Pseudo`` entities), which are in no entity. ``bridging``:
    #: (anaphor, antecedent) span pairs ("a house ... the door").
    split_antecedents: tuple[SplitAntecedent | None, ...] = ()
    non_referring: tuple[Span, ...] = ()
    bridging: tuple[tuple[Span, Span], ...] = ()
    #: The number of tokens, set by the readers (every format with tokens:
    #: CoNLL, CoNLL-U, jsonlines, MUC SGML); ``None`` for in-memory documents.
    #: Bookkeeping for that check, so not part of equality.
    token_count: int | None = field(default=None, compare=False)
    #: A fingerprint of the word forms (``corefscore.io.conll.FormsDigest``),
    #: when the format carries them; bookkeeping for the same check.
    forms_digest: int | None = field(default=None, compare=False)
    #: The entity of each mention in the order the source completed them (a
    #: CoNLL file: line by line, its one-token mentions before the closing
    #: brackets); the k-th time entity i appears is its k-th mention. Empty when
    #: the reader does not record it. It decides which copy of a repeated span
    #: was read first (the error analysis keeps that one, as the Berkeley
    #: analyser does); bookkeeping, so not part of equality.
    reading_order: tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not self.labels:
            object.__setattr__(self, "labels", tuple(str(i) for i in range(len(self.entities))))
        if not self.lines:
            object.__setattr__(self, "lines", tuple([(0,) * len(e) for e in self.entities]))

    @property
    def mention_count(self) -> int:
        """How many mentions the document's entities hold."""
        return sum(map(len, self.entities))

    def line_of(self, entity: int, position: int) -> int | None:
        """The source line of a mention (``None`` when built in memory)."""
        line = self.lines[entity][position]
        return line or None

    def head_of(self, entity: int, position: int) -> int | None:
        """The head token of a mention, when the source gives one."""
        return self.heads[entity][position] if self.heads else None

    def min_span_of(self, entity: int, position: int) -> Span | None:
        """The MIN span of a mention, when the source gives one."""
        return self.min_spans[entity][position] if self.min_spans else None

    def level_of(self, entity: int, position: int) -> str | None:
        """The mention level (``NAM``, ``NOM``, ``PRO``, ``PRE``), when known."""
        return self.mention_levels[entity][position] if self.mention_levels else None

    def type_of(self, entity: int) -> str | None:
        """The entity type (e.g. ``PER``), when known."""
        return self.entity_types[entity] if self.entity_types else None

    def is_optional(self, entity: int, position: int) -> bool:
        """Whether a mention is optional (MUC ``STATUS="OPT"``)."""
        return bool(self.optional) and self.optional[entity][position]

    def entity(self, index: int) -> Entity:
        """Entity ``index`` with its facts, as passed to user callables."""
        from ._entity import Entity

        n = len(self.entities[index])
        return Entity(
            label=self.labels[index],
            mentions=self.entities[index],
            type=self.type_of(index),
            levels=self.mention_levels[index] if self.mention_levels else (None,) * n,
            heads=self.heads[index] if self.heads else (None,) * n,
        )

    def select(self, keep: Callable[[int, int, Span], bool]) -> Document:
        """The document with only the mentions ``keep(entity, position, span)`` accepts.

        Per-mention facts follow their mentions; entities left empty are removed.
        """
        plan: list[tuple[int, list[int]]] = []
        changed = False
        for e, entity in enumerate(self.entities):
            kept = [k for k, span in enumerate(entity) if keep(e, k, span)]
            changed = changed or len(kept) < len(entity)
            if kept:
                plan.append((e, kept))
        if not changed:
            return self

        def per_mention(values: tuple[tuple[T, ...], ...]) -> tuple[tuple[T, ...], ...]:
            if not values:
                return ()
            return tuple(tuple(values[e][k] for k in kept) for e, kept in plan)

        return replace(
            self,
            entities=per_mention(self.entities),
            labels=tuple(self.labels[e] for e, _ in plan),
            lines=per_mention(self.lines),
            heads=per_mention(self.heads),
            min_spans=per_mention(self.min_spans),
            mention_levels=per_mention(self.mention_levels),
            entity_types=tuple(self.entity_types[e] for e, _ in plan) if self.entity_types else (),
            optional=per_mention(self.optional),
            pieces=per_mention(self.pieces),
            split_antecedents=(
                tuple(self.split_antecedents[e] for e, _ in plan) if self.split_antecedents else ()
            ),
        )

    def respan(self, spans: Mapping[tuple[int, int], Span]) -> Document:
        """The document with mention ``(entity, position)`` moved to ``spans[...]``."""
        if not spans:
            return self
        entities = tuple(
            tuple(spans.get((e, k), span) for k, span in enumerate(entity))
            for e, entity in enumerate(self.entities)
        )
        return replace(self, entities=entities)


@record(frozen=True)
class Corpus:
    """Documents in file order, keyed by document id."""

    documents: Mapping[str, Document]
    source: str | None = None
    warnings: tuple[str, ...] = field(default=())

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents.values())

    def __len__(self) -> int:
        return len(self.documents)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self.documents

    def __getitem__(self, doc_id: str) -> Document:
        return self.documents[doc_id]


@record(frozen=True, eq=False)
class MentionTable:
    """One side of a corpus as parallel int64 arrays, one row per mention, in reading order.

    The columnar form of a ``Corpus`` (documents, then entities, then
    mentions), for corpora too large for a Python object per mention:
    ``doc[k]`` indexes ``doc_ids`` and ``label[k]`` indexes ``labels`` (the
    entity id as written in the source). ``doc_ids`` may list documents that
    have no mention. numpy is imported only by the code that builds one.
    """

    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
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

    def entity_codes(self, scope: str) -> np.ndarray:
        """Entity of every mention: 0, 1, ... in order of first appearance.

        ``scope="document"``: a label is an entity of its own document;
        ``"global"``: one entity of the whole corpus.
        """
        if scope == "global":
            return self.label if self.dense_labels else first_appearance_codes(self.label)
        if scope == "document":
            width = max(len(self.labels), 1)
            return first_appearance_codes(self.doc * width + self.label)
        raise UsageError(f"entity id scope must be global or document, got {scope!r}")

    def select(self, keep: np.ndarray) -> MentionTable:
        """The table with only the mentions where ``keep`` is true."""
        return replace(
            self,
            doc=self.doc[keep],
            start=self.start[keep],
            end=self.end[keep],
            label=self.label[keep],
            dense_labels=False,
        )


def first_appearance_codes(values: np.ndarray) -> np.ndarray:
    """Dense codes 0, 1, ... for ``values``, numbered in order of first appearance."""
    import numpy as np

    if len(values) == 0:
        return np.zeros(0, dtype=np.int64)
    _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int64)
    out: np.ndarray = rank[inverse.reshape(-1)]
    return out


ClusterInput = Sequence[Any]

_MENTION_KEYS = frozenset({"span", "start", "end", "head", "min", "level", "optional"})
_CLUSTER_KEYS = frozenset({"mentions", "type", "id"})


def document_from_clusters(doc_id: str, clusters: ClusterInput, *, side: str) -> Document:
    """Build a ``Document`` from in-memory clusters.

    A cluster is a list of mentions, or a mapping ``{"mentions": [...],
    "type": "PER", "id": "7"}``. A mention is a ``(start, end)`` pair
    (inclusive, as lists from JSON too), or a mapping ``{"span": (start, end),
    "head": token, "min": (start, end), "level": "NAM"}`` whose keys other than
    ``span`` are optional.

    Arrays (numpy, torch...) may stand for any of these lists and integers: a
    document as a 3-D integer array, a cluster as an ``(n, 2)`` integer
    array, a span as a 1-D array of two, integer scalars. They are read
    through their ``tolist()``, so that a float or boolean array is refused as
    a list of floats or booleans would be.
    """
    plain = plain_entities(clusters)
    if plain is not None:  # the usual input, checked in one pass
        return Document(doc_id=doc_id, entities=plain, labels=_labels(len(plain)))
    where = f"{side} document {doc_id!r}"
    clusters = _plain(clusters)
    if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Sequence):
        raise InputError(f"{where}: clusters must be a list of lists of (start, end) spans")
    entities: list[tuple[Span, ...]] = []
    labels: list[str] = []
    types: list[str | None] = []
    # Each entity's heads, MIN spans, levels and optional flags; None: none given.
    facts: list[_MentionFacts | None] = []
    for ci, cluster in enumerate(clusters):
        label = str(ci)
        entity_type = None
        pairs = _plain_entities((cluster,))
        if pairs is not None:  # (start, end) pairs of ints, nothing else
            if pairs[0]:
                entities.append(pairs[0])
                labels.append(label)
                types.append(entity_type)
                facts.append(None)
            continue
        cluster = _plain(cluster)
        if isinstance(cluster, Mapping):
            unknown = set(cluster) - _CLUSTER_KEYS
            if unknown or "mentions" not in cluster:
                raise InputError(
                    f"{where}: cluster {ci} must be a list of spans or a mapping with "
                    f"'mentions' (and optional 'type', 'id'), got keys {sorted(map(str, cluster))}"
                )
            label = str(cluster.get("id", ci))
            entity_type = _optional_str(cluster.get("type"), f"{where}: cluster {ci} type")
            cluster = _plain(cluster["mentions"])
        if isinstance(cluster, (str, bytes)) or not isinstance(cluster, Sequence):
            raise InputError(f"{where}: cluster {ci} is not a list of spans")
        spans = []
        entity_heads: list[int | None] = []
        entity_mins: list[Span | None] = []
        entity_levels: list[str | None] = []
        entity_optional: list[bool] = []
        for mention in cluster:
            head = level = None
            min_span = None
            is_optional = False
            mention = _plain(mention)
            if isinstance(mention, Mapping):
                unknown = set(mention) - _MENTION_KEYS
                if unknown:
                    raise InputError(
                        f"{where}: cluster {ci} has a mention with unknown key(s) "
                        f"{sorted(map(str, unknown))}; allowed: span, head, min, level, optional"
                    )
                if "span" in mention:
                    span_value = mention["span"]
                elif "start" in mention and "end" in mention:
                    span_value = (mention["start"], mention["end"])
                else:
                    raise InputError(f"{where}: cluster {ci} has a mention without 'span'")
                span = _span(span_value, where, ci)
                if mention.get("head") is not None:
                    head = _plain(mention["head"])
                    if not _is_int(head) or not span[0] <= int(head) <= span[1]:
                        raise InputError(
                            f"{where}: cluster {ci}: head {head!r} is not a token of mention {span}"
                        )
                    head = int(head)
                if mention.get("min") is not None:
                    min_span = _span(mention["min"], where, ci)
                    if not (span[0] <= min_span[0] and min_span[1] <= span[1]):
                        raise InputError(
                            f"{where}: cluster {ci}: MIN span {min_span} lies outside "
                            f"mention {span}"
                        )
                level = _optional_str(mention.get("level"), f"{where}: cluster {ci} level")
                flag = mention.get("optional", False)
                if not isinstance(flag, bool):
                    raise InputError(f"{where}: cluster {ci}: 'optional' must be true or false")
                is_optional = flag
            else:
                span = _span(mention, where, ci)
            spans.append(span)
            entity_heads.append(head)
            entity_mins.append(min_span)
            entity_levels.append(level)
            entity_optional.append(is_optional)
        if spans:
            entities.append(tuple(spans))
            labels.append(label)
            types.append(entity_type)
            facts.append(
                (
                    tuple(entity_heads),
                    tuple(entity_mins),
                    tuple(entity_levels),
                    tuple(entity_optional),
                )
            )
    heads: tuple[tuple[int | None, ...], ...] = ()
    mins: tuple[tuple[Span | None, ...], ...] = ()
    levels: tuple[tuple[str | None, ...], ...] = ()
    optional: tuple[tuple[bool, ...], ...] = ()
    if any(f is not None for f in facts):
        every = [
            f
            if f is not None
            else ((None,) * len(e), (None,) * len(e), (None,) * len(e), (False,) * len(e))
            for e, f in zip(entities, facts)
        ]
        heads, mins, levels, optional = (tuple(column) for column in zip(*every))

    def stated(values: tuple[tuple[T | None, ...], ...]) -> tuple[tuple[T | None, ...], ...]:
        return values if any(v is not None for e in values for v in e) else ()

    return Document(
        doc_id=doc_id,
        entities=tuple(entities),
        labels=tuple(labels),
        heads=stated(heads),
        min_spans=stated(mins),
        mention_levels=stated(levels),
        entity_types=tuple(types) if any(t is not None for t in types) else (),
        optional=optional if any(f for e in optional for f in e) else (),
    )


_MentionFacts = tuple[
    tuple[int | None, ...], tuple["Span | None", ...], tuple[str | None, ...], tuple[bool, ...]
]


_LABELS: tuple[str, ...] = ()


def _labels(count: int) -> tuple[str, ...]:
    """("0", "1", ..., str(count - 1)): the labels of unnamed clusters."""
    global _LABELS
    if len(_LABELS) < count:
        _LABELS = tuple(str(i) for i in range(max(count, 2 * len(_LABELS))))
    return _LABELS[:count]


def plain_entities(clusters: object) -> tuple[tuple[Span, ...], ...] | None:
    """The entities of ``clusters`` when they are the usual input: a list or tuple
    of non-empty lists or tuples of valid ``(start, end)`` pairs of Python ints,
    checked in one pass; ``None`` for anything else (``document_from_clusters``
    reads or refuses it)."""
    if type(clusters) is not list and type(clusters) is not tuple:
        return None
    plain = _plain_entities(clusters)
    if plain is None or not all(plain):
        return None
    return tuple(plain)


def _plain_entities(clusters: Sequence[Any]) -> list[tuple[Span, ...]] | None:
    """Each cluster's spans when every cluster is a list or tuple of valid
    ``(start, end)`` pairs of Python ints (lists or tuples), checked with exact
    types (the usual input, in one pass); ``None`` for anything else, which the
    general reading then reads or refuses."""
    out = []
    for cluster in clusters:
        if type(cluster) is not list and type(cluster) is not tuple:
            return None
        spans = []
        for mention in cluster:
            if (type(mention) is tuple or type(mention) is list) and len(mention) == 2:
                start, end = mention
                if type(start) is int and type(end) is int and 0 <= start <= end:
                    spans.append(mention if type(mention) is tuple else (start, end))
                    continue
            return None
        out.append(tuple(spans))
    return out


def _span(value: object, where: str, ci: int) -> Span:
    value = _plain(value)
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise InputError(f"{where}: cluster {ci} has {value!r}, not a (start, end) pair")
    start, end = _plain(value[0]), _plain(value[1])
    if not _is_int(start) or not _is_int(end):
        raise InputError(f"{where}: cluster {ci} has non-integer span {value!r}")
    start, end = int(start), int(end)
    if start < 0 or end < start:
        raise InputError(
            f"{where}: cluster {ci} has invalid span ({start}, {end}); "
            "need 0 <= start <= end (ends are inclusive)"
        )
    return (start, end)


def _plain(value: Any) -> Any:
    """``value.tolist()`` for an array or array scalar (numpy, torch...), else ``value``.

    Duck-typed, so that numpy is not imported here; lists, tuples, mappings
    and Python scalars come back as they are.
    """
    if type(value) in _PLAIN or isinstance(value, (Sequence, Mapping)):
        return value
    tolist = getattr(value, "tolist", None)
    return tolist() if callable(tolist) else value


_PLAIN = frozenset({list, tuple, int, str, dict, float, bool})


def _optional_str(value: object, what: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InputError(f"{what} must be a string, got {value!r}")


def _is_int(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    # numpy integers and the like
    return hasattr(value, "__index__") and not isinstance(value, float)


def corpus_from_mapping(data: Mapping[str, ClusterInput], *, side: str) -> Corpus:
    """Turn ``{doc_id: clusters}`` into a ``Corpus``."""
    if not isinstance(data, Mapping):
        raise InputError(f"{side}: expected a mapping of document id to clusters")
    docs = {str(k): document_from_clusters(str(k), v, side=side) for k, v in data.items()}
    return Corpus(documents=docs)
