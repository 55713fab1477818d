"""Mention tables: one mention a line, read straight into numpy arrays.

The format (``.tsv``, ``.mentions``, optionally gzipped) is one mention a
line, tab-separated: ``doc_id  start  end  entity_id``, token positions with
inclusive ends; blank lines and lines starting with ``#`` are skipped. It is
read in chunks straight into arrays, so ten million mentions never become
Python objects: the input of the columnar engine and of cross-document
scoring at scale (``docs/crossdoc.md``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import overload

import numpy as np

from ..errors import InputError, UsageError
from ..model import Corpus, Document, MentionTable, first_appearance_codes
from . import MENTION_TABLE_SUFFIXES, is_mention_table
from .files import open_binary

_CHUNK_BYTES = 16 << 20


def table_from_corpus(corpus: Corpus) -> MentionTable:
    """The mentions of a ``Corpus``, labels as the source wrote them.

    Documents, entities and mentions keep their order, so that per-document
    scoring adds its floating-point terms as the object engine does.
    """
    doc_ids = tuple(corpus.documents)
    label_index: dict[str, int] = {}
    docs: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    labels: list[int] = []
    for d, document in enumerate(corpus.documents.values()):
        if document.optional:
            raise UsageError(
                "optional mentions (MUC STATUS=OPT) need the object engine; mention arrays "
                "do not keep them"
            )
        for label, entity in zip(document.labels, document.entities):
            code = label_index.setdefault(label, len(label_index))
            n = len(entity)
            docs.extend([d] * n)
            labels.extend([code] * n)
            for start, end in entity:
                starts.append(start)
                ends.append(end)
    return MentionTable(
        np.array(docs, dtype=np.int64),
        np.array(starts, dtype=np.int64),
        np.array(ends, dtype=np.int64),
        np.array(labels, dtype=np.int64),
        doc_ids,
        tuple(label_index),
        corpus.source,
        corpus.warnings,
        dense_labels=True,
    )


def corpus_from_table(table: MentionTable) -> Corpus:
    """A mention table as a ``Corpus``: entities by first
    appearance in their document, mentions in row order."""
    per_doc: list[dict[int, list[tuple[int, int]]]] = [{} for _ in table.doc_ids]
    for d, start, end, label in zip(
        table.doc.tolist(), table.start.tolist(), table.end.tolist(), table.label.tolist()
    ):
        per_doc[d].setdefault(label, []).append((start, end))
    documents = {
        doc_id: Document(
            doc_id=doc_id,
            entities=tuple(tuple(spans) for spans in entities.values()),
            labels=tuple(table.labels[label] for label in entities),
            source=table.source,
        )
        for doc_id, entities in zip(table.doc_ids, per_doc)
    }
    return Corpus(documents=documents, source=table.source, warnings=table.warnings)


def read_mention_table(path: str | os.PathLike[str]) -> MentionTable:
    """Read a mention table file (see the module docstring) in chunks.

    Each chunk is parsed as a byte array: the field boundaries, the numbers
    (eight digits at a time) and the ids are found with vectorised numpy
    operations, so no Python object is made per mention. An id is numbered
    through a 64-bit key: its own bytes when it has at most 8, else a mix or
    hash of them; equal keys are then checked against the bytes, and a
    collision falls back to exact dictionary codes.
    """
    name = os.fspath(path)
    docs = _Factoriser()
    labels = _Factoriser()
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    lines_before = 0
    with open_binary(name) as handle:
        carry = b""
        while True:
            try:
                block = handle.read(_CHUNK_BYTES)
            except OSError as exc:
                raise InputError(f"cannot read file ({exc})", path=name) from None
            if not block:
                data, carry = carry, b""
            else:
                data = carry + block
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data
                    continue
                data, carry = data[:cut], data[cut:]
            if not data:
                break
            if lines_before == 0 and data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            if not data.endswith(b"\n"):
                data += b"\n"
            parts.append(_parse_chunk(data, lines_before, name, docs, labels))
            lines_before += data.count(b"\n")
            if not block:
                break
    columns = [np.concatenate([p[i] for p in parts]) if parts else _empty() for i in range(4)]
    doc_codes = docs.finish(columns[0])
    label_codes = labels.finish(columns[3])
    return MentionTable(
        doc_codes,
        columns[1],
        columns[2],
        label_codes,
        tuple(_decode(docs.value(d), name) for d in range(len(docs))),
        _LazyLabels(labels, name),
        source=name,
        dense_labels=True,
    )


def _empty() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


def _decode(value: bytes, source: str) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"not UTF-8 text: {value!r}", path=source) from None


class _Factoriser:
    """Ids seen chunk by chunk: per-chunk codes now, corpus-wide codes at the end.

    Each chunk's distinct ids are kept (hash and bytes, in one flat array) in
    order of first appearance; at the end the chunks' lists are factorised
    together, so that the final codes number the ids in order of first
    appearance in the file.
    """

    def __init__(self) -> None:
        self.hashes: list[np.ndarray] = []
        self.flats: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self.count = 0
        self.flat = np.zeros(0, dtype=np.uint8)
        self.starts = _empty()
        self.ends = _empty()

    def add(self, hashes: np.ndarray, flat: np.ndarray, lengths: np.ndarray) -> int:
        """Register a chunk's distinct ids; returns the offset of its local codes."""
        offset = self.count
        self.hashes.append(hashes)
        self.flats.append(flat)
        self.lengths.append(lengths)
        self.count += len(hashes)
        return offset

    def finish(self, local: np.ndarray) -> np.ndarray:
        """Corpus-wide codes of the per-chunk codes ``local``."""
        if not self.hashes:
            return _empty()
        hashes = np.concatenate(self.hashes)
        flat = np.concatenate(self.flats)
        lengths = np.concatenate(self.lengths)
        ends = np.cumsum(lengths)
        starts = ends - lengths
        codes = _first_codes(hashes)
        representative = np.empty(int(codes.max()) + 1, dtype=np.int64)
        representative[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)
        reps = representative[codes]
        if not _same_fields(flat, starts, ends, reps, np.arange(len(codes))):
            # Two ids with one hash: number the ids by their bytes instead.
            index: dict[bytes, int] = {}
            raw = flat.tobytes()
            codes = np.array(
                [index.setdefault(raw[s:e], len(index)) for s, e in zip(starts, ends)],
                dtype=np.int64,
            )
            representative = np.empty(len(index), dtype=np.int64)
            representative[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)
        self.flat, self.starts, self.ends = flat, starts[representative], ends[representative]
        out: np.ndarray = codes[local]
        return out

    def __len__(self) -> int:
        return len(self.starts)

    def value(self, code: int) -> bytes:
        return self.flat[self.starts[code] : self.ends[code]].tobytes()


def _same_fields(
    buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, a: np.ndarray, b: np.ndarray
) -> bool:
    """Whether field ``a[i]`` equals field ``b[i]`` for every i (fields of ``buf``)."""
    lengths = ends - starts
    if (lengths[a] != lengths[b]).any():
        return False
    differ = a != b
    a, b = a[differ], b[differ]
    if len(a) == 0:
        return True
    size = lengths[a]
    within = np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
    return bool(
        (buf[np.repeat(starts[a], size) + within] == buf[np.repeat(starts[b], size) + within]).all()
    )


def _gather(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The fields ``buf[starts[i]:ends[i]]`` one after the other, as one array."""
    size = ends - starts
    within = np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
    out: np.ndarray = buf[np.repeat(starts, size) + within]
    return out


class _LazyLabels(Sequence[str]):
    """Entity ids of a mention table, decoded only when one is looked at."""

    def __init__(self, ids: _Factoriser, source: str) -> None:
        self._ids = ids
        self._source = source

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return _decode(self._ids.value(index % len(self)), self._source)


def _first_codes(values: np.ndarray) -> np.ndarray:
    return first_appearance_codes(values)


_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


def _field_hashes(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """FNV-1a hash of every field ``buf[starts[i]:ends[i]]``, column by column."""
    lengths = ends - starts
    hashes = np.full(len(starts), _FNV_OFFSET, dtype=np.uint64)
    last = len(buf) - 1
    for j in range(int(lengths.max()) if len(lengths) else 0):
        live = lengths > j
        byte = buf[np.minimum(starts + j, last)].astype(np.uint64)
        hashes = np.where(live, (hashes ^ byte) * _FNV_PRIME, hashes)
    return hashes


_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ZEROS = np.uint64(0x3030303030303030)
_HIGH = np.uint64(0xF0F0F0F0F0F0F0F0)
_SIXES = np.uint64(0x0606060606060606)


def _words(data: bytes) -> np.ndarray:
    """The 8 bytes starting at every offset of ``data``, as little-endian uint64."""
    padded = data + bytes(16)
    out: np.ndarray = np.ndarray((len(data),), dtype="<u8", buffer=padded, strides=(1,))
    return out


class _Keys:
    """A 64-bit key per field, and an exact test of whether two fields are equal.

    Fields of at most 8 bytes are their own key (a file has no NUL byte, so the
    zero padding cannot be confused with content); up to 16 bytes the key
    mixes two words and equality compares the words; longer fields are
    hashed (FNV-1a) and compared byte by byte.
    """

    def __init__(
        self, words: np.ndarray, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray
    ) -> None:
        self.buf, self.starts, self.ends = buf, starts, ends
        self.lengths = lengths = ends - starts
        longest = int(lengths.max()) if len(lengths) else 0
        self.first = self.second = None
        if longest <= 8:
            self.keys = words[starts] & _MASKS[lengths]
            self.mode = "exact"
        elif longest <= 16:
            first = words[starts] & _MASKS[np.minimum(lengths, 8)]
            second = words[starts + 8] & _MASKS[np.clip(lengths - 8, 0, 8)]
            self.first, self.second = first, second
            self.keys = (first * _MIX) ^ second
            self.mode = "words"
        else:
            self.keys = _field_hashes(buf, starts, ends)
            self.mode = "bytes"

    def same(self, a: np.ndarray, b: np.ndarray) -> bool:
        """Whether field a[i] equals field b[i] for every i (given equal keys)."""
        if self.mode == "exact":
            return True
        if self.mode == "words":
            assert self.first is not None and self.second is not None
            return bool(
                (self.first[a] == self.first[b]).all() and (self.second[a] == self.second[b]).all()
            )
        return _same_fields(self.buf, self.starts, self.ends, a, b)


def _factorise_chunk(
    words: np.ndarray, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, ids: _Factoriser
) -> np.ndarray:
    """Codes of one chunk's ids (registered with ``ids``); a run of equal ids is keyed once."""
    n = len(starts)
    fields = _Keys(words, buf, starts, ends)
    keys, lengths = fields.keys, fields.lengths
    new_run = np.ones(n, dtype=bool)
    new_run[1:] = (keys[1:] != keys[:-1]) | (lengths[1:] != lengths[:-1])
    inside = np.flatnonzero(~new_run)
    if len(inside) and not fields.same(inside, inside - 1):
        new_run[1:] = True
    heads = np.flatnonzero(new_run)
    local = _first_codes(keys[heads])
    first_head = np.empty(int(local.max()) + 1, dtype=np.int64)
    first_head[local[::-1]] = heads[::-1]
    if not fields.same(heads, first_head[local]):
        # Two ids with one key: exact codes by content.
        raw = buf.tobytes()
        index: dict[bytes, int] = {}
        local = np.array(
            [index.setdefault(raw[starts[h] : ends[h]], len(index)) for h in heads.tolist()],
            dtype=np.int64,
        )
        first_head = np.empty(len(index), dtype=np.int64)
        first_head[local[::-1]] = heads[::-1]
        keys = keys.copy()
        keys[first_head] = np.arange(len(index), dtype=np.uint64) + np.uint64(ids.count)
    offset = ids.add(
        keys[first_head], _gather(buf, starts[first_head], ends[first_head]), lengths[first_head]
    )
    out: np.ndarray = local[np.cumsum(new_run) - 1] + offset
    return out


def _parse_numbers(
    words: np.ndarray, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray
) -> np.ndarray | None:
    """Non-negative decimal integers, or None when a field is not one."""
    lengths = ends - starts
    if len(lengths) == 0:
        return _empty()
    if int(lengths.min()) < 1 or int(lengths.max()) > 18:
        return None
    if int(lengths.max()) <= 8:
        # Eight characters at once (SWAR): left-pad each field with '0's to eight
        # digits, check that every byte is a digit, then combine pairs, quads, octets.
        shift = ((8 - lengths) * 8).astype(np.uint64)
        w = (words[starts] << shift) | (_ZEROS & ~(_ALL << shift))
        digits_ok = ((w & _HIGH) == _ZEROS) & (((w + _SIXES) & _HIGH) == _ZEROS)
        if not digits_ok.all():
            return None
        v = w - _ZEROS
        v = (v * np.uint64(10) + (v >> np.uint64(8))) & np.uint64(0x00FF00FF00FF00FF)
        v = (v * np.uint64(100) + (v >> np.uint64(16))) & np.uint64(0x0000FFFF0000FFFF)
        v = (v * np.uint64(10000) + (v >> np.uint64(32))) & np.uint64(0xFFFFFFFF)
        parsed: np.ndarray = v.astype(np.int64)
        return parsed
    values = np.zeros(len(starts), dtype=np.int64)
    for j in range(int(lengths.max())):
        live = lengths > j
        digit = buf[np.minimum(starts + j, len(buf) - 1)].astype(np.int64) - 48
        if ((digit < 0) | (digit > 9))[live].any():
            return None
        values = np.where(live, values * 10 + digit, values)
    return values


def _parse_chunk(
    data: bytes,
    lines_before: int,
    source: str,
    docs: _Factoriser,
    labels: _Factoriser,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    numbers = None
    while data.startswith((b"#", b"\n")) and b"\n" in data:
        # A header comment: skipped without filtering every line below.
        data = data[data.index(b"\n") + 1 :]
        lines_before += 1
    if data.startswith((b"#", b"\n")) or b"\n#" in data or b"\n\n" in data:
        all_lines = data.split(b"\n")[:-1]
        kept = [
            (n, line)
            for n, line in enumerate(all_lines, lines_before + 1)
            if line.strip() and not line.startswith(b"#")
        ]
        numbers = np.array([n for n, _ in kept], dtype=np.int64)
        data = b"".join(line + b"\n" for _, line in kept)
    if not data:
        return (_empty(), _empty(), _empty(), _empty())
    if b"\0" in data:
        row = data.count(b"\n", 0, data.index(b"\0"))
        line = int(numbers[row]) if numbers is not None else lines_before + 1 + row
        raise InputError("NUL byte in a mention table", path=source, line=line)
    buf = np.frombuffer(data, dtype=np.uint8)
    words = _words(data)
    separators = np.flatnonzero((buf == 9) | (buf == 10))
    count = int(np.count_nonzero(buf[separators] == 10))
    if numbers is None:
        numbers = np.arange(lines_before + 1, lines_before + count + 1)
    kinds = buf[separators]
    if len(separators) != 4 * count or not (
        (kinds.reshape(-1, 4)[:, :3] == 9).all() and (kinds.reshape(-1, 4)[:, 3] == 10).all()
    ):
        _locate_bad_line(data, numbers, source)
    bounds = separators.reshape(-1, 4)
    field_starts = np.empty_like(bounds)
    field_starts[:, 0] = np.concatenate(([0], bounds[:-1, 3] + 1))
    field_starts[:, 1:] = bounds[:, :3] + 1
    if ((bounds - field_starts)[:, [0, 3]] < 1).any():
        _locate_bad_line(data, numbers, source)
    starts = _parse_numbers(words, buf, field_starts[:, 1], bounds[:, 1])
    ends = _parse_numbers(words, buf, field_starts[:, 2], bounds[:, 2])
    if starts is None or ends is None:
        _locate_bad_line(data, numbers, source)
        raise AssertionError  # not reached: _locate_bad_line raises
    bad = np.flatnonzero(ends < starts)
    if len(bad):
        k = int(bad[0])
        raise InputError(
            f"invalid span ({starts[k]}, {ends[k]}); need 0 <= start <= end (ends are inclusive)",
            path=source,
            line=int(numbers[k]),
        )
    doc_codes = _factorise_chunk(words, buf, field_starts[:, 0], bounds[:, 0], docs)
    label_codes = _factorise_chunk(words, buf, field_starts[:, 3], bounds[:, 3], labels)
    return doc_codes, starts, ends, label_codes


def _locate_bad_line(data: bytes, numbers: np.ndarray, source: str) -> None:
    for n, line in zip(numbers.tolist(), data.split(b"\n")):
        fields = line.split(b"\t")
        if len(fields) != 4 or not fields[0] or not fields[3]:
            raise InputError(
                f"expected 4 tab-separated fields (doc_id, start, end, entity_id), "
                f"found {len(fields)}" + ("" if len(fields) != 4 else " with an empty id"),
                path=source,
                line=n,
            )
        for what, value in (("start", fields[1]), ("end", fields[2])):
            if not value.isdigit() or len(value) > 18:
                raise InputError(
                    f"{what} {value.decode('utf-8', 'replace')!r} is not a non-negative integer",
                    path=source,
                    line=n,
                )
    raise InputError("malformed mention table", path=source)


__all__ = [
    "MENTION_TABLE_SUFFIXES",
    "corpus_from_table",
    "is_mention_table",
    "read_mention_table",
    "table_from_corpus",
]
