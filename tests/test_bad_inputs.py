"""The malformed-input corpus: every case under ``tests/bad_inputs/`` fails cleanly.

A case is a ``.expect`` file (see ``tests/bad_inputs/README.md``): the command
line, the exit code and the one line expected on stderr. Each case runs the
CLI in-process and checks all three, and that stdout stays empty: bad input
must never yield a partial or silently wrong number.

Huge inputs (the 100 MB line) are not stored: a ``generate: NAME`` field
names a generator below that writes them into a temporary folder.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from corefscore.cli import main

CORPUS = Path(__file__).parent / "bad_inputs"
HUGE = 100 * 1024 * 1024  # the 100 MB line


@dataclass(frozen=True)
class Case:
    expect: Path
    args: str
    exit: int
    stderr: str | None
    stderr_re: str | None
    generate: str | None


def parse_expect(path: Path) -> Case:
    fields: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        name, sep, value = raw.partition(":")
        if not sep or name.strip() not in {"args", "exit", "stderr", "stderr-re", "generate"}:
            raise ValueError(f"{path}: unknown line {raw!r}")
        fields[name.strip()] = value.strip()
    if "args" not in fields or "exit" not in fields:
        raise ValueError(f"{path}: needs 'args:' and 'exit:'")
    if ("stderr" in fields) == ("stderr-re" in fields):
        raise ValueError(f"{path}: needs exactly one of 'stderr:' and 'stderr-re:'")
    return Case(
        expect=path,
        args=fields["args"],
        exit=int(fields["exit"]),
        stderr=fields.get("stderr"),
        stderr_re=fields.get("stderr-re"),
        generate=fields.get("generate"),
    )


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:  # argparse's --help/--version paths
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


# Generators: each writes the inputs of one case into ``folder``.


def _conll_line(word: str, field: str) -> str:
    return f"d\t0\t0\t{word}\t{field}\n"


def huge_conll_coreference_field(folder: Path) -> None:
    """A CoNLL token line whose coreference field is 100 MB of garbage."""
    with open(folder / "huge_field.conll", "w", encoding="ascii") as out:
        out.write("#begin document (d); part 000\n")
        out.write(_conll_line("John", "(1)"))
        out.write(_conll_line("Smith", "x" * HUGE))
        out.write("#end document\n")


def huge_conll_unclosed_line(folder: Path) -> None:
    """A 100 MB last line without a newline: a word of 100 MB, then an unclosed bracket."""
    with open(folder / "huge_word.conll", "w", encoding="ascii") as out:
        out.write("#begin document (d); part 000\n")
        out.write(_conll_line("John", "(1)"))
        out.write(f"d\t0\t1\t{'w' * HUGE}\t(2")


def huge_jsonl_line(folder: Path) -> None:
    """A 100 MB jsonlines document whose last span holds a string."""
    with open(folder / "huge_line.jsonl", "w", encoding="ascii") as out:
        out.write('{"doc_key": "d1", "sentences": [["')
        out.write("w" * HUGE)
        out.write('"]], "clusters": [[[0, 0], [0, "0"]]]}\n')


def huge_json_line(folder: Path) -> None:
    """A minified JSON clusters file on one 100 MB line, with a bad span at its end."""
    with open(folder / "huge_line.json", "w", encoding="ascii") as out:
        out.write('{"d1": [[[0, 0]]], "')
        out.write("d" * HUGE)
        out.write('": [[[0, 0], [1, x]]]}')


def long_conllu_entity_value(folder: Path) -> None:
    """A CoNLL-U ``Entity=`` value of 1 MB, never closed: the message shows 60 characters.

    1 MB, not 100: the CoNLL-U reader takes ~10 s for a 100 MB line on a
    loaded 2-core machine, and the line limit is tested on the other formats.
    """
    with open(folder / "long_entity_value.conllu", "w", encoding="ascii") as out:
        out.write("# newdoc id = d1\n# sent_id = s1\n")
        out.write("1\tJohn\tjohn\tX\t_\t_\t0\troot\t_\tEntity=(e1" + "x" * (1 << 20) + "\n\n")


GENERATORS: dict[str, Callable[[Path], None]] = {
    f.__name__: f
    for f in (
        huge_conll_coreference_field,
        huge_conll_unclosed_line,
        huge_jsonl_line,
        huge_json_line,
        long_conllu_entity_value,
    )
}

CASES = sorted(CORPUS.rglob("*.expect"))


def test_corpus_size() -> None:
    """Issue 8 asks for at least 60 input files, across every format."""
    inputs = [
        p
        for p in CORPUS.rglob("*")
        if p.is_file() and p.suffix not in {".expect", ".md"} and "__pycache__" not in p.parts
    ]
    generated = [c for c in CASES if parse_expect(c).generate]
    assert len(inputs) + len(generated) >= 60
    groups = {p.parent.name for p in CASES}
    assert {"conll", "conllu", "jsonl", "json", "sgml", "pair", "encoding"} <= groups


def test_every_input_belongs_to_a_case() -> None:
    """An input file no ``.expect`` names is a case someone forgot to finish."""
    names = {(c.parent, c.name.removesuffix(".expect")) for c in CASES}
    orphans = [
        p
        for p in CORPUS.rglob("*")
        if p.is_file()
        and p.suffix not in {".expect", ".md"}
        and not any(p.parent == d and p.name.startswith(stem + ".") for d, stem in names)
    ]
    assert orphans == []


@pytest.mark.parametrize("expect", CASES, ids=[str(c.relative_to(CORPUS)) for c in CASES])
def test_bad_input(expect: Path, tmp_path: Path) -> None:
    case = parse_expect(expect)
    folder = expect.parent
    if case.generate is not None:
        GENERATORS[case.generate](tmp_path)
        folder = tmp_path
    args = [a.replace("{dir}", str(folder)) for a in shlex.split(case.args)]
    code, out, err = run_cli(args)
    lines = err.splitlines()
    assert out == "", "nothing may reach stdout on bad input"
    assert len(lines) == 1, f"expected one stderr line, got {err!r}"
    if case.stderr is not None:
        assert lines[0] == case.stderr.replace("{dir}", str(folder))
    else:
        assert case.stderr_re is not None
        pattern = case.stderr_re.replace("{dir}", re.escape(str(folder)))
        assert re.fullmatch(pattern, lines[0]), lines[0]
    assert code == case.exit
    assert "Traceback" not in err and "internal error" not in err
