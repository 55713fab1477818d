"""Which format a file is in: from its content first, then from its name.

Content decides because it cannot lie: a ``.txt`` file that starts with
``#begin document`` is CoNLL. The extension only settles files whose first
lines say nothing (e.g. a JSON document that starts with a long string).
Universal Anaphora files are known by their ``# global.columns`` line, which
names an IDENTITY or DISCOURSE_DEIXIS column: their names vary (``.CONLL``,
``.conllu``, CODI-CRAC's ``.CONLLUA``), and without that line the CoNLL-U
rules would take them for CorefUD files.
"""

from __future__ import annotations

import os
import re
import zlib

from ..errors import InputError, UsageError, option_name
from .files import open_binary

#: Format names, as accepted by ``--key-format`` / ``--response-format``.
FORMATS = ("conll", "conllu", "jsonl", "json", "sgml", "mentions", "ua")

_EXTENSIONS = {
    ".conllua": "ua",
    ".ua": "ua",
    ".conll": "conll",
    ".conll2012": "conll",
    ".v4_gold_conll": "conll",
    ".gold_conll": "conll",
    ".conllu": "conllu",
    ".jsonl": "jsonl",
    ".jsonlines": "jsonl",
    ".json": "json",
    ".sgml": "sgml",
    ".sgm": "sgml",
    ".muc": "sgml",
    ".conll.tsv": "conll",
    ".tsv": "mentions",
    ".mentions": "mentions",
}
_SNIFF_BYTES = 1 << 16
# A UA file's column declaration: "# global.columns = ID FORM ... IDENTITY ...". A
# pattern, compiled when first searched for: a CoNLL file is told before it.
_UA_COLUMNS = r"^[ \t]*#\s*global\.columns\s*=[^\n]*?\b(?:IDENTITY|DISCOURSE_DEIXIS)\b"


def check_format(name: str) -> str:
    if name not in FORMATS:
        raise UsageError(f"unknown format {name!r}; choose one of {', '.join(FORMATS)}")
    return name


def format_from_name(path: str | os.PathLike[str]) -> str | None:
    """The format the file name suggests (``.gz`` is looked through), or ``None``."""
    name = os.fspath(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    for ext, fmt in _EXTENSIONS.items():
        if name.endswith(ext):
            return fmt
    return None


def format_from_content(head: bytes) -> str | None:
    """The format the first bytes of a file show, or ``None`` if they do not tell."""
    text = head.lstrip(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    stripped = text.lstrip()
    if not stripped:
        return None
    if re.search(r"^#\s*begin document\b", text, re.M):
        return "conll"
    if stripped.startswith("<") and re.search(r"<(?:DOC|COREF|TEXT)\b", text, re.I):
        return "sgml"
    if stripped.startswith("{"):
        first = stripped.split("\n", 1)[0]
        # A first line longer than the sniffed bytes is cut: it cannot end in "}".
        if '"doc_key"' in first and (first.rstrip().endswith("}") or "\n" not in stripped):
            return "jsonl"
        return "json"
    if re.search(_UA_COLUMNS, text, re.M):
        return "ua"
    if re.search(r"^#\s*(?:newdoc|sent_id|global\.Entity|text)\b", text, re.M):
        return "conllu"
    for line in text.splitlines():
        if line and not line.startswith("#"):
            fields = line.split("\t")
            if len(fields) == 10 and re.fullmatch(r"\d+(?:[.-]\d+)?", fields[0]):
                return "conllu"
            break
    return None


def detect_format(path: str | os.PathLike[str], *, side: str = "input") -> str:
    """The format of ``path``: from its first bytes, else its name, else an error."""
    with open_binary(path) as handle:
        try:
            head = handle.read(_SNIFF_BYTES)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"cannot read file ({exc})", path=os.fspath(path)) from None
    named = format_from_name(path)
    if named == "mentions":
        # A mention table's lines say nothing a sniffer can trust; its name does.
        return named
    found = format_from_content(head) or named
    if found == "json" and named == "jsonl":
        # Content tells JSON from other formats, but not a jsonlines file whose
        # first line lacks "doc_key" from JSON clusters: the name does.
        found = named
    if found is None and b"\x00" in head:
        line = head[: head.index(b"\x00")].count(b"\n") + 1
        raise InputError("binary data (NUL byte); not a text file", path=os.fspath(path), line=line)
    if found is None:
        raise InputError(
            f"cannot tell the format of this {side} file from its name or first lines; "
            f"give it with {option_name(f'{side}_format')} ({', '.join(FORMATS)})",
            path=os.fspath(path),
            line=1,
        )
    return found


__all__ = ["FORMATS", "check_format", "detect_format", "format_from_content", "format_from_name"]
