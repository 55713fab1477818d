"""Reader and writer for plain JSON cluster files.

The file is one JSON object mapping document ids to clusters, the same shape
:func:`corefscore.score` takes in memory::

    {"doc1": [[[0, 1], [5, 5]], [[3, 3]]],
     "doc2": [{"mentions": [{"span": [0, 2], "head": 1, "level": "NAM"}],
               "type": "PER", "id": "7"}]}

A cluster is a list of inclusive ``[start, end]`` spans, or an object with
``mentions`` and optional ``type`` and ``id``; a mention is a span or an object
with ``span`` and optional ``head``, ``min``, ``level`` and ``optional``.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from dataclasses import replace
from typing import IO, Any

from ..errors import InputError
from ..model import Corpus, Document, document_from_clusters
from .files import open_binary


def read_json_clusters(path: str | os.PathLike[str]) -> Corpus:
    """Read a ``{doc_id: clusters}`` JSON file (plain or gzipped).

    The whole file is one JSON value, so it is parsed at once. A document id
    given twice is an error rather than the last one silently winning.
    """
    name = os.fspath(path)
    with open_binary(name) as handle:
        try:
            data = handle.read()
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"cannot read file ({exc})", path=name) from None
    return _parse(data, name)


def read_json_clusters_text(text: str, *, source: str = "<string>") -> Corpus:
    """Parse JSON cluster text; ``source`` names it in error messages."""
    return _parse(text.encode("utf-8"), source)


def _parse(data: bytes, source: str) -> Corpus:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", path=source, line=line) from None
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON: {exc.msg} (column {exc.colno})", path=source, line=exc.lineno
        ) from None
    except _DuplicateKey as exc:
        raise InputError(
            f"key {exc.args[0]!r} appears twice in one JSON object", path=source
        ) from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply", path=source) from None
    if not isinstance(value, dict):
        raise InputError(
            f"expected a JSON object mapping document ids to clusters, got {type(value).__name__}",
            path=source,
        )
    documents: dict[str, Document] = {}
    for doc_id, clusters in value.items():
        try:
            doc = document_from_clusters(doc_id, clusters, side="JSON")
        except InputError as exc:
            raise InputError(exc.message, path=source) from None
        documents[doc_id] = replace(doc, source=source)
    return Corpus(documents=documents, source=source)


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def write_json_clusters(corpus: Corpus, path_or_stream: str | os.PathLike[str] | IO[str]) -> None:
    """Write ``corpus`` as ``{doc_id: clusters}`` JSON, one document a line.

    An entity is written as a plain list of ``[start, end]`` spans unless it
    has a type or a label other than its position (then ``{"mentions": ...,
    "type": ..., "id": ...}``); a mention as a span unless it has a head, MIN
    span, level or optional flag (then ``{"span": ..., "head": ..., "min":
    ..., "level": ..., "optional": true}``). So :func:`read_json_clusters`
    gives back the same entities, labels and facts. Discontinuous pieces,
    syntax and annotations are not written. A path ending in ``.gz`` is written gzipped.
    """
    if isinstance(path_or_stream, (str, os.PathLike)):
        name = os.fspath(path_or_stream)
        handle: IO[str]
        if name.endswith(".gz"):
            handle = gzip.open(name, "wt", encoding="utf-8", newline="\n")
        else:
            handle = open(name, "w", encoding="utf-8", newline="\n")
        with handle:
            _write(corpus, handle)
    else:
        _write(corpus, path_or_stream)


def _write(corpus: Corpus, out: IO[str]) -> None:
    out.write("{")
    for n, doc in enumerate(corpus):
        out.write(",\n" if n else "\n")
        clusters = [_cluster(doc, e) for e in range(len(doc.entities))]
        out.write(f"  {json.dumps(doc.doc_id, ensure_ascii=False)}: ")
        out.write(json.dumps(clusters, ensure_ascii=False))
    out.write("\n}\n" if len(corpus) else "}\n")


def _cluster(doc: Document, e: int) -> Any:
    mentions: list[Any] = []
    for k, (start, end) in enumerate(doc.entities[e]):
        mention: dict[str, Any] = {}
        head = doc.head_of(e, k)
        min_span = doc.min_span_of(e, k)
        level = doc.level_of(e, k)
        if head is not None:
            mention["head"] = head
        if min_span is not None:
            mention["min"] = list(min_span)
        if level is not None:
            mention["level"] = level
        if doc.is_optional(e, k):
            mention["optional"] = True
        mentions.append({"span": [start, end], **mention} if mention else [start, end])
    entity_type = doc.type_of(e)
    label = doc.labels[e]
    if entity_type is None and label == str(e):
        return mentions
    cluster: dict[str, Any] = {"mentions": mentions}
    if entity_type is not None:
        cluster["type"] = entity_type
    if label != str(e):
        cluster["id"] = label
    return cluster
