"""Hypothesis strategies shared by the fuzz tests: corpora, files, mutations.

``COREFSCORE_FUZZ_EXAMPLES=N`` runs every fuzz test with ``N`` examples
instead of its small CI default (a longer campaign, e.g. N=5000).
"""

from __future__ import annotations

import codecs
import gzip
import os
from typing import Protocol, TypeVar

from hypothesis import strategies as st

from corefscore.model import Corpus, corpus_from_mapping

Clusters = list[list[tuple[int, int]]]
T = TypeVar("T")


class Draw(Protocol):
    """``data.draw`` of ``st.data()``, or the ``draw`` of a composite strategy."""

    def __call__(self, strategy: st.SearchStrategy[T]) -> T: ...


def examples(default: int) -> int:
    """The example count of a fuzz test: ``default``, or the campaign's from the environment."""
    configured = os.environ.get("COREFSCORE_FUZZ_EXAMPLES", "").strip()
    return int(configured) if configured else default


# Ids every format can hold as written: no white space at the ends (CoNLL and
# CoNLL-U strip it), no ";" (CoNLL reads "name; part N"), no "#".
doc_ids = st.from_regex(r"[A-Za-z0-9_./-]{1,10}", fullmatch=True)


@st.composite
def clusters(draw: st.DrawFn, *, min_mentions: int = 0) -> Clusters:
    """Entities of distinct spans (one to four tokens) over the first 30 tokens."""
    spans = draw(
        st.lists(
            st.tuples(st.integers(0, 30), st.integers(0, 3)).map(lambda t: (t[0], t[0] + t[1])),
            unique=True,
            min_size=min_mentions,
            max_size=14,
        )
    )
    n = draw(st.integers(1, 5))
    owners = draw(st.lists(st.integers(0, n - 1), min_size=len(spans), max_size=len(spans)))
    entities = [[s for s, owner in zip(spans, owners) if owner == e] for e in range(n)]
    return [e for e in entities if e]


@st.composite
def cluster_mappings(draw: st.DrawFn) -> dict[str, Clusters]:
    """One to three documents with distinct ids, each with at least one mention."""
    ids = draw(st.lists(doc_ids, min_size=1, max_size=3, unique=True))
    return {doc_id: draw(clusters(min_mentions=1)) for doc_id in ids}


def corpus_of(mapping: dict[str, Clusters]) -> Corpus:
    return corpus_from_mapping(mapping, side="key")


def partition(corpus: Corpus) -> dict[str, set[frozenset[tuple[int, int]]]]:
    """What scoring sees of a corpus: each document's entities as sets of spans."""
    return {doc.doc_id: {frozenset(e) for e in doc.entities} for doc in corpus}


# Hand-written MUC SGML (corefscore writes no SGML), for the mutation tests.
SGML_FILES = (
    b"<DOC><DOCNO> d1 </DOCNO><TEXT>\n"
    b'<COREF ID="1" MIN="Smith">Mr. Smith</COREF> said\n'
    b'<COREF ID="2" TYPE="IDENT" REF="1">he</COREF> saw '
    b'<COREF ID="3" STATUS="OPT">the <COREF ID="4">dog</COREF></COREF>.\n'
    b"</TEXT></DOC>\n",
    b"<COREF ID=7>IBM</COREF> and <COREF ID=8 REF=7>its</COREF> staff\n"
    b"<!-- a comment --> <p> <COREF ID='9' REF='8'>IBM's</COREF>\n",
)

MUTATIONS = (
    "delete-line",
    "duplicate-line",
    "swap-lines",
    "flip-bracket",
    "junk-bytes",
    "truncate",
    "change-digit",
    "crlf",
    "re-encode",
    "gzip",
)
_BRACKETS = {ord(a): ord(b) for a, b in ("()", ")(", "[]", "][", "{}", "}{", "<>", "><")}
_JUNK = st.one_of(
    st.binary(min_size=1, max_size=4),
    st.sampled_from(
        [b"(", b")", b"|", b"\t", b"\n", b"#", b"-", b"\x00", b"\xff", b"\xc3", b"\r", b'"']
    ),
    # White space that some splitters count and others do not.
    st.sampled_from([b"\x0b", b"\x0c", b"\n\x0c\n", b"\xc2\xa0", b"\xe2\x80\xa8", b"\x1c"]),
    st.sampled_from([b"#begin document x\n", b"#end document\n", b"# newdoc id = x\n"]),
    st.sampled_from([b"Entity=(e1", b"e1)", b"[1/2]", b"<COREF ID=1>", b"</COREF>", b"]]"]),
)


def mutate(draw: Draw, data: bytes) -> tuple[bytes, list[str]]:
    """``data`` with one to four random mutations, and their names (for failure reports)."""
    applied: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(MUTATIONS))
        applied.append(kind)
        data = _apply(draw, kind, data)
    return data, applied


def _apply(draw: Draw, kind: str, data: bytes) -> bytes:
    lines = data.split(b"\n")
    if kind in ("delete-line", "duplicate-line", "swap-lines"):
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "delete-line":
            del lines[i]
        elif kind == "duplicate-line":
            lines.insert(i, lines[i])
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if not data:
        return draw(_JUNK) if kind == "junk-bytes" else data
    at = draw(st.integers(0, len(data)))
    if kind == "flip-bracket":
        positions = [k for k, byte in enumerate(data) if byte in _BRACKETS]
        if not positions:
            return data
        k = draw(st.sampled_from(positions))
        return data[:k] + bytes([_BRACKETS[data[k]]]) + data[k + 1 :]
    if kind == "junk-bytes":
        return data[:at] + draw(_JUNK) + data[at:]
    if kind == "truncate":
        return data[:at]
    if kind == "change-digit":
        positions = [k for k, byte in enumerate(data) if 48 <= byte <= 57]
        if not positions:
            return data
        k = draw(st.sampled_from(positions))
        return data[:k] + draw(st.sampled_from(b"0123456789")).to_bytes(1, "big") + data[k + 1 :]
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n")
    if kind == "re-encode":
        encoding = draw(st.sampled_from(["utf-16", "utf-16-be", "latin-1", "utf-8-sig", "cp1252"]))
        text = data.decode("utf-8", errors="replace")
        if encoding == "utf-16-be":
            return codecs.BOM_UTF16_BE + text.encode(encoding)
        return text.encode(encoding, errors="replace")
    assert kind == "gzip"
    packed = gzip.compress(data, mtime=0)
    # A truncated gzip stream is as likely as a whole one.
    return packed if draw(st.booleans()) else packed[: draw(st.integers(2, len(packed)))]
