"""Reader and writer for plain JSON cluster files.

The file is one JSON object mapping document ids to clusters, the same shape
``corefscore.score`` takes in memory::

    {"doc1": [[[0, 1], [5, 5]], [[3, 3]]],
     "doc2": [{"mentions": [{"span": [0, 2], "head": 1, "level": "NAM"}],
               "type": "PER", "id": "7"}]}

A cluster is a list of inclusive ``[start, end]`` spans, or an object with
``mentions`` and optional ``type`` and ``id``; a mention is a span or an object
with ``span`` and optional ``head``, ``min``, ``level`` and ``optional``.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import zlib
from collections.abc import Iterator
from typing import IO, Any

from .._record import replace
from ..errors import InputError
from ..model import Corpus, Document, document_from_clusters
from .files import open_binary, open_text_output
from .jsonlines import json_number_problem


def read_json_clusters(path: str | os.PathLike[str]) -> Corpus:
    """Read a ``{doc_id: clusters}`` JSON file (plain or gzipped).

    The file is one JSON object, read one document at a time: memory is
    bounded by the largest document, not by the file. A document id given
    twice is an error rather than the last one silently winning.
    """
    name = os.fspath(path)
    with open_binary(name) as handle:
        return _parse(_chunks(handle, name), name)


def read_json_clusters_text(text: str, *, source: str = "<string>") -> Corpus:
    """Parse JSON cluster text; ``source`` names it in error messages."""
    return _parse(iter((text.encode("utf-8"),)), source)


_CHUNK_BYTES = 1 << 20


def _chunks(handle: io.BufferedIOBase, source: str) -> Iterator[bytes]:
    # Fixed-size chunks, not whole lines: a minified file is one long line.
    while True:
        try:
            chunk = handle.read(_CHUNK_BYTES)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"cannot read file ({exc})", path=source) from None
        if not chunk:
            return
        yield chunk


class _Stream:
    """Text of a JSON file, decoded and buffered a chunk at a time."""

    def __init__(self, chunks: Iterator[bytes], source: str) -> None:
        self.chunks = chunks
        self.source = source
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.buf = ""
        self.pos = 0
        self.lines_before = 0  # newlines in text already dropped from the buffer
        self.column_before = 0  # characters of the buffer's first line already dropped
        self.done = False

    def more(self, at_least: int = 1) -> bool:
        """Append chunks until ``at_least`` characters came; False at the end of the file.

        The chunks are joined before they join the buffer: appending them one
        by one would copy a huge buffer once per chunk.
        """
        parts: list[str] = []
        size = 0
        came = False
        while size < at_least and not self.done:
            chunk = next(self.chunks, None)
            try:
                if chunk is None:
                    self.done = True
                    text = self.decoder.decode(b"", final=True)
                else:
                    came = True
                    text = self.decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                before = (chunk or b"")[: exc.start].count(b"\n")
                held = self.buf.count("\n") + sum(p.count("\n") for p in parts)
                bad = (chunk or b"")[exc.start : exc.start + 1].hex() or "end"
                raise InputError(
                    f"not valid UTF-8 (byte 0x{bad}); convert the file to UTF-8",
                    path=self.source,
                    line=self.lines_before + held + before + 1,
                ) from None
            parts.append(text)
            size += len(text)
        if parts:
            self.buf += "".join(parts)
        return came

    def line(self) -> int:
        return self.lines_before + self.buf.count("\n", 0, self.pos) + 1

    def skip_space(self) -> str:
        """The next non-space character (advancing to it), or "" at the end."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return ""

    def drop_consumed(self) -> None:
        newlines = self.buf.count("\n", 0, self.pos)
        if newlines:
            self.column_before = self.pos - self.buf.rfind("\n", 0, self.pos) - 1
        else:
            self.column_before += self.pos
        self.lines_before += newlines
        self.buf = self.buf[self.pos :]
        self.pos = 0

    def value(self, decoder: json.JSONDecoder) -> Any:
        """Decode the JSON value at the current position, reading more as needed."""
        while True:
            try:
                value, end = decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                incomplete = exc.pos >= len(self.buf) - 1 or exc.msg.startswith("Unterminated")
                # Doubling what is buffered keeps a huge value linear: each
                # retry parses it again from its start.
                if incomplete and self.more(len(self.buf) - self.pos):
                    continue
                line = self.lines_before + exc.lineno
                column = exc.colno + (self.column_before if exc.lineno == 1 else 0)
                problem = (
                    "the file ends inside a JSON value (truncated?)"
                    if incomplete and not self.buf[exc.pos :].strip()
                    else f"{exc.msg} (column {column})"
                )
                raise InputError(f"invalid JSON: {problem}", path=self.source, line=line) from None
            except RecursionError:
                raise InputError(
                    "invalid JSON: nested too deeply", path=self.source, line=self.line()
                ) from None
            except ValueError as exc:  # e.g. an integer of more than 4300 digits
                raise InputError(
                    f"invalid JSON: {json_number_problem(exc)}", path=self.source, line=self.line()
                ) from None
            self.pos = end
            return value

    def expect(self, wanted: str, what: str) -> str:
        found = self.skip_space()
        if not found or found not in wanted:
            shown = repr(found) if found else "the end of the file"
            raise InputError(
                f"invalid JSON: expected {what}, found {shown}", path=self.source, line=self.line()
            )
        self.pos += 1
        return found


def _parse(chunks: Iterator[bytes], source: str) -> Corpus:
    stream = _Stream(chunks, source)
    decoder = json.JSONDecoder(object_pairs_hook=_no_duplicates)
    first = stream.skip_space()
    if first != "{":
        if not first:
            raise InputError("empty file", path=source, line=1)
        found = stream.value(decoder)  # reports invalid JSON with its line
        raise InputError(
            f"expected a JSON object mapping document ids to clusters, got {type(found).__name__}",
            path=source,
            line=1,
        )
    stream.pos += 1
    documents: dict[str, Document] = {}
    first_line: dict[str, int] = {}
    if stream.skip_space() == "}":
        stream.pos += 1
    else:
        while True:
            if stream.skip_space() != '"':
                stream.expect('"', "a document id (a JSON string)")
            line = stream.line()
            doc_id = stream.value(decoder)
            if doc_id in documents:
                raise InputError(
                    f"key {doc_id!r} appears twice in one JSON object "
                    f"(first at line {first_line[doc_id]})",
                    path=source,
                    line=line,
                )
            stream.expect(":", "':' after a document id")
            stream.skip_space()
            clusters = stream.value(decoder)
            try:
                doc = document_from_clusters(doc_id, clusters, side="JSON")
            except InputError as exc:
                hint = ""
                if doc_id == "doc_key":
                    hint = " (this looks like jsonlines, one document per line: use format jsonl)"
                raise InputError(exc.message + hint, path=source, line=line) from None
            documents[doc_id] = replace(doc, source=source)
            first_line[doc_id] = line
            stream.drop_consumed()
            if stream.expect(",}", "',' or '}' after a document") == "}":
                break
    if stream.skip_space():
        raise InputError(
            "invalid JSON: extra data after the top-level object",
            path=source,
            line=stream.line(),
        )
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
    ..., "level": ..., "optional": true}``). So ``read_json_clusters``
    gives back the same entities, labels and facts. Discontinuous pieces,
    syntax and annotations are not written. A path ending in ``.gz`` is written gzipped.
    """
    with open_text_output(path_or_stream) as handle:
        _write(corpus, handle)


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
