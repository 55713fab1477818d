"""Reader and writer for jsonlines coreference files (e2e-coref / SpanBERT style).

Each non-blank line is one JSON object, one document::

    {"doc_key": "bc/cctv/00/cctv_0000_0",
     "sentences": [["In", "the", "summer"], ["It", "rained"]],
     "clusters": [[[0, 2], [3, 3]]],
     "predicted_clusters": [[[0, 2]]]}

The document's tokens are the concatenation of ``sentences``; a mention
``[start, end]`` is an inclusive pair of positions over those tokens, counted
from 0. ``clusters`` is the gold annotation and ``predicted_clusters`` a
system's output, so one file can hold both the key and the response. Other
fields (``speakers``, ``subtoken_map``...) are ignored.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterable, Iterator
from itertools import pairwise
from typing import IO, Any

from ..errors import InputError, UsageError, clip
from ..model import Corpus, Document, Span, Syntax
from .files import open_binary, open_text_output

FIELDS = ("clusters", "predicted_clusters")


def read_jsonlines(path: str | os.PathLike[str], *, field: str | None = None) -> Corpus:
    """Read one side of a jsonlines file (plain or gzipped), one document a line.

    ``field`` names the clusters to read: ``"clusters"`` (the gold key) or
    ``"predicted_clusters"`` (a response). With ``None``, ``"clusters"`` is
    read if the first document has it, and ``"predicted_clusters"`` otherwise;
    every later line must then have the same field.

    Blank lines are skipped. Each mention's ``lines`` entry is its document's
    line number. When a line has ``sentences``, the document gets a
    ``Syntax`` with the flattened ``words`` and the
    ``sentence_starts``, and spans must lie within its tokens.
    """
    name = os.fspath(path)
    return _read(_file_lines(name), name, (field,))[0]


def read_jsonlines_pair(path: str | os.PathLike[str]) -> tuple[Corpus, Corpus]:
    """Read both sides of a file whose lines hold ``clusters`` and ``predicted_clusters``.

    Returns ``(key, response)``; the file is read once.
    """
    name = os.fspath(path)
    key, response = _read(_file_lines(name), name, FIELDS)
    return key, response


def read_jsonlines_text(text: str, *, source: str = "<string>", field: str | None = None) -> Corpus:
    """Parse jsonlines text; ``source`` names it in error messages, ``field`` as for
    ``read_jsonlines``."""
    lines = (line.encode("utf-8") for line in text.splitlines())
    return _read(lines, source, (field,))[0]


def _file_lines(name: str) -> Iterator[bytes]:
    # Line by line, so a large file is never held in memory as text.
    with open_binary(name) as handle:
        while True:
            try:
                line = handle.readline()
            except (OSError, EOFError, zlib.error) as exc:
                raise InputError(f"cannot read file ({exc})", path=name) from None
            if not line:
                return
            yield line


def _read(lines: Iterable[bytes], source: str, fields: tuple[str | None, ...]) -> list[Corpus]:
    for f in fields:
        if f is not None and f not in FIELDS:
            raise UsageError(f"unknown jsonlines field {f!r}; expected one of {', '.join(FIELDS)}")
    chosen = list(fields)
    documents: list[dict[str, Document]] = [{} for _ in fields]
    first_line: dict[str, int] = {}
    for lineno, raw in enumerate(lines, start=1):
        try:
            # A byte-order mark may open the file, and only the file.
            text = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}, column {exc.start + 1}); "
                "convert the file to UTF-8",
                path=source,
                line=lineno,
            ) from None
        if not text.strip():
            continue
        try:
            # Without the newline, so that an error's column is on this line.
            obj = json.loads(text.rstrip("\r\n"))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"invalid JSON: {exc.msg} (column {exc.colno})", path=source, line=lineno
            ) from None
        except RecursionError:
            raise InputError("invalid JSON: nested too deeply", path=source, line=lineno) from None
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            raise InputError(
                f"invalid JSON: {json_number_problem(exc)}", path=source, line=lineno
            ) from None
        if not isinstance(obj, dict):
            raise InputError(
                f"expected a JSON object per line, got {_kind(obj)}", path=source, line=lineno
            )
        doc_id = obj.get("doc_key")
        if not isinstance(doc_id, str) or not doc_id:
            what = (
                "missing" if doc_id is None else f"{clip(repr(doc_id))} is not a non-empty string"
            )
            raise InputError(f"'doc_key' {what}", path=source, line=lineno)
        if doc_id in first_line:
            raise InputError(
                f"duplicate doc_key {doc_id!r} (first on line {first_line[doc_id]})",
                path=source,
                line=lineno,
            )
        first_line[doc_id] = lineno
        for i, f in enumerate(chosen):
            if f is None:
                # Decided by the first document, so a file is read consistently.
                f = chosen[i] = "clusters" if "clusters" in obj else "predicted_clusters"
            if f not in obj:
                raise InputError(
                    f"document {doc_id!r} has no {f!r} field", path=source, line=lineno
                )
        syntax = _syntax(obj.get("sentences"), doc_id, source, lineno)
        n_tokens = len(syntax.words) if syntax is not None and syntax.words is not None else None
        for i, f in enumerate(chosen):
            assert f is not None
            documents[i][doc_id] = _document(obj[f], f, doc_id, syntax, n_tokens, source, lineno)
    if not first_line:
        # As for every other format: no document at all is an error, not an
        # empty corpus (which scored as 0/0 as a key, or converted to nothing).
        raise InputError("empty file", path=source, line=1)
    return [Corpus(documents=docs, source=source) for docs in documents]


def _syntax(value: Any, doc_id: str, source: str, lineno: int) -> Syntax | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise InputError(
            f"document {doc_id!r}: 'sentences' must be a list of token lists, got {_kind(value)}",
            path=source,
            line=lineno,
        )
    words: list[str] = []
    starts: list[int] = []
    for si, sentence in enumerate(value):
        if not isinstance(sentence, list) or not all(isinstance(t, str) for t in sentence):
            raise InputError(
                f"document {doc_id!r}: sentence {si} must be a list of string tokens",
                path=source,
                line=lineno,
            )
        starts.append(len(words))
        words.extend(sentence)
    return Syntax(words=tuple(words), sentence_starts=tuple(starts))


def _document(
    value: Any,
    field: str,
    doc_id: str,
    syntax: Syntax | None,
    n_tokens: int | None,
    source: str,
    lineno: int,
) -> Document:
    where = f"document {doc_id!r}: {field}"
    if not isinstance(value, list):
        raise InputError(
            f"{where} must be a list of clusters, got {_kind(value)}", path=source, line=lineno
        )
    entities: list[tuple[Span, ...]] = []
    labels: list[str] = []
    for ci, cluster in enumerate(value):
        if not isinstance(cluster, list):
            raise InputError(
                f"{where}: cluster {ci} must be a list of [start, end] spans, got {_kind(cluster)}",
                path=source,
                line=lineno,
            )
        spans: list[Span] = []
        for span in cluster:
            if (
                not isinstance(span, list)
                or len(span) != 2
                or not all(type(v) is int for v in span)
            ):
                raise InputError(
                    f"{where}: cluster {ci} has {clip(json.dumps(span))}, "
                    "not a [start, end] pair of integers",
                    path=source,
                    line=lineno,
                )
            start, end = span
            if start < 0 or end < start:
                raise InputError(
                    f"{where}: cluster {ci} has invalid span [{start}, {end}]; "
                    "need 0 <= start <= end (ends are inclusive)",
                    path=source,
                    line=lineno,
                )
            if n_tokens is not None and end >= n_tokens:
                raise InputError(
                    f"{where}: cluster {ci} has span [{start}, {end}] beyond the "
                    f"document's {n_tokens} tokens",
                    path=source,
                    line=lineno,
                )
            spans.append((start, end))
        # An empty cluster is no entity; its index stays the others' label.
        if spans:
            entities.append(tuple(spans))
            labels.append(str(ci))
    return Document(
        doc_id=doc_id,
        entities=tuple(entities),
        labels=tuple(labels),
        lines=tuple((lineno,) * len(e) for e in entities),
        source=source,
        syntax=syntax,
        token_count=len(syntax.words) if syntax is not None and syntax.words is not None else None,
    )


def json_number_problem(exc: ValueError) -> str:
    """What the JSON decoder's non-syntax error means, without Python's advice."""
    text = str(exc)
    if "integer string conversion" in text:
        return "an integer has too many digits (more than 4300)"
    return text


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def write_jsonlines(
    corpus: Corpus,
    path_or_stream: str | os.PathLike[str] | IO[str],
    *,
    field: str = "clusters",
    key_corpus: Corpus | None = None,
) -> None:
    """Write ``corpus`` as jsonlines, one document a line, in corpus order.

    Each line has ``doc_key``, ``sentences`` (rebuilt from the document's
    ``syntax.words`` split at ``sentence_starts``, and left out when the
    document has no words) and ``field`` with its entities as lists of
    ``[start, end]`` spans. Per-mention facts (heads, MIN spans, levels) and
    entity labels and types have no place in the format and are not written.

    With ``key_corpus``, ``corpus`` is the response: each line holds
    ``clusters`` from the key and ``predicted_clusters`` from ``corpus`` (and
    ``field`` is not used). Lines follow the key's documents; a key document the
    response lacks gets empty ``predicted_clusters``, and a response document
    the key lacks is an error (the line could not be read back as a key).

    A path ending in ``.gz`` is written gzipped.
    """
    if field not in FIELDS:
        raise UsageError(f"unknown jsonlines field {field!r}; expected one of {', '.join(FIELDS)}")
    if key_corpus is not None:
        extra = [d for d in corpus.documents if d not in key_corpus.documents]
        if extra:
            raise InputError(
                f"{len(extra)} response document(s) not in the key, e.g. {extra[0]!r}: "
                "a jsonlines line needs both sides"
            )
    with open_text_output(path_or_stream) as handle:
        _write(corpus, handle, field, key_corpus)


def _write(corpus: Corpus, out: IO[str], field: str, key_corpus: Corpus | None) -> None:
    if key_corpus is None:
        for doc in corpus:
            obj = _header(doc)
            obj[field] = _clusters(doc, obj)
            out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        return
    for key in key_corpus:
        response = corpus.documents.get(key.doc_id)
        obj = _header(key)
        if "sentences" not in obj and response is not None:
            obj = _header(response)
        obj["clusters"] = _clusters(key, obj)
        obj["predicted_clusters"] = _clusters(response, obj) if response is not None else []
        out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _header(doc: Document) -> dict[str, Any]:
    obj: dict[str, Any] = {"doc_key": doc.doc_id}
    syntax = doc.syntax
    if syntax is not None and syntax.words is not None:
        words = list(syntax.words)
        starts = list(syntax.sentence_starts)
        # Kept as given when they describe a split (this keeps empty sentences).
        if not starts or starts[0] != 0 or any(b < a for a, b in pairwise(starts)):
            starts = [0, *sorted({s for s in starts if 0 < s < len(words)})]
        if not words and starts == [0]:
            starts = []
        bounds = [*(s for s in starts if s <= len(words)), len(words)]
        obj["sentences"] = [words[a:b] for a, b in pairwise(bounds)]
    return obj


def _clusters(doc: Document, header: dict[str, Any]) -> list[list[list[int]]]:
    if "sentences" in header:
        n_tokens = sum(len(s) for s in header["sentences"])
        last = max((end for entity in doc.entities for _, end in entity), default=-1)
        if last >= n_tokens:
            raise InputError(
                f"document {doc.doc_id!r} has a mention ending at token {last} "
                f"but only {n_tokens} words",
                path=doc.source,
            )
    return [[[start, end] for start, end in entity] for entity in doc.entities]
