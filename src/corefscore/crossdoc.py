"""Cross-document coreference: one global partition of (document, start, end) mentions.

In cross-document mode an entity id names one entity of the whole corpus, so
an entity can have mentions in several documents, and every metric is
computed once over the single global key and response partitions (see
docs/crossdoc.md). Per side, ``scope`` says how ids are read:

``global``
    the id as written names a corpus-wide entity (CoNLL coreference numbers,
    JSON cluster ``id``\\ s, the mention table's entity column);
``document``
    the id names an entity of its own document (the id is prefixed with the
    document id): the common case of a within-document key scored against a
    cross-document response.

Documents are the key's: response mentions in documents the key does not
have are ignored, and key documents the response does not have are scored
as all missed (each with a warning that counts them), as in per-document
scoring. Repeated spans follow the duplicates policy (``default``: the first
copy in the response is kept, a repeat in the key is an error; ``first``:
the first copy on both sides).

The mention table format (``.tsv``, ``.mentions``, optionally gzipped) is one
mention a line, tab-separated: ``doc_id  start  end  entity_id``, token
positions with inclusive ends; blank lines and lines starting with ``#`` are
skipped. It is read in chunks straight into arrays, so ten million mentions
never become Python objects.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, overload

import numpy as np

from .columnar import (
    NATIVE_METRICS,
    SCOPES,
    MentionTable,
    combine,
    first_appearance_codes,
    pair_tables,
    score_tables,
    table_from_corpus,
)
from .duplicates import check_policy
from .errors import InputError, UsageError
from .io.files import open_binary
from .metrics import MetricSpec, resolve
from .model import Corpus
from .regimes import EvaluationSetup
from .result import ScoreResult, conll_score
from .signature import make_signature

#: File name endings read as mention tables.
MENTION_TABLE_SUFFIXES = (".tsv", ".tsv.gz", ".mentions", ".mentions.gz")
_CHUNK_BYTES = 16 << 20


def is_mention_table(path: str | os.PathLike[str]) -> bool:
    name = os.fspath(path).lower()
    return name.endswith(MENTION_TABLE_SUFFIXES) and not name.endswith(".conll.tsv")


# --------------------------------------------------------------------------------------------
# Reading


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


def read_mentions(
    path: str | os.PathLike[str], *, format: str | None = None, side: str = "key"
) -> MentionTable:
    """One side as a :class:`MentionTable`: a mention table directly, any other format
    through its reader (labels as written: CoNLL numbers, JSON cluster ids)."""
    if format == "mentions" or (format is None and is_mention_table(path)):
        return read_mention_table(path)
    from .io import read_corpus
    from .io.detect import detect_format

    fmt = format or detect_format(path, side=side)
    table = table_from_corpus(read_corpus(path, format=fmt, side=side))
    # jsonlines clusters have no ids, only positions within their document.
    return replace(table, source=os.fspath(path), corpus_wide_labels=fmt != "jsonl")


# --------------------------------------------------------------------------------------------
# Scoring


def _check_scope(scope: str, what: str) -> str:
    if scope not in SCOPES:
        raise UsageError(f"{what} must be one of {', '.join(SCOPES)}, got {scope!r}")
    return scope


def align_documents(
    key: MentionTable, response: MentionTable, warnings: list[str]
) -> tuple[MentionTable, MentionTable]:
    """Both sides on the key's documents, with the warnings of per-document scoring.

    Response mentions of documents the key lacks are dropped; the response
    table's document codes become the key's.
    """
    position = {doc_id: d for d, doc_id in enumerate(key.doc_ids)}
    mapping = np.array([position.get(doc_id, -1) for doc_id in response.doc_ids], dtype=np.int64)
    extra = [doc_id for doc_id, d in zip(response.doc_ids, mapping.tolist()) if d < 0]
    if extra and len(extra) == len(response.doc_ids):
        warnings.append(
            f"no response document id matches a key document id ({_show(extra)}); "
            "every key document is scored as all missed"
        )
    elif extra:
        dropped = int((mapping[response.doc] < 0).sum())
        warnings.append(
            f"{len(extra)} response document(s) not in the key, ignored with their "
            f"{dropped} mention(s): {_show(extra)}"
        )
    moved = mapping[response.doc] if len(response) else response.doc
    keep = moved >= 0
    if not keep.all():
        response = response.select(keep)
    response = replace(response, doc=moved[keep], doc_ids=key.doc_ids)
    missing = len(key.doc_ids) - int((mapping >= 0).sum())
    if missing and len(mapping):
        warnings.append(f"{missing} key document(s) not in the response, scored as all missed")
    return key, response


def _show(ids: list[str]) -> str:
    return ", ".join(repr(d) for d in ids[:3]) + (" ..." if len(ids) > 3 else "")


def _metric_names(metrics: MetricSpec | Iterable[MetricSpec] | None) -> tuple[str, ...]:
    names: list[str] = []
    for metric in resolve(metrics):
        from .metrics import REGISTRY

        if metric.requires:
            raise UsageError(
                f"metric {metric.name} needs {', '.join(metric.requires)}, which mention "
                "arrays do not carry"
            )
        if REGISTRY.get(metric.name) is not metric:
            raise UsageError(
                f"custom metric {metric.name!r} needs entities as objects; cross-document "
                "scoring computes built-in metrics from the contingency table only"
            )
        names.append(metric.name)
    return tuple(names)


def _check_setup(setup: EvaluationSetup) -> None:
    unsupported = [
        option
        for option, used in (
            (f"--match {setup.matching}", setup.matching != "exact"),
            ("--gold-mentions", setup.gold_mentions),
            ("--anaphoric-only", setup.anaphoric_only),
            ("--remove-nested", setup.remove_nested),
        )
        if used
    ]
    if unsupported:
        raise UsageError(
            f"{', '.join(unsupported)} cannot be combined with cross-document scoring "
            "(exact matching and the singleton options only)"
        )


def score_cross_document(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    key_scope: str = "global",
    response_scope: str = "global",
    duplicates: str = "default",
    singletons: str = "keep",
    key_singletons: str | None = None,
    response_singletons: str | None = None,
    setup: EvaluationSetup | None = None,
    options: Mapping[str, Any] | None = None,
) -> ScoreResult:
    """Score ``response`` against ``key`` as one global partition each.

    ``key`` and ``response`` are corpora (entity ids from their labels) or
    mention tables. ``key_scope``/``response_scope`` are ``global`` (ids are
    corpus-wide) or ``document`` (ids are per document). BLANC counts
    non-coreference links between any two mentions of the corpus. The
    result's signature has a ``scope`` field.
    """
    _check_scope(key_scope, "key scope")
    _check_scope(response_scope, "response scope")
    scope = "cross-document"
    if (key_scope, response_scope) != ("global", "global"):
        scope += f"(key={key_scope},response={response_scope})"
    extra: dict[str, Any] = {
        "cross_document": True,
        "key_scope": key_scope,
        "response_scope": response_scope,
    }
    extra.update(options or {})
    return _score(
        key,
        response,
        metrics=metrics,
        scopes=(key_scope, response_scope),
        blanc_scope="global",
        signature_scope=scope,
        duplicates=duplicates,
        setup=setup
        or EvaluationSetup.create(
            singletons=singletons,
            key_singletons=key_singletons,
            response_singletons=response_singletons,
        ),
        options=extra,
    )


def score_documents(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "default",
    setup: EvaluationSetup | None = None,
    options: Mapping[str, Any] | None = None,
) -> ScoreResult:
    """Ordinary per-document scoring (micro-averaged), computed as one block-diagonal table.

    Entity ids are per document and BLANC's non-coreference links stay within
    documents, so the numbers are those of
    :func:`corefscore.scorer.score_corpora` (bit for bit on the seven default
    metrics), without a Python object per mention: the route for very large
    corpora and for mention tables. No per-document results.
    """
    return _score(
        key,
        response,
        metrics=metrics,
        scopes=("document", "document"),
        blanc_scope="document",
        signature_scope=None,
        duplicates=duplicates,
        setup=setup or EvaluationSetup(),
        options=options,
    )


def _score(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None,
    scopes: tuple[str, str],
    blanc_scope: str,
    signature_scope: str | None,
    duplicates: str,
    setup: EvaluationSetup,
    options: Mapping[str, Any] | None,
) -> ScoreResult:
    check_policy(duplicates)
    _check_setup(setup)
    names = _metric_names(metrics)
    warnings: list[str] = []
    for corpus in (key, response):
        if isinstance(corpus, Corpus) and any(doc.optional for doc in corpus):
            raise UsageError(
                "optional mentions (MUC STATUS=OPT) need per-document scoring; "
                "they are not supported by the columnar engine"
            )
    key_table = key if isinstance(key, MentionTable) else table_from_corpus(key)
    response_table = response if isinstance(response, MentionTable) else table_from_corpus(response)
    warnings.extend(key_table.warnings)
    warnings.extend(response_table.warnings)
    for side, table, scope in (
        ("key", key_table, scopes[0]),
        ("response", response_table, scopes[1]),
    ):
        if scope == "global" and not table.corpus_wide_labels:
            raise UsageError(
                f"the {side} is jsonlines, whose clusters have no ids beyond their document; "
                f"use --{side}-scope document, or a format with entity ids (CoNLL, JSON "
                "clusters with 'id', a mention table)"
            )
    key_table, response_table = align_documents(key_table, response_table, warnings)
    pair = pair_tables(
        key_table,
        response_table,
        key_scope=scopes[0],
        response_scope=scopes[1],
        duplicates=duplicates,
        key_singletons=setup.key_singletons,
        response_singletons=setup.response_singletons,
        warnings=warnings,
    )
    stats = score_tables(pair, names, blanc_scope=blanc_scope)
    return columnar_result(
        stats,
        names=names,
        duplicates=duplicates,
        setup=setup,
        scope=signature_scope,
        options=options or {},
        warnings=warnings,
    )


def columnar_result(
    stats: Mapping[str, tuple[float, ...]],
    *,
    names: Sequence[str],
    duplicates: str,
    setup: EvaluationSetup,
    scope: str | None,
    options: Mapping[str, Any],
    warnings: Sequence[str],
    document_statistics: Mapping[str, Mapping[str, tuple[float, ...]]] | None = None,
) -> ScoreResult:
    """The result of corpus statistics from the columnar engine (or the Dask one):
    ``scope`` is the signature's ``scope:`` field for cross-document scoring."""
    scores = combine(dict(stats))
    opts: dict[str, Any] = {"metrics": list(names), "duplicates": duplicates}
    opts.update(setup.to_dict())
    opts.update(options)
    return ScoreResult(
        metrics=scores,
        conll=conll_score(scores),
        signature=make_signature(metrics=names, duplicates=duplicates, setup=setup, scope=scope),
        options=opts,
        documents=None,
        warnings=tuple(warnings),
        document_statistics=None if document_statistics is None else dict(document_statistics),
    )


def score_cross_document_files(
    key_path: str | os.PathLike[str],
    response_path: str | os.PathLike[str],
    *,
    key_format: str | None = None,
    response_format: str | None = None,
    **options: Any,
) -> ScoreResult:
    """:func:`score_cross_document` on two files (mention tables, or any readable format)."""
    key = read_mentions(key_path, format=key_format, side="key")
    response = read_mentions(response_path, format=response_format, side="response")
    extra = {"key": os.fspath(key_path), "response": os.fspath(response_path)}
    extra.update(options.pop("options", None) or {})
    return score_cross_document(key, response, options=extra, **options)


__all__ = [
    "MENTION_TABLE_SUFFIXES",
    "NATIVE_METRICS",
    "align_documents",
    "is_mention_table",
    "read_mention_table",
    "read_mentions",
    "score_cross_document",
    "score_cross_document_files",
    "score_documents",
]
