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

import atheris
import numpy  # noqa: F401  # imported first so that only corefscore is instrumented

with atheris.instrument_imports(include=["corefscore"]):
    from corefscore.io import conllu
    from corefscore.model import Corpus

from harness import coreference, input_path, outcome, run

_PATH = input_path(".conllu")
# Characters str.splitlines() breaks at but a file's "\n" lines do not.
_OTHER_BREAKS = frozenset("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _check(flags: int, body: bytes) -> None:
    empty_nodes = bool(flags & 1)
    full = outcome(conllu.read_conllu, _PATH, empty_nodes=empty_nodes, syntax=True)
    quick = outcome(conllu.read_conllu, _PATH, empty_nodes=empty_nodes, syntax=False)
    if isinstance(full, Corpus):
        if not isinstance(quick, Corpus):
            raise AssertionError(f"refused with syntax=False, accepted with syntax=True: {quick}")
        assert coreference(full) == coreference(quick), "syntax=False changed the mentions"
        assert full.warnings == quick.warnings, "syntax=False changed the warnings"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return
    if body[:2] == b"\x1f\x8b" or text[:1] == "\ufeff" or not _OTHER_BREAKS.isdisjoint(text):
        return
    in_memory = outcome(
        conllu.read_conllu_text, text, source=_PATH, empty_nodes=empty_nodes, syntax=True
    )
    if isinstance(full, Corpus) and isinstance(in_memory, Corpus):
        assert full == in_memory, "read_conllu_text and read_conllu differ"
    elif str(full) != str(in_memory):
        raise AssertionError(f"file / text readers differ: {full!r} / {in_memory!r}")


def main() -> None:
    run(_check, path=_PATH, module=conllu, caches=("_PROGRAMS", "_PROGRAMS_BYTES", "_INFOS"))


if __name__ == "__main__":
    main()
