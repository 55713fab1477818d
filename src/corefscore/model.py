"""The canonical corpus every reader produces.

A corpus is an ordered mapping of document ids to documents. A document is an
ordered sequence of entities; an entity is an ordered sequence of mentions; a
mention is an inclusive token span ``(start, end)`` counted from 0 over the
document's tokens. Order is kept on purpose: the reference scorer's floating
point sums, and which copy of a repeated mention it keeps, depend on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from .errors import InputError

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Document:
    """One document: entities of mention spans, with where each came from.

    ``labels[i]`` is the entity id written in the source (e.g. ``"12"``), and
    ``lines[i][k]`` the source line of mention ``entities[i][k]`` (0 when the
    document was built in memory).
    """

    doc_id: str
    entities: tuple[tuple[Span, ...], ...]
    labels: tuple[str, ...] = ()
    lines: tuple[tuple[int, ...], ...] = ()
    source: str | None = None

    def __post_init__(self) -> None:
        if not self.labels:
            object.__setattr__(self, "labels", tuple(str(i) for i in range(len(self.entities))))
        if not self.lines:
            object.__setattr__(self, "lines", tuple((0,) * len(e) for e in self.entities))

    @property
    def mention_count(self) -> int:
        return sum(len(e) for e in self.entities)

    def line_of(self, entity: int, position: int) -> int | None:
        line = self.lines[entity][position]
        return line or None


@dataclass(frozen=True)
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


ClusterInput = Sequence[Sequence[Sequence[int]]]


def document_from_clusters(doc_id: str, clusters: ClusterInput, *, side: str) -> Document:
    """Build a :class:`Document` from in-memory clusters of ``(start, end)`` spans.

    Spans may be tuples or lists (as decoded from JSON); ends are inclusive.
    """
    entities: list[tuple[Span, ...]] = []
    where = f"{side} document {doc_id!r}"
    if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Sequence):
        raise InputError(f"{where}: clusters must be a list of lists of (start, end) spans")
    for ci, cluster in enumerate(clusters):
        if isinstance(cluster, (str, bytes)) or not isinstance(cluster, Sequence):
            raise InputError(f"{where}: cluster {ci} is not a list of spans")
        spans: list[Span] = []
        for span in cluster:
            if isinstance(span, (str, bytes)) or not isinstance(span, Sequence) or len(span) != 2:
                raise InputError(f"{where}: cluster {ci} has {span!r}, not a (start, end) pair")
            start, end = span
            if not _is_int(start) or not _is_int(end):
                raise InputError(f"{where}: cluster {ci} has non-integer span {span!r}")
            start, end = int(start), int(end)
            if start < 0 or end < start:
                raise InputError(
                    f"{where}: cluster {ci} has invalid span ({start}, {end}); "
                    "need 0 <= start <= end (ends are inclusive)"
                )
            spans.append((start, end))
        if spans:
            entities.append(tuple(spans))
    return Document(doc_id=doc_id, entities=tuple(entities))


def _is_int(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    # numpy integers and the like
    return hasattr(value, "__index__") and not isinstance(value, float)


def corpus_from_mapping(data: Mapping[str, ClusterInput], *, side: str) -> Corpus:
    """Turn ``{doc_id: clusters}`` into a :class:`Corpus`."""
    if not isinstance(data, Mapping):
        raise InputError(f"{side}: expected a mapping of document id to clusters")
    docs = {str(k): document_from_clusters(str(k), v, side=side) for k, v in data.items()}
    return Corpus(documents=docs)
