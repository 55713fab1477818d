"""Write small hand-made seed inputs for the atheris harnesses.

Usage: ``python fuzz/make_seeds.py [OUT_DIR]`` (default ``/tmp/fuzz/seeds``)
writes ``OUT_DIR/conll/*`` and ``OUT_DIR/conllu/*``, each file prefixed with
the harness's option byte. The seeds are tiny on
purpose: libFuzzer mutates them, and each covers one layout feature of its
format, so coverage grows from a varied start. Nothing here is committed as a
corpus; regenerate the seeds whenever they are needed.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path


def _conll_row(doc: str, i: int, word: str, coref: str, sep: str = "\t") -> str:
    return sep.join([doc, "0", str(i), word, "NN", "(TOP*)", "-", "-", "-", "-", "*", coref])


def conll_seeds() -> dict[str, bytes]:
    nested = "\n".join(
        [
            "#begin document (d); part 000",
            _conll_row("d", 0, "John", "(0)"),
            _conll_row("d", 1, "saw", "-"),
            _conll_row("d", 2, "his", "(1(0)"),
            _conll_row("d", 3, "dog", "1)"),
            "",
            _conll_row("d", 0, "It", "(1)|(2"),
            _conll_row("d", 1, "barked", "2)"),
            "#end document",
            "",
        ]
    )
    parse = "\n".join(
        [
            "#begin document (p); part 001",
            "p\t0\t0\tThe\tDT\t(TOP(NP*\t-\t-\t-\tA\t(ORG*\t(3",
            "p\t0\t1\tcat\tNN\t*)\t-\t-\t-\tA\t*)\t3)",
            "p\t0\t2\tsat\tVBD\t(VP*))\t-\t-\t-\tA\t*\t-",
            "#end document",
            "",
        ]
    )
    semeval = "\n".join(
        [
            "#begin document s",
            "1\tJohn\tjohn\tjohn\tNNP\tNNP\t_\t_\t2\t2\tSBJ\tSBJ\t_\t_\t(1)",
            "2\tsleeps\tsleep\tsleep\tVBZ\tVBZ\t_\t_\t0\t0\tROOT\tROOT\t_\t_\t_",
            "3\the\the\the\tPRP\tPRP\t_\t_\t2\t2\tOBJ\tOBJ\t_\t_\t(1)",
            "#end document",
        ]
    )
    spaces = "#begin document w\nw 0 0 a (5\nw 0 1 b 5)|(6)\nw 0 2 c _\n#end document\n"
    two_docs = (
        "# a comment\n#begin document a\na\t0\t0\tx\t(1+2)|(3)\n#end document\n"
        "#begin document b\n\n   \t \nb\t0\t0\ty\t(12\nb\t0\t1\tz\t12)\n#end document\n"
    )
    trailing_tab = "#begin document t\nt\t0\t0\tx\t(1)\t\nt\t0\t1\ty\t-\t\n#end document\n"
    crlf = nested.replace("\n", "\r\n")
    return {
        "nested.conll": nested.encode(),
        "parse.conll": parse.encode(),
        "semeval.conll": semeval.encode(),
        "spaces.conll": spaces.encode(),
        "two_docs.conll": two_docs.encode(),
        "trailing_tab.conll": trailing_tab.encode(),
        "crlf.conll": crlf.encode(),
        "bom.conll": b"\xef\xbb\xbf" + spaces.encode(),
        "gzip.conll.gz": gzip.compress(nested.encode(), mtime=0),
        "no_end.conll": b"#begin document n\nn 0 0 x (0)\n",
    }


def _row(word_id: str, form: str, misc: str = "_", head: str = "0") -> str:
    return "\t".join([word_id, form, form.lower(), "X", "_", "_", head, "dep", "_", misc])


def conllu_seeds() -> dict[str, bytes]:
    basic = "\n".join(
        [
            "# newdoc id = d1",
            "# global.Entity = eid-etype-head-other",
            "# sent_id = 1",
            "# text = John saw his dog.",
            _row("1", "John", "Entity=(e1-person-1)", "2"),
            _row("2", "saw", "_", "0"),
            _row("3", "his", "Entity=(e2-animal-2(e1-person-1)", "4"),
            _row("4", "dog", "Entity=e2)|SpaceAfter=No", "2"),
            _row("5", ".", "_", "2"),
            "",
            _row("1-2", "Don't", "_", "_"),
            _row("1", "Do", "_", "3"),
            _row("2", "n't", "_", "3"),
            _row("3", "bite", "SplitAnte=e1<e3", "0"),
            _row("4", "him", "Entity=(e1--1)|Bridge=e2<e1", "3"),
            "",
        ]
    )
    discontinuous = "\n".join(
        [
            "# newdoc id = d2",
            "# global.Entity = GRP-etype-head-minspan-identity",
            "# sent_id = a",
            _row("1", "a", "Entity=(e5[1/2]-abstract-1-1-x)", "0"),
            _row("2", "b", "_", "1"),
            _row("3", "c", "Entity=(e5[2/2]-abstract-1-1-x)", "1"),
            _row("3.1", "d", "Entity=(e6-person-1)", "_"),
            _row("4", "e", "Entity=(e7-place-2", "1"),
            _row("5", "f", "Entity=e7)", "4"),
            "",
        ]
    )
    unnamed = "# sent_id = 1\n" + _row("1", "x", "Entity=(e1)") + "\n\n"
    return {
        "basic.conllu": basic.encode(),
        "discontinuous.conllu": discontinuous.encode(),
        "unnamed.conllu": unnamed.encode(),
        "crlf.conllu": basic.replace("\n", "\r\n").encode(),
        "gzip.conllu.gz": gzip.compress(discontinuous.encode(), mtime=0),
        "bom.conllu": b"\xef\xbb\xbf" + unnamed.encode(),
    }


# The harnesses take their options from the first byte of an input: a seed is
# the file behind one byte of options (see each harness's docstring).
_OPTIONS = {
    "conll": (b"\x00", b"\x18"),  # plain; syntax with head column 8
    "conllu": (b"\x00", b"\x01"),  # plain; empty nodes as tokens
}


def write_seeds(out: Path) -> None:
    for group, seeds in (("conll", conll_seeds()), ("conllu", conllu_seeds())):
        folder = out / group
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in seeds.items():
            for k, options in enumerate(_OPTIONS[group]):
                (folder / f"{k}-{name}").write_bytes(options + data)


if __name__ == "__main__":
    write_seeds(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/fuzz/seeds"))
