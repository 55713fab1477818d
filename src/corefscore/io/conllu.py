"""Reader for CorefUD CoNLL-U files (the CRAC shared tasks' coreference format).

Layout (CorefUD 1.x, as written by udapi):

* 10 tab-separated columns per token line; a blank line ends a sentence;
  ``# newdoc id = X`` starts document ``X``;
* ``# global.Entity = eid-etype-head-other`` names the attributes of an
  opening bracket, in order (the first one is always the entity id, whatever
  its name: GUM calls it ``GRP``); without it, that default order is used;
* the ``Entity=`` item of MISC (column 10) holds bracket chunks without a
  separator: ``(e12-person-1`` opens a mention, ``e12)`` closes it,
  ``(e12-person-1)`` is a single-token mention; closings come before openings
  on a line (udapi's Rule 1), which is what makes the run-together chunks
  parseable;
* a discontinuous mention has its parts marked ``e5[1/2]`` ... ``e5[2/2]``,
  each part bracketed on its own; the attributes come from part 1;
* the ``head`` attribute is the 1-based position of the head among the
  mention's nodes (all its parts, empty nodes included).

Document tokens are the word lines of the document counted from 0 across its
sentences; multiword-token ranges (``3-4``) are never tokens. Empty nodes
(``5.1``) are tokens only with ``empty_nodes=True``. Otherwise a mention
keeps just its word tokens: a boundary on an empty node moves to the nearest
word inside the mention; a mention made only of empty nodes is dropped (one
warning per document with the count), and a head on an empty node becomes
unknown (``None``).

A document without a ``# newdoc id`` before its first sentence is named
after the file (its name without directory and ``.conllu``/``.gz``
suffixes), with a warning.

With ``empty_nodes=True`` and the syntax (how the CorefUD evaluation reads a
file), a file that fits in one block has its coreference read by the array
pass and its columns cut out with array operations, with the same result as
the line loop; anything unusual (CR line ends, white-space-only lines, a HEAD
naming no word, an error) is read by the line loop, which reports errors.

With ``syntax=False`` only the coreference is read (``Document.syntax`` is
``None``; the word, UPOS and HEAD columns are not even split out), which is
several times faster; everything else, errors included, is the same except
that HEAD values are then not checked.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from operator import itemgetter
from typing import Any

import numpy as np

from .._record import replace
from ..errors import InputError, shown
from ..model import Corpus, Document, Span, SplitAntecedent, Syntax
from .conll import iter_blocks
from .files import NEWDOC, first_sight, newdoc_id, opening_block

DEFAULT_ATTRIBUTES = ("eid", "etype", "head", "other")

_GLOBAL_ENTITY = re.compile(r"#\s*global\.Entity\s*=\s*(.*?)\s*$")
# udapi's reading: the first non-space run after "sent_id" and an optional "=".
_SENT_ID = re.compile(r"#\s*sent_id\s*=?\s*(\S+)")
# An entity id: none of the characters udapi forbids in one ("-=| \t()"),
# nor the brackets of a part marker.
_EID = re.compile(r"([^-=|\s()\[\]]+)(\[[^\]]*\])?")
_PART = re.compile(r"\[([1-9][0-9]*)/([1-9][0-9]*)\]")
# One link of a SplitAnte (``e1<e3``) or Bridge (``e1<e3:part``) item: the
# entity named first is the antecedent. Ids are what an Entity= id may be,
# split as udapi splits them: at the one ``<``, then (Bridge) the anaphor's id
# at its first ``:``.
_LINK_ID = r"[^-=|\s()\[\]<,]+"
_SPLIT_LINK = re.compile(f"({_LINK_ID})<({_LINK_ID})")
_ANAPHOR_ID = r"[^-=|\s()\[\]<,:]+"
_BRIDGE_LINK = re.compile(f"({_LINK_ID})<({_ANAPHOR_ID})(?::[^,]*)?")
# One well-formed chunk of an Entity= value in a single match: an opening
# "(eid[marker]-attrs" with its optional ")" (groups 1-4), or a closing
# "eid[marker]-attrs)" (groups 5-6). It accepts exactly what the
# character-by-character reading (_DocumentBuilder.entity_chunks) accepts,
# with the same parts, except markers holding a parenthesis: those are left
# to that reading, so that it reports them as it always did.
_CHUNK = re.compile(
    r"\(([^-=|\s()\[\]]+)(\[[^\]()]*\])?(?:-([^()]*))?(?=[()]|\Z)(\)?)"
    r"|([^-=|\s()\[\]]+)(\[[^\]()]*\])?(?:-[^()]*)?\)"
)

# Each distinct well-formed Entity= value is compiled once into a program:
# one operation per chunk, (op, eid, marker, attributes), run for every
# occurrence of the value (closings such as "e12)" recur in every document).
# Programs do not depend on the attribute declaration, so they are shared by
# all readings; values are cached as read (str) and, by the array pass, as
# the bytes of the file.
_OPEN, _SINGLE, _CLOSE, _MARKED_OPEN, _MARKED_SINGLE, _MARKED_CLOSE = range(6)
_Op = tuple[int, str, str | None, str | None]
_Program = tuple[_Op, ...]
_PROGRAMS: dict[str, _Program] = {}
_PROGRAMS_BYTES: dict[bytes, _Program] = {}
_CACHE_LIMIT = 200_000
# What an opening's attributes say under one declaration (global.Entity):
# (head as written or None, head as a number or 0 when not one, etype or None).
_Info = tuple[str | None, int, str | None]
_NO_INFO: _Info = (None, 0, None)
_INFOS: dict[tuple[str, ...], dict[str | None, _Info]] = {}
_LAYOUT_LIMIT = 1_000


def _compile(value: str) -> _Program | None:
    """The program of a well-formed ``Entity=`` value, or ``None``."""
    if not value:
        return None
    ops: list[_Op] = []
    pos = 0
    n = len(value)
    match_chunk = _CHUNK.match
    while pos < n:
        m = match_chunk(value, pos)
        if m is None:
            return None
        pos = m.end()
        eid, marker, attributes, single, closing, closing_marker = m.groups()
        if eid is None:
            ops.append(
                (_CLOSE if closing_marker is None else _MARKED_CLOSE, closing, closing_marker, None)
            )
        elif marker is None:
            ops.append((_SINGLE if single else _OPEN, eid, None, attributes))
        else:
            ops.append((_MARKED_SINGLE if single else _MARKED_OPEN, eid, marker, attributes))
    return tuple(ops)


# What a token ID names. IDs repeat from sentence to sentence, so each
# distinct one is validated once.
_WORD, _EMPTY, _RANGE = 0, 1, 2
_ID_CACHE_LIMIT = 100_000
# Longest token ID the array pass validates; longer ones go to the line loop.
_MAX_FAST_ID = 16
# The MISC keys the reader uses: the array pass hands their lines to the loop.
_VISIT_KEYS = (b"Entity", b"SplitAnte", b"Bridge")
# Bytes 2-7 and 2-8 of "# newdoc" and "# global.Entity", little-endian.
_NEWDOC_WORD = int.from_bytes(b"newdoc", "little")
_GLOBAL_WORD = int.from_bytes(b"global.", "little")


def bridging_mentions(
    anaphor_entity: Sequence[Span], word: int, antecedent_entity: Sequence[Span]
) -> tuple[Span, Span] | None:
    """The (anaphor, antecedent) mentions of a Bridge link found on token ``word``.

    CorefUD writes a link on the anaphor's first word and names two entities.
    The anaphor is, as udapi reads it, the mention of its entity opened last at
    or before that word (of two opening at one word, the shorter, opened
    last); ``None`` when there is none. The antecedent is the mention of the
    antecedent entity that starts last before the anaphor does (of two
    starting at one word, the longer), else that entity's first mention:
    CorefUD does not say which mention, and the markable-level bridging
    score needs one.
    """
    opened = [span for span in anaphor_entity if span[0] <= word]
    if not opened or not antecedent_entity:
        return None
    anaphor = max(opened, key=lambda span: (span[0], -span[1]))
    before = [span for span in antecedent_entity if span[0] < anaphor[0]]
    if before:
        return anaphor, max(before)
    return anaphor, min(antecedent_entity, key=lambda span: (span[0], -span[1]))


def read_conllu(
    path: str | os.PathLike[str],
    *,
    empty_nodes: bool = False,
    syntax: bool = True,
    drop_unclosed: bool = False,
) -> Corpus:
    """Read a CorefUD CoNLL-U file (plain or gzipped).

    ``syntax=False`` reads only the coreference: ``Document.syntax`` is then
    ``None`` and the HEAD column is not checked; everything else (mentions,
    heads, types, warnings, errors) is as with ``syntax=True``, several times
    faster. A mention opened and never closed is an error, or, with
    ``drop_unclosed`` (the CorefUD evaluation: udapi's reading), dropped with
    a warning.
    """
    name = os.fspath(path)
    if syntax and empty_nodes:
        fast = _read_with_columns(name, drop_unclosed)
        if fast is not None:
            return fast
    reader = _Reader(name, empty_nodes, syntax, drop_unclosed)
    for block in _file_blocks(name, reader):
        reader.block(block)
    return reader.corpus()


def _read_with_columns(path: str, drop_unclosed: bool) -> Corpus | None:
    """``read_conllu(path, empty_nodes=True, syntax=True)`` of a file in one block:
    the coreference by the array pass, the columns with array operations.

    ``None`` when the file is not of that plain kind (several blocks, CR line
    ends, white-space-only lines, a HEAD that names no word), or has an error:
    the line-by-line reading then reads it, and reports its first error as
    always.
    """
    reader = _Reader(path, True, False, drop_unclosed)
    blocks: list[bytes] = []
    try:
        for block in _file_blocks(path, reader):
            if blocks or b"\r" in block:
                return None
            blocks.append(block)
            reader.block(block)
        corpus = reader.corpus()
    except InputError:
        return None
    if len(blocks) != 1:
        return None
    counts = [doc.token_count for doc in corpus]
    if any(count is None for count in counts):
        return None
    syntaxes = _block_syntax(blocks[0], [count or 0 for count in counts])
    if syntaxes is None:
        return None
    documents = {
        doc_id: replace(doc, syntax=syntax)
        for (doc_id, doc), syntax in zip(corpus.documents.items(), syntaxes)
    }
    return Corpus(documents=documents, source=corpus.source, warnings=corpus.warnings)


def _gather(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The strings ``data[starts[i]:ends[i]]``, decoded together (``ends[i]`` is the
    position of a tab or line end, which becomes the separator)."""
    if not len(starts):
        return []
    lengths = ends - starts
    step = lengths + 1
    offsets = np.cumsum(step) - step
    where = np.arange(int(step.sum()), dtype=np.int64) + np.repeat(starts - offsets, step)
    out = data[where]
    out[offsets + lengths] = 10
    text: str = out.tobytes().decode("utf-8")
    return text.split("\n")[:-1]


class _Column:
    """A column of a block, cut out and decoded when first asked for (the
    ``_gather`` of its ranges)."""

    __slots__ = ("_data", "_ends", "_starts", "_values")

    def __init__(self, data: np.ndarray, starts: np.ndarray, ends: np.ndarray):
        self._data, self._starts, self._ends = data, starts, ends
        self._values: list[str] | None = None

    def values(self) -> list[str]:
        if self._values is None:
            self._values = _gather(self._data, self._starts, self._ends)
            del self._data, self._starts, self._ends
        return self._values


class _LazyColumn(Sequence[str]):
    """One document's part of a ``_Column``: a read-only sequence of strings
    that decodes its column when first read. MISC is the longest column
    (the ``Entity`` values), and only the CoNLL-U writer reads it, so the
    scoring read does not pay for it. Pickles, compares and hashes as the
    tuple of its items."""

    __slots__ = ("_column", "_items", "_start", "_stop")

    def __init__(self, column: _Column, start: int, stop: int):
        self._column, self._start, self._stop = column, start, stop
        self._items: tuple[str, ...] | None = None

    def _tuple(self) -> tuple[str, ...]:
        if self._items is None:
            self._items = tuple(self._column.values()[self._start : self._stop])
            del self._column
        return self._items

    def __len__(self) -> int:
        return self._stop - self._start

    def __getitem__(self, index: Any) -> Any:
        return self._tuple()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tuple())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _LazyColumn):
            other = other._tuple()
        return isinstance(other, tuple) and self._tuple() == other

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return repr(self._tuple())

    def __reduce__(self) -> tuple[type, tuple[tuple[str, ...]]]:
        return (tuple, (self._tuple(),))


def _block_syntax(block: bytes, token_counts: list[int]) -> list[Syntax] | None:
    """Each document's syntax (empty nodes as tokens), as ``_DocumentBuilder.syntax``
    makes it, from a block the array pass has read without error; ``None`` when
    the block is not plain enough to be sure of it."""
    if not block.endswith(b"\n"):
        block += b"\n"
    data = np.frombuffer(block, dtype=np.uint8)
    ends = np.flatnonzero(data == 10)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    first = data[np.minimum(starts, len(data) - 1)]
    blank = ends == starts
    comment = ~blank & (first == 35)
    token = ~blank & ~comment
    tabs = np.flatnonzero(data == 9)
    token_at = np.flatnonzero(token)
    # Every token line has its 9 tabs (the array pass checked it), so its k-th tab
    # is the k-th after its start; anything else (a white-space-only line) is unusual.
    first_tab = np.searchsorted(tabs, starts[token_at])
    last_tab = first_tab + 8
    if len(token_at) and (
        last_tab[-1] >= len(tabs)
        or np.any(tabs[np.minimum(last_tab, len(tabs) - 1)] > ends[token_at])
        or np.any(np.searchsorted(tabs, ends[token_at]) - first_tab != 9)
    ):
        return None
    ids = _gather(data, starts[token_at], tabs[first_tab])
    nodes = [i for i, x in enumerate(ids) if "-" not in x]  # not the multiword ranges
    if len(nodes) != sum(token_counts):
        return None
    pick = np.array(nodes, dtype=np.int64)
    node_lines = token_at[pick]
    node_tabs = first_tab[pick]
    node_ids = [ids[i] for i in nodes]

    def column(j: int) -> _Column:
        begin = tabs[node_tabs + j - 1] + 1
        stop = tabs[node_tabs + j] if j < 9 else ends[node_lines]
        return _Column(data, begin, stop)

    def underscores_before(j: int) -> list[int]:
        """How many of the first n nodes have "_" in column j, for every n."""
        begin = tabs[node_tabs + j - 1] + 1
        blank = (tabs[node_tabs + j] - begin == 1) & (data[begin] == 95)
        return [0, *np.cumsum(blank).tolist()]

    words, raw_heads, deps = (column(j).values() for j in (1, 6, 8))
    # Only the writers read UPOS, FEATS and MISC: cut out when first read.
    pos, feats, misc = column(3), column(5), column(9)
    no_pos, no_feats = underscores_before(3), underscores_before(5)
    # A sentence starts at a node after a blank line, and at each document's first.
    blanks_before = np.cumsum(blank)[node_lines]
    starts_sentence = np.ones(len(pick), dtype=bool)
    starts_sentence[1:] = blanks_before[1:] != blanks_before[:-1]
    doc_starts = np.cumsum([0, *token_counts[:-1]]).astype(np.int64)
    starts_sentence[doc_starts[doc_starts < len(pick)]] = True
    sentence_ids = _sentence_ids(block, data, starts, ends, comment, node_lines, starts_sentence)
    if sentence_ids is None:
        return None
    sentence_at = np.flatnonzero(starts_sentence).tolist()
    lines = (node_lines + 1).tolist()
    out: list[Syntax] = []
    for d, count in enumerate(token_counts):
        a = int(doc_starts[d])
        b = a + count
        first_sentence = bisect_left(sentence_at, a)
        sentences = sentence_at[first_sentence : bisect_left(sentence_at, b)]
        doc_ids = tuple(node_ids[a:b])
        try:
            heads = _dependency_heads(doc_ids, raw_heads[a:b], [t - a for t in sentences], True)
        except _UnknownHead:
            return None
        out.append(
            Syntax(
                words=tuple(words[a:b]),
                pos=_LazyColumn(pos, a, b) if no_pos[b] - no_pos[a] != count else None,
                dependency_heads=heads,
                sentence_starts=tuple(t - a for t in sentences),
                feats=_LazyColumn(feats, a, b) if no_feats[b] - no_feats[a] != count else None,
                node_ids=doc_ids,
                deps=tuple(deps[a:b]),
                misc=_LazyColumn(misc, a, b),
                sentence_ids=tuple(sentence_ids[first_sentence : first_sentence + len(sentences)]),
                token_lines=tuple(lines[a:b]),
            )
        )
    return out


class _UnknownHead(LookupError):
    """A HEAD that names no word of its sentence, at token ``position``."""

    def __init__(self, position: int):
        super().__init__(position)
        self.position = position


def _dependency_heads(
    node_ids: Sequence[str],
    raw_heads: Sequence[str],
    sentence_starts: Sequence[int],
    empty_nodes: bool,
) -> tuple[int, ...] | None:
    """One document's dependency heads (token positions, -1 for a root) from its
    ID and HEAD columns, ``None`` when it has none; ``_UnknownHead`` at the first
    HEAD that names no word of its sentence (an empty node, which is not a token
    without ``empty_nodes``, counts as a root)."""
    n = len(raw_heads)
    if raw_heads.count("_") == n:
        return None
    heads: list[int] = []
    for start, stop in pairwise([*sentence_starts, n]):
        # Each word of the sentence by ID, the last of a repeated ID; "_" and "0": the root.
        index = dict(zip(node_ids[start:stop], range(start, stop)))
        index["_"] = index["0"] = -1
        heads.extend([index.get(raw, -2) for raw in raw_heads[start:stop]])
    if -2 in heads:
        for t, head in enumerate(heads):
            if head == -2:
                if "." in raw_heads[t] and not empty_nodes:
                    heads[t] = -1
                else:
                    raise _UnknownHead(t)
    return tuple(heads)


def _sentence_ids(
    block: bytes,
    data: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    comment: np.ndarray,
    node_lines: np.ndarray,
    starts_sentence: np.ndarray,
) -> list[str | None] | None:
    """Each sentence's ``# sent_id``, read as the line loop reads them: a sentence
    takes the last one since the sentence before, unless a document began after
    it (only those before the file's first document carry into it)."""
    events: list[tuple[int, int, str | None]] = []  # (line, kind, value)
    for line in np.flatnonzero(comment).tolist():
        text = block[starts[line] : ends[line]]
        if b"sent_id" in text:
            match = _SENT_ID.match(text.decode("utf-8"))
            if match:
                events.append((line, 0, match.group(1)))
                continue
        if b"newdoc" in text and NEWDOC().match(text.decode("utf-8")):
            events.append((line, 1, None))
    for line in node_lines[starts_sentence].tolist():
        events.append((line, 2, None))
    events.sort(key=itemgetter(0))
    out: list[str | None] = []
    opened = False
    current: str | None = None
    pending: str | None = None
    for _, kind, value in events:
        if kind == 0:
            if opened:
                current = value
            else:
                pending = value
        elif kind == 1 or not opened:
            opened = True
            current, pending = pending, None
            if kind == 2:
                out.append(current)
                current = None
        else:
            out.append(current)
            current = None
    return out


def read_conllu_text(
    text: str, *, source: str = "<string>", empty_nodes: bool = False, syntax: bool = True
) -> Corpus:
    """Parse CorefUD CoNLL-U text; ``source`` names it in error messages.

    ``syntax`` is as for ``read_conllu``.
    """
    reader = _Reader(source, empty_nodes, syntax)
    reader.lines(text.splitlines())
    return reader.corpus()


def _file_blocks(path: str, reader: _Reader) -> Iterator[bytes]:
    """The file's bytes in blocks of whole lines, checked to be UTF-8.

    The lines before an invalid byte are all handed out (to ``reader``) before
    its error is raised, so that an error on an earlier line still wins, as
    when the file is read a line at a time.
    """
    first = True
    for block in iter_blocks(path):
        if first:
            first = False
            block = opening_block(block, path)
            if not block:
                reader.lines([""])  # the file was a byte-order mark alone: one empty line
                continue
        try:
            if not block.isascii():  # ASCII is valid UTF-8, and far cheaper to check
                block.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad_line = block.rfind(b"\n", 0, exc.start) + 1
            if bad_line:
                yield block[:bad_line]
            raise InputError(
                f"not valid UTF-8 (byte 0x{block[exc.start]:02x}); convert the file to UTF-8",
                path=path,
                line=reader.lineno + 1,
            ) from None
        yield block


def _id_kind(word_id: str, source: str, lineno: int) -> int:
    if "-" in word_id:
        a, _, b = word_id.partition("-")
        if not (a.isdigit() and b.isdigit()):
            raise InputError(
                f"bad token ID {word_id!r}: expected N, N-M or N.K", path=source, line=lineno
            )
        return _RANGE
    a, dot, b = word_id.partition(".")
    if not (a.isascii() and a.isdigit()) or (dot and not (b.isascii() and b.isdigit())):
        raise InputError(
            f"bad token ID {word_id!r}: expected N, N-M or N.K", path=source, line=lineno
        )
    return _EMPTY if dot else _WORD


def _split_attributes(raw: str | None) -> list[str]:
    return raw.split("-") if raw is not None else []


class _Mention:
    """A discontinuous mention being read: its node ranges (one per part)."""

    __slots__ = ("attributes", "eid", "head_attributes", "line", "parts", "total")

    def __init__(self, eid: str, attributes: str | None, line: int, total: int):
        self.eid = eid
        self.attributes = attributes
        # The head comes from the last part's opening, as udapi reads it.
        self.head_attributes: str | None = None
        self.line = line
        self.total = total
        self.parts: dict[int, tuple[int, int]] = {}


class _DocumentBuilder:
    """Collects one document's mentions (and, when asked, syntax columns).

    Nodes are the word and empty-node lines of the document, numbered from 0.
    A node's token is its number minus the non-token empty nodes before it
    (``empties``, few), so that nothing is stored per plain word line.
    """

    def __init__(
        self,
        doc_id: str,
        line: int,
        source: str,
        attributes: tuple[str, ...],
        node_base: int,
    ):
        self.doc_id = doc_id
        self.line = line
        self.source = source
        self.set_attributes(attributes)
        self.node_base = node_base  # the reader's node count when the document began
        self.empties: list[int] = []
        self.empty_set: set[int] = set()
        # The columns of each token line, and its line number; made into the
        # syntax's columns at the end.
        self.rows: list[list[str]] = []
        self.row_lines: list[int] = []
        self.sentence_starts: list[int] = []
        self.sent_ids: list[str | None] = []
        self.next_sent_id: str | None = None  # the '# sent_id' of the coming sentence
        self.in_sentence = False
        self.open: dict[str, list[tuple[int, int, str | None]]] = {}
        self.discontinuous: dict[tuple[str, int], _Mention] = {}
        self.index: dict[str, int] = {}
        self.entities: list[list[Span]] = []
        self.lines: list[list[int]] = []
        self.heads: list[list[int | None]] = []
        self.pieces: list[list[tuple[Span, ...] | None]] = []
        self.types: list[str | None] = []
        self.dropped = 0
        self.has_heads = False
        self.has_pieces = False  # some mention in several pieces
        # SplitAnte and Bridge items as written, (line, value), for the annotations;
        # and their links: (line, antecedent eid, entity eid), a Bridge's with its node.
        self.split_antecedents: list[tuple[int, str]] = []
        self.bridging: list[tuple[int, str]] = []
        self.split_links: list[tuple[int, str, str]] = []
        self.bridge_links: list[tuple[int, int, str, str]] = []

    def set_attributes(self, attributes: tuple[str, ...]) -> None:
        self.attributes = attributes
        names = attributes[1:]
        # Where "head" and "etype" sit among an opening's attributes; with a
        # repeated name the last one present wins, as in a dict of them.
        self.head_at = tuple(i for i, name in enumerate(names) if name == "head")[::-1]
        self.etype_at = tuple(i for i, name in enumerate(names) if name == "etype")[::-1]
        self.split_limit = max(self.head_at + self.etype_at, default=-1) + 1
        infos = _INFOS.get(attributes)
        if infos is None:
            infos = {}
            if len(_INFOS) < _LAYOUT_LIMIT:
                _INFOS[attributes] = infos
        self.infos = infos

    def error(self, message: str, line: int) -> InputError:
        return InputError(message, path=self.source, line=line)

    def token_of(self, node: int) -> int:
        """The token of a node, or -1 for an empty node that is not a token."""
        if not self.empties:
            return node
        if node in self.empty_set:
            return -1
        return node - bisect_left(self.empties, node)

    def add_syntax(self, fields: list[str], word_id: str, token: int | None, lineno: int) -> None:
        """Record a node's syntax columns; ``token`` is ``None`` for a non-token node."""
        if not self.in_sentence:
            self.in_sentence = True
            self.sentence_starts.append(len(self.rows))
            self.sent_ids.append(self.next_sent_id)
            self.next_sent_id = None
        if token is not None:
            self.rows.append(fields)
            self.row_lines.append(lineno)

    def add_misc(self, misc: str, node: int, lineno: int) -> None:
        for item in misc.split("|"):
            initial = item[:1]
            if initial != "E" and initial != "S" and initial != "B":
                continue  # not a key read here (most items: SpaceAfter, MSeg, ...)
            key, _, value = item.partition("=")
            if key == "Entity":
                self.add_entity_field(value, node, lineno)
            elif key == "SplitAnte":
                self.split_antecedents.append((lineno, value))
                for ante, this in self.links(key, value, _SPLIT_LINK, lineno):
                    self.split_links.append((lineno, ante, this))
            elif key == "Bridge":
                self.bridging.append((lineno, value))
                for ante, this in self.links(key, value, _BRIDGE_LINK, lineno):
                    self.bridge_links.append((lineno, node, ante, this))

    def links(
        self, key: str, value: str, pattern: re.Pattern[str], lineno: int
    ) -> list[tuple[str, str]]:
        """The (antecedent, entity) id pairs of a SplitAnte or Bridge value."""
        out = []
        for item in value.split(","):
            match = pattern.fullmatch(item)
            if match is None:
                form = "e1<e3" if key == "SplitAnte" else "e1<e3 or e1<e3:relation"
                raise self.error(
                    f"bad {key} value {shown(value)}: {shown(item)} is not a link "
                    f"such as {form} (links separated by ',')",
                    lineno,
                )
            ante, this = match.group(1), match.group(2)
            if ante == this:
                raise self.error(
                    f"bad {key} value {shown(value)}: {shown(item)} links entity "
                    f"{shown(this)} to itself",
                    lineno,
                )
            out.append((ante, this))
        return out

    def add_entity_field(self, value: str, node: int, lineno: int) -> None:
        program = _PROGRAMS.get(value)
        if program is None:
            if not value:
                raise self.error("empty 'Entity=' value in MISC", lineno)
            program = _compile(value)
            if program is None:
                # Malformed (or unusual): the character-by-character reading
                # processes the value and reports the first problem.
                self.entity_chunks(value, 0, node, lineno)
                return
            if len(_PROGRAMS) < _CACHE_LIMIT:
                _PROGRAMS[value] = program
        self.run(program, node, lineno)

    def add_entity_bytes(self, raw: bytes, node: int, lineno: int) -> None:
        """``add_entity_field`` for a value still in the file's bytes (valid UTF-8)."""
        program = _PROGRAMS_BYTES.get(raw)
        if program is None:
            value = raw.decode("utf-8")
            program = _compile(value)
            if program is None:
                self.add_entity_field(value, node, lineno)
                return
            if len(_PROGRAMS_BYTES) < _CACHE_LIMIT:
                _PROGRAMS_BYTES[raw] = program
        self.run(program, node, lineno)

    def attribute_info(self, attributes: str | None) -> _Info:
        """What an opening's attributes give under the current declaration."""
        info = _NO_INFO
        if attributes is not None and self.split_limit:
            # Only the attributes up to the last one used are split apart.
            values = attributes.split("-", self.split_limit)
            raw = self.attribute(values, self.head_at) or None
            # 0: not a number. Past 18 digits the head is out of any mention (and
            # int() may refuse it).
            digits = raw is not None and raw.isascii() and raw.isdigit()
            number = (int(raw) if len(raw) < 19 else 10**18) if raw and digits else 0
            info = (raw, number, self.attribute(values, self.etype_at) or None)
        if len(self.infos) < _CACHE_LIMIT:
            self.infos[attributes] = info
        return info

    def run(self, program: _Program, node: int, lineno: int) -> None:
        """Apply the chunks of one ``Entity=`` value on ``node`` (at line ``lineno``)."""
        self.run_all(((program, node, lineno),))

    def run_all(self, values: Iterable[tuple[_Program, int, int]]) -> None:
        """Apply ``Entity=`` values in order: (program, node, line number) each."""
        index = self.index
        opened = self.open
        infos = self.infos
        types = self.types
        entities = self.entities
        lines = self.lines
        heads = self.heads
        pieces = self.pieces
        # Without non-token empty nodes, nodes are tokens: the common case,
        # recorded here directly (finish_contiguous does the general one).
        plain = not self.empties
        for program, node, lineno in values:
            for op, eid, marker, attributes in program:
                if op == _CLOSE:
                    stack = opened.get(eid)
                    if not stack:
                        self.close_mention(eid, None, node, lineno)  # reports it
                        continue
                    start, line, attributes = stack.pop()
                elif op == _OPEN:
                    # Entities are numbered by the first bracket of their id, as
                    # the CoNLL reader does, so that both formats list them alike.
                    if eid not in index:
                        self.entity(eid)
                    stack = opened.get(eid)
                    if stack is None:
                        opened[eid] = [(node, lineno, attributes)]
                    else:
                        stack.append((node, lineno, attributes))
                    continue
                elif op == _SINGLE:
                    if eid not in index:
                        self.entity(eid)
                    start, line = node, lineno
                elif op == _MARKED_CLOSE:
                    self.close_mention(eid, marker, node, lineno)
                    continue
                else:
                    self.add_opening(eid, marker, attributes, node, lineno, op == _MARKED_SINGLE)
                    continue
                if not plain:
                    self.finish_contiguous(eid, start, node, attributes, line)
                    continue
                # The attributes are read under the declaration in force at the
                # closing, as finish_contiguous does.
                info = infos.get(attributes)
                if info is None:
                    info = self.attribute_info(attributes)
                raw, number, etype = info
                idx = index[eid]
                head: int | None = None
                # A one-word mention's head is its word, whatever its head
                # attribute says, and head 0 means no head: as udapi reads them.
                if raw is not None and raw != "0":
                    size = node - start + 1
                    if (size > 1 and not 1 <= number <= size) or not number:
                        raise self.head_error(raw, eid, size, line)
                    self.has_heads = True
                    head = start + number - 1 if size > 1 else start
                if etype is not None and types[idx] is None:
                    types[idx] = etype
                entities[idx].append((start, node))
                lines[idx].append(line)
                heads[idx].append(head)
                pieces[idx].append(None)

    def entity_chunks(self, value: str, pos: int, node: int, lineno: int) -> None:
        """Read the chunks of ``value`` from ``pos`` one character at a time."""
        n = len(value)
        while pos < n:
            if value[pos] == "(":
                stop = pos + 1
                while stop < n and value[stop] not in "()":
                    stop += 1
                body = value[pos + 1 : stop]
                single = stop < n and value[stop] == ")"
                self.open_mention(body, node, lineno, single, value)
                pos = stop + 1 if single else stop
            else:
                stop = value.find(")", pos)
                if stop < 0 or "(" in value[pos:stop]:
                    raise self.error(
                        f"bad Entity= value {shown(value)}: {shown(value[pos:])} is neither an "
                        "opening '(eid-...' nor a closing 'eid)' chunk",
                        lineno,
                    )
                body = value[pos:stop]
                match = _EID.match(body)
                # A closing chunk is "eid)" or "eid[i/n])"; udapi also allows
                # attributes after the id, which carry nothing new.
                if not match or (match.end() < len(body) and body[match.end()] != "-"):
                    raise self.error(
                        f"bad closing chunk {shown(body + ')')} in Entity= value {shown(value)}",
                        lineno,
                    )
                self.close_mention(match.group(1), match.group(2), node, lineno)
                pos = stop + 1

    def parse_part(self, marker: str | None, eid: str, lineno: int) -> tuple[int, int] | None:
        if marker is None:
            return None
        match = _PART.fullmatch(marker)
        if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
            raise self.error(
                f"bad discontinuous part marker {shown(marker)} of entity {shown(eid)}: expected "
                "'[i/n]' with 1 <= i <= n",
                lineno,
            )
        return int(match.group(1)), int(match.group(2))

    def open_mention(self, body: str, node: int, lineno: int, single: bool, value: str) -> None:
        match = _EID.match(body)
        if not match or (match.end() < len(body) and body[match.end()] != "-"):
            raise self.error(
                f"bad opening chunk {shown('(' + body)} in Entity= value {shown(value)}: expected "
                "'(eid' followed by '-'-separated attributes",
                lineno,
            )
        attributes = body[match.end() + 1 :] if match.end() < len(body) else None
        self.add_opening(match.group(1), match.group(2), attributes, node, lineno, single)

    def add_opening(
        self,
        eid: str,
        marker: str | None,
        attributes: str | None,
        node: int,
        lineno: int,
        single: bool,
    ) -> None:
        self.parse_part(marker, eid, lineno)
        key = eid + marker if marker else eid
        self.entity(eid)
        self.open.setdefault(key, []).append((node, lineno, attributes))
        if single:
            self.close_mention(eid, marker, node, lineno)

    def entity(self, eid: str) -> int:
        idx = self.index.get(eid)
        if idx is None:
            idx = self.index[eid] = len(self.entities)
            self.entities.append([])
            self.lines.append([])
            self.heads.append([])
            self.pieces.append([])
            self.types.append(None)
        return idx

    def close_mention(self, eid: str, marker: str | None, node: int, lineno: int) -> None:
        key = eid + marker if marker else eid
        stack = self.open.get(key)
        if not stack:
            raise self.error(
                f"closing bracket {shown(key + ')')} without an opening {shown('(' + key)} "
                f"in document {self.doc_id!r}",
                lineno,
            )
        start, open_line, attributes = stack.pop()
        part = self.parse_part(marker, eid, lineno)
        if part is None:
            self.finish_contiguous(eid, start, node, attributes, open_line)
            return
        index, total = part
        pending = self.discontinuous.get((eid, total))
        if pending is None:
            pending = self.discontinuous[(eid, total)] = _Mention(eid, None, open_line, total)
        if index in pending.parts:
            raise self.error(
                f"part {index}/{total} of a discontinuous mention of entity {shown(eid)} appears "
                "twice before the mention is complete",
                lineno,
            )
        pending.parts[index] = (start, node)
        if index == 1:
            pending.attributes = attributes
            pending.line = open_line
        if index == total:
            pending.head_attributes = attributes
        if len(pending.parts) == total:
            del self.discontinuous[(eid, total)]
            ranges = [pending.parts[i] for i in range(1, total + 1)]
            if any(b[0] <= a[1] for a, b in pairwise(ranges)):
                raise self.error(
                    f"the parts of a discontinuous mention of entity {shown(eid)} overlap or are "
                    "out of order",
                    lineno,
                )
            self.finish_mention(
                eid,
                ranges,
                _split_attributes(pending.attributes),
                pending.line,
                head_attributes=_split_attributes(pending.head_attributes),
            )

    def finish_contiguous(
        self, eid: str, first: int, last: int, raw_attributes: str | None, line: int
    ) -> None:
        """Record the mention on nodes ``first..last``: usually a plain run of tokens."""
        start = first
        if self.empties:
            start = self.token_of(first)
            # The nodes are all tokens exactly when their tokens are as many.
            if start < 0 or self.token_of(last) - start != last - first:
                attributes = _split_attributes(raw_attributes)
                self.finish_mention(eid, [(first, last)], attributes, line)
                return
        idx = self.index[eid]
        head: int | None = None
        if raw_attributes is not None and self.split_limit:
            # Only the attributes up to the last one used are split apart.
            attributes = raw_attributes.split("-", self.split_limit)
            raw = self.attribute(attributes, self.head_at)
            if raw and raw != "0":
                size = last - first + 1
                if not (raw.isascii() and raw.isdigit()) or (
                    size > 1 and not 1 <= int(raw) <= size
                ):
                    raise self.head_error(raw, eid, size, line)
                self.has_heads = True
                head = start + int(raw) - 1 if size > 1 else start
            if self.types[idx] is None and self.etype_at:
                self.types[idx] = self.attribute(attributes, self.etype_at) or None
        self.entities[idx].append((start, start + last - first))
        self.lines[idx].append(line)
        self.heads[idx].append(head)
        self.pieces[idx].append(None)

    @staticmethod
    def attribute(attributes: list[str], where: tuple[int, ...]) -> str | None:
        for i in where:
            if i < len(attributes):
                return attributes[i]
        return None

    def finish_mention(
        self,
        eid: str,
        ranges: list[tuple[int, int]],
        attributes: list[str],
        line: int,
        *,
        head_attributes: list[str] | None = None,
    ) -> None:
        nodes = [n for a, b in ranges for n in range(a, b + 1)]
        head: int | None = None
        raw = self.attribute(
            attributes if head_attributes is None else head_attributes, self.head_at
        )
        if raw and raw != "0":
            many = len(nodes) > 1
            if not (raw.isascii() and raw.isdigit()) or (many and not 1 <= int(raw) <= len(nodes)):
                raise self.head_error(raw, eid, len(nodes), line)
            self.has_heads = True
            token = self.token_of(nodes[int(raw) - 1 if many else 0])
            head = token if token >= 0 else None
        tokens = [t for t in map(self.token_of, nodes) if t >= 0]
        if not tokens:
            self.dropped += 1
            return
        runs: list[Span] = []
        for t in tokens:
            if runs and runs[-1][1] + 1 == t:
                runs[-1] = (runs[-1][0], t)
            else:
                runs.append((t, t))
        idx = self.index[eid]
        self.entities[idx].append((runs[0][0], runs[-1][1]))
        self.lines[idx].append(line)
        self.heads[idx].append(head)
        if len(runs) > 1:
            self.has_pieces = True
            self.pieces[idx].append(tuple(runs))
        else:
            self.pieces[idx].append(None)
        if self.types[idx] is None:
            self.types[idx] = self.attribute(attributes, self.etype_at) or None

    def head_error(self, raw: str, eid: str, size: int, line: int) -> InputError:
        if not (raw.isascii() and raw.isdigit()):
            return self.error(
                f"head {shown(raw)} of a mention of entity {shown(eid)} is not a number "
                "(a 1-based position within the mention)",
                line,
            )
        return self.error(
            f"head {shown(raw)} of a mention of entity {shown(eid)} is not a position within "
            f"its {size} node(s) (1-based)",
            line,
        )

    def finish(
        self,
        warnings: list[str],
        syntax: bool,
        empty_nodes: bool,
        tokens: int,
        drop_unclosed: bool = False,
    ) -> Document:
        unclosed = [(ln, key) for key, st in self.open.items() for _, ln, _ in st]
        if unclosed and drop_unclosed:
            lineno, key = min(unclosed)
            warnings.append(
                f"{self.source}:{lineno}: document {self.doc_id!r}: {len(unclosed)} mention(s) "
                f"opened and never closed, e.g. {shown('(' + key)}; dropped, as udapi "
                "(corefud-scorer) drops them"
            )
        elif unclosed:
            lineno, key = min(unclosed)
            raise self.error(
                f"mention {shown('(' + key)} opened here is never closed "
                f"in document {self.doc_id!r}",
                lineno,
            )
        if self.discontinuous:
            pending = min(self.discontinuous.values(), key=lambda m: m.line)
            raise self.error(
                f"discontinuous mention of entity {pending.eid!r} has only part(s) "
                f"{sorted(pending.parts)} of {pending.total} in document {self.doc_id!r}",
                pending.line,
            )
        if self.dropped:
            warnings.append(
                f"{self.source}:{self.line}: document {self.doc_id!r}: dropped "
                f"{self.dropped} mention(s) made only of empty nodes (read with "
                "empty_nodes=True to keep them)"
            )
        keep = [i for i, ent in enumerate(self.entities) if ent]
        labels = {idx: eid for eid, idx in self.index.items()}
        annotations: dict[str, Any] = {}
        final = {labels[i]: n for n, i in enumerate(keep)}
        entities = [self.entities[i] for i in keep]
        split_antecedents = self.resolve_split_antecedents(final, entities, warnings)
        bridging = self.resolve_bridging(final, entities, warnings)
        if self.split_antecedents:
            annotations["split_antecedents"] = self.split_antecedents
        if self.bridging:
            annotations["bridging"] = self.bridging
        if self.dropped:
            annotations["dropped_empty_node_mentions"] = self.dropped
        return Document(
            doc_id=self.doc_id,
            entities=tuple(tuple(self.entities[i]) for i in keep),
            labels=tuple(labels[i] for i in keep),
            lines=tuple(tuple(self.lines[i]) for i in keep),
            source=self.source,
            heads=tuple(tuple(self.heads[i]) for i in keep) if self.has_heads else (),
            entity_types=(
                tuple(self.types[i] for i in keep)
                if any(self.types[i] is not None for i in keep)
                else ()
            ),
            pieces=tuple(tuple(self.pieces[i]) for i in keep) if self.has_pieces else (),
            syntax=self.syntax(empty_nodes) if syntax else None,
            annotations=annotations,
            split_antecedents=split_antecedents,
            bridging=bridging,
            token_count=tokens,
        )

    def known(
        self, key: str, line: int, eids: tuple[str, str], final: dict[str, int], warnings: list[str]
    ) -> bool:
        """Whether both ``eids`` name entities with mentions; a warning when not."""
        for eid in eids:
            if eid not in final:
                warnings.append(
                    f"{self.source}:{line}: document {self.doc_id!r}: {key} names entity "
                    f"{eid!r}, which has no mention in the document; link ignored"
                )
                return False
        return True

    def resolve_split_antecedents(
        self, final: dict[str, int], entities: list[list[Span]], warnings: list[str]
    ) -> tuple[SplitAntecedent | None, ...]:
        """Each entity's split antecedent: the entities its SplitAnte links name."""
        members: dict[int, list[int]] = {}
        for line, ante, this in self.split_links:
            if not self.known("SplitAnte", line, (this, ante), final, warnings):
                continue
            named = members.setdefault(final[this], [])
            if final[ante] not in named:
                named.append(final[ante])
        if not members:
            return ()
        return tuple(
            frozenset(tuple(entities[m]) for m in members[e]) if e in members else None
            for e in range(len(entities))
        )

    def resolve_bridging(
        self, final: dict[str, int], entities: list[list[Span]], warnings: list[str]
    ) -> tuple[tuple[Span, Span], ...]:
        """(anaphor, antecedent) mention pairs from the Bridge links (``bridging_mentions``)."""
        pairs: list[tuple[Span, Span]] = []
        for line, node, ante, this in self.bridge_links:
            if not self.known("Bridge", line, (this, ante), final, warnings):
                continue
            # A node's token, or for an empty node that is not one, the next word's.
            word = node - bisect_left(self.empties, node) if self.empties else node
            pair = bridging_mentions(entities[final[this]], word, entities[final[ante]])
            if pair is None:
                warnings.append(
                    f"{self.source}:{line}: document {self.doc_id!r}: Bridge names entity "
                    f"{this!r}, which has no mention starting at or before this word; "
                    "link ignored"
                )
                continue
            pairs.append(pair)
        return tuple(pairs)

    def syntax(self, empty_nodes: bool) -> Syntax:
        rows = self.rows
        n = len(rows)
        columns: list[tuple[str, ...]] = list(zip(*rows)) if n else [()] * 10
        node_ids, words, pos, feats = columns[0], columns[1], columns[3], columns[5]
        raw_heads = columns[6]
        try:
            heads = _dependency_heads(node_ids, raw_heads, self.sentence_starts, empty_nodes)
        except _UnknownHead as unknown:
            raise self.error(
                f"HEAD {raw_heads[unknown.position]!r} is not a word of this sentence "
                "(nor 0 for the root)",
                self.row_lines[unknown.position],
            ) from None
        return Syntax(
            words=words,
            pos=pos if pos.count("_") != n else None,
            dependency_heads=heads,
            sentence_starts=tuple(self.sentence_starts),
            feats=feats if feats.count("_") != n else None,
            node_ids=node_ids,
            deps=columns[8],
            misc=columns[9],
            sentence_ids=tuple(self.sent_ids),
            token_lines=tuple(self.row_lines),
        )


def _has_attributes(doc: Document) -> bool:
    """Whether an entity type or a head was read from the attributes after the id."""
    return any(t is not None for t in doc.entity_types) or any(
        h is not None for hs in doc.heads for h in hs
    )


class _Reader:
    """The state of one reading: documents so far, the current one, counters.

    ``line`` reads any one line. ``block`` reads a block of a file's
    bytes: without syntax it finds, with array operations, the few lines that
    matter (comments naming documents or attributes, MISC with coreference,
    empty nodes, anything unusual), having checked that every other line is
    a plain word line, a multiword token line, a comment or blank. Of a word
    line whose MISC holds one ``Entity=`` item and no other key read here,
    only the value's bytes are taken (each distinct value is compiled once);
    a word line with other keys has its MISC read item by item; the other
    lines found are handed to ``line``.
    """

    def __init__(self, source: str, empty_nodes: bool, syntax: bool, drop_unclosed: bool = False):
        self.source = source
        self.drop_unclosed = drop_unclosed
        self.empty_nodes = empty_nodes
        self.syntax = syntax
        self.warnings: list[str] = []
        self.documents: dict[str, Document] = {}
        self.first_seen: dict[str, int] = {}
        self.attributes = DEFAULT_ATTRIBUTES
        self.declared = False  # a '# global.Entity' line was read
        self.doc: _DocumentBuilder | None = None
        self.kinds: dict[str, int] = {}
        self.lineno = 0  # lines read so far
        self.nodes = 0  # word and empty-node lines read so far, in all documents
        self.pending_sent_id: str | None = None  # a '# sent_id' seen before its document

    def error(self, message: str, line: int) -> InputError:
        return InputError(message, path=self.source, line=line)

    def close(self) -> None:
        if self.doc is not None:
            builder = self.doc
            self.doc = None
            nodes = self.nodes - builder.node_base
            tokens = nodes if self.empty_nodes else nodes - len(builder.empties)
            self.documents[builder.doc_id] = builder.finish(
                self.warnings, self.syntax, self.empty_nodes, tokens, self.drop_unclosed
            )

    def start(self, doc_id: str, lineno: int) -> _DocumentBuilder:
        first_sight(self.first_seen, doc_id, lineno, self.source)
        self.doc = _DocumentBuilder(doc_id, lineno, self.source, self.attributes, self.nodes)
        self.doc.next_sent_id, self.pending_sent_id = self.pending_sent_id, None
        return self.doc

    def lines(self, lines: list[str]) -> None:
        line = self.line
        lineno = self.lineno
        for text in lines:
            lineno += 1
            line(text, lineno)
        self.lineno = lineno

    def line(self, line: str, lineno: int) -> None:
        if not line or line.isspace():
            if self.doc is not None:
                self.doc.in_sentence = False
            return
        if line[0] == "#":
            self.comment(line, lineno)
            return
        tabs = line.count("\t")
        if tabs != 9:
            raise self.error(
                f"token line has {tabs + 1} tab-separated column(s); CoNLL-U needs 10", lineno
            )
        word_id = line[: line.index("\t")]
        kind = self.kinds.get(word_id)
        if kind is None:
            kind = _id_kind(word_id, self.source, lineno)
            if len(self.kinds) < _ID_CACHE_LIMIT:
                self.kinds[word_id] = kind
        if kind == _RANGE:
            return  # a multiword token: its words follow on their own lines
        doc = self.doc
        if doc is None:
            doc_id = str(len(self.documents) + 1)
            self.warnings.append(
                f"{self.source}:{lineno}: no '# newdoc id = ...' before the first sentence; "
                f"document named {doc_id!r} (its place in the file)"
            )
            doc = self.start(doc_id, lineno)
        node = self.nodes - doc.node_base
        self.nodes += 1
        if kind == _EMPTY and not self.empty_nodes:
            doc.empties.append(node)
            doc.empty_set.add(node)
            if self.syntax:
                doc.add_syntax(line.split("\t"), word_id, None, lineno)
        elif self.syntax:
            doc.add_syntax(line.split("\t"), word_id, node - len(doc.empties), lineno)
        # Only MISC items named exactly so matter; the substring tests on the
        # whole line skip the other lines without splitting them.
        if "Entity" in line or "SplitAnte" in line or "Bridge" in line:
            misc = line[line.rindex("\t") + 1 :]
            if misc != "_":
                doc.add_misc(misc, node, lineno)

    def comment(self, line: str, lineno: int) -> None:
        # Substring tests first: most comments are neither.
        if "sent_id" in line and self.syntax:
            match = _SENT_ID.match(line)
            if match:
                if self.doc is None:
                    self.pending_sent_id = match.group(1)
                else:
                    self.doc.next_sent_id = match.group(1)
                return
        if "newdoc" in line:
            match = NEWDOC().match(line)
            if match:
                self.close()
                doc_id = newdoc_id(match, len(self.documents), self.source, lineno, self.warnings)
                self.start(doc_id, lineno)
                return
        if "global.Entity" in line:
            match = _GLOBAL_ENTITY.match(line)
            if match:
                names = tuple(match.group(1).split("-"))
                if len(names) < 1 or not all(names):
                    raise self.error(
                        f"bad global.Entity declaration {match.group(1)!r}: expected "
                        "attribute names joined by '-', the entity id first",
                        lineno,
                    )
                self.attributes = names
                self.declared = True
                if self.doc is not None:
                    self.doc.set_attributes(names)

    def block(self, block: bytes) -> None:
        """Read a block of whole lines of the file (valid UTF-8)."""
        if self.syntax or b"\r" in block:
            # Every line matters (or line ends need care): read them one by one.
            lines = block.decode("utf-8").split("\n")
            if block.endswith(b"\n"):
                lines.pop()
            if b"\r" in block:
                lines = [line.rstrip("\r") for line in lines]
            self.lines(lines)
            return
        data = np.frombuffer(block, dtype=np.uint8)
        size = len(data)
        # Tabs and line ends in one pass; seps[ends_at[i]] ends line i.
        seps = np.flatnonzero((data == 9) | (data == 10))
        ends_at = np.flatnonzero(data[seps] == 10)
        if not block.endswith(b"\n"):
            seps = np.append(seps, size)  # the last line ends with the block
            ends_at = np.append(ends_at, len(seps) - 1)
        ends = seps[ends_at]
        count = len(ends)
        starts = np.empty_like(ends)
        starts[0] = 0
        starts[1:] = ends[:-1] + 1
        before_at = np.empty_like(ends_at)  # the separator before each line (-1: none)
        before_at[0] = -1
        before_at[1:] = ends_at[:-1]
        first = data[np.minimum(starts, size - 1)]
        token = (ends > starts) & (first != 35)  # neither blank nor a comment
        # A line's first separator ends its ID; its last tab starts its MISC.
        id_length = seps[before_at + 1] - starts
        misc_starts = seps[np.maximum(ends_at - 1, 0)] + 1
        candidate = np.flatnonzero(
            token & (ends_at - before_at == 10) & (id_length >= 1) & (id_length <= _MAX_FAST_ID)
        )
        # An ID is regular when it is ASCII digits with at most one '.' or
        # '-' inside: a word, an empty node or a multiword range. Its first
        # and last bytes must be digits; the few IDs of three bytes or more
        # have their inner bytes checked a column at a time.
        lengths = id_length[candidate]
        id_starts = starts[candidate]
        ok = ((data[id_starts] - 48) < 10) & ((data[id_starts + lengths - 1] - 48) < 10)
        long_ids = np.flatnonzero(lengths >= 3)
        dotted = np.zeros(len(candidate), dtype=bool)
        separated = np.zeros(len(candidate), dtype=bool)
        if len(long_ids):
            inner_end = lengths[long_ids] - 1
            inner_start = id_starts[long_ids]
            seen = np.zeros(len(long_ids), dtype=np.int64)
            dot = np.zeros(len(long_ids), dtype=bool)
            good = np.ones(len(long_ids), dtype=bool)
            for j in range(1, int(inner_end.max())):
                inside = j < inner_end
                byte = data[np.minimum(inner_start + j, size - 1)]
                is_dot = byte == 46
                separator = inside & (is_dot | (byte == 45))
                good &= ~inside | ((byte - 48) < 10) | separator
                seen += separator
                dot |= separator & is_dot
            ok[long_ids] &= good & (seen <= 1)
            dotted[long_ids] = dot
            separated[long_ids] = seen > 0
        regular = np.zeros(count, dtype=bool)
        regular[candidate[ok]] = True
        empty = np.zeros(count, dtype=bool)
        empty[candidate[ok & dotted]] = True
        multiword = np.zeros(count, dtype=bool)
        multiword[candidate[ok & separated & ~dotted]] = True
        node_line = regular & ~multiword
        nodes_before = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(node_line, out=nodes_before[1:])

        plain = node_line if self.empty_nodes else node_line & ~empty
        visit = token & ~regular  # unusual lines: the line loop reads (or rejects) them
        if not self.empty_nodes:
            visit |= empty
        opening = -1  # a node line that may start a document: read whole
        if self.doc is None and node_line.any():
            opening = int(np.argmax(node_line))
            visit[opening] = True
        # Comments matter only when they name a document or the attributes
        # ("#", white space, then "newdoc" or "global.Entity"): all are
        # visited but those plainly starting "# x", x a letter or digit, and
        # not "# newdoc" or "# global.".
        comments = np.flatnonzero(first == 35)
        if len(comments):
            at = np.minimum(starts[comments][:, None] + np.arange(1, 9), size - 1)
            heads = data[at]  # bytes 1-8 of each comment, also as one number
            words = (heads.view(np.dtype("<u8"))[:, 0] >> 8).astype(np.int64)
            third = heads[:, 1] | 32
            other = (
                (heads[:, 0] == 32)
                & (ends[comments] - starts[comments] >= 3)
                & (((heads[:, 1] - 48) < 10) | ((third - 97) < 26))
                & ((words & 0xFFFFFFFFFFFF) != _NEWDOC_WORD)
                & (words != _GLOBAL_WORD)
            )
            visit[comments[~other]] = True
        # The MISC items of plain lines that the line loop reads start after
        # the last tab or after a '|' with their key. A line whose only such
        # item is one "Entity=..." has just that value read (from vstart to
        # vend); other lines with keys have their MISC read item by item.
        pipes = np.flatnonzero(data == 124)
        items = np.concatenate((misc_starts[plain], pipes + 1))
        items = items[items < size]
        lead = data[items]
        found = []
        for needle in _VISIT_KEYS:
            at = items[lead == needle[0]]
            for j in range(1, len(needle)):
                at = at[at + j < size]
                at = at[data[at + j] == needle[j]]
            line = np.searchsorted(ends, at)
            keep = plain[line] & (at >= misc_starts[line])
            found.append((at[keep], line[keep]))
        (entity_at, entity_line), *others = found
        keys = np.bincount(entity_line, minlength=count)
        for _, line in others:
            keys[line] += 2
        alone = keys[entity_line] == 1
        alone &= data[np.minimum(entity_at + 6, size - 1)] == 61
        alone &= entity_at + 6 < size
        vstart = np.full(count, -1, dtype=np.int64)
        vstart[entity_line[alone]] = entity_at[alone] + 7
        visit |= keys > 0
        vend = ends.copy()
        if len(pipes):
            single = np.flatnonzero(vstart >= 0)
            after = np.searchsorted(pipes, vstart[single])
            pipe = pipes[np.minimum(after, len(pipes) - 1)]
            vend[single] = np.where(
                (after < len(pipes)) & (pipe < ends[single]), pipe, ends[single]
            )

        # The visited lines, each as (kind, nodes before it, line number, and
        # the bytes to read: the Entity= value, the MISC or the whole line).
        # Kinds: 0 an Entity= value alone, 1 a MISC, 2 a line for the line
        # loop, 3 the same for an unusual line (the arrays do not count its nodes).
        where = np.flatnonzero(visit)
        kind = np.where(regular[where], 2, 3)
        kind[plain[where]] = 1
        kind[vstart[where] >= 0] = 0
        kind[where == opening] = 2
        rows = zip(
            kind.tolist(),
            (nodes_before[where] + self.nodes).tolist(),
            (where + (self.lineno + 1)).tolist(),
            np.select(
                [kind == 0, kind == 1], [vstart[where], misc_starts[where]], starts[where]
            ).tolist(),
            np.where(kind == 0, vend[where], ends[where]).tolist(),
        )
        extra = 0  # nodes among unusual lines
        end_nodes = self.nodes + int(nodes_before[-1])
        end_line = self.lineno + count
        programs = _PROGRAMS_BYTES
        doc = self.doc
        node_base = 0 if doc is None else doc.node_base
        # Consecutive compiled Entity= values are applied together.
        batch: list[tuple[_Program, int, int]] = []
        for what, before, lineno, lo, hi in rows:
            if what < 2 and doc is not None:  # (a document is open for them)
                # A word line already checked: only its MISC is left to read.
                node = before + extra - node_base
                if what == 0:
                    raw = block[lo:hi]
                    program = programs.get(raw)
                    if program is not None:
                        batch.append((program, node, lineno))
                        continue
                if batch:
                    doc.run_all(batch)
                    batch = []
                if what == 0:
                    doc.add_entity_bytes(block[lo:hi], node, lineno)
                else:
                    doc.add_misc(block[lo:hi].decode("utf-8"), node, lineno)
                continue
            if batch and doc is not None:
                doc.run_all(batch)
                batch = []
            node = before + extra
            self.nodes = node
            self.lineno = lineno
            self.line(block[lo:hi].decode("utf-8"), lineno)
            if what == 3:
                extra += self.nodes - node
            doc = self.doc
            node_base = 0 if doc is None else doc.node_base
        if batch and doc is not None:
            doc.run_all(batch)
        self.nodes = end_nodes + extra
        self.lineno = end_line

    def corpus(self) -> Corpus:
        self.close()
        if not self.documents:
            raise InputError(
                "not a CoNLL-U file: no token lines" if self.lineno else "empty file",
                path=self.source,
                line=1,
            )
        if not self.declared and any(_has_attributes(d) for d in self.documents.values()):
            self.warnings.append(
                f"{self.source}: Entity= annotations without a '# global.Entity' declaration; "
                f"their attributes read in CorefUD's order {'-'.join(DEFAULT_ATTRIBUTES)}"
            )
        return Corpus(documents=self.documents, source=self.source, warnings=tuple(self.warnings))
