"""Property-based fuzzing of every reader (hypothesis).

Well-formed corpora written by corefscore's own writers must read back to the
same entities and the same scores; mutated files (lines deleted, duplicated or
swapped, brackets flipped, junk bytes, truncation, other encodings, gzip) must
either read or fail with an :class:`InputError` naming the file, and the line
when one is known. Any other exception is a reader bug.

``COREFSCORE_FUZZ_EXAMPLES=N`` runs a longer campaign (see ``strategies.py``).
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from corefscore import score_corpora
from corefscore.errors import InputError
from corefscore.io import read_corpus
from corefscore.io.conll_writer import crossing_same_entity
from corefscore.io.convert import TARGETS, render
from corefscore.model import Corpus

from .strategies import (
    SGML_FILES,
    cluster_mappings,
    corpus_of,
    examples,
    mutate,
    partition,
)

FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Formats whose brackets cannot tell apart two crossing mentions of one entity.
BRACKETED = ("conll", "conllu")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _has_crossing(corpus: Corpus) -> bool:
    return any(crossing_same_entity(entity) for doc in corpus for entity in doc.entities)


def _scores(key: Corpus, response: Corpus) -> dict[str, float]:
    result = score_corpora(key, response)
    return {
        f"{name} {field}": getattr(m, field)
        for name, m in result.metrics.items()
        for field in ("recall", "precision", "f1")
    }


@settings(FUZZ, max_examples=examples(40))
@given(mapping=cluster_mappings(), response=cluster_mappings(), to=st.sampled_from(TARGETS))
def test_written_corpus_reads_back_and_scores_the_same(
    workdir: Path, mapping: dict[str, Any], response: dict[str, Any], to: str
) -> None:
    corpus = corpus_of(mapping)
    if to in BRACKETED and _has_crossing(corpus):
        with pytest.raises(InputError, match="cross"):
            render(corpus, to=to)
        return
    text, _ = render(corpus, to=to)
    path = workdir / f"round-trip.{to}"
    path.write_text(text, encoding="utf-8")
    reread = read_corpus(path, format=to)
    assert list(reread.documents) == list(corpus.documents)
    assert partition(reread) == partition(corpus)
    # Scores are computed on the reread corpus exactly as on the original,
    # against a response over the same document ids.
    other = corpus_of({doc_id: clusters for doc_id, clusters in zip(mapping, response.values())})
    assert _scores(reread, other) == pytest.approx(_scores(corpus, other), abs=1e-12)


@st.composite
def well_formed_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A format name and a valid file in it (from a writer, or hand-written SGML)."""
    fmt = draw(st.sampled_from(("conll", "conllu", "jsonl", "json", "sgml")))
    if fmt == "sgml":
        return fmt, draw(st.sampled_from(SGML_FILES))
    corpus = corpus_of(draw(cluster_mappings()))
    text, _ = render(corpus, to=fmt, lossy=True)
    return fmt, text.encode("utf-8")


def _plain_bytes(data: bytes) -> bytes | None:
    """The content as a reader sees it (gunzipped), or ``None`` if it is broken gzip."""
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        return None


def check_clean_error(exc: InputError, path: Path, data: bytes) -> None:
    """An input error names the file, and a real line of it, in one line of text."""
    message = str(exc)
    assert exc.path == str(path), message
    prefix = f"{path}:{exc.line}: " if exc.line is not None else f"{path}: "
    assert message.startswith(prefix), message
    assert len(message.splitlines()) == 1, message
    plain = _plain_bytes(data)
    if exc.line is not None and plain is not None:
        assert 1 <= exc.line <= plain.count(b"\n") + 1, message


@settings(FUZZ, max_examples=examples(250))
@given(source=well_formed_files(), data=st.data(), detect=st.booleans())
def test_mutated_file_reads_or_fails_with_a_located_input_error(
    workdir: Path, source: tuple[str, bytes], data: st.DataObject, detect: bool
) -> None:
    fmt, original = source
    mutated, applied = mutate(data.draw, original)
    note(f"mutations: {applied}")
    path = workdir / f"mutated.{fmt}"
    path.write_bytes(mutated)
    try:
        corpus = read_corpus(path, format=None if detect else fmt, side="key", syntax=True)
    except InputError as exc:
        check_clean_error(exc, path, mutated)
        return
    assert all(start <= end for doc in corpus for e in doc.entities for start, end in e)
    assert all(start >= 0 for doc in corpus for e in doc.entities for start, _ in e)


@settings(FUZZ, max_examples=examples(60))
@given(
    data=st.binary(max_size=300), fmt=st.sampled_from(("conll", "conllu", "jsonl", "json", "sgml"))
)
def test_arbitrary_bytes_never_crash_a_reader(workdir: Path, data: bytes, fmt: str) -> None:
    path = workdir / f"random.{fmt}"
    path.write_bytes(data)
    try:
        read_corpus(path, format=fmt, side="response")
    except InputError as exc:
        check_clean_error(exc, path, data)
