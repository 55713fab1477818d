#!/usr/bin/env python3
"""Coverage-guided fuzzing of the CoNLL-2012 / SemEval-2010 reader (atheris).

Run (see fuzz/README.md):
``python fuzz/fuzz_conll.py [libFuzzer options] CORPUS_DIR [SEED_DIR...]``.

Each input is written to a file and read the way the command line reads it
(``read_conll``: gzip sniffing, byte-order marks, UTF-8 checks). The first
byte chooses the options; the rest is the file. An input passes when every
read either returns a corpus or raises corefscore's own error; besides, three
readings must agree (anything else is reported as a crash):

* with the syntax pass (``syntax=True``, optionally ``head_column``) the
  coreference is the same, and a file refused without it is refused with it;
  the syntax columns have one value per token of the coreference pass;
* read in small blocks (as a file larger than the reader's block size is),
  the result is the same corpus, or an error whenever the one-block read errs;
* an error message is a single line (the command line prints it as one).
"""

from __future__ import annotations

import atheris
import numpy  # noqa: F401  # imported first so that only corefscore is instrumented

with atheris.instrument_imports(include=["corefscore"]):
    from corefscore.io import conll
    from corefscore.model import Corpus

from harness import coreference, input_path, outcome, run

_PATH = input_path(".conll")


def _check_syntax_alignment(corpus: Corpus) -> None:
    """Both passes count the same tokens: columns, sentences and mentions agree."""
    for doc in corpus:
        syntax = doc.syntax
        if syntax is None or syntax.words is None:
            continue
        n = len(syntax.words)
        columns = (syntax.pos, syntax.parse, syntax.named_entities, syntax.dependency_heads)
        assert all(c is None or len(c) == n for c in columns), "syntax columns differ in length"
        starts = syntax.sentence_starts
        assert all(0 <= a < b <= n for a, b in zip(starts, (*starts[1:], n))), "bad sentences"
        assert all(end < n for entity in doc.entities for _, end in entity), "mention past words"


def _check(flags: int, body: bytes) -> None:
    plain = outcome(conll.read_conll, _PATH)
    head_column = flags % 16 if flags & 16 else None
    with_syntax = outcome(conll.read_conll, _PATH, syntax=True, head_column=head_column)
    if isinstance(plain, Corpus):
        if isinstance(with_syntax, Corpus):
            assert coreference(plain) == coreference(with_syntax), "syntax pass changed mentions"
            _check_syntax_alignment(with_syntax)
    elif isinstance(with_syntax, Corpus):
        raise AssertionError(f"accepted with syntax=True, refused without: {plain}")
    block_size = 1 + (flags >> 5) * 7
    blocks = outcome(lambda: conll._read_blocks(conll.iter_blocks(_PATH, size=block_size), _PATH))
    if isinstance(plain, Corpus) != isinstance(blocks, Corpus):
        raise AssertionError(f"block size {block_size} changes the outcome: {plain!r} / {blocks!r}")
    if isinstance(plain, Corpus):
        assert plain == blocks, f"block size {block_size} changes the corpus"


def main() -> None:
    run(_check, path=_PATH, module=conll, caches=("_FIELD_CACHE",))


if __name__ == "__main__":
    main()
