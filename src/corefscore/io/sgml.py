"""Reader for MUC-6/7 coreference SGML.

The markup (MUC-6 coreference task definition v2.3, MUC-7 v3.0) wraps each
markable in ``<COREF ID="12" TYPE="IDENT" REF="10" MIN="president"
STATUS="OPT">...</COREF>``; elements nest. Rules of this reader:

* Documents run from ``<DOC>`` to ``</DOC>``; the id is the text of
  ``<DOCNO>``. A file without any ``<DOC>`` is one document named after the
  file stem. A ``<DOC>`` without ``<DOCNO>`` is named ``STEM:K`` (K counts the
  file's documents from 1), with a warning.
* Tokens: COREF tags are removed (they are what differs between a key and a
  response), every other tag becomes a space, the ``DOCNO`` text is not part of
  the document, and the remaining text is split by the regular expression
  ``\\w+(?:[-.]\\w+)*|'\\w*|[^\\w\\s]``: runs of word characters joined by
  inner hyphens or dots (``ex-chairman``, ``U.S``), a quote with the word
  characters after it (``'s``, so that ``IBM's`` gives ``IBM`` ``'s``), or
  one other non-space character. Character entities (``&amp;``) are left as
  written. Key and response files of MUC are the same text with different
  markup, so both sides get the same tokens.
* A mention covers every token that overlaps the element's text; an element
  whose text has no token is an error.
* Entities are the connected components of the ID--REF links (REF names an
  earlier element of the same chain; an element without REF starts one). An
  entity is labelled with the ID of its first element in document order.
* ``MIN`` is tokenised by the same rule and becomes the first occurrence of
  its token sequence inside the mention's tokens (``Document.min_spans``).
* ``STATUS="OPT"`` sets ``Document.optional`` for the mention.

Attribute values may be quoted with ``"`` or ``'`` or unquoted; a ``>``
inside a quoted value is not supported. Input must be UTF-8 (gzip is read
transparently); it is read line by line, one document at a time.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from pathlib import PurePath

from .._record import field, record
from ..errors import InputError
from ..model import Corpus, Document, Span, Syntax
from .files import open_binary

TOKEN = re.compile(r"\w+(?:[-.]\w+)*|'\w*|[^\w\s]")
# A "<" followed by one of these starts markup; any other "<" is text.
_TAG_START = re.compile(r"<[/!A-Za-z]")
_TAG = re.compile(r"<(/?)([A-Za-z][\w.:-]*)([^<>]*)>")
_DECLARATION = re.compile(r"<!--.*?-->|<![^<>]*>", re.DOTALL)
_ATTRIBUTE = re.compile(r"\s*([A-Za-z][\w.:-]*)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+))")
_SELF_CLOSE = re.compile(r"\s*/?\s*")


@record()
class _Element:
    id: str
    ref: str | None
    min: str | None
    optional: bool
    line: int
    start: int  # character offset in the document text
    end: int = -1


@record()
class _DocBuilder:
    line: int
    pieces: list[str] = field(default_factory=list)
    length: int = 0
    elements: list[_Element] = field(default_factory=list)
    stack: list[_Element] = field(default_factory=list)
    docno: list[str] | None = None  # collecting DOCNO text while not None
    doc_id: str | None = None

    def text(self, value: str) -> None:
        if self.docno is not None:
            self.docno.append(value)
        else:
            self.pieces.append(value)
            self.length += len(value)


def read_muc_sgml(path: str | os.PathLike[str]) -> Corpus:
    """Read a MUC-6/7 coreference SGML file (gzip detected by magic bytes)."""
    name = os.fspath(path)
    with open_binary(name) as handle:
        return _read(_decoded_lines(handle, name), name, PurePath(name).name.split(".")[0])


def read_muc_sgml_text(text: str, *, source: str = "<string>") -> Corpus:
    """Read MUC SGML from a string; ``source`` names it in messages and ids."""
    stem = PurePath(source).name.split(".")[0] if source != "<string>" else "document"
    return _read(text.splitlines(keepends=True), source, stem)


def _decoded_lines(handle: Iterable[bytes], source: str) -> Iterator[str]:
    for lineno, raw in enumerate(handle, 1):
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if b"\x00" in raw:
            raise InputError("binary data (NUL byte); not a text file", path=source, line=lineno)
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); convert the file to UTF-8",
                path=source,
                line=lineno,
            ) from None


class _Reader:
    def __init__(self, source: str, stem: str) -> None:
        self.source = source
        self.stem = stem
        self.documents: dict[str, Document] = {}
        self.warnings: list[str] = []
        self.seen_doc = False
        self.in_doc = False
        self.count = 0
        # Text before the first <DOC> is the document of a file without DOCs.
        self.doc = _DocBuilder(line=1)

    def error(self, message: str, line: int) -> InputError:
        return InputError(message, path=self.source, line=line)

    def feed(self, buffer: str, line: int) -> tuple[str, int]:
        """Handle ``buffer`` (starting at ``line``); return an unfinished tag to carry."""
        pos = 0
        while True:
            match = _TAG_START.search(buffer, pos)
            if match is None:
                self.text(buffer[pos:])
                return "", line
            start = match.start()
            self.text(buffer[pos:start])
            line += buffer.count("\n", pos, start)
            pos = start
            if buffer.startswith("<!", start):
                decl = _DECLARATION.match(buffer, start)
                if decl is None:
                    return buffer[start:], line
                line += decl.group(0).count("\n")
                pos = decl.end()
                continue
            tag = _TAG.match(buffer, start)
            if tag is None:
                if buffer.find(">", start) < 0:
                    return buffer[start:], line
                # A "<" that does not open well-formed markup is text.
                self.text("<")
                pos = start + 1
                continue
            self.tag(tag.group(1) == "/", tag.group(2).upper(), tag.group(3), line)
            line += tag.group(0).count("\n")
            pos = tag.end()

    def text(self, value: str) -> None:
        if not value:
            return
        if self.in_doc or not self.seen_doc:
            self.doc.text(value)

    def tag(self, closing: bool, name: str, attributes: str, line: int) -> None:
        if name == "DOC":
            if closing:
                self.end_doc(line)
            else:
                self.start_doc(line)
        elif name == "DOCNO" and (self.in_doc or not self.seen_doc):
            if closing:
                if self.doc.docno is None:
                    raise self.error("</DOCNO> without <DOCNO>", line)
                self.doc.doc_id = " ".join("".join(self.doc.docno).split())
                self.doc.docno = None
            else:
                self.doc.docno = []
        elif name == "COREF":
            if self.seen_doc and not self.in_doc:
                raise self.error("COREF element outside <DOC> ... </DOC>", line)
            if self.doc.docno is not None:
                raise self.error("COREF element inside <DOCNO>", line)
            if closing:
                self.close_coref(attributes, line)
            else:
                self.open_coref(attributes, line)
        else:
            # Structural tags separate words; COREF tags do not, since they
            # are what differs between a key and a response.
            self.text(" ")

    def start_doc(self, line: int) -> None:
        if self.in_doc:
            raise self.error(f"<DOC> inside the document opened on line {self.doc.line}", line)
        if not self.seen_doc and self.doc.elements:
            first = self.doc.elements[0].line
            raise self.error("COREF element before the first <DOC>", first)
        self.seen_doc = self.in_doc = True
        self.doc = _DocBuilder(line=line)

    def end_doc(self, line: int) -> None:
        if not self.in_doc:
            raise self.error("</DOC> without <DOC>", line)
        self.in_doc = False
        self.finish(line)

    def open_coref(self, attributes: str, line: int) -> None:
        values: dict[str, str] = {}
        pos = 0
        for attr in _ATTRIBUTE.finditer(attributes):
            if attr.start() != pos:
                break
            value = next(v for v in attr.group(2, 3, 4) if v is not None)
            values[attr.group(1).upper()] = value
            pos = attr.end()
        rest = attributes[pos:]
        if _SELF_CLOSE.fullmatch(rest) is None:
            raise self.error(f"malformed COREF attributes {rest.strip()!r}", line)
        if "/" in rest:
            raise self.error("empty COREF element (<COREF .../>) has no tokens", line)
        if not values.get("ID"):
            raise self.error("COREF element without ID", line)
        element = _Element(
            id=values["ID"],
            ref=values.get("REF") or None,
            min=values.get("MIN"),
            optional=values.get("STATUS", "").upper() == "OPT",
            line=line,
            start=self.doc.length,
        )
        self.doc.elements.append(element)
        self.doc.stack.append(element)

    def close_coref(self, attributes: str, line: int) -> None:
        if attributes.strip():
            raise self.error("end tag </COREF> with attributes", line)
        if not self.doc.stack:
            raise self.error("</COREF> without an open <COREF>", line)
        self.doc.stack.pop().end = self.doc.length

    def finish(self, line: int) -> None:
        doc = self.doc
        if doc.stack:
            element = doc.stack[-1]
            raise self.error(
                f"COREF ID={element.id!r} is not closed (before the end of the document "
                f"on line {line})",
                element.line,
            )
        if doc.docno is not None:
            raise self.error("<DOCNO> is not closed", line)
        self.count += 1
        if doc.doc_id:
            doc_id = doc.doc_id
        elif self.seen_doc:
            doc_id = f"{self.stem}:{self.count}"
            self.warnings.append(
                f"{self.source}:{doc.line}: <DOC> without <DOCNO>; named {doc_id!r}"
            )
        else:
            doc_id = self.stem
        if doc_id in self.documents:
            raise self.error(f"document {doc_id!r} appears twice", doc.line)
        self.documents[doc_id] = _build(doc, doc_id, self.source)

    def end(self, carry: str, line: int, last_line: int) -> Corpus:
        if carry:
            raise self.error("unterminated tag", line)
        if self.in_doc:
            raise self.error("<DOC> is not closed", self.doc.line)
        if not self.seen_doc:
            if not self.doc.elements:
                # Without any markup the file is not MUC SGML (e.g. a CoNLL file
                # given with --key-format sgml): reading it as one document with
                # no mention would score silently as all missed.
                empty = not "".join(self.doc.pieces).strip()
                raise self.error(
                    "empty file"
                    if empty and last_line == 1
                    else "not MUC SGML: no <DOC> or <COREF> element in the file",
                    1,
                )
            self.finish(last_line)
        return Corpus(documents=self.documents, source=self.source, warnings=tuple(self.warnings))


def _read(lines: Iterable[str], source: str, stem: str) -> Corpus:
    reader = _Reader(source, stem)
    carry, carry_line = "", 1
    lineno = 0
    for lineno, text in enumerate(lines, 1):
        if carry:
            carry, carry_line = reader.feed(carry + text, carry_line)
        else:
            carry, carry_line = reader.feed(text, lineno)
    return reader.end(carry, carry_line, max(lineno, 1))


def _build(doc: _DocBuilder, doc_id: str, source: str) -> Document:
    text = "".join(doc.pieces)
    matches = list(TOKEN.finditer(text))
    words = tuple(m.group(0) for m in matches)
    starts = [m.start() for m in matches]
    ends = [m.end() for m in matches]

    def error(message: str, line: int) -> InputError:
        return InputError(message, path=source, line=line)

    index: dict[str, int] = {}
    for k, element in enumerate(doc.elements):
        if element.id in index:
            first = doc.elements[index[element.id]].line
            raise error(f"duplicate COREF ID={element.id!r} (first on line {first})", element.line)
        index[element.id] = k

    # Union-find over elements; the root is the smallest (earliest) element.
    parent = list(range(len(doc.elements)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for k, element in enumerate(doc.elements):
        if element.ref is None:
            continue
        target = index.get(element.ref)
        if target is None:
            raise error(f"REF={element.ref!r} names no COREF ID of this document", element.line)
        a, b = root(k), root(target)
        if a != b:
            parent[max(a, b)] = min(a, b)

    spans: list[Span] = []
    mins: list[Span | None] = []
    for element in doc.elements:
        first = bisect_right(ends, element.start)
        last = bisect_left(starts, element.end) - 1
        if first > last:
            raise error(f"COREF ID={element.id!r} contains no token", element.line)
        spans.append((first, last))
        mins.append(None if element.min is None else _min_span(element, words, first, last, source))

    groups: dict[int, list[int]] = {}
    for k in range(len(doc.elements)):
        groups.setdefault(root(k), []).append(k)
    members = list(groups.values())  # roots are first elements: document order
    has_min = any(m is not None for m in mins)
    has_opt = any(e.optional for e in doc.elements)
    return Document(
        doc_id=doc_id,
        entities=tuple(tuple(spans[k] for k in g) for g in members),
        labels=tuple(doc.elements[g[0]].id for g in members),
        lines=tuple(tuple(doc.elements[k].line for k in g) for g in members),
        source=source,
        min_spans=tuple(tuple(mins[k] for k in g) for g in members) if has_min else (),
        optional=(
            tuple(tuple(doc.elements[k].optional for k in g) for g in members) if has_opt else ()
        ),
        syntax=Syntax(words=words),
        token_count=len(words),
    )


def _min_span(
    element: _Element, words: tuple[str, ...], first: int, last: int, source: str
) -> Span:
    wanted = tuple(TOKEN.findall(element.min or ""))
    n = len(wanted)
    if n:
        for s in range(first, last - n + 2):
            if words[s : s + n] == wanted:
                return (s, s + n - 1)
    mention = " ".join(words[first : last + 1])
    raise InputError(
        f"MIN={element.min!r} of COREF ID={element.id!r} is not in its text {mention!r}",
        path=source,
        line=element.line,
    )
