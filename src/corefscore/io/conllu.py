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

With ``syntax=False`` only the coreference is read (``Document.syntax`` is
``None``; the word, UPOS and HEAD columns are not even split out), which is
several times faster; everything else, errors included, is the same except
that HEAD values are then not checked.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import numpy as np

from ..errors import InputError
from ..model import Corpus, Document, Span, Syntax
from .conll import iter_blocks

DEFAULT_ATTRIBUTES = ("eid", "etype", "head", "other")

_NEWDOC = re.compile(r"#\s*newdoc(?:\s+id\s*=\s*(.*?))?\s*$")
_GLOBAL_ENTITY = re.compile(r"#\s*global\.Entity\s*=\s*(.*?)\s*$")
# An entity id: none of the characters udapi forbids in one ("-=| \t()"),
# nor the brackets of a part marker.
_EID = re.compile(r"([^-=|\s()\[\]]+)(\[[^\]]*\])?")
_PART = re.compile(r"\[([1-9][0-9]*)/([1-9][0-9]*)\]")
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

# Entity= values repeat (closings such as "e12)" in every document): each
# distinct well-formed value is split into its chunks once.
# (eid, marker, attributes, single, closing id, closing marker): re groups.
_Chunk = tuple[Any, ...]
_CHUNKS_CACHE: dict[str, tuple[_Chunk, ...]] = {}
_CHUNKS_CACHE_LIMIT = 200_000


def _parse_chunks(value: str) -> tuple[_Chunk, ...] | None:
    """The chunks of a well-formed ``Entity=`` value, or ``None``."""
    chunks = []
    pos = 0
    n = len(value)
    match_chunk = _CHUNK.match
    while pos < n:
        m = match_chunk(value, pos)
        if m is None:
            return None
        pos = m.end()
        chunks.append(m.groups())
    return tuple(chunks)


# What a token ID names. IDs repeat from sentence to sentence, so each
# distinct one is validated once.
_WORD, _EMPTY, _RANGE = 0, 1, 2
_ID_CACHE_LIMIT = 100_000
# Longest token ID the array pass validates; longer ones go to the line loop.
_MAX_FAST_ID = 16
# The MISC keys the reader uses: the array pass hands their lines to the loop.
_VISIT_KEYS = (b"Entity", b"SplitAnte", b"Bridge")


def read_conllu(
    path: str | os.PathLike[str], *, empty_nodes: bool = False, syntax: bool = True
) -> Corpus:
    """Read a CorefUD CoNLL-U file (plain or gzipped).

    ``syntax=False`` reads only the coreference: ``Document.syntax`` is then
    ``None`` and the HEAD column is not checked; everything else (mentions,
    heads, types, warnings, errors) is as with ``syntax=True``, several times
    faster.
    """
    name = os.fspath(path)
    reader = _Reader(name, empty_nodes, syntax)
    for block in _file_blocks(name, reader):
        reader.block(block)
    return reader.corpus()


def read_conllu_text(
    text: str, *, source: str = "<string>", empty_nodes: bool = False, syntax: bool = True
) -> Corpus:
    """Parse CorefUD CoNLL-U text; ``source`` names it in error messages.

    ``syntax`` is as for :func:`read_conllu`.
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
            if block[:2] in (b"\xff\xfe", b"\xfe\xff"):
                raise InputError(
                    "file is UTF-16 (byte-order mark found); convert it to UTF-8",
                    path=path,
                    line=1,
                )
            block = block.removeprefix(b"\xef\xbb\xbf")
            if not block:
                reader.lines([""])  # the file was a byte-order mark alone: one empty line
                continue
        try:
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


def _default_name(source: str) -> str:
    base = os.path.basename(source)
    for suffix in (".gz", ".conllu", ".conll"):
        base = base.removesuffix(suffix)
    return base or source


def _id_kind(word_id: str, source: str, lineno: int) -> int:
    if "-" in word_id:
        a, _, b = word_id.partition("-")
        if not (a.isdigit() and b.isdigit()):
            raise InputError(f"bad token ID {word_id!r}", path=source, line=lineno)
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

    __slots__ = ("attributes", "eid", "line", "parts", "total")

    def __init__(self, eid: str, attributes: str | None, line: int, total: int):
        self.eid = eid
        self.attributes = attributes
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
        self.words: list[str] = []
        self.pos: list[str] = []
        self.raw_heads: list[tuple[str, int, int]] = []  # (HEAD, sentence index, line)
        self.sentence_starts: list[int] = []
        self.sentence_ids: list[dict[str, int]] = []
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
        self.split_antecedents: list[tuple[int, str]] = []
        self.bridging: list[tuple[int, str]] = []

    def set_attributes(self, attributes: tuple[str, ...]) -> None:
        self.attributes = attributes
        names = attributes[1:]
        # Where "head" and "etype" sit among an opening's attributes; with a
        # repeated name the last one present wins, as in a dict of them.
        self.head_at = tuple(i for i, name in enumerate(names) if name == "head")[::-1]
        self.etype_at = tuple(i for i, name in enumerate(names) if name == "etype")[::-1]
        self.split_limit = max(self.head_at + self.etype_at, default=-1) + 1

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
            self.sentence_starts.append(len(self.words))
            self.sentence_ids.append({})
        if token is not None:
            self.sentence_ids[-1][word_id] = token
            self.words.append(fields[1])
            self.pos.append(fields[3])
            self.raw_heads.append((fields[6], len(self.sentence_starts) - 1, lineno))

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
            elif key == "Bridge":
                self.bridging.append((lineno, value))

    def add_entity_field(self, value: str, node: int, lineno: int) -> None:
        n = len(value)
        if not n:
            raise self.error("empty 'Entity=' value in MISC", lineno)
        chunks = _CHUNKS_CACHE.get(value)
        if chunks is None:
            chunks = _parse_chunks(value)
            if chunks is None:
                # Malformed (or unusual): the character-by-character reading
                # processes the value and reports the first problem.
                self.entity_chunks(value, 0, node, lineno)
                return
            if len(_CHUNKS_CACHE) < _CHUNKS_CACHE_LIMIT:
                _CHUNKS_CACHE[value] = chunks
        index = self.index
        opened = self.open
        # Without non-token empty nodes, nodes are tokens: the common case,
        # recorded here directly (finish_contiguous does the general one).
        plain = not self.empties
        for eid, marker, attributes, single, closing, closing_marker in chunks:
            if eid is None:
                stack = opened.get(closing)
                if closing_marker is not None or not stack:
                    self.close_mention(closing, closing_marker, node, lineno)
                    continue
                start, line, attributes = stack.pop()
                eid = closing
            elif marker is None:
                # Entities are numbered by the first bracket of their id, as
                # the CoNLL reader does, so that both formats list them alike.
                if eid not in index:
                    self.entity(eid)
                if not single:
                    stack = opened.get(eid)
                    if stack is None:
                        opened[eid] = [(node, lineno, attributes)]
                    else:
                        stack.append((node, lineno, attributes))
                    continue
                start, line = node, lineno
            else:
                self.add_opening(eid, marker, attributes, node, lineno, bool(single))
                continue
            if not plain:
                self.finish_contiguous(eid, start, node, attributes, line)
                continue
            idx = index[eid]
            head: int | None = None
            if (
                attributes is not None
                and self.split_limit
                and (self.head_at or (self.etype_at and self.types[idx] is None))
            ):
                # Only the attributes up to the last one used are split apart,
                # and only when one of them is still needed.
                values = attributes.split("-", self.split_limit)
                if self.head_at:
                    raw = self.attribute(values, self.head_at)
                    if raw:
                        size = node - start + 1
                        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= size:
                            raise self.head_error(raw, eid, size, line)
                        self.has_heads = True
                        head = start + int(raw) - 1
                if self.types[idx] is None and self.etype_at:
                    self.types[idx] = self.attribute(values, self.etype_at) or None
            self.entities[idx].append((start, node))
            self.lines[idx].append(line)
            self.heads[idx].append(head)
            self.pieces[idx].append(None)

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
                        f"bad Entity= value {value!r}: {value[pos:]!r} is neither an opening "
                        "'(eid-...' nor a closing 'eid)' chunk",
                        lineno,
                    )
                body = value[pos:stop]
                match = _EID.match(body)
                # A closing chunk is "eid)" or "eid[i/n])"; udapi also allows
                # attributes after the id, which carry nothing new.
                if not match or (match.end() < len(body) and body[match.end()] != "-"):
                    raise self.error(
                        f"bad closing chunk {body + ')'!r} in Entity= value {value!r}", lineno
                    )
                self.close_mention(match.group(1), match.group(2), node, lineno)
                pos = stop + 1

    def parse_part(self, marker: str | None, eid: str, lineno: int) -> tuple[int, int] | None:
        if marker is None:
            return None
        match = _PART.fullmatch(marker)
        if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
            raise self.error(
                f"bad discontinuous part marker {marker!r} of entity {eid!r}: expected "
                "'[i/n]' with 1 <= i <= n",
                lineno,
            )
        return int(match.group(1)), int(match.group(2))

    def open_mention(self, body: str, node: int, lineno: int, single: bool, value: str) -> None:
        match = _EID.match(body)
        if not match or (match.end() < len(body) and body[match.end()] != "-"):
            raise self.error(
                f"bad opening chunk {'(' + body!r} in Entity= value {value!r}: expected "
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
                f"closing bracket '{key})' without an opening '({key}' in document {self.doc_id!r}",
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
                f"part {index}/{total} of a discontinuous mention of entity {eid!r} appears "
                "twice before the mention is complete",
                lineno,
            )
        pending.parts[index] = (start, node)
        if index == 1:
            pending.attributes = attributes
            pending.line = open_line
        if len(pending.parts) == total:
            del self.discontinuous[(eid, total)]
            ranges = [pending.parts[i] for i in range(1, total + 1)]
            if any(b[0] <= a[1] for a, b in pairwise(ranges)):
                raise self.error(
                    f"the parts of a discontinuous mention of entity {eid!r} overlap or are "
                    "out of order",
                    lineno,
                )
            self.finish_mention(eid, ranges, _split_attributes(pending.attributes), pending.line)

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
            if raw:
                size = last - first + 1
                if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= size:
                    raise self.head_error(raw, eid, size, line)
                self.has_heads = True
                head = start + int(raw) - 1
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
        self, eid: str, ranges: list[tuple[int, int]], attributes: list[str], line: int
    ) -> None:
        nodes = [n for a, b in ranges for n in range(a, b + 1)]
        head: int | None = None
        raw = self.attribute(attributes, self.head_at)
        if raw:
            if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= len(nodes):
                raise self.head_error(raw, eid, len(nodes), line)
            self.has_heads = True
            token = self.token_of(nodes[int(raw) - 1])
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
        self.pieces[idx].append(tuple(runs) if len(runs) > 1 else None)
        if self.types[idx] is None:
            self.types[idx] = self.attribute(attributes, self.etype_at) or None

    def head_error(self, raw: str, eid: str, size: int, line: int) -> InputError:
        return self.error(
            f"head {raw!r} of a mention of entity {eid!r} is not a position within "
            f"its {size} node(s) (1-based)",
            line,
        )

    def finish(self, warnings: list[str], syntax: bool, empty_nodes: bool) -> Document:
        unclosed = [(ln, key) for key, st in self.open.items() for _, ln, _ in st]
        if unclosed:
            lineno, key = min(unclosed)
            raise self.error(
                f"mention '({key}' opened here is never closed in document {self.doc_id!r}",
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
        if self.split_antecedents:
            annotations["split_antecedents"] = self.split_antecedents
        if self.bridging:
            annotations["bridging"] = self.bridging
        if self.dropped:
            annotations["dropped_empty_node_mentions"] = self.dropped
        has_pieces = any(p is not None for i in keep for p in self.pieces[i])
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
            pieces=tuple(tuple(self.pieces[i]) for i in keep) if has_pieces else (),
            syntax=self.syntax(empty_nodes) if syntax else None,
            annotations=annotations,
        )

    def syntax(self, empty_nodes: bool) -> Syntax:
        heads: list[int] = []
        sentence_ids = self.sentence_ids
        for raw, sentence, lineno in self.raw_heads:
            if raw == "_" or raw == "0":
                heads.append(-1)
                continue
            token = sentence_ids[sentence].get(raw)
            if token is None:
                if "." in raw and not empty_nodes:
                    heads.append(-1)  # an empty node, which is not a token here
                    continue
                raise self.error(
                    f"HEAD {raw!r} is not a word of this sentence (nor 0 for the root)", lineno
                )
            heads.append(token)
        parsed = any(raw != "_" for raw, _, _ in self.raw_heads)
        return Syntax(
            words=tuple(self.words),
            pos=tuple(self.pos) if any(p != "_" for p in self.pos) else None,
            dependency_heads=tuple(heads) if parsed else None,
            sentence_starts=tuple(self.sentence_starts),
        )


class _Reader:
    """The state of one reading: documents so far, the current one, counters.

    :meth:`line` reads any one line. :meth:`block` reads a block of a file's
    bytes: without syntax it finds, with array operations, the few lines that
    matter (comments naming documents or attributes, MISC with coreference,
    empty nodes, anything unusual) and hands only those to :meth:`line`,
    having checked that every other line is a plain word line, a multiword
    token line, a comment or blank.
    """

    def __init__(self, source: str, empty_nodes: bool, syntax: bool):
        self.source = source
        self.empty_nodes = empty_nodes
        self.syntax = syntax
        self.warnings: list[str] = []
        self.documents: dict[str, Document] = {}
        self.first_seen: dict[str, int] = {}
        self.attributes = DEFAULT_ATTRIBUTES
        self.doc: _DocumentBuilder | None = None
        self.kinds: dict[str, int] = {}
        self.lineno = 0  # lines read so far
        self.nodes = 0  # word and empty-node lines read so far, in all documents

    def error(self, message: str, line: int) -> InputError:
        return InputError(message, path=self.source, line=line)

    def close(self) -> None:
        if self.doc is not None:
            builder = self.doc
            self.doc = None
            self.documents[builder.doc_id] = builder.finish(
                self.warnings, self.syntax, self.empty_nodes
            )

    def start(self, doc_id: str, lineno: int) -> _DocumentBuilder:
        if doc_id in self.first_seen:
            raise self.error(
                f"document id {doc_id!r} appears twice in this file "
                f"(first at line {self.first_seen[doc_id]})",
                lineno,
            )
        self.first_seen[doc_id] = lineno
        self.doc = _DocumentBuilder(doc_id, lineno, self.source, self.attributes, self.nodes)
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
            doc_id = _default_name(self.source)
            self.warnings.append(
                f"{self.source}:{lineno}: no '# newdoc id = ...' before the first sentence; "
                f"document named {doc_id!r}"
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
        if "newdoc" in line:
            match = _NEWDOC.match(line)
            if match:
                self.close()
                doc_id = (match.group(1) or "").strip()
                if not doc_id:
                    doc_id = _default_name(self.source)
                    self.warnings.append(
                        f"{self.source}:{lineno}: '# newdoc' without an id; "
                        f"document named {doc_id!r}"
                    )
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
        newlines = np.flatnonzero(data == 10)
        ends = newlines if block.endswith(b"\n") else np.append(newlines, len(data))
        starts = np.empty_like(ends)
        starts[0:1] = 0
        starts[1:] = newlines[: len(ends) - 1] + 1
        length = ends - starts
        size = len(data)
        first = data[np.minimum(starts, size - 1)]
        token = (length > 0) & (first != 35)  # neither blank nor a comment
        tabs = np.flatnonzero(data == 9)
        if len(tabs):
            lo = np.searchsorted(tabs, starts)
            id_length = np.where(
                lo < len(tabs), tabs[np.minimum(lo, len(tabs) - 1)] - starts, length
            )
            ntabs = np.searchsorted(tabs, ends) - lo
        else:
            id_length = length
            ntabs = np.zeros_like(length)
        candidate = token & (ntabs == 9) & (id_length >= 1) & (id_length <= _MAX_FAST_ID)
        # An ID is regular when it is ASCII digits with at most one '.' or
        # '-' inside: a word, an empty node or a multiword range.
        separators = np.zeros(len(starts), dtype=np.int64)
        dots = np.zeros(len(starts), dtype=bool)
        ok = candidate.copy()
        width = int(id_length[candidate].max()) if candidate.any() else 0
        for j in range(width):
            inside = j < id_length
            byte = data[np.minimum(starts + j, size - 1)]
            digit = (byte >= 48) & (byte <= 57)
            edge = (j == 0) | (j == id_length - 1)
            dot = byte == 46
            separator = (dot | (byte == 45)) & ~edge
            ok &= ~inside | digit | separator
            separators += inside & separator
            dots |= inside & dot
        regular = ok & (separators <= 1)
        empty = regular & dots
        node_line = regular & ~(regular & (separators == 1) & ~dots)  # not a range
        nodes_before = np.concatenate(([0], np.cumsum(node_line))).tolist()

        plain = node_line if self.empty_nodes else node_line & ~empty
        visit = token & ~regular  # unusual lines: the line loop reads (or rejects) them
        if not self.empty_nodes:
            visit |= empty
        if self.doc is None and node_line.any():
            visit[int(np.argmax(node_line))] = True  # it may start a document
        # Comments that may name a document or the attributes: all but those
        # plainly starting "# x" with x a letter or digit other than n and g.
        second = data[np.minimum(starts + 1, size - 1)]
        third = data[np.minimum(starts + 2, size - 1)]
        other_word = (
            (second == 32)
            & (length >= 3)
            & (((third >= 48) & (third <= 57)) | (((third | 32) >= 97) & ((third | 32) <= 122)))
            & (third != 110)
            & (third != 103)
        )
        visit |= (first == 35) & ~other_word
        # A MISC item the line loop reads starts after a tab or a '|' with
        # its key: find those keys wherever they are, and visit their lines.
        pipes = np.flatnonzero(data == 124)
        after = np.concatenate((tabs, pipes)) + 1
        after = after[after < size]
        lead = data[after]
        for needle in _VISIT_KEYS:
            at = after[lead == needle[0]]
            for j in range(1, len(needle)):
                at = at[at + j < size]
                at = at[data[at + j] == needle[j]]
            if len(at):
                visit[np.searchsorted(ends, at, side="left")] = True
        misc_starts = (tabs[np.maximum(np.searchsorted(tabs, ends) - 1, 0)] + 1).tolist()

        base = self.nodes
        offset = self.lineno
        extra = 0  # nodes among unusual lines, which the arrays do not count
        starts_list = starts.tolist()
        ends_list = ends.tolist()
        unusual = (~regular).tolist()
        plain_list = plain.tolist()
        for k in np.flatnonzero(visit).tolist():
            node = base + nodes_before[k] + extra
            doc = self.doc
            if plain_list[k] and doc is not None:
                # A word line already checked: only its MISC is left to read.
                misc = block[misc_starts[k] : ends_list[k]].decode("utf-8")
                doc.add_misc(misc, node - doc.node_base, offset + k + 1)
                continue
            self.nodes = node
            self.lineno = offset + k + 1
            self.line(block[starts_list[k] : ends_list[k]].decode("utf-8"), offset + k + 1)
            if unusual[k]:
                extra += self.nodes - node
        self.nodes = base + nodes_before[-1] + extra
        self.lineno = offset + len(starts_list)

    def corpus(self) -> Corpus:
        self.close()
        if not self.documents:
            raise InputError(
                "not a CoNLL-U file: no token lines" if self.lineno else "empty file",
                path=self.source,
                line=1,
            )
        return Corpus(documents=self.documents, source=self.source, warnings=tuple(self.warnings))
