"""Readers: each turns one file format into the canonical ``Corpus``.

``read_corpus`` picks the reader from the file's content and name (see
``corefscore.io.detect``); each format's module also has its own reader.
"""

from __future__ import annotations

import os

from ..errors import InputError, UsageError, option
from ..model import Corpus, MentionTable
from .conll import read_conll, read_conll_text
from .detect import FORMATS, check_format, detect_format
from .files import open_binary


def read_corpus(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    side: str = "key",
    syntax: bool = False,
    head_column: int | None = None,
    empty_nodes: bool = False,
    layer: str = "identity",
) -> Corpus:
    """Read a key or response file in any supported format.

    ``format`` is one of ``FORMATS``; ``None`` detects it. ``side``
    (``key`` or ``response``) names the file in messages and, for jsonlines,
    chooses the field: a key reads ``clusters``, a response
    ``predicted_clusters`` when its documents have it, else ``clusters``.
    ``syntax`` and ``head_column`` matter for CoNLL (syntax columns are read
    in a second pass); the other formats always keep what they have.
    ``layer`` chooses the markables of a Universal Anaphora file (``ua``):
    ``"identity"`` (the default; also what every other format holds) or
    ``"discourse_deixis"``; only UA files have layers, so asking another
    format for ``"discourse_deixis"`` is a ``UsageError``.
    """
    if layer != "identity":
        from .ua import LAYERS  # only UA files have layers: not loaded otherwise

        if layer not in LAYERS:
            raise UsageError(f"unknown layer {layer!r}; choose one of {', '.join(LAYERS)}")
    fmt = check_format(format) if format is not None else detect_format(path, side=side)
    if fmt == "ua":
        from .ua import read_ua

        return read_ua(path, layer=layer, syntax=syntax)
    if layer != "identity":
        raise UsageError(
            f"layer {layer!r} exists only in Universal Anaphora (ua) files, and this {side} "
            f"file ({os.fspath(path)}) is {fmt}"
        )
    if fmt == "conll":
        return read_conll(path, syntax=syntax, head_column=head_column)
    if fmt == "conllu":
        from .conllu import read_conllu

        return read_conllu(path, empty_nodes=empty_nodes, syntax=syntax)
    if fmt == "jsonl":
        from .jsonlines import read_jsonlines

        return read_jsonlines(path, field=_jsonlines_field(path, side))
    if fmt == "json":
        from .jsonclusters import read_json_clusters

        return read_json_clusters(path)
    if fmt == "mentions":
        from .mentiontable import corpus_from_table, read_mention_table

        return corpus_from_table(read_mention_table(path))
    from .sgml import read_muc_sgml

    return read_muc_sgml(path)


def read_corefud(
    path: str | os.PathLike[str], *, format: str | None = None, side: str = "key"
) -> Corpus:
    """A CoNLL-U file as the CorefUD evaluation reads it: with its syntax and
    empty nodes (``corefscore.corefud``); any other format is an error."""
    fmt = check_format(format) if format is not None else detect_format(path, side=side)
    if fmt != "conllu":
        raise InputError(
            f"the CorefUD evaluation scores CoNLL-U files, and this {side} file is {fmt}; "
            f"convert it ('corefscore convert --to conllu') or choose {option('compat', 'conll')}",
            path=os.fspath(path),
        )
    from .conllu import read_conllu

    return read_conllu(path, empty_nodes=True, syntax=True, drop_unclosed=True)


#: File name endings read as mention tables.
MENTION_TABLE_SUFFIXES = (".tsv", ".tsv.gz", ".mentions", ".mentions.gz")


def is_mention_table(path: str | os.PathLike[str], format: str | None = None) -> bool:
    """Whether ``path`` (in ``format``, if given) is a mention table (``.tsv``, ``.mentions``)."""
    if format is not None:
        return format == "mentions"
    name = os.fspath(path).lower()
    return name.endswith(MENTION_TABLE_SUFFIXES) and not name.endswith(".conll.tsv")


def read_mentions(
    path: str | os.PathLike[str], *, format: str | None = None, side: str = "key"
) -> MentionTable:
    """One side as a ``MentionTable``: a mention table directly,
    any other format through its reader (labels as written: CoNLL numbers, JSON
    cluster ids)."""
    from .._record import replace
    from .mentiontable import read_mention_table, table_from_corpus

    if is_mention_table(path, format):
        return read_mention_table(path)
    fmt = format or detect_format(path, side=side)
    table = table_from_corpus(read_corpus(path, format=fmt, side=side))
    # jsonlines clusters have no ids, only positions within their document.
    return replace(table, source=os.fspath(path), corpus_wide_labels=fmt != "jsonl")


def _jsonlines_field(path: str | os.PathLike[str], side: str) -> str | None:
    """The clusters field a side reads, from the first document of the file.

    ``None`` (any other side, e.g. a file to convert) lets the reader choose.
    """
    if side == "key":
        return "clusters"
    if side != "response":
        return None
    import json  # only JSON lines need it: not loaded by the start-up of other formats

    with open_binary(path) as handle:
        for raw in handle:
            if raw.strip():
                try:
                    first = json.loads(raw)
                except ValueError:
                    return None  # the reader reports the error with its line
                if isinstance(first, dict) and "predicted_clusters" in first:
                    return "predicted_clusters"
                return "clusters"
    raise InputError("empty file", path=os.fspath(path), line=1)


__all__ = [
    "FORMATS",
    "MENTION_TABLE_SUFFIXES",
    "detect_format",
    "is_mention_table",
    "read_conll",
    "read_conll_text",
    "read_corefud",
    "read_corpus",
    "read_mentions",
]
