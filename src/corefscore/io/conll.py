"""Reader for CoNLL-2011/2012 and SemEval-2010-style coreference files.

Layout rules follow the official reference scorer (``spec/reference-scorer.md``
§2) except where ``docs/compatibility.md`` says otherwise:

* a document runs from ``#begin document ID`` to ``#end document``; a missing
  ``#end document`` at the end of the file is tolerated (with a warning);
* token positions count the non-blank lines of a document; lines starting with
  ``#`` are comments and are not tokens;
* the coreference field is the last tab-separated column, or the last
  whitespace-separated one when the line has no tab; ``-``, ``_`` and an empty
  field mean "no mention";
* items are ``(12``, ``12)`` and ``(12)``, joined by ``|`` or run together.
"""

from __future__ import annotations

import os
import re
from itertools import repeat

import numpy as np

from ..errors import InputError
from ..model import Corpus, Document, Span
from .files import read_text

_BEGIN = re.compile(r"#\s*begin document\b(.*)$")
_END = re.compile(r"#\s*end document")
# Split antecedents first, so that "(1+2)" is not read as an opening "(1".
_ITEM = re.compile(r"\((\d+)\+(\d+)\)|\((\d+)\)|\((\d+)(?!\d)|(\d+)\)|\|")


_Parsed = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
# Coreference fields repeat a lot ("(12)", "(3", "3)"): parse each once.
_FIELD_CACHE: dict[str, _Parsed] = {}


def _parse_field(field: str, source: str, lineno: int) -> _Parsed:
    singles: list[str] = []
    opens: list[str] = []
    closes: list[str] = []
    skipped: list[str] = []
    pos = 0
    for m in _ITEM.finditer(field):
        if m.start() != pos:
            break
        pos = m.end()
        if m.group(3) is not None:
            singles.append(m.group(3))
        elif m.group(4) is not None:
            opens.append(m.group(4))
        elif m.group(5) is not None:
            closes.append(m.group(5))
        elif m.group(1) is not None:
            if len(m.group(2)) != 1:
                raise InputError(
                    f"split-antecedent item {m.group(0)!r} is not supported "
                    "(only the '(N+D)' form with one digit after '+' is skipped, "
                    "as by the reference scorer)",
                    path=source,
                    line=lineno,
                )
            skipped.append(m.group(0))
    if pos != len(field):
        raise InputError(
            f"bad coreference field {field!r}: expected '-', '_' or items like "
            "'(12', '12)', '(12)' joined by '|' (entity ids are non-negative integers)",
            path=source,
            line=lineno,
        )
    return tuple(singles), tuple(opens), tuple(closes), tuple(skipped)


def read_conll(path: str | os.PathLike[str]) -> Corpus:
    """Read a CoNLL-2012 / SemEval-2010 coreference file (plain or gzipped)."""
    name = os.fspath(path)
    return read_conll_text(read_text(name), source=name)


class _DocumentBuilder:
    """Collects the mentions of one document while its lines are read."""

    __slots__ = (
        "all_tab",
        "begin_line",
        "doc_id",
        "entities",
        "index",
        "lines",
        "open",
        "pending",
        "source",
        "warnings",
    )

    def __init__(self, doc_id: str, begin_line: int, source: str, warnings: list[str]):
        self.doc_id = doc_id
        self.begin_line = begin_line
        self.source = source
        self.warnings = warnings
        self.entities: list[list[Span]] = []
        self.lines: list[list[int]] = []
        self.index: dict[str, int] = {}
        self.open: dict[str, list[tuple[int, int]]] = {}
        # Lines whose last tab field is empty: coreference-free, unless every
        # line of the document ends with a tab (a trailing-tab file).
        self.pending: list[tuple[int, int, str]] = []
        self.all_tab = True

    def entity(self, label: str) -> int:
        idx = self.index.get(label)
        if idx is None:
            idx = self.index[label] = len(self.entities)
            self.entities.append([])
            self.lines.append([])
        return idx

    def add_field(self, field: str, token: int, lineno: int) -> None:
        parsed = _FIELD_CACHE.get(field)
        if parsed is None:
            parsed = _parse_field(field, self.source, lineno)
            if len(_FIELD_CACHE) < 100_000:
                _FIELD_CACHE[field] = parsed
        singles, opens, closes, skipped = parsed
        if skipped:
            for item in skipped:
                self.warnings.append(
                    f"{self.source}:{lineno}: skipped split-antecedent item {item!r}"
                )
        # Same order as the reference scorer's passes (single-token mentions,
        # then openings, then closings): it fixes entity and mention order.
        for label in singles:
            idx = self.entity(label)
            self.entities[idx].append((token, token))
            self.lines[idx].append(lineno)
        for label in opens:
            self.entity(label)
            self.open.setdefault(label, []).append((token, lineno))
        for label in closes:
            idx = self.entity(label)
            stack = self.open.get(label)
            if not stack:
                raise InputError(
                    f"closing bracket '{label})' without an opening '({label}' "
                    f"in document {self.doc_id!r}",
                    path=self.source,
                    line=lineno,
                )
            start, _ = stack.pop()
            self.entities[idx].append((start, token))
            self.lines[idx].append(lineno)

    def finish(self) -> Document:
        if self.all_tab:
            for token, lineno, line in self.pending:
                field = line.rstrip().rpartition("\t")[2].strip()
                if field and field != "-" and field != "_":
                    self.add_field(field, token, lineno)
        unclosed = [(ln, tok, label) for label, st in self.open.items() for tok, ln in st]
        if unclosed:
            lineno, token, label = min(unclosed)
            raise InputError(
                f"mention '({label}' opened here (token {token}) is never closed "
                f"in document {self.doc_id!r}",
                path=self.source,
                line=lineno,
            )
        keep = [i for i, ent in enumerate(self.entities) if ent]
        labels = {idx: label for label, idx in self.index.items()}
        return Document(
            doc_id=self.doc_id,
            entities=tuple(tuple(self.entities[i]) for i in keep),
            labels=tuple(labels[i] for i in keep),
            lines=tuple(tuple(self.lines[i]) for i in keep),
            source=self.source,
        )


def _fast_token_lines(text: str, lines: list[str]) -> np.ndarray:
    """Mark the lines that are surely tokens without a mention (last field ``-``).

    They are the vast majority, so they are found with C-level ``map`` calls
    and never visited by the Python loop.
    """
    n = len(lines)
    if "\t" in text:
        fast = np.fromiter(map(str.endswith, lines, repeat("\t-")), dtype=bool, count=n)
    else:
        fast = np.fromiter(map(str.endswith, lines, repeat(" -")), dtype=bool, count=n)
    if "#" in text:
        fast &= ~np.fromiter(map(str.startswith, lines, repeat("#")), dtype=bool, count=n)
    return fast


def read_conll_text(text: str, *, source: str = "<string>") -> Corpus:
    """Parse CoNLL text; ``source`` names the file in error messages."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    fast = _fast_token_lines(text, lines)
    warnings: list[str] = []
    documents: dict[str, Document] = {}
    first_seen: dict[str, int] = {}
    ranges: list[tuple[int, int]] = []
    doc: _DocumentBuilder | None = None
    begin = 0  # line index of the current document's '#begin document'
    skipped = 0  # blank and comment lines of the current document so far
    slow_tokens = 0  # token lines of the current document seen by the loop below

    def close(builder: _DocumentBuilder, end: int) -> None:
        ntok = end - begin - 1 - skipped
        if slow_tokens < ntok:
            builder.all_tab = False  # some line ended in a '-' field
        ranges.append((begin, end))
        if builder.doc_id in first_seen:
            raise InputError(
                f"document id {builder.doc_id!r} appears twice in this file "
                f"(first at line {first_seen[builder.doc_id]})",
                path=source,
                line=builder.begin_line,
            )
        first_seen[builder.doc_id] = builder.begin_line
        documents[builder.doc_id] = builder.finish()

    for i in np.flatnonzero(~fast).tolist():
        line = lines[i]
        lineno = i + 1
        if doc is not None:
            if line[:1] == "#":
                skipped += 1
                if _END.search(line):
                    close(doc, i)
                    doc = None
                elif _BEGIN.match(line):
                    raise InputError(
                        f"'#begin document' inside document {doc.doc_id!r} "
                        f"(begun at line {doc.begin_line}): missing '#end document'",
                        path=source,
                        line=lineno,
                    )
                continue  # a comment line, not a token
            if not line or line.isspace():
                skipped += 1
                continue
            token = i - begin - 1 - skipped
            slow_tokens += 1
            if "\t" in line:
                if not line.endswith("\t"):
                    doc.all_tab = False
                field = line[line.rfind("\t") + 1 :].strip()
                if not field:
                    doc.pending.append((token, lineno, line))
                    continue
            else:
                doc.all_tab = False
                field = line.rsplit(None, 1)[-1]
            if field == "-" or field == "_":
                continue
            doc.add_field(field, token, lineno)
            continue
        if not line or line.isspace():
            continue
        if line[:1] == "#":
            match = _BEGIN.match(line)
            if match:
                doc = _DocumentBuilder(match.group(1).strip(), lineno, source, warnings)
                begin, skipped, slow_tokens = i, 0, 0
                continue
            if _END.search(line):
                raise InputError(
                    "'#end document' without '#begin document'", path=source, line=lineno
                )
            continue
        _outside_document(source, lineno, bool(documents))
    if doc is not None:
        warnings.append(
            f"{source}: document {doc.doc_id!r} has no '#end document'; "
            "read to the end of the file"
        )
        close(doc, len(lines))
    if not documents:
        raise InputError(
            "not a CoNLL coreference file: no '#begin document' line"
            if text.strip()
            else "empty file",
            path=source,
            line=1,
        )
    _check_fast_lines_inside(fast, ranges, source)
    return Corpus(documents=documents, source=source, warnings=tuple(warnings))


def _outside_document(source: str, lineno: int, after_document: bool) -> None:
    if after_document:
        raise InputError(
            "token line outside a document (after '#end document', before the next "
            "'#begin document')",
            path=source,
            line=lineno,
        )
    raise InputError(
        "not a CoNLL coreference file: expected a '#begin document' line first",
        path=source,
        line=lineno,
    )


def _check_fast_lines_inside(fast: np.ndarray, ranges: list[tuple[int, int]], source: str) -> None:
    inside = np.zeros(len(fast) + 1, dtype=np.int64)
    for b, e in ranges:
        inside[b] += 1
        inside[e + 1] -= 1
    outside = fast & (np.cumsum(inside)[:-1] == 0)
    if outside.any():
        first = int(np.flatnonzero(outside)[0])
        _outside_document(source, first + 1, any(e < first for _, e in ranges))
