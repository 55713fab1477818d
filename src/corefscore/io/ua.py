"""Reader for Universal Anaphora (UA) CoNLL-U Plus files (CODI-CRAC, the UA scorer).

Layout (the "exploded" UA format read by the UA scorer, juntaoy/universal-anaphora-scorer):

* ``# global.columns = ID FORM ... IDENTITY BRIDGING DISCOURSE_DEIXIS ...``
  names the columns; the ones read here are found by name (FORM, IDENTITY,
  BRIDGING, DISCOURSE_DEIXIS). Without that line the UA scorer's fixed 0-based
  positions are used: FORM 1, IDENTITY 10, BRIDGING 11, DISCOURSE_DEIXIS 12.
* ``# newdoc id = NAME`` starts a document; other ``#`` lines and blank lines
  (sentence breaks) carry no coreference. A token line is split on tabs when
  it has one, else on runs of white space (the UA scorer's own test files
  are space-separated).
* Tokens: every token line of a document, counted from 0 in file order
  (multiword-token and empty-node lines included, as the UA scorer counts
  them); ``Min=`` positions are 1-based positions in that count.
* A markable cell (IDENTITY, or DISCOURSE_DEIXIS for ``layer="discourse_deixis"``)
  is ``_`` or: closers (``)``, each closing the most recently opened
  still-open markable), then openers, each ``(`` followed by ``|``-separated
  ``Name=value`` attributes; an opener ending in ``)`` is a one-token
  markable, and any further ``)`` after it close open markables. Attributes
  read: ``MarkableID`` and ``EntityID`` (required), ``Min``, ``ElementOf``. An
  EntityID ending in ``-Pseudo`` is a non-referring markable. A MarkableID
  opened again in its document is a discontinuous markable: one mention whose
  ``pieces`` are its parts, its attributes those of its first part.
* A BRIDGING cell (identity layer only) holds ``(MarkableID=a|MentionAnchor=b...)``
  items: markable ``a`` is a bridging anaphor with antecedent markable ``b``.

The ``Document`` gets ``entities`` (referring entities only), ``labels`` (the
EntityIDs), ``lines``, ``min_spans``, ``pieces``, ``split_antecedents`` (from
``ElementOf``), ``non_referring``, ``bridging``, ``token_count`` and
``forms_digest``. ``annotations`` keeps what a writer needs to write the file
back, under these keys:

* ``"ua_layer"``: the layer read (``"identity"`` or ``"discourse_deixis"``);
* ``"ua_columns"``: the names of ``# global.columns`` (``None`` without it);
* ``"ua_markables"``: parallel to ``entities``, one ``UAMarkable`` per
  mention (its MarkableID, EntityID, ElementOf names, Min, raw other
  attributes such as ``SemType=dn``, pieces, line);
* ``"ua_non_referring"``: parallel to ``non_referring``, their ``UAMarkable``;
* ``"ua_bridging"``: parallel to ``bridging``, one ``UABridge`` per pair (the
  two MarkableIDs and the raw other attributes, e.g. ``Rel=poss``).

Token columns other than FORM (and REFERENCE, NOM_SEM and the layer not read)
are not kept; with ``syntax=True`` the forms and sentence breaks are kept as
``Document.syntax``.

Where the UA scorer v1 would crash, loop or silently read something else,
this reader is explicit: token lines before the first ``# newdoc`` of a file
that has one, a closer with nothing open, a markable never closed and an
ElementOf cycle are errors; ``(...))``, ``Min=a-b`` and a repeated MarkableID
are read as the UA guidelines mean them; an ElementOf naming no entity and a
bridging pair naming no markable are warnings (``docs/formats.md``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import Any

from .._record import NamedTuple
from ..errors import InputError, UsageError, shown
from ..model import Corpus, Document, Span, SplitAntecedent, Syntax
from .conll import FormsDigest, iter_blocks
from .files import NEWDOC, first_sight, newdoc_id, opening_block

#: The layers a UA file can be read for (``read_ua(..., layer=...)``).
LAYERS = ("identity", "discourse_deixis")

#: The UA scorer's column positions (0-based), used when a file has no
#: ``# global.columns`` line.
DEFAULT_COLUMNS = {"FORM": 1, "IDENTITY": 10, "BRIDGING": 11, "DISCOURSE_DEIXIS": 12}

_COLUMNS = re.compile(r"#\s*global\.columns\s*=\s*(.*?)\s*$")
_PSEUDO = "-Pseudo"
# Min=N or Min=N,M; N-M too, which the UA scorer v1 cannot read.
_MIN = re.compile(r"([0-9]+)(?:[,-]([0-9]+))?", re.ASCII)


class UAMarkable(NamedTuple):
    """One markable as written, for a writer (``Document.annotations``)."""

    markable_id: str
    entity_id: str
    #: The entities this markable's entity is an element of (``ElementOf``).
    element_of: tuple[str, ...]
    #: The MIN span (0-based, inclusive), from ``Min=``.
    min: Span | None
    #: The opening's other attribute items, as written (``"SemType=dn"``).
    attributes: tuple[str, ...]
    #: The contiguous parts of a discontinuous markable, else ``None``.
    pieces: tuple[Span, ...] | None
    #: The line of its (first) opening.
    line: int


class UABridge(NamedTuple):
    """One bridging pair as written, for a writer (``Document.annotations``)."""

    anaphor: str
    anchor: str
    #: The item's other attribute items, as written (``"Rel=poss"``).
    attributes: tuple[str, ...]
    line: int


def read_ua(
    path: str | os.PathLike[str], *, layer: str = "identity", syntax: bool = False
) -> Corpus:
    """Read a Universal Anaphora CoNLL-U Plus file (plain or gzipped).

    ``layer`` chooses the markables: ``"identity"`` (the IDENTITY column, with
    BRIDGING) or ``"discourse_deixis"`` (the DISCOURSE_DEIXIS column, read with
    the same rules; IDENTITY and BRIDGING are then not read). ``syntax=True``
    keeps the forms and sentence breaks as ``Document.syntax``.
    """
    name = os.fspath(path)
    reader = _Reader(name, _check_layer(layer), syntax)
    reader.lines(_file_lines(name))
    return reader.corpus()


def read_ua_text(
    text: str, *, source: str = "<string>", layer: str = "identity", syntax: bool = False
) -> Corpus:
    """Parse UA text; ``source`` names it in messages, the rest as for ``read_ua``."""
    reader = _Reader(source, _check_layer(layer), syntax)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the end of the last line, not a line
    reader.lines([line.rstrip("\r") for line in lines])
    return reader.corpus()


def _check_layer(layer: str) -> str:
    if layer not in LAYERS:
        raise UsageError(f"unknown layer {layer!r}; choose one of {', '.join(LAYERS)}")
    return layer


def _file_lines(path: str) -> Iterator[str]:
    """The file's lines (without line ends), checked to be UTF-8."""
    before = 0  # lines in the blocks already handed out
    first = True
    for block in iter_blocks(path):
        if first:
            first = False
            block = opening_block(block, path)
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = before + block.count(b"\n", 0, exc.start) + 1
            raise InputError(
                f"not valid UTF-8 (byte 0x{block[exc.start]:02x}); convert the file to UTF-8",
                path=path,
                line=line,
            ) from None
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        before += len(lines)
        if "\r" in text:
            lines = [line.rstrip("\r") for line in lines]
        yield from lines


class _Markable:
    """A markable being read: its parts so far and its opening's attributes."""

    __slots__ = (
        "attributes",
        "element_of",
        "entity_id",
        "is_open",
        "line",
        "markable_id",
        "min",
        "parts",
    )

    def __init__(self, markable_id: str, entity_id: str, line: int, attributes: tuple[str, ...]):
        self.markable_id = markable_id
        self.entity_id = entity_id
        self.line = line
        self.attributes = attributes
        self.parts: list[Span] = []
        self.is_open = False  # a part of it is open (on the stack)
        self.min: tuple[str, int] | None = None  # (raw Min value, its line)
        self.element_of: tuple[str, ...] = ()


class _Document:
    """One document being read: its markables, open brackets, bridging items, words."""

    def __init__(self, doc_id: str, line: int, implicit: bool):
        self.doc_id = doc_id
        self.line = line
        self.implicit = implicit  # started by a token line, without '# newdoc'
        #: Each token's FORM, in order (so also the token count).
        self.words: list[str] = []
        self.has_forms = True
        self.markables: dict[str, _Markable] = {}
        # Open multi-token parts, innermost last: (markable, first token, line).
        self.stack: list[tuple[_Markable, int, int]] = []
        self.bridges: dict[str, UABridge] = {}
        self.sentence_starts: list[int] = []
        self.token_lines: list[int] = []
        self.in_sentence = False


class _Reader:
    """The state of one reading: the columns in force, documents so far, the current one."""

    def __init__(self, source: str, layer: str, syntax: bool):
        self.source = source
        self.layer = layer
        self.syntax = syntax
        self.warnings: list[str] = []
        self.documents: dict[str, Document] = {}
        self.first_seen: dict[str, int] = {}
        self.doc: _Document | None = None
        self.lineno = 0
        self.column_names: tuple[str, ...] | None = None
        self.set_columns(DEFAULT_COLUMNS, 0)

    def error(self, message: str, line: int) -> InputError:
        return InputError(message, path=self.source, line=line)

    def set_columns(self, positions: dict[str, int], lineno: int) -> None:
        markables = "IDENTITY" if self.layer == "identity" else "DISCOURSE_DEIXIS"
        if markables not in positions:
            raise self.error(
                f"'# global.columns' names no {markables} column, which the "
                f"{self.layer} layer is read from",
                lineno,
            )
        self.markable_column = positions[markables]
        self.markable_name = markables
        bridging = positions.get("BRIDGING") if self.layer == "identity" else None
        self.bridging_column = -1 if bridging is None else bridging
        form = positions.get("FORM")
        self.forms_present = form is not None
        # Without a FORM column the word list still counts the tokens: it then
        # holds the markable cells, and the document gets no forms digest.
        self.form_column = self.markable_column if form is None else form
        if form is None and self.doc is not None:
            self.doc.has_forms = False
        read = {markables: self.markable_column}
        if bridging is not None:
            read["BRIDGING"] = bridging
        if form is not None:
            read["FORM"] = form
        # The column with the highest position decides whether a line is long enough.
        self.last_name, self.last_column = max(read.items(), key=lambda item: item[1])

    def lines(self, lines: Iterable[str]) -> None:
        # The per-line work is kept in this loop, with the columns in local
        # variables (refreshed after a comment, which may change them): most
        # lines are token lines whose markable and bridging cells are "_".
        lineno = self.lineno
        doc, form, markable, bridging, last = self.state()
        syntax = self.syntax
        for line in lines:
            lineno += 1
            if not line or line.isspace():
                if doc is not None:
                    doc.in_sentence = False
                continue
            if line[0] in " \t":  # the UA scorer strips lines: "  # x" is a comment
                stripped = line.lstrip()
                if stripped[0] == "#":
                    line = stripped
            if line[0] == "#":
                self.lineno = lineno
                self.comment(line, lineno)
                doc, form, markable, bridging, last = self.state()
                continue
            fields = line.split("\t") if "\t" in line else line.split()
            if len(fields) <= last:
                raise self.short_line(fields, line, lineno)
            if doc is None:
                doc = self.start_implicit(lineno)
            words = doc.words
            token = len(words)
            words.append(fields[form])
            if syntax:
                if not doc.in_sentence:
                    doc.in_sentence = True
                    doc.sentence_starts.append(token)
                doc.token_lines.append(lineno)
            cell = fields[markable]
            if cell != "_":
                self.markable_cell(doc, cell, token, lineno)
            if bridging >= 0:
                cell = fields[bridging]
                if cell != "_":
                    self.bridging_cell(doc, cell, lineno)
        self.lineno = lineno

    def state(self) -> tuple[_Document | None, int, int, int, int]:
        """What the line loop needs: the document and the columns in force."""
        return (
            self.doc,
            self.form_column,
            self.markable_column,
            self.bridging_column,
            self.last_column,
        )

    def short_line(self, fields: list[str], line: str, lineno: int) -> InputError:
        how = "tab-separated" if "\t" in line else "space-separated"
        return self.error(
            f"token line has {len(fields)} {how} field(s); its {self.last_name} column "
            f"is field {self.last_column + 1}",
            lineno,
        )

    def comment(self, line: str, lineno: int) -> None:
        if "newdoc" in line:
            match = NEWDOC().match(line)
            if match:
                if self.doc is not None and self.doc.implicit:
                    # The file has a '# newdoc' after all: its first token lines
                    # belong to no document (the UA scorer adds them to the next one).
                    raise self.outside(self.doc.line)
                self.close()
                doc_id = newdoc_id(match, len(self.documents), self.source, lineno, self.warnings)
                self.start(doc_id, lineno, implicit=False)
                return
        if "global.columns" in line:
            match = _COLUMNS.match(line)
            if match:
                names = tuple(match.group(1).split())
                positions: dict[str, int] = {}
                for i, column in enumerate(names):
                    positions.setdefault(column, i)
                self.set_columns(positions, lineno)
                self.column_names = names

    def start(self, doc_id: str, lineno: int, *, implicit: bool) -> _Document:
        first_sight(self.first_seen, doc_id, lineno, self.source)
        self.doc = _Document(doc_id, lineno, implicit)
        self.doc.has_forms = self.forms_present
        return self.doc

    def start_implicit(self, lineno: int) -> _Document:
        if self.documents:
            raise self.outside(lineno)
        doc_id = str(len(self.documents) + 1)
        self.warnings.append(
            f"{self.source}:{lineno}: no '# newdoc id = ...' before the first sentence; "
            f"document named {doc_id!r} (its place in the file)"
        )
        return self.start(doc_id, lineno, implicit=True)

    def outside(self, lineno: int) -> InputError:
        return self.error(
            "token line outside a document (no '# newdoc id = ...' before it)", lineno
        )

    def close(self) -> None:
        doc = self.doc
        if doc is None:
            return
        self.doc = None
        self.documents[doc.doc_id] = self.finish(doc)

    def markable_cell(self, doc: _Document, cell: str, token: int, lineno: int) -> None:
        cell = cell.strip()
        if cell == "_":
            return
        first = cell.find("(")
        closers = cell if first < 0 else cell[:first]
        if closers.strip(")"):
            raise self.error(
                f"bad {self.markable_name} cell {shown(cell)}: expected ')' closers, then "
                "'(' openers",
                lineno,
            )
        for _ in closers:
            self.close_markable(doc, token, cell, lineno)
        if first < 0:
            return
        for piece in cell[first + 1 :].split("("):
            body = piece.rstrip(")")
            extra = len(piece) - len(body)
            self.open_markable(doc, body, token, lineno, single=extra > 0)
            # The UA guidelines' "(...markable_4))": the one-token markable,
            # then closers of markables opened before it.
            for _ in range(extra - 1):
                self.close_markable(doc, token, cell, lineno)

    def close_markable(self, doc: _Document, token: int, cell: str, lineno: int) -> None:
        if not doc.stack:
            raise self.error(
                f"')' in {self.markable_name} cell {shown(cell)} closes no open markable "
                f"in document {doc.doc_id!r}",
                lineno,
            )
        markable, start, _ = doc.stack.pop()
        markable.is_open = False
        markable.parts.append((start, token))

    def open_markable(
        self, doc: _Document, body: str, token: int, lineno: int, *, single: bool
    ) -> None:
        found, others = _attributes(body, ("MarkableID", "EntityID", "Min", "ElementOf"))
        markable_id, entity_id = found.get("MarkableID"), found.get("EntityID")
        min_value, element_of = found.get("Min"), found.get("ElementOf")
        if not markable_id or not entity_id:
            missing = "MarkableID" if not markable_id else "EntityID"
            raise self.error(f"markable opening {shown('(' + body)} has no {missing}", lineno)
        markable = doc.markables.get(markable_id)
        if markable is None:
            markable = _Markable(markable_id, entity_id, lineno, tuple(others))
            doc.markables[markable_id] = markable
        else:
            # A later part of a discontinuous markable (UA guidelines).
            if markable.entity_id != entity_id:
                raise self.error(
                    f"MarkableID {markable_id!r} opened again with EntityID {entity_id!r}; "
                    f"its opening at line {markable.line} has EntityID {markable.entity_id!r}",
                    lineno,
                )
            if markable.is_open:
                raise self.error(
                    f"MarkableID {markable_id!r} opened again while a part of it is still "
                    f"open (it was first opened at line {markable.line})",
                    lineno,
                )
        if min_value is not None and markable.min is None:
            markable.min = (min_value, lineno)
        if element_of:
            names = tuple(n for n in (name.strip() for name in element_of.split(",")) if n)
            markable.element_of += tuple(n for n in names if n not in markable.element_of)
        if single:
            markable.parts.append((token, token))
        else:
            doc.stack.append((markable, token, lineno))
            markable.is_open = True

    def bridging_cell(self, doc: _Document, cell: str, lineno: int) -> None:
        cell = cell.strip()
        if cell == "_":
            return
        for piece in cell.split("(")[1:]:
            if piece.endswith(")"):
                piece = piece[:-1]
            found, others = _attributes(piece, ("MarkableID", "MentionAnchor"))
            anaphor, anchor = found.get("MarkableID"), found.get("MentionAnchor")
            if not anaphor or not anchor:
                missing = "MarkableID" if not anaphor else "MentionAnchor"
                raise self.error(f"bridging item {shown('(' + piece)} has no {missing}", lineno)
            earlier = doc.bridges.get(anaphor)
            if earlier is not None:
                self.warnings.append(
                    f"{self.source}:{lineno}: document {doc.doc_id!r}: a second bridging "
                    f"antecedent {anchor!r} for markable {anaphor!r} replaces {earlier.anchor!r} "
                    f"(line {earlier.line}), as the UA scorer does"
                )
            doc.bridges[anaphor] = UABridge(anaphor, anchor, tuple(others), lineno)

    def finish(self, doc: _Document) -> Document:
        if doc.stack:
            markable, _, line = doc.stack[0]
            raise self.error(
                f"markable {markable.markable_id!r} opened here is never closed "
                f"in document {doc.doc_id!r}",
                line,
            )
        spans: dict[str, Span] = {}  # by MarkableID, for bridging
        # Per entity, in the order of its first markable: its markables and their
        # spans, in the order of their first opening (the markables' order).
        by_entity: dict[str, list[UAMarkable]] = {}
        entity_spans: dict[str, list[Span]] = {}
        records: list[UAMarkable] = []  # in the order of their first opening
        record = UAMarkable
        for markable_id, markable in doc.markables.items():
            parts = markable.parts
            if len(parts) == 1:
                span, pieces = parts[0], None
            else:
                span, pieces = self.span_of(markable, doc)
            spans[markable_id] = span
            entity_id = markable.entity_id
            found = record(
                markable_id,
                entity_id,
                markable.element_of,
                None if markable.min is None else self.min_of(markable, span, doc),
                markable.attributes,
                pieces,
                markable.line,
            )
            records.append(found)
            group = by_entity.get(entity_id)
            if group is None:
                by_entity[entity_id] = [found]
                entity_spans[entity_id] = [span]
            else:
                group.append(found)
                entity_spans[entity_id].append(span)
        referring = [eid for eid in by_entity if not eid.endswith(_PSEUDO)]
        non_referring = [r for r in records if r.entity_id.endswith(_PSEUDO)]
        markables = tuple(tuple(by_entity[eid]) for eid in referring)

        min_spans: tuple[tuple[Span | None, ...], ...] = ()
        if any(r.min is not None for group in markables for r in group):
            min_spans = tuple(tuple(r.min for r in group) for group in markables)
        pieces_of: tuple[tuple[tuple[Span, ...] | None, ...], ...] = ()
        if any(r.pieces is not None for group in markables for r in group):
            pieces_of = tuple(tuple(r.pieces for r in group) for group in markables)
        splits = self.split_antecedents(doc, by_entity, entity_spans)
        split_antecedents: tuple[SplitAntecedent | None, ...] = ()
        if any(eid in splits for eid in referring):
            split_antecedents = tuple(splits.get(eid) for eid in referring)

        bridges: list[UABridge] = []
        for bridge in doc.bridges.values():
            unknown = [m for m in (bridge.anaphor, bridge.anchor) if m not in spans]
            if unknown:
                self.warnings.append(
                    f"{self.source}:{bridge.line}: document {doc.doc_id!r}: bridging pair "
                    f"({bridge.anaphor!r}, antecedent {bridge.anchor!r}) skipped: "
                    f"{' and '.join(map(repr, unknown))} is not a markable of the document "
                    "(the UA scorer skips it too)"
                )
                continue
            bridges.append(bridge)

        annotations: dict[str, Any] = {
            "ua_layer": self.layer,
            "ua_columns": self.column_names,
            "ua_markables": markables,
            "ua_non_referring": tuple(non_referring),
            "ua_bridging": tuple(bridges),
        }
        digest: int | None = None
        if doc.has_forms:
            forms = FormsDigest()
            forms.add_words(doc.words)
            digest = forms.value
        return Document(
            doc_id=doc.doc_id,
            entities=tuple(tuple(entity_spans[eid]) for eid in referring),
            labels=tuple(referring),
            lines=tuple(tuple(r.line for r in group) for group in markables),
            source=self.source,
            min_spans=min_spans,
            pieces=pieces_of,
            syntax=self.syntax_of(doc) if self.syntax else None,
            annotations=annotations,
            split_antecedents=split_antecedents,
            non_referring=tuple(spans[r.markable_id] for r in non_referring),
            bridging=tuple((spans[b.anaphor], spans[b.anchor]) for b in bridges),
            token_count=len(doc.words),
            forms_digest=digest,
        )

    def span_of(self, markable: _Markable, doc: _Document) -> tuple[Span, tuple[Span, ...] | None]:
        """The markable's covering span, and its pieces when it has several."""
        parts = markable.parts
        if len(parts) == 1:
            return parts[0], None
        parts.sort()
        runs: list[Span] = [parts[0]]
        for start, end in parts[1:]:
            last_start, last_end = runs[-1]
            if start <= last_end:
                raise self.error(
                    f"the parts of markable {markable.markable_id!r} overlap "
                    f"in document {doc.doc_id!r}",
                    markable.line,
                )
            if start == last_end + 1:  # adjacent parts are one contiguous piece
                runs[-1] = (last_start, end)
            else:
                runs.append((start, end))
        span = (runs[0][0], runs[-1][1])
        return span, (tuple(runs) if len(runs) > 1 else None)

    def min_of(self, markable: _Markable, span: Span, doc: _Document) -> Span | None:
        if markable.min is None:
            return None
        raw, line = markable.min
        match = _MIN.fullmatch(raw)
        first = int(match.group(1)) if match else 0
        last = int(match.group(2) or first) if match else 0
        if first < 1 or last < first:
            raise self.error(
                f"bad Min value {shown(raw)} of markable {markable.markable_id!r}: expected "
                "N or N,M (1-based token positions in the document, N <= M)",
                line,
            )
        if not (span[0] + 1 <= first and last <= span[1] + 1):
            raise self.error(
                f"Min={raw} (tokens {first}..{last}, 1-based) lies outside markable "
                f"{markable.markable_id!r} (tokens {span[0] + 1}..{span[1] + 1}) "
                f"in document {doc.doc_id!r}",
                line,
            )
        return (first - 1, last - 1)

    def split_antecedents(
        self,
        doc: _Document,
        by_entity: dict[str, list[UAMarkable]],
        entity_spans: dict[str, list[Span]],
    ) -> dict[str, SplitAntecedent]:
        """Each plural entity's members: its elements, an element that has
        elements of its own replaced by them, recursively (as the UA scorer's
        breadth-first search does), each as the tuple of its mention spans."""
        elements: dict[str, list[str]] = {}
        edge_line: dict[tuple[str, str], int] = {}
        for eid, group in by_entity.items():
            for record in group:
                for plural in record.element_of:
                    if plural not in by_entity:
                        self.warnings.append(
                            f"{self.source}:{record.line}: document {doc.doc_id!r}: markable "
                            f"{record.markable_id!r} is an element of entity {plural!r}, which "
                            "has no markable in the document; ignored (as the UA scorer "
                            "ignores it)"
                        )
                        continue
                    children = elements.setdefault(plural, [])
                    if eid not in children:
                        children.append(eid)
                        edge_line[(plural, eid)] = record.line
        if not elements:
            return {}
        members: dict[str, SplitAntecedent] = {}
        state: dict[str, int] = {}  # 1: on the path being explored, 2: done
        for root in elements:
            if root in members:
                continue
            path: list[tuple[str, Iterator[str]]] = [(root, iter(elements[root]))]
            state[root] = 1
            while path:
                node, pending = path[-1]
                for child in pending:
                    if child not in elements or state.get(child) == 2:
                        continue
                    if state.get(child) == 1:
                        raise self.cycle(doc, [n for n, _ in path], child, node, edge_line)
                    state[child] = 1
                    path.append((child, iter(elements[child])))
                    break
                else:
                    path.pop()
                    found: set[tuple[Span, ...]] = set()
                    for child in elements[node]:
                        if child in elements:
                            found |= members[child]
                        else:
                            found.add(tuple(entity_spans[child]))
                    members[node] = frozenset(found)
                    state[node] = 2
        return members

    def cycle(
        self,
        doc: _Document,
        path: list[str],
        child: str,
        node: str,
        edge_line: dict[tuple[str, str], int],
    ) -> InputError:
        loop = [*path[path.index(child) :], child]
        return self.error(
            f"ElementOf cycle in document {doc.doc_id!r}: entity {child!r} is, through "
            f"{' > '.join(map(repr, loop))}, an element of itself",
            edge_line[(node, child)],
        )

    def syntax_of(self, doc: _Document) -> Syntax:
        return Syntax(
            words=tuple(doc.words) if doc.has_forms else None,
            sentence_starts=tuple(doc.sentence_starts),
            token_lines=tuple(doc.token_lines),
        )

    def corpus(self) -> Corpus:
        self.close()
        if not self.documents:
            raise InputError(
                "not a UA file: no token lines" if self.lineno else "empty file",
                path=self.source,
                line=1,
            )
        return Corpus(documents=self.documents, source=self.source, warnings=tuple(self.warnings))


__all__ = ["DEFAULT_COLUMNS", "LAYERS", "UABridge", "UAMarkable", "read_ua", "read_ua_text"]


def _attributes(body: str, names: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """The ``|``-separated ``name=value`` items of a cell piece: those named in
    ``names`` (split at the first ``=``; names are case-sensitive), and the others
    as written."""
    found: dict[str, str] = {}
    others: list[str] = []
    for item in body.split("|"):
        name, _, value = item.partition("=")
        if name in names:
            found[name] = value
        elif item:
            others.append(item)
    return found, others
