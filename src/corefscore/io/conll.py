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
import zlib
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from itertools import accumulate, chain, islice, pairwise
from typing import TYPE_CHECKING

from .._record import replace
from ..errors import InputError, shown
from ..model import Corpus, Document, Span, Syntax
from .files import first_sight, lazy_pattern, open_binary, opening_block

if TYPE_CHECKING:
    from typing import Protocol

    import numpy as np
else:
    from .._numpy import np

_BEGIN = re.compile(r"#\s*begin document\b(.*)$")
_END = re.compile(r"#\s*end document")
# Split antecedents first, so that "(1+2)" is not read as an opening "(1".
# Fields of one item, the most frequent, are read without it.
_ITEM = lazy_pattern(r"\((\d+)\+(\d+)\)|\((\d+)\)|\((\d+)(?!\d)|(\d+)\)|\|")


_Parsed = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
# Coreference fields repeat a lot ("(12)", "(3", "3)"): parse each once.
_FIELD_CACHE: dict[bytes, _Parsed] = {}


def _parse_field(field: str, source: str, lineno: int) -> _Parsed:
    # One-item fields (most unique fields: the cache cannot help them) skip the
    # regular expression; str.isdecimal() accepts exactly what \d matches.
    if field[:1] == "(":
        if field[-1:] == ")" and field[1:-1].isdecimal():
            return (field[1:-1],), (), (), ()
        if field[1:].isdecimal():
            return (), (field[1:],), (), ()
    elif field[-1:] == ")" and field[:-1].isdecimal():
        return (), (), (field[:-1],), ()
    singles: list[str] = []
    opens: list[str] = []
    closes: list[str] = []
    skipped: list[str] = []
    pos = 0
    item = _ITEM()
    # Item by item from the start: a search (finditer) would scan a whole
    # malformed field, which can be a 100 MB line, for a later match.
    while m := item.match(field, pos):
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
            f"bad coreference field {shown(field)}: expected '-', '_' or items like "
            "'(12', '12)', '(12)' joined by '|' (entity ids are non-negative integers)",
            path=source,
            line=lineno,
        )
    return tuple(singles), tuple(opens), tuple(closes), tuple(skipped)


def read_conll(
    path: str | os.PathLike[str], *, syntax: bool = False, head_column: int | None = None
) -> Corpus:
    """Read a CoNLL-2012 / SemEval-2010 coreference file (plain or gzipped).

    The file is read in blocks, so memory stays bounded by the mentions, not
    by the file size.

    With ``syntax=True`` (implied by ``head_column``) every document also gets
    its token columns as a ``Syntax``: see
    ``read_syntax`` for which columns are read. The coreference reading
    is unchanged, and costs the same; the syntax is a second pass.
    """
    name = os.fspath(path)
    return _read(
        lambda arrays: iter_blocks(
            name,
            _BLOCK,
            start_size=_ARRAY_START_BLOCK if arrays else 0,
            start_bytes=_ARRAY_START_BYTES,
        ),
        lambda: iter_blocks(name),
        name,
        syntax=syntax or head_column is not None,
        head_column=head_column,
        # The arrays may hand a file back to be read again: not a pipe's.
        arrays=os.path.isfile(name),
        large=_larger_than(name, _PLAIN_BYTES),
    )


def _larger_than(name: str, size: int) -> bool:
    """Whether the file holds more than ``size`` bytes, by its size on disk (a
    compressed file's is a lower bound of its text's)."""
    try:
        return os.path.getsize(name) > size
    except OSError:
        return False  # reported by the reading


def read_conll_text(
    text: str,
    *,
    source: str = "<string>",
    syntax: bool = False,
    head_column: int | None = None,
) -> Corpus:
    """Parse CoNLL text; ``source`` names the file in error messages.

    ``syntax`` and ``head_column`` are as for ``read_conll``.
    """
    data = text.encode("utf-8")
    return _read(
        lambda _arrays: iter((data,)),
        lambda: iter((data,)),
        source,
        syntax=syntax or head_column is not None,
        head_column=head_column,
    )


def _read(
    blocks: Callable[[bool], Iterator[bytes]],
    syntax_blocks: Callable[[], Iterator[bytes]],
    source: str,
    *,
    syntax: bool,
    head_column: int | None,
    arrays: bool = True,
    large: bool = False,
) -> Corpus:
    """Read by arrays (``conll_arrays``) when the file is large enough to load
    numpy for, and line by line when it is small or when the arrays hand it back
    (an error or a warning to report, or a layout they leave alone); the syntax
    likewise, by the arrays when they can, else by its own pass. ``blocks(arrays)``
    gives the file in blocks of whole lines, sized for the arrays or not;
    ``large`` says that the file is known to be over ``_PLAIN_BYTES``."""
    rest: Iterator[bytes] | None = None
    if arrays:
        first = blocks(True)
        # A file not known to be large is read two blocks ahead to learn whether
        # it is small; a large one is not, so that each block can be freed once
        # read and its memory serve the next one's arrays (fewer page faults).
        ahead = [] if large else list(islice(first, 2))
        if not large and len(ahead) < 2 and sum(map(len, ahead)) <= _PLAIN_BYTES:
            rest = iter(ahead)  # a small file, already read: line by line
        else:
            from .conll_arrays import read_by_arrays

            rest = chain(ahead, first)
            found = read_by_arrays(rest, source, syntax=syntax and head_column is None)
            if found is not None:
                corpus, columns = found
                if not syntax or columns is not None:
                    return corpus  # with its syntax when asked for
                return _with_syntax(corpus, read_syntax(syntax_blocks(), source, head_column))
            rest = None
    corpus = _read_blocks(blocks(False) if rest is None else rest, source)
    if syntax:
        corpus = _with_syntax(corpus, read_syntax(syntax_blocks(), source, head_column))
    return corpus


class _DocumentBuilder:
    """Collects the mentions of one document while its lines are read."""

    __slots__ = (
        "all_tab",
        "begin_line",
        "doc_id",
        "entities",
        "forms",
        "index",
        "lines",
        "open",
        "order",
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
        self.order: list[int] = []  # the entity of each mention, in reading order
        # Lines whose last tab field is empty: coreference-free, unless every
        # line of the document ends with a tab (a trailing-tab file).
        self.pending: list[tuple[int, int, str]] = []
        self.all_tab = True
        self.forms = FormsDigest()

    def entity(self, label: str) -> int:
        idx = self.index.get(label)
        if idx is None:
            idx = self._new_entity(label)
        return idx

    def _new_entity(self, label: str) -> int:
        idx = self.index[label] = len(self.entities)
        self.entities.append([])
        self.lines.append([])
        return idx

    def add_field(self, field: bytes, token: int, lineno: int) -> None:
        parsed = _FIELD_CACHE.get(field)
        if parsed is None:
            parsed = _parse_field(field.decode("utf-8"), self.source, lineno)
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
        # The lookups are inlined: this runs once per coreference field.
        index = self.index
        for label in singles:
            idx = index.get(label)
            if idx is None:
                idx = self._new_entity(label)
            self.entities[idx].append((token, token))
            self.lines[idx].append(lineno)
            self.order.append(idx)
        for label in opens:
            if label not in index:
                self._new_entity(label)
            waiting = self.open.get(label)
            if waiting is None:
                self.open[label] = [(token, lineno)]
            else:
                waiting.append((token, lineno))
        for label in closes:
            idx = index.get(label)
            if idx is None:
                idx = self._new_entity(label)
            stack = self.open.get(label)
            if not stack:
                raise InputError(
                    f"closing bracket {shown(label + ')')} without an opening "
                    f"{shown('(' + label)} in document {self.doc_id!r}",
                    path=self.source,
                    line=lineno,
                )
            start, _ = stack.pop()
            self.entities[idx].append((start, token))
            self.lines[idx].append(lineno)
            self.order.append(idx)

    def finish(self, tokens: int) -> Document:
        if self.all_tab:
            for token, lineno, line in self.pending:
                field = line.rstrip().rpartition("\t")[2].strip()
                if field and field != "-" and field != "_":
                    self.add_field(field.encode("utf-8"), token, lineno)
        unclosed = [(ln, tok, label) for label, st in self.open.items() for tok, ln in st]
        if unclosed:
            lineno, token, label = min(unclosed)
            raise InputError(
                f"mention {shown('(' + label)} opened here (token {token}) is never closed "
                f"in document {self.doc_id!r}",
                path=self.source,
                line=lineno,
            )
        keep = [i for i, ent in enumerate(self.entities) if ent]
        labels = {idx: label for label, idx in self.index.items()}
        order = self.order
        if len(keep) < len(self.entities):
            renumber = {old: new for new, old in enumerate(keep)}
            order = [renumber[i] for i in order]
        return Document(
            doc_id=self.doc_id,
            entities=tuple(tuple(self.entities[i]) for i in keep),
            labels=tuple(labels[i] for i in keep),
            lines=tuple(tuple(self.lines[i]) for i in keep),
            reading_order=tuple(order),
            source=self.source,
            token_count=tokens,
            forms_digest=self.forms.value,
        )


class FormsDigest:
    """A fingerprint of a document's word forms, fed block by block.

    Two CRC-32s, of the forms' UTF-8 bytes one after the other and of their
    lengths (little-endian 32-bit integers), so that the same words give the
    same digest whatever the file format; ``value`` is ``None`` once a token
    line without a word field was seen (the document carries no forms to compare).
    """

    __slots__ = ("chars", "layout", "lengths", "present")

    def __init__(self) -> None:
        self.chars = 0
        self.lengths = 0
        self.present = True
        #: The word field (0-based): 3 in CoNLL-2012 lines, 1 in SemEval-2010 ones.
        self.layout: int | None = None

    def add_words(self, words: Iterable[str]) -> None:
        """Add words given as strings (readers that have them one by one)."""
        encoded = [w.encode("utf-8") for w in words]
        self.chars = zlib.crc32(b"".join(encoded), self.chars)
        self.lengths = zlib.crc32(_lengths([len(w) for w in encoded]), self.lengths)

    def add_lines(self, lines: WordLines, lo: int, hi: int) -> None:
        """Add the words of the token lines ``lo <= k < hi`` of a block."""
        if not self.present or hi <= lo:
            return
        found = lines.words(lo, hi, self.layout)
        if found is None:
            return  # no token line there
        self.layout, chars, lengths = found
        if chars is None or lengths is None:
            # A line whose word field is missing or is its coreference field.
            self.present = False
            return
        self.chars = zlib.crc32(chars, self.chars)
        self.lengths = zlib.crc32(lengths, self.lengths)

    @property
    def value(self) -> int | None:
        return (self.chars << 32 | self.lengths) if self.present else None


def _lengths(sizes: list[int]) -> bytes:
    """``sizes`` as little-endian 32-bit integers, made without ``struct`` (whose
    two modules cost a small file's reading more than all its calls here). Words
    are shorter than 256 bytes but in rare text: ``bytes`` then takes the lengths
    in one call, and refuses them otherwise."""
    try:
        low = bytes(sizes)
    except ValueError:  # a length of 256 or more
        return b"".join(size.to_bytes(4, "little") for size in sizes)
    packed = bytearray(4 * len(low))
    packed[::4] = low
    return bytes(packed)


def _layout(first_field: bytes) -> int:
    """The word field of a file whose first token line starts with ``first_field``:
    a SemEval-2010 line starts with the token number."""
    return 1 if first_field.isdigit() else 3


# The two kinds of line facts below must agree exactly (tests/io/test_conll_lines.py):
# the forms digest of a file must not depend on how its blocks were read.
_Words = tuple[int, bytes | None, bytes | None]


if TYPE_CHECKING:
    # For type checkers only: a Protocol class is costly to create at start-up.
    class WordLines(Protocol):
        """A block's lines as the forms digest reads them."""

        def words(self, lo: int, hi: int, layout: int | None) -> _Words | None:
            """The word field of the token lines ``lo <= k < hi``: (layout, the words'
            bytes one after the other, their lengths as little-endian 32-bit
            integers); the bytes ``None`` when a line lacks that field; ``None``
            without token lines."""


class _Lines:
    """Per-line facts of one block, computed with array operations.

    ``fast`` marks lines whose last field is ``-`` and that are not comments:
    the vast majority of lines, which the Python loop never visits.
    """

    def __init__(self, block: bytes):
        data = np.frombuffer(block, dtype=np.uint8)
        newlines = np.flatnonzero(data == 10)
        ends = newlines if block.endswith(b"\n") else np.append(newlines, len(data))
        starts = np.empty_like(ends)
        starts[0:1] = 0
        starts[1:] = newlines[: len(ends) - 1] + 1
        if b"\r" in block:
            cr = (ends > starts) & (data[np.maximum(ends - 1, 0)] == 13)
            ends = ends - cr
        length = ends - starts
        last = data[np.maximum(ends - 1, 0)]
        before = data[np.maximum(ends - 2, 0)]
        first = data[np.minimum(starts, max(len(data) - 1, 0))]
        comment = (first == 35) & (length > 0)  # "#"
        # "\t-" always ends a "-" field; " -" only in a file without tabs.
        self.has_tab = b"\t" in block
        separator = 9 if self.has_tab else 32
        self.fast = (length >= 2) & (last == 45) & (before == separator) & ~comment
        self.starts = starts
        self.ends = ends
        self.count = len(ends)
        self.visit = np.flatnonzero(~self.fast & (length > 0))
        self.fast_before = np.concatenate(([0], np.cumsum(self.fast)))
        # Lines that count as tokens, except white-space-only ones (rare; the
        # loop visits and discounts them).
        self.tokens_before = np.concatenate(([0], np.cumsum((length > 0) & ~comment)))
        self.token_total = int(self.tokens_before[-1])
        # Fields (runs of non-white-space bytes) of every line, for the forms digest.
        self.data = data
        separator_byte = (data == 9) | (data == 32) | (data == 10) | (data == 13)
        begins = ~separator_byte
        begins[1:] &= separator_byte[:-1]
        self.starts_of_fields = np.flatnonzero(begins)
        # A field ends after its last byte: one followed by a separator, or the block's last.
        last_bytes = ~separator_byte
        last_bytes[:-1] &= separator_byte[1:]
        self.ends_of_fields = np.flatnonzero(last_bytes) + 1
        self.first_field = np.searchsorted(self.starts_of_fields, starts)
        self.fields = np.searchsorted(self.starts_of_fields, ends) - self.first_field
        # Token lines: not empty, not white space only, not comments.
        self.token = (self.fields > 0) & ~comment

    def visited(self) -> Iterable[tuple[int, int, int, int]]:
        """(line, start, end, tokens before it) of the lines the reader's loop reads."""
        visit = self.visit
        # Only the visited lines' facts become Python ints (most lines are skipped).
        return zip(
            visit.tolist(),
            self.starts[visit].tolist(),
            self.ends[visit].tolist(),
            self.tokens_before[visit].tolist(),
        )

    def fast_in(self, lo: int, hi: int) -> bool:
        """Whether a fast line lies in the block's lines ``lo <= k < hi``."""
        return bool(self.fast_before[hi] - self.fast_before[lo])

    def first_fast(self, lo: int, hi: int) -> int:
        return lo + int(np.flatnonzero(self.fast[lo:hi])[0])

    def words(self, lo: int, hi: int, layout: int | None) -> _Words | None:
        """The word field of the token lines ``lo <= k < hi``: (layout, the words'
        bytes one after the other, their lengths); the bytes ``None`` when a line
        lacks that field; ``None`` without token lines."""
        tokens = np.flatnonzero(self.token[lo:hi]) + lo
        if len(tokens) == 0:
            return None
        if layout is None:
            first = self.first_field[int(tokens[0])]
            field = self.data[self.starts_of_fields[first] : self.ends_of_fields[first]]
            layout = _layout(field.tobytes())
        if (self.fields[tokens] <= layout + 1).any():
            return layout, None, None
        at = self.first_field[tokens] + layout
        starts, ends = self.starts_of_fields[at], self.ends_of_fields[at]
        sizes = ends - starts
        offsets = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes)
        chars = self.data[offsets + np.arange(int(sizes.sum()))]
        return layout, chars.tobytes(), sizes.astype("<i4").tobytes()


_FIELD = re.compile(rb"[^\t \r]+")


class _PlainLines:
    """The facts of ``_Lines``, found line by line in Python: for small blocks,
    where importing numpy would cost more than the whole reading (a command on a
    two-document file starts in a third of the time without it)."""

    __slots__ = ("count", "fast_before", "has_tab", "lines", "token_total", "visits")

    def __init__(self, block: bytes):
        self.has_tab = b"\t" in block
        separator = 9 if self.has_tab else 32
        lines = block.split(b"\n")
        if block.endswith(b"\n"):
            lines.pop()
        cr = b"\r" in block
        visits: list[tuple[int, int, int, int]] = []
        fast_before = [0]
        fast = tokens = pos = 0
        for k, line in enumerate(lines):
            start = pos
            pos += len(line) + 1
            if cr and line[-1:] == b"\r":
                line = lines[k] = line[:-1]
            if line:
                if line[0] == 35:  # "#": a comment, visited, not a token
                    visits.append((k, start, start + len(line), tokens))
                elif len(line) >= 2 and line[-1] == 45 and line[-2] == separator:
                    fast += 1
                    tokens += 1
                else:
                    visits.append((k, start, start + len(line), tokens))
                    tokens += 1
            fast_before.append(fast)
        self.lines = lines
        self.count = len(lines)
        self.visits = visits
        self.fast_before = fast_before
        self.token_total = tokens

    def visited(self) -> Iterable[tuple[int, int, int, int]]:
        return self.visits

    def fast_in(self, lo: int, hi: int) -> bool:
        return self.fast_before[hi] != self.fast_before[lo]

    def first_fast(self, lo: int, hi: int) -> int:
        return next(k for k in range(lo, hi) if self.fast_before[k + 1] != self.fast_before[k])

    def words(self, lo: int, hi: int, layout: int | None) -> _Words | None:
        words: list[bytes] = []
        missing = seen = False
        for line in self.lines[lo:hi]:
            if line[:1] == b"#":
                continue
            fields = _FIELD.findall(line)
            if not fields:
                continue
            seen = True
            if layout is None:
                layout = _layout(fields[0])
            if len(fields) <= layout + 1:
                missing = True
                break
            words.append(fields[layout])
        if not seen or layout is None:
            return None
        if missing:
            return layout, None, None
        return layout, b"".join(words), _lengths([len(w) for w in words])


# Blocks up to this size are read by ``_PlainLines`` (no numpy), larger ones by
# ``_Lines``: the arrays read a MiB in about 4 ms, the lines in about 22 ms, and
# importing numpy costs about 65 ms, so a file of up to a few MiB alone is read
# faster without arrays; 256 KiB keeps the loss small when numpy is loaded
# anyway (tests/io/test_conll_lines.py checks that the two agree).
_PLAIN_BYTES = 1 << 18


def _line_facts(block: bytes) -> _Lines | _PlainLines:
    return _PlainLines(block) if len(block) <= _PLAIN_BYTES else _Lines(block)


# The line-by-line reader's blocks: 1 MiB keeps its memory bounded (peak on a
# 130 MB file 366 -> 153 MB) at no cost in time.
_BLOCK = 1 << 20
# The array reader's arrays hold about eight bytes per byte of a block. A file's
# first 4 MiB are read in blocks of 256 KiB: their arrays stay in cache and their
# memory is reused from block to block, where fresh memory costs a page fault per
# 4 KiB (a pair of 2.6 MB files: 6,000 faults in 1 MiB blocks, 3,300 in 256 KiB;
# 28.7 and 25.5 ms). The rest is read in 1 MiB blocks, whose fewer calls are
# then cheaper (a pair of 41 MB files: 330 ms, against 370 in 256 KiB blocks).
_ARRAY_START_BLOCK = 1 << 18
_ARRAY_START_BYTES = 1 << 22


def iter_blocks(
    path: str, size: int = 1 << 24, *, start_size: int = 0, start_bytes: int = 0
) -> Iterator[bytes]:
    """Yield the file's bytes in blocks of whole lines (gzip detected by magic
    bytes): of about ``start_size`` bytes until ``start_bytes`` are read, then of
    about ``size``."""
    with open_binary(path) as handle:
        done = 0
        while True:
            try:
                block = handle.read(start_size if start_size and done < start_bytes else size)
                if block and not block.endswith(b"\n"):
                    # Completed to the end of its last line: one copy of the block,
                    # where keeping the rest for the next one costs two.
                    block += handle.readline()
                done += len(block)
            except (OSError, EOFError, zlib.error) as exc:
                raise InputError(f"cannot read file ({exc})", path=path) from None
            if not block:
                break
            yield block
            del block  # its memory serves the next block's arrays


def _read_blocks(blocks: Iterator[bytes], source: str) -> Corpus:
    warnings: list[str] = []
    documents: dict[str, Document] = {}
    first_seen: dict[str, int] = {}
    doc: _DocumentBuilder | None = None
    base = 0  # tokens of the file before the current document
    blank = 0  # white-space-only lines of the current document so far
    visited = 0  # token lines of the current document seen by the loop below
    offset = 0  # absolute index of the first line of the current block
    tokens = 0  # tokens of the file before the current block

    def close(builder: _DocumentBuilder, ntok: int) -> None:
        if visited < ntok:
            builder.all_tab = False  # some line ended in a '-' field
        first_sight(first_seen, builder.doc_id, builder.begin_line, source)
        documents[builder.doc_id] = builder.finish(ntok)

    for block in checked_start(blocks, source):
        _validate_text(block, source, offset)
        lines = _line_facts(block)
        visited_lines = lines.visited()
        has_tab = lines.has_tab
        lo = 0  # first line of the block not yet known to be inside a document
        doc_from = 0  # first line of the current document in this block
        for k, start, end, before_k in visited_lines:
            if doc is None and lines.fast_in(lo, k):
                _outside_document(source, offset + lines.first_fast(lo, k) + 1, bool(documents))
            lineno = offset + k + 1
            if doc is not None:
                if block[start] == 35:  # "#"
                    line = block[start:end].decode("utf-8")
                    if _END.search(line):
                        doc.forms.add_lines(lines, doc_from, k)
                        close(doc, tokens + before_k - base - blank)
                        doc = None
                        lo = k + 1
                    elif _BEGIN.match(line):
                        raise InputError(
                            f"'#begin document' inside document {doc.doc_id!r} "
                            f"(begun at line {doc.begin_line}): missing '#end document'",
                            path=source,
                            line=lineno,
                        )
                    continue  # a comment line, not a token
                tab = block.rfind(b"\t", start, end) if has_tab else -1
                if tab >= 0:
                    raw = block[tab + 1 : end].strip()
                    if not raw:
                        if not block[start:end].strip():
                            blank += 1
                            continue
                        visited += 1
                        token = tokens + before_k - base - blank
                        doc.pending.append((token, lineno, block[start:end].decode("utf-8")))
                        continue
                    doc.all_tab = False
                else:
                    parts = block[start:end].rsplit(None, 1)
                    if not parts:
                        blank += 1
                        continue
                    raw = parts[-1]
                    doc.all_tab = False
                visited += 1
                if raw == b"-" or raw == b"_":
                    continue
                doc.add_field(raw, tokens + before_k - base - blank, lineno)
                continue
            line = block[start:end].decode("utf-8")
            if line.isspace():
                lo = k + 1
                continue
            if line[:1] == "#":
                lo = k + 1
                match = _BEGIN.match(line)
                if match:
                    doc = _DocumentBuilder(match.group(1).strip(), lineno, source, warnings)
                    base, blank, visited = tokens + before_k, 0, 0
                    doc_from = k + 1
                    continue
                if _END.search(line):
                    raise InputError(
                        "'#end document' without '#begin document'", path=source, line=lineno
                    )
                continue
            _outside_document(source, lineno, bool(documents))
        nlines = lines.count
        if doc is not None:
            doc.forms.add_lines(lines, doc_from, nlines)
        if doc is None and lines.fast_in(lo, nlines):
            _outside_document(source, offset + lines.first_fast(lo, nlines) + 1, bool(documents))
        offset += nlines
        tokens += lines.token_total
    if doc is not None:
        warnings.append(
            f"{source}: document {doc.doc_id!r} has no '#end document'; read to the end of the file"
        )
        close(doc, tokens - base - blank)
    if not documents:
        raise InputError(
            "not a CoNLL coreference file: no '#begin document' line" if offset else "empty file",
            path=source,
            line=1,
        )
    return Corpus(documents=documents, source=source, warnings=tuple(warnings))


def checked_start(blocks: Iterable[bytes], source: str) -> Iterator[bytes]:
    """The blocks of a file, its first checked (not UTF-16, line ends) and without
    a UTF-8 byte-order mark; dropped when empty (a mark alone: found by fuzzing)."""
    first = True
    for block in blocks:
        if first:
            first = False
            block = opening_block(block, source)
            if not block:
                continue
        yield block


def _validate_text(block: bytes, source: str, offset: int) -> None:
    """Refuse a NUL byte or bytes that are not UTF-8, whichever comes first in the
    block, so that the message does not depend on where the blocks were cut."""
    nul = block.find(b"\x00")
    bad = -1
    if not block.isascii():  # ASCII is valid UTF-8, and far cheaper to check than decoding
        try:
            block.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = exc.start
    if nul >= 0 and (bad < 0 or nul < bad):
        line = offset + block.count(b"\n", 0, nul) + 1
        raise InputError("binary data (NUL byte); not a text file", path=source, line=line)
    if bad >= 0:
        line = offset + block.count(b"\n", 0, bad) + 1
        raise InputError(
            f"not valid UTF-8 (byte 0x{block[bad]:02x}); convert the file to UTF-8",
            path=source,
            line=line,
        )


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


# Syntax: a second, simple pass over the same lines. Token positions follow the
# rules of the coreference pass above exactly (in bytes, as it does): inside a
# document, a line is a token unless it is empty, white space only (a sentence
# break) or starts with "#" (a comment).

# CoNLL-2012 named-entity bits: "(PERSON*", "*", "*)", "(GPE)", "(DATE*)".
_NE_BIT = lazy_pattern(r"\([^\s()*]+\)|\([^\s()*]+\*\)?|\*\)?")


def _with_syntax(corpus: Corpus, syntax: dict[str, Syntax]) -> Corpus:
    documents = {
        doc_id: replace(doc, syntax=syntax.get(doc_id, Syntax()))
        for doc_id, doc in corpus.documents.items()
    }
    return Corpus(documents=documents, source=corpus.source, warnings=corpus.warnings)


def read_syntax(
    blocks: Iterable[bytes], source: str, head_column: int | None = None
) -> dict[str, Syntax]:
    """The token columns of every document of a CoNLL file, by document id.

    CoNLL-2012 layout (first field not a number): words are field 3 (0-based),
    POS field 4, parse bits field 5 (when they look like parse bits: ``*``
    with brackets; ``-`` means no parse), named entities field 10 (raw
    bracket bits such as ``(PERSON*``, ``*``, ``*)``). SemEval-2010 layout
    (first field a token number): words field 1, POS field 4 (field 5, the
    predicted POS, when 4 is empty), dependency heads from HEAD (field 8) or,
    when that is empty, PHEAD (field 9). A field is read only when every token
    line of the document has it and it is not the line's last (coreference)
    field; a POS field of only ``-`` or ``_`` counts as absent.

    ``head_column`` names the dependency head field explicitly (0-based);
    heads are token numbers within the sentence counted from 1, 0 for the
    root, and become document positions (-1 for the root). Blank lines
    separate sentences. Malformed parse bits and heads raise
    ``InputError`` at their line.
    """
    return {doc_id: builder.finish() for doc_id, builder in _walk(blocks, source, head_column)}


def syntax_token_lines(blocks: Iterable[bytes], source: str) -> dict[str, list[int]]:
    """The line number of every token, by document id, as the syntax pass counts them."""
    return {doc_id: builder.line_numbers for doc_id, builder in _walk(blocks, source, None)}


def _walk(
    blocks: Iterable[bytes], source: str, head_column: int | None
) -> Iterator[tuple[str, _SyntaxBuilder]]:
    """Every document's token lines, in a builder, in file order.

    Runs only on files the coreference pass has accepted, so the layout
    errors it reports (text outside documents...) cannot occur here.
    """
    builder: _SyntaxBuilder | None = None
    doc_id = ""
    lineno = 0  # lines of the file before the current block
    special_line = _SPECIAL_LINE()
    for block in checked_start(blocks, source):
        # Plain token lines go to the builder as runs of bytes, never split here;
        # only the other lines (blank, comment, document boundary, leading white
        # space), found by one scan of the block, are looked at one by one.
        end = len(block) - 1 if block.endswith(b"\n") else len(block)
        specials = [m.end() for m in special_line.finditer(block)]
        if block[:1] in _SPECIAL_START or not block:
            specials.insert(0, 0)
        run = 0  # where the current run of plain lines starts
        line = lineno + 1  # the line number at ``run``
        for start in specials:
            if start > run:
                count = block.count(b"\n", run, start - 1) + 1
                if builder is not None:
                    builder.add_run(block[run : start - 1], count, line)
                line += count
            stop = block.find(b"\n", start, end)
            if stop < 0:
                stop = end
            raw = block[start:stop].rstrip(b"\r")
            run = stop + 1
            if builder is None:
                if raw[:1] == b"#":
                    match = _BEGIN.match(raw.decode("utf-8"))
                    if match:
                        builder = _SyntaxBuilder(source, head_column)
                        doc_id = match.group(1).strip()
            elif not raw.strip():
                builder.new_sentence = True
            elif raw[:1] == b"#":
                if _END.search(raw.decode("utf-8")):
                    yield doc_id, builder
                    builder = None
            else:
                builder.add_run(raw, 1, line)
            line += 1
        if run < end:
            count = block.count(b"\n", run, end) + 1
            if builder is not None:
                builder.add_run(block[run:end], count, line)
            line += count
        lineno = line - 1
    if builder is not None:
        yield doc_id, builder


# The line break before a line that is not a plain token line (or may not be).
# The coreference pass counts a line of ASCII white space only, vertical tab and
# form feed included, as a sentence break: so must this pass (found by fuzzing).
_SPECIAL_LINE = lazy_pattern(rb"\n(?=[#\r \t\x0b\x0c\n])")
_SPECIAL_START = frozenset({b"#", b"\r", b" ", b"\t", b"\x0b", b"\x0c", b"\n"})


# A tab-separated field with white space at either end (str.strip() would change
# it): white space other than the tab and the line break, next to a tab or a line
# end. \s is str.isspace()'s white space, the characters str.strip() removes.
_PADDED_FIELD = lazy_pattern(r"(?:^|\t)[^\S\t\n]|[^\S\t\n](?:\t|$)", re.MULTILINE)


def _is_number(value: str) -> bool:
    return value.isascii() and value.isdigit()


class _SyntaxBuilder:
    """The token lines of one document, split into fields."""

    def __init__(self, source: str, head_column: int | None):
        self.source = source
        self.head_column = head_column
        self.lines: list[bytes] = []
        self.rows: list[list[str]] = []
        # When every line has the same fields: all of them in one list, each
        # line's followed by a marker item (``width`` fields, then the marker).
        self.flat: list[str] | None = None
        self.width = 0
        self.count = 0
        self.columns: dict[int, tuple[str, ...]] = {}
        self.shortest = 0
        self.line_numbers: list[int] = []
        self.sentence_starts: list[int] = []
        self.new_sentence = True

    def add_run(self, text: bytes, count: int, lineno: int) -> None:
        """``count`` token lines, ``text`` (without the last line break), the first
        one at line ``lineno``."""
        if self.new_sentence:
            self.sentence_starts.append(self.count)
            self.new_sentence = False
        self.lines.append(text)
        self.count += count
        self.line_numbers.extend(range(lineno, lineno + count))

    def split(self) -> None:
        """Split the stored lines into fields, once, at the end of the document."""
        text = b"\n".join(self.lines).decode("utf-8")
        self.lines = []
        if not self._split_flat(text):
            self._split_rows(text)
        if self.head_column is not None and self.shortest <= self.head_column:
            for lineno, width in zip(self.line_numbers, self._widths()):
                if width <= self.head_column:
                    raise InputError(
                        f"no field {self.head_column} (the dependency head column, counted "
                        f"from 0) on this line of {width} fields",
                        path=self.source,
                        line=lineno,
                    )

    def _split_flat(self, text: str) -> bool:
        """Split the whole text in one call when every line has the same number of
        fields (the usual file): a column is then a slice, not a loop over rows.

        Each line is followed by a marker that no field can be (a line break for
        tab-separated lines, a NUL for the others, refused when the text has one);
        the lines all have ``width`` fields exactly when every ``width + 1``-th
        item is a marker and there are as many markers as line breaks."""
        if "\t" in text:
            if _PADDED_FIELD().search(text):
                return False  # fields to strip: row by row
            marker = "\n"
            flat = text.replace("\n", "\t\n\t").split("\t")
        else:
            if "\x00" in text:
                return False
            marker = "\x00"
            flat = text.replace("\n", " \x00 ").split()
        breaks = self.count - 1
        width = flat.index(marker) if breaks else len(flat)
        if (
            width == 0
            or len(flat) != self.count * (width + 1) - 1
            or flat[width :: width + 1].count(marker) != breaks
        ):
            return False
        self.flat = flat
        self.width = self.shortest = width
        return True

    def _split_rows(self, text: str) -> None:
        if "\t" in text:
            # A CRLF line ends in "\r", which the strip below removes.
            rows = [line.split("\t") for line in text.split("\n")]
            if _PADDED_FIELD().search(text):
                rows = [[f.strip() for f in row] for row in rows]
        else:
            rows = [line.split() for line in text.split("\n")]
        self.rows = rows
        self.shortest = min(map(len, rows))

    def _widths(self) -> Iterable[int]:
        return map(len, self.rows) if self.flat is None else [self.width] * self.count

    def _field(self, index: int) -> tuple[str, ...]:
        """Field ``index`` of every line (every line has it)."""
        if self.flat is not None:
            return tuple(self.flat[index :: self.width + 1])
        return tuple([row[index] for row in self.rows])

    def column(self, index: int) -> tuple[str, ...] | None:
        # The last field is the coreference one, never a syntax column; a column
        # is made only when asked for (a document has a dozen, four are read).
        if index < self.shortest - 1:
            found = self.columns.get(index)
            if found is None:
                found = self.columns[index] = self._field(index)
            return found
        return None

    def finish(self) -> Syntax:
        if not self.lines:
            return Syntax()
        self.split()
        return self.syntax()

    def first_field(self) -> str:
        return self.rows[0][0] if self.flat is None else self.flat[0]

    def syntax(self) -> Syntax:
        """The document's columns, once its lines are split."""
        if _is_number(self.first_field()):
            words = self.column(1)
            pos = _present(self.column(4)) or _present(self.column(5))
            parse = named = None
            heads = None
            if self.head_column is None:
                for index in (8, 9):
                    heads = self._heads(self.column(index), explicit=False)
                    if heads is not None:
                        break
        else:
            words = self.column(3)
            pos = _present(self.column(4))
            parse = self._parse(self.column(5))
            named = self.column(10)
            distinct = set(named) if named is not None else set()
            ne_bit = _NE_BIT()
            if named is not None and (
                distinct <= {"-"} or not all(v == "-" or ne_bit.fullmatch(v) for v in distinct)
            ):
                named = None
            heads = None
        if self.head_column is not None:
            values = self._field(self.head_column)
            heads = self._heads(values, explicit=True)
        return Syntax(
            words=words,
            pos=pos,
            parse=parse,
            named_entities=named,
            dependency_heads=heads,
            sentence_starts=tuple(self.sentence_starts),
        )

    def _sentences(self) -> Iterator[tuple[int, int]]:
        bounds = [*self.sentence_starts, self.count]
        return pairwise(bounds)

    def _heads(self, values: tuple[str, ...] | None, *, explicit: bool) -> tuple[int, ...] | None:
        """Sentence-relative head numbers as document positions (-1 for roots)."""
        if values is None:
            return None
        out: list[int] = []
        for start, stop in self._sentences():
            for token in range(start, stop):
                value = values[token]
                number = int(value) if _is_number(value) else -1
                if 0 <= number <= stop - start:
                    out.append(start + number - 1 if number else -1)
                    continue
                if not explicit:
                    return None
                problem = (
                    f"is beyond the sentence's {stop - start} tokens"
                    if number > 0
                    else "is not a token number (1, 2, ... within the sentence, 0 for the root)"
                )
                raise InputError(
                    f"dependency head {value!r} {problem}",
                    path=self.source,
                    line=self.line_numbers[token],
                )
        return tuple(out)

    def _parse(self, values: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """The parse bits if the field holds them, checked for balance per sentence."""
        from ..heads import PARSE_BIT  # only the syntax pass needs it

        if values is None:
            return None
        distinct = set(values)
        if not any("*" in v for v in distinct):
            return None
        if not all(v == "-" or "*" in v or "(" in v or ")" in v for v in distinct):
            return None  # some other field that happens to contain "*"
        if distinct <= {"*", "-"}:
            return values  # no brackets: nothing to balance
        nets = {bit: _parse_net(bit) for bit in distinct}
        net = {bit: n for bit, n in nets.items() if n is not None}
        if len(net) == len(nets):
            # Every sentence balanced, checked on the running depth over the
            # document: it must never go below 0 and must be 0 at every
            # sentence's end (so each sentence starts at 0). The loop below
            # runs only to say which bit is wrong.
            running = list(accumulate(map(net.__getitem__, values)))
            if min(running) >= 0 and not any(running[stop - 1] for _, stop in self._sentences()):
                return values
        for start, stop in self._sentences():
            depth = 0
            for token in range(start, stop):
                bit = values[token]
                if bit == "*" or bit == "-":
                    continue
                if not PARSE_BIT.fullmatch(bit):
                    raise InputError(
                        f"bad parse bit {bit!r}: expected brackets around one '*', "
                        "like '(NP(DT*' or '*))'",
                        path=self.source,
                        line=self.line_numbers[token],
                    )
                depth += bit.count("(")
                depth -= bit.count(")")
                if depth < 0:
                    raise InputError(
                        f"unbalanced parse brackets: {bit!r} closes a constituent "
                        "that was never opened in this sentence",
                        path=self.source,
                        line=self.line_numbers[token],
                    )
            if depth:
                raise InputError(
                    f"unbalanced parse brackets: {depth} constituent(s) still open at the "
                    "end of the sentence",
                    path=self.source,
                    line=self.line_numbers[stop - 1],
                )
        return values


# Parse bits repeat across documents ("*", "(NP*", "*)"): each is checked once.
@lru_cache(maxsize=1 << 16)
def _parse_net(bit: str) -> int | None:
    """A parse bit's openings less its closings; None when it is not a parse bit."""
    from ..heads import PARSE_BIT

    if bit == "*" or bit == "-":
        return 0
    if not PARSE_BIT.fullmatch(bit):
        return None
    return bit.count("(") - bit.count(")")


def _present(values: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """``values`` unless it is missing or every value is "-" or "_"."""
    if not values:
        return None
    # A first value that is neither settles it without counting the column.
    first = values[0]
    if first != "-" and first != "_":
        return values
    return None if values.count("-") + values.count("_") == len(values) else values
