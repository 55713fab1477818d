#!/usr/bin/env python3
"""Coverage-guided fuzzing of the CorefUD CoNLL-U reader (atheris).

Run (see fuzz/README.md):
``python fuzz/fuzz_conllu.py [libFuzzer options] CORPUS_DIR [SEED_DIR...]``.

Each input is written to a file and read as the command line reads it
(``read_conllu``: gzip sniffing, byte-order marks, UTF-8 checks, block
reading). The first byte chooses the options; the rest is the file. An input
passes when every read either returns a corpus or raises corefscore's own
error; besides, these must hold (anything else is reported as a crash):

* ``syntax=False`` reads the same mentions as ``syntax=True`` (its documented
  promise), and never refuses a file that ``syntax=True`` accepts;
* for plain UTF-8 text with only ``\\n`` line breaks, the in-memory reader
  (``read_conllu_text``) gives the same corpus or the same error as the file
  reader;
* an error message is a single line (the command line prints it as one).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile

import atheris
import numpy  # noqa: F401  # imported first so that only corefscore is instrumented

with atheris.instrument_imports(include=["corefscore"]):
    from corefscore.errors import CorefScoreError
    from corefscore.io import conllu
    from corefscore.model import Corpus

# One file per process (fork mode runs several), removed after each input:
# libFuzzer ends the process without running Python's exit handlers.
_TMP = os.path.join(
    "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir(), "corefscore-fuzz"
)
os.makedirs(_TMP, exist_ok=True)
_PATH = os.path.join(_TMP, f"input-{os.getpid()}.conllu")
# Characters str.splitlines() breaks at but a file's "\n" lines do not.
_OTHER_BREAKS = frozenset("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _outcome(read: object, *args: object, **options: object) -> Corpus | CorefScoreError:
    try:
        result = read(*args, **options)  # type: ignore[operator]
    except CorefScoreError as exc:
        if len(str(exc).splitlines()) != 1:
            raise AssertionError(f"error message is not one line: {str(exc)!r}") from exc
        return exc
    assert isinstance(result, Corpus)
    return result


def _coreference(corpus: Corpus) -> list[object]:
    return [dataclasses.replace(doc, syntax=None) for doc in corpus.documents.values()]


# The reader's parse caches are bounded by entry count, not by bytes: one
# process reading millions of distinct fuzz lines fills them with long keys,
# and libFuzzer would report the memory as a leak. Emptying them now and then
# keeps the measure on one input's cost.
_CACHES = ("_PROGRAMS", "_PROGRAMS_BYTES", "_INFOS")
_inputs = 0


def _clear_caches() -> None:
    for name in _CACHES:
        cache = getattr(conllu, name, None)
        if isinstance(cache, dict):
            cache.clear()


def test_one_input(data: bytes) -> None:
    try:
        _check(data)
    finally:
        if os.path.exists(_PATH):
            os.remove(_PATH)


def _check(data: bytes) -> None:
    global _inputs
    _inputs += 1
    if _inputs % 2000 == 0:
        _clear_caches()
    if not data:
        return
    flags, body = data[0], data[1:]
    empty_nodes = bool(flags & 1)
    with open(_PATH, "wb") as handle:
        handle.write(body)
    full = _outcome(conllu.read_conllu, _PATH, empty_nodes=empty_nodes, syntax=True)
    quick = _outcome(conllu.read_conllu, _PATH, empty_nodes=empty_nodes, syntax=False)
    if isinstance(full, Corpus):
        if not isinstance(quick, Corpus):
            raise AssertionError(f"refused with syntax=False, accepted with syntax=True: {quick}")
        assert _coreference(full) == _coreference(quick), "syntax=False changed the mentions"
        assert full.warnings == quick.warnings, "syntax=False changed the warnings"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return
    if body[:2] == b"\x1f\x8b" or text[:1] == "\ufeff" or not _OTHER_BREAKS.isdisjoint(text):
        return
    in_memory = _outcome(
        conllu.read_conllu_text, text, source=_PATH, empty_nodes=empty_nodes, syntax=True
    )
    if isinstance(full, Corpus) and isinstance(in_memory, Corpus):
        assert full == in_memory, "read_conllu_text and read_conllu differ"
    elif str(full) != str(in_memory):
        raise AssertionError(f"file / text readers differ: {full!r} / {in_memory!r}")


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
