"""The CoNLL reader's array path: a whole file's coreference brackets paired by
array operations instead of line by line.

It handles the files that the line-by-line reader (``conll._read_blocks``)
reads without an error or a warning, and returns exactly that reader's corpus:
the same entities, spans, labels, source lines, reading order, token counts and
forms digests. On anything else (an error or a warning to report, or a rare
layout it leaves alone: a trailing tab, a split-antecedent item, a field with
white space inside, a label longer than 17 digits, a vertical tab or form feed,
a lone carriage return) it returns ``None``, and the caller reads the file again
line by line, which reports the problem exactly as before
(``tests/io/test_conll_arrays.py`` checks both halves on random files).

Why arrays: per mention, the line-by-line reader spends about a microsecond in
Python (field lookup, entity dictionary, bracket stacks), five times what
reading and splitting the lines costs. Here every coreference field of a block
is gathered into one byte array, its items are found as runs of digits with
their brackets, and the brackets of each entity are paired at the end of the
file by sorting them on their nesting depth: for one label, an opening whose
depth after it is d closes at the next closing whose depth before it is d.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import chain
from typing import TYPE_CHECKING

from .._record import NamedTuple
from ..errors import InputError
from ..model import Corpus, Document, Span, Syntax
from .conll import (
    _BEGIN,
    _END,
    FormsDigest,
    _layout,
    _SyntaxBuilder,
    _Words,
    checked_start,
)
from .files import first_sight

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    _Ints = npt.NDArray[np.int64]
else:
    from .._numpy import np

# A label is kept as value * 32 + number of digits: "07" and "7" are different
# labels, as in the line-by-line reader, which keeps them as strings.
_LABEL_DIGITS = 17
_DIGITS_BITS = 5

_SINGLE, _OPENING, _CLOSING = 0, 1, 2


class _Unhandled(Exception):
    """The file needs the line-by-line reader."""


class _NoSyntax(Exception):
    """The file's syntax needs the syntax pass (``conll.read_syntax``)."""


# Plain classes, not dataclasses: this module is imported while a file is read,
# and each dataclass costs about a millisecond to create.
class _DocumentStart:
    __slots__ = (
        "base",
        "begin_line",
        "columns",
        "doc_id",
        "first",
        "forms",
        "line_numbers",
        "mismatched",
        "pending_break",
        "semeval",
        "sentence_starts",
        "shortest",
        "tabbed",
        "token_count",
    )

    def __init__(self, doc_id: str, begin_line: int, base: int):
        self.doc_id = doc_id
        self.begin_line = begin_line
        #: Token lines of the file before the document.
        self.base = base
        self.token_count = 0
        self.forms = FormsDigest()
        # The syntax, gathered block by block when asked for (its tokens: one
        # line number each).
        self.first = ""  # the first field of the first token line
        self.semeval: bool | None = None
        self.columns: dict[int, list[list[str]]] = {}
        self.line_numbers: list[int] = []
        self.sentence_starts: list[int] = []
        self.shortest = 0
        self.pending_break = False
        self.tabbed = False  # a token line with a tab
        self.mismatched = False  # a token line whose fields are not its tab-separated ones


class _Items:
    """The coreference items of one block, in the order of their bytes."""

    __slots__ = ("kind", "label", "lineno", "token")

    def __init__(self, label: _Ints, kind: _Ints, lineno: _Ints, token: _Ints):
        self.label = label
        self.kind = kind
        self.lineno = lineno
        #: Token lines of the file before the item's line.
        self.token = token


def read_by_arrays(
    blocks: Iterator[bytes], source: str, *, syntax: bool = False
) -> tuple[Corpus, dict[str, Syntax] | None] | None:
    """The corpus of a CoNLL file given as blocks of whole lines, or ``None``
    when the line-by-line reader must read it (see the module's docstring).

    With ``syntax``, also every document's syntax as ``conll.read_syntax``
    gives it, already in the documents, or ``None`` when that pass must find
    it (a layout the arrays do not split as it does: tab-separated fields that
    are empty or hold white space, white space beyond ASCII; or an error to
    report).
    """
    try:
        reader = _Reader(source, syntax=syntax)
        reader.read(blocks)
        found: dict[str, Syntax] | None = None
        if syntax:
            try:
                found = reader.syntax()
            except (_NoSyntax, InputError):
                pass
        return _corpus(reader.starts, reader.parts, source, found), found
    except (_Unhandled, InputError):
        return None


class _Reader:
    """One file's blocks read in order: the document boundaries and their
    forms digests as each block comes, the items of each block as arrays, the
    entities once all are in (a document can span blocks)."""

    def __init__(self, source: str, *, syntax: bool):
        self.source = source
        self.with_syntax = syntax
        self.starts: list[_DocumentStart] = []
        self.parts: list[_Items] = []

    def read(self, blocks: Iterator[bytes]) -> None:
        source = self.source
        starts = self.starts
        doc: _DocumentStart | None = None
        offset = 0  # lines of the file before the block
        tokens = 0  # token lines of the file before the block
        for block in checked_start(blocks, source):
            if not block:
                continue  # no line (only a file's first block is dropped when empty)
            lines = _Block(block)
            before = lines.tokens_before
            lo = 0  # first line not yet known to be inside a document
            doc_from = 0  # first line of the current document in this block
            # (document, its first and last lines in this block + 1, whether it goes on)
            pieces: list[tuple[_DocumentStart, int, int, bool]] = []
            for k, start, end in lines.comments():
                line = block[start:end].decode("utf-8")
                if doc is not None:
                    if _END.search(line):
                        doc.forms.add_lines(lines, doc_from, k)
                        doc.token_count = tokens + int(before[k]) - doc.base
                        pieces.append((doc, doc_from, k, False))
                        doc = None
                        lo = k + 1
                    elif _BEGIN.match(line):
                        raise _Unhandled
                    continue
                if before[k] != before[lo]:
                    raise _Unhandled  # a token line outside a document
                lo = k + 1
                match = _BEGIN.match(line)
                if match:
                    doc = _DocumentStart(
                        match.group(1).strip(), offset + k + 1, tokens + int(before[k])
                    )
                    starts.append(doc)
                    doc_from = k + 1
                elif _END.search(line):
                    raise _Unhandled
            if doc is not None:
                doc.forms.add_lines(lines, doc_from, lines.count)
                pieces.append((doc, doc_from, lines.count, True))
            elif before[lines.count] != before[lo]:
                raise _Unhandled
            self.parts.append(_block_items(block, lines, offset, tokens))
            if self.with_syntax:
                try:
                    _block_syntax(lines, pieces, offset)
                except _NoSyntax:
                    self.with_syntax = False
                    for opened in starts:
                        opened.columns.clear()
            offset += lines.count
            tokens += int(before[-1])
            # Freed before the next block is read, whose arrays then reuse this memory.
            del block, lines, before
        if doc is not None or not starts:
            raise _Unhandled  # no '#end document' (a warning), or no document (an error)

    def syntax(self) -> dict[str, Syntax]:
        if not self.with_syntax:
            raise _NoSyntax
        return {start.doc_id: _document_syntax(start, self.source) for start in self.starts}


class _Block:
    """The lines and fields of one block of whole lines, found with array
    operations: the facts of ``conll._Lines``, for blocks of UTF-8 text whose
    only control bytes are tabs, newlines and carriage returns before a newline
    (any other, a NUL too, is refused: ``bytes.split`` cuts at some of them, the
    fields here at all)."""

    def __init__(self, block: bytes):
        data = np.frombuffer(block, dtype=np.uint8)
        # Every control byte in one pass: the newlines, with the tabs and carriage
        # returns when there are some, which are told apart by their bytes.
        controls = np.flatnonzero(data < 32)
        kinds = data[controls]
        has_tab = b"\t" in block
        if has_tab or b"\r" in block:
            line_ends = kinds == 10
            returns = int(np.count_nonzero(kinds == 13))
            if int(np.count_nonzero(kinds == 9)) + returns + int(
                np.count_nonzero(line_ends)
            ) != len(controls):
                raise _Unhandled  # another control byte
            if returns and returns != block.count(b"\r\n"):
                raise _Unhandled  # a carriage return that does not end a line
            newlines = controls[line_ends]
        else:
            if not (kinds == 10).all():
                raise _Unhandled  # another control byte
            newlines = controls
        # ASCII found by one array reduction, a fraction of bytes.isascii's cost;
        # other text must be UTF-8 (``conll._validate_text``'s errors, reported
        # by the line-by-line reader).
        ascii_only = int(data.max()) < 128
        if not ascii_only:
            try:
                block.decode("utf-8")
            except UnicodeDecodeError:
                raise _Unhandled from None
        count = len(newlines) + (not block.endswith(b"\n"))
        starts = np.zeros(count, dtype=np.int64)
        starts[1:] = newlines[: count - 1] + 1
        # Field edges: where white space begins or ends, with white space before
        # and after the block, so that they pair up as (start, end); the halves
        # are views, not copies (fresh memory is much of this pass's cost).
        white = np.empty(len(data) + 2, dtype=bool)
        white[0] = white[-1] = True
        np.less_equal(data, 32, out=white[1:-1])
        edges = np.flatnonzero(white[1:] != white[:-1])
        self.field_starts = edges[0::2]
        self.field_ends = edges[1::2]
        # A line starts at a field's start or in white space before one: the
        # edges before it are the fields before it, two each.
        #: The first field of each line, and one past the last line's last.
        self.first_field = np.empty(count + 1, dtype=np.int64)
        np.right_shift(np.searchsorted(edges, starts), 1, out=self.first_field[:-1])
        self.first_field[-1] = len(self.field_starts)
        fields = self.first_field[1:] - self.first_field[:-1]
        comment = data[np.minimum(starts, len(data) - 1)] == 35
        token = (fields > 0) & ~comment
        self.token_lines = np.flatnonzero(token)
        #: The number of fields of each token line.
        self.token_fields = fields[self.token_lines]
        self.tokens_before = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(token, out=self.tokens_before[1:])
        self.block = block
        self.data = data
        self.starts = starts
        self.newlines = newlines
        self.comment = comment
        self.count = count
        self.has_tab = has_tab
        self.ascii_only = ascii_only
        self._words: dict[int, tuple[_Ints, _Ints, bytes, bytes]] = {}

    def comments(self) -> Iterator[tuple[int, int, int]]:
        """(line, start, end) of the comment lines, the end before a final CR."""
        lines = np.flatnonzero(self.comment)
        block = self.block
        for k, start in zip(lines.tolist(), self.starts[lines].tolist()):
            end = block.find(b"\n", start)
            if end < 0:
                end = len(block)
            if block[end - 1 : end] == b"\r":
                end -= 1
            yield k, start, end

    def words(self, lo: int, hi: int, layout: int | None) -> _Words | None:
        """As ``conll._Lines.words``, sliced from the whole block's words."""
        first, last = int(self.tokens_before[lo]), int(self.tokens_before[hi])
        if first == last:
            return None
        if layout is None:
            field = int(self.first_field[self.token_lines[first]])
            layout = _layout(self.block[self.field_starts[field] : self.field_ends[field]])
        missing, offsets, chars, lengths = self._block_words(layout)
        if missing[last] != missing[first]:
            return layout, None, None
        return (
            layout,
            chars[offsets[first] : offsets[last]],
            lengths[4 * first : 4 * last],
        )

    def _block_words(self, layout: int) -> tuple[_Ints, _Ints, bytes, bytes]:
        """For every token line, in order: how many before it lack the word
        field, where its word starts in the words' bytes; those bytes and the
        words' lengths."""
        known = self._words.get(layout)
        if known is not None:
            return known
        lines = self.token_lines
        fields = self.token_fields
        # The word must exist and must not be the line's last (coreference) field.
        has = fields > layout + 1
        missing = np.zeros(len(lines) + 1, dtype=np.int64)
        at = np.minimum(self.first_field[lines] + layout, len(self.field_starts) - 1)
        starts = self.field_starts[at]
        sizes = self.field_ends[at] - starts
        if not has.all():
            np.cumsum(~has, out=missing[1:])
            starts = np.where(has, starts, 0)
            sizes = np.where(has, sizes, 0)
        chars, ends = _gathered(self.data, starts, sizes, newlines=False)
        offsets = np.zeros(len(lines) + 1, dtype=np.int64)
        offsets[1:] = ends
        known = missing, offsets, chars.tobytes(), sizes.astype("<i4").tobytes()
        self._words[layout] = known
        return known


def _gathered(
    data: npt.NDArray[np.uint8], starts: _Ints, sizes: _Ints, *, newlines: bool
) -> tuple[npt.NDArray[np.uint8], _Ints]:
    """The byte runs ``data[start : start + size]`` one after the other, each
    followed by a newline when ``newlines``; and where each run ends."""
    widths = sizes + 1 if newlines else sizes
    ends = np.cumsum(widths)
    if not len(ends) or not ends[-1]:
        return np.zeros(0, dtype=np.uint8), ends
    source = np.arange(int(ends[-1])) + np.repeat(starts - (ends - widths), widths)
    if newlines:
        # A newline's place would read one past its run, perhaps past the block.
        source[ends - 1] = 0
        gathered = data[source]
        gathered[ends - 1] = 10
    else:
        gathered = data[source]
    return gathered, ends


def _block_items(block: bytes, lines: _Block, offset: int, tokens: int) -> _Items:
    data = lines.data
    candidates = lines.token_lines
    last = lines.first_field[candidates + 1] - 1
    field_starts = lines.field_starts[last]
    field_ends = lines.field_ends[last]
    if lines.has_tab:
        _check_tab_fields(block, lines, candidates, field_starts, field_ends)
    sizes = field_ends - field_starts
    first_byte = data[field_starts]
    coreference = (sizes > 1) | ((first_byte != 45) & (first_byte != 95))  # not "-" or "_"
    candidates = candidates[coreference]
    field_starts = field_starts[coreference]
    sizes = sizes[coreference]
    if not len(candidates):
        empty = np.zeros(0, dtype=np.int64)
        return _Items(empty, empty, empty, empty)
    gathered, ends = _gathered(data, field_starts, sizes, newlines=True)
    label, kind, at = _items(gathered)
    line = candidates[np.searchsorted(ends, at, side="right")]
    return _Items(label, kind, line + (offset + 1), lines.tokens_before[line] + tokens)


def _check_tab_fields(
    block: bytes, lines: _Block, candidates: _Ints, field_starts: _Ints, field_ends: _Ints
) -> None:
    """Refuse a token line whose text after its last tab, stripped, is not its
    last field (the line-by-line reader reads that text): a trailing tab, or
    white space inside the field or after a tab before it."""
    data = lines.data
    newlines = lines.newlines
    line_ends = np.full(len(candidates), len(data), dtype=np.int64)
    ended = candidates < len(newlines)
    line_ends[ended] = newlines[candidates[ended]]
    plain = (field_ends == line_ends) | (
        (field_ends == line_ends - 1) & (data[np.minimum(field_ends, len(data) - 1)] == 13)
    )
    plain &= data[field_starts - 1] == 9
    odd = np.flatnonzero(~plain)
    for start, end, field_start in zip(
        lines.starts[candidates[odd]].tolist(),
        line_ends[odd].tolist(),
        field_starts[odd].tolist(),
    ):
        tab = block.rfind(b"\t", start, end)
        if tab >= 0 and tab + 1 != field_start:
            raise _Unhandled


# The syntax pass splits str fields (at Unicode white space), the arrays bytes
# fields (at ASCII white space): a block with any of these UTF-8 sequences,
# white space beyond ASCII, keeps the syntax pass.
# (A pattern, compiled by re's cache when first searched for: most files are
# ASCII and never need it.)
_WIDE_SPACE = (
    rb"\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80"
)
# The columns that ``conll._SyntaxBuilder.syntax`` reads, by layout (SemEval-2010
# when the first field is a number).
_SYNTAX_COLUMNS = {False: (3, 4, 5, 10), True: (1, 4, 5, 8, 9)}


def _block_syntax(
    lines: _Block, pieces: list[tuple[_DocumentStart, int, int, bool]], offset: int
) -> None:
    """Add each document's token lines in this block to its syntax: the columns
    its layout reads, its sentence starts, line numbers and field counts."""
    from bisect import bisect_left  # only the syntax needs it

    block = lines.block
    if not lines.ascii_only and re.search(_WIDE_SPACE, block):
        raise _NoSyntax
    before = lines.tokens_before
    token_lines = lines.token_lines
    first_field = lines.first_field
    fields = lines.token_fields
    blanks = np.zeros(lines.count + 1, dtype=np.int64)
    np.cumsum(first_field[1:] == first_field[:-1], out=blanks[1:])
    after_previous = np.zeros(len(token_lines), dtype=np.int64)
    after_previous[1:] = token_lines[:-1] + 1
    # Token lines after a blank line (since the token line before them).
    breaks = np.flatnonzero(blanks[token_lines] > blanks[after_previous]).tolist()
    if lines.has_tab:
        tabs = np.flatnonzero(lines.data == 9)
        line_ends = np.append(lines.starts[1:], len(lines.data))
        tabbed = np.searchsorted(tabs, line_ends[token_lines]) - np.searchsorted(
            tabs, lines.starts[token_lines]
        )
        # A tab-separated line splits as its white-space fields when every gap
        # between two fields holds exactly one tab (an empty field or a space
        # inside one would shift the columns): as many tabs as gaps, and no gap
        # of spaces only (so a field preceded by a space is looked at).
        mismatched = fields != tabbed + 1
        field_starts, field_ends = lines.field_starts, lines.field_ends
        spaced = np.flatnonzero(lines.data[field_starts[1:] - 1] == 32) + 1
        if len(spaced):
            in_gap = np.searchsorted(tabs, field_starts[spaced]) - np.searchsorted(
                tabs, field_ends[spaced - 1]
            )
            line_of = np.searchsorted(lines.starts, field_starts[spaced], side="right") - 1
            # A line's first field follows no gap (its white space is stripped).
            inner = field_starts[spaced - 1] >= lines.starts[line_of]
            untabbed = line_of[inner & (in_gap == 0)]
            mismatched |= np.isin(token_lines, untabbed)
        tabbed_before = np.zeros(len(token_lines) + 1, dtype=np.int64)
        np.cumsum(tabbed > 0, out=tabbed_before[1:])
    else:
        mismatched = fields != 1
        tabbed_before = np.zeros(len(token_lines) + 1, dtype=np.int64)
    mismatched_before = np.zeros(len(token_lines) + 1, dtype=np.int64)
    np.cumsum(mismatched, out=mismatched_before[1:])
    bounds = [(int(before[line_from]), int(before[line_to])) for _, line_from, line_to, _ in pieces]
    wanted: set[int] = set()
    for (doc, _, _, _), (a, b) in zip(pieces, bounds):
        if a < b:
            if doc.semeval is None:
                field = int(first_field[token_lines[a]])
                doc.first = block[lines.field_starts[field] : lines.field_ends[field]].decode()
                doc.semeval = doc.first.isascii() and doc.first.isdigit()
            wanted.update(_SYNTAX_COLUMNS[doc.semeval])
    order = sorted(wanted)
    place = {c: i for i, c in enumerate(order)}
    width = len(order)
    values = _columns(lines, token_lines, fields, order)
    numbers = (token_lines + (offset + 1)).tolist()
    lows = [a for a, b in bounds if a < b]
    shortest = np.minimum.reduceat(fields, lows).tolist() if lows else []
    # Per piece, by array operations on the pieces' bounds (a block has few pieces
    # and many lines): a line with a tab, a line not split as its tabs, and a
    # blank line after the piece's last token line (or anywhere in a piece without one).
    low, high = np.array(bounds, dtype=np.int64).reshape(-1, 2).T
    line_from, line_to = np.array([(p[1], p[2]) for p in pieces], dtype=np.int64).reshape(-1, 2).T
    last_line = line_from
    if len(token_lines):
        last_line = np.where(high > low, token_lines[np.maximum(high - 1, 0)] + 1, line_from)
    facts = zip(
        (tabbed_before[high] > tabbed_before[low]).tolist(),
        (mismatched_before[high] > mismatched_before[low]).tolist(),
        (blanks[line_to] > blanks[last_line]).tolist(),
    )
    held = iter(shortest)
    for (doc, _, _, goes_on), (a, b), (tabbed_here, mismatched_here, trailing) in zip(
        pieces, bounds, facts
    ):
        if a < b:
            assert doc.semeval is not None
            for c in _SYNTAX_COLUMNS[doc.semeval]:
                i = place[c]
                doc.columns.setdefault(c, []).append(values[i + a * width : i + b * width : width])
            least = next(held)
            seen = len(doc.line_numbers)  # the document's tokens before this piece
            doc.shortest = least if not seen else min(doc.shortest, least)
            doc.line_numbers.extend(numbers[a:b])
            # The first token of the piece: a document's first, or one after a
            # blank line in this block or at the end of the piece before.
            first = bisect_left(breaks, a)
            if not seen or doc.pending_break or breaks[first : first + 1] == [a]:
                doc.sentence_starts.append(seen)
            starts = breaks[bisect_left(breaks, a + 1) : bisect_left(breaks, b)]
            doc.sentence_starts.extend([seen + t - a for t in starts])
            doc.tabbed |= tabbed_here
            doc.mismatched |= mismatched_here
            doc.pending_break = trailing
        else:
            doc.pending_break |= trailing
        if not goes_on and doc.tabbed and doc.mismatched:
            raise _NoSyntax


# The bytes that can end a field (white space; no other control byte reaches
# here), each made a newline.
_FIELD_ENDS = bytes.maketrans(b"\t\r ", b"\n\n\n")


def _columns(lines: _Block, token_lines: _Ints, fields: _Ints, wanted: list[int]) -> list[str]:
    """Fields ``wanted`` of every token line (empty where a line has no such
    field), gathered, decoded and split in one go: line by line, ``wanted``'s
    fields in order (column ``wanted[i]`` of token line t at ``t * len(wanted) + i``)."""
    if not wanted or not len(token_lines):
        return []
    index = np.array(wanted, dtype=np.int64)
    at = (lines.first_field[token_lines][:, None] + index).ravel()
    data = lines.data
    if int(fields.min()) > wanted[-1]:  # every line has every field (the usual file)
        starts = lines.field_starts[at]
        ends = lines.field_ends[at]
        if int(ends[-1]) < len(data):
            # Each field with the white space byte that ends it, which becomes its
            # newline: no newline written in after the gather.
            with_ends, _ = _gathered(data, starts, ends - starts + 1, newlines=False)
            text = with_ends.tobytes().translate(_FIELD_ENDS)
        else:
            text = _gathered(data, starts, ends - starts, newlines=True)[0].tobytes()
    else:
        has = (fields[:, None] > index).ravel()
        np.minimum(at, len(lines.field_starts) - 1, out=at)
        starts = np.where(has, lines.field_starts[at], 0)
        sizes = np.where(has, lines.field_ends[at] - starts, 0)
        text = _gathered(data, starts, sizes, newlines=True)[0].tobytes()
    values = text.decode("utf-8").split("\n")
    values.pop()  # after the last newline
    return values


class _GatheredSyntax(_SyntaxBuilder):
    """The syntax pass's document, its columns gathered by the arrays."""

    def __init__(self, source: str, doc: _DocumentStart):
        super().__init__(source, None)
        self.columns = {
            c: tuple(parts[0]) if len(parts) == 1 else tuple(chain.from_iterable(parts))
            for c, parts in doc.columns.items()
        }
        self.count = len(doc.line_numbers)
        self.shortest = doc.shortest
        self.line_numbers = doc.line_numbers
        self.sentence_starts = doc.sentence_starts
        self.first = doc.first

    def first_field(self) -> str:
        return self.first

    def _field(self, index: int) -> tuple[str, ...]:
        raise AssertionError(f"column {index} was not gathered")


def _document_syntax(doc: _DocumentStart, source: str) -> Syntax:
    if not doc.line_numbers:
        return Syntax()
    return _GatheredSyntax(source, doc).syntax()


_POWERS = [10**e for e in range(_LABEL_DIGITS)]
# The bytes of coreference fields: digits, brackets, bars and the fields' newlines.
_ITEM_BYTES = b"0123456789()|\n"


def _items(fields: npt.NDArray[np.uint8]) -> tuple[_Ints, _Ints, _Ints]:
    """The items of newline-ended coreference fields: each one's label, kind
    and position. The grammar is the line-by-line reader's: items ``(N)``,
    ``(N`` and ``N)``, joined by ``|`` or run together, so each run of digits is
    one item, opening when a ``(`` precedes it, closing when a ``)`` follows."""
    if fields.tobytes().translate(None, _ITEM_BYTES):
        raise _Unhandled  # another byte
    digit = (fields >= 48) & (fields <= 57)
    # The runs of digits: where digit changes, with no digit before and after.
    padded = np.zeros(len(fields) + 2, dtype=bool)
    padded[1:-1] = digit
    bounds = np.flatnonzero(padded[1:] != padded[:-1])
    run_starts = bounds[0::2]
    run_ends = bounds[1::2]
    digits = run_ends - run_starts
    if len(digits) and int(digits.max()) > _LABEL_DIGITS:
        raise _Unhandled
    # (A run at the very start reads the last byte, a newline, as its opening.)
    opened = fields[run_starts - 1] == 40
    closed = fields[run_ends] == 41
    # Each bracket next to a number opens or closes that number's run: a bracket
    # without its number makes more brackets than runs opened or closed.
    if int(np.count_nonzero(fields == 40)) != int(np.count_nonzero(opened)) or int(
        np.count_nonzero(fields == 41)
    ) != int(np.count_nonzero(closed)):
        raise _Unhandled
    if not (opened | closed).all():
        raise _Unhandled  # a bare number
    # _SINGLE (opened and closed) 0, _OPENING 1, _CLOSING (closed only) 2.
    kind = 2 - opened * (closed + 1)
    positions = np.flatnonzero(digit)
    run = np.repeat(np.arange(len(run_starts)), digits)
    powers = np.array(_POWERS, dtype=np.int64)[run_ends[run] - 1 - positions]
    values = np.add.reduceat(
        (fields[positions] - 48).astype(np.int64) * powers, digits.cumsum() - digits
    )
    return (values << _DIGITS_BITS) | digits, kind, run_starts


def _corpus(
    starts: list[_DocumentStart],
    parts: list[_Items],
    source: str,
    syntax: dict[str, Syntax] | None,
) -> Corpus:
    """The documents, once every block's items are in (with their syntax, when
    given: made once, not replaced after). Empties ``parts``."""
    # The arrays' pass ends before the mentions become Python objects, so that its
    # intermediate arrays are freed first: on a 1M-mention file they would add
    # about 150 MB to the peak.
    mentions = _mention_arrays(starts, parts)
    entity_start, mention_start = mentions.entity_start, mentions.mention_start
    spans: list[Span] = list(zip(mentions.first.tolist(), mentions.last.tolist()))
    source_lines = mentions.lines.tolist()
    reading = mentions.reading.tolist()
    bounds = [0, *np.cumsum(mentions.sizes).tolist()]
    rank_label = mentions.labels
    labels = [
        str(value).zfill(digits)
        for value, digits in zip(
            (rank_label >> _DIGITS_BITS).tolist(), (rank_label & ((1 << _DIGITS_BITS) - 1)).tolist()
        )
    ]
    del mentions, rank_label
    documents: dict[str, Document] = {}
    first_seen: dict[str, int] = {}
    for d, start in enumerate(starts):
        first_sight(first_seen, start.doc_id, start.begin_line, source)
        entities = range(entity_start[d], entity_start[d + 1])
        documents[start.doc_id] = Document(
            doc_id=start.doc_id,
            entities=tuple([tuple(spans[bounds[e] : bounds[e + 1]]) for e in entities]),
            labels=tuple(labels[entity_start[d] : entity_start[d + 1]]),
            lines=tuple([tuple(source_lines[bounds[e] : bounds[e + 1]]) for e in entities]),
            reading_order=tuple(reading[mention_start[d] : mention_start[d + 1]]),
            source=source,
            token_count=start.token_count,
            forms_digest=start.forms.value,
            syntax=syntax[start.doc_id] if syntax is not None else None,
        )
    return Corpus(documents=documents, source=source, warnings=())


class _MentionArrays(NamedTuple):
    """The file's mentions grouped by entity, entities in order of appearance."""

    first: _Ints  # each mention's first token, in its document
    last: _Ints  # its last token
    lines: _Ints  # the line of its closing item
    sizes: _Ints  # the mentions of each entity
    labels: _Ints  # each entity's label (value * 32 + digits)
    reading: _Ints  # each mention's entity, in its document, in reading order
    entity_start: list[int]  # each document's first entity, and the number of entities
    mention_start: list[int]  # each document's first mention in reading order, likewise


def _mention_arrays(starts: list[_DocumentStart], parts: list[_Items]) -> _MentionArrays:
    label = np.concatenate([p.label for p in parts])
    kind = np.concatenate([p.kind for p in parts])
    lineno = np.concatenate([p.lineno for p in parts])
    token = np.concatenate([p.token for p in parts])
    parts.clear()  # the blocks' copies, no longer needed
    # The line-by-line reader's order: line by line; in a line, the one-token
    # mentions, then the openings, then the closings, each in field order.
    order = np.argsort(lineno * 4 + kind, kind="stable")
    label, kind, lineno, token = label[order], kind[order], lineno[order], token[order]
    doc = np.searchsorted(np.array([s.begin_line for s in starts]), lineno, side="right") - 1
    token -= np.array([s.base for s in starts], dtype=np.int64)[doc]
    n = len(label)
    # Entities: one per (document, label), numbered by first appearance.
    by_entity = _lexsorted(label, doc)
    entity_doc, entity_label = doc[by_entity], label[by_entity]
    new = np.ones(n, dtype=bool)
    new[1:] = (entity_doc[1:] != entity_doc[:-1]) | (entity_label[1:] != entity_label[:-1])
    group = np.empty(n, dtype=np.int64)
    group[by_entity] = np.cumsum(new) - 1
    appearance = _stable_argsort(by_entity[new])  # distinct values: any sort's order
    rank = np.empty(len(appearance), dtype=np.int64)
    rank[appearance] = np.arange(len(appearance))
    rank_doc = entity_doc[new][appearance]
    entity_start = np.searchsorted(rank_doc, np.arange(len(starts) + 1)).tolist()
    first_token = _pair_brackets(by_entity, group, kind, token)
    mentions = np.flatnonzero(kind != _OPENING)
    mention_rank = rank[group[mentions]]
    mention_start = np.searchsorted(doc[mentions], np.arange(len(starts) + 1)).tolist()
    grouped = mentions[_stable_argsort(mention_rank)]
    return _MentionArrays(
        first=first_token[grouped],
        last=token[grouped],
        lines=lineno[grouped],
        sizes=np.bincount(mention_rank, minlength=len(rank)),
        labels=entity_label[new][appearance],
        reading=mention_rank - np.array(entity_start[:-1], dtype=np.int64)[doc[mentions]],
        entity_start=entity_start,
        mention_start=mention_start,
    )


def _pair_brackets(by_entity: _Ints, group: _Ints, kind: _Ints, token: _Ints) -> _Ints:
    """The first token of every item's mention: its own for a one-token mention,
    its opening's for a closing (the latest one still open, as with a stack)."""
    brackets = by_entity[kind[by_entity] != _SINGLE]
    first_token: _Ints = token.copy()
    if not len(brackets):
        return first_token
    step = np.where(kind[brackets] == _OPENING, 1, -1)
    depth = np.cumsum(step)
    owner = group[brackets]
    new = np.ones(len(brackets), dtype=bool)
    new[1:] = owner[1:] != owner[:-1]
    firsts = np.flatnonzero(new)
    # Each entity's depths from 0: less the depth before its first bracket.
    depth -= (depth - step)[firsts][np.cumsum(new) - 1]
    lasts = np.empty_like(firsts)
    lasts[:-1] = firsts[1:] - 1
    lasts[-1] = len(brackets) - 1
    if int(depth.min()) < 0 or depth[lasts].any():
        raise _Unhandled  # a closing without its opening, or an opening never closed
    level = depth + (step < 0)
    paired = brackets[_lexsorted(level, owner)]
    openings, closings = paired[0::2], paired[1::2]
    if (kind[openings] != _OPENING).any() or (kind[closings] != _CLOSING).any():
        raise _Unhandled
    first_token[closings] = token[openings]
    return first_token


def _stable_argsort(key: _Ints) -> _Ints:
    """``np.argsort(key, kind="stable")``. Keys from 0 to 2³² − 1 are sorted as
    16-bit halves, the low half first, which numpy's stable sort takes by radix:
    three to five times faster than its merge sort of 64-bit keys (on 20,000 to
    500,000 keys), and the same order (a stable sort by the high half of an
    order stable by the low half is the stable order of the whole key)."""
    if not len(key):
        return np.zeros(0, dtype=np.intp)
    low, high = int(key.min()), int(key.max())
    if low < 0 or high >> 32:
        return np.argsort(key, kind="stable")
    if low == high:
        return np.arange(len(key))
    order = np.argsort((key & 0xFFFF).astype(np.uint16), kind="stable")
    if not high >> 16:
        return order
    return order[np.argsort((key[order] >> 16).astype(np.uint16), kind="stable")]


def _lexsorted(*keys: _Ints) -> _Ints:
    """``np.lexsort(keys)`` (the last key sorts first; ties keep their order), one
    stable sort per key from the first: the order stable by the later keys is the
    order of all of them."""
    order: _Ints | None = None
    for key in keys:
        step = _stable_argsort(key if order is None else key[order])
        order = step if order is None else order[step]
    assert order is not None
    return order
