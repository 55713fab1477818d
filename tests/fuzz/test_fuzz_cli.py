"""Property-based fuzzing of the command line (hypothesis), run in-process.

A key and a response in one format, one or both mutated, go through
``score``, ``twins`` and ``convert`` with random options. The only outcomes
allowed: exit 0 with a result (on stdout, or in the file ``convert`` was
told to write), or exit 1/2 with exactly one line on stderr and nothing on
stdout. Exit 3 (internal error) or any escaping exception is a bug.

``COREFSCORE_FUZZ_EXAMPLES=N`` runs a longer campaign (see ``strategies.py``).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from corefscore.cli import main
from corefscore.io import read_corpus

from .strategies import examples, mutate
from .test_fuzz_readers import well_formed_files

SCORE_OPTIONS = (
    ["-m", "muc"],
    ["-m", "conll,lea"],
    ["-m", "blanc"],
    ["--per-document"],
    ["--format", "json"],
    ["--format", "perl"],
    ["--format", "csv"],
    ["--singletons", "drop"],
    ["--match", "overlap"],
    ["--match", "head"],
    ["--duplicates", "reference"],
    ["--duplicates", "first"],
    ["--remove-nested"],
    ["--gold-mentions"],
    ["--empty-nodes"],
    ["--doc", "0"],
)
TWINS_OPTIONS = (["--format", "json"], ["--match", "min-span"], ["--singletons", "drop"])


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-cli")


@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(source=well_formed_files(), data=st.data())
def test_cli_exits_cleanly_on_mutated_files(
    workdir: Path, source: tuple[str, bytes], data: st.DataObject
) -> None:
    fmt, original = source
    key_bytes, response_bytes = original, original
    damaged = data.draw(st.sampled_from(("response", "key", "both")))
    if damaged in ("key", "both"):
        key_bytes, applied = mutate(data.draw, key_bytes)
        note(f"key mutations: {applied}")
    if damaged in ("response", "both"):
        response_bytes, applied = mutate(data.draw, response_bytes)
        note(f"response mutations: {applied}")
    key = workdir / f"key.{fmt}"
    response = workdir / f"response.{fmt}"
    key.write_bytes(key_bytes)
    response.write_bytes(response_bytes)
    target = workdir / "converted.out"
    target.unlink(missing_ok=True)

    command = data.draw(st.sampled_from(("score", "twins", "convert")))
    if command == "convert":
        to = data.draw(st.sampled_from(("conll", "conllu", "jsonl", "json")))
        args = ["convert", str(response), str(target), "--to", to]
        if data.draw(st.booleans()):
            args.append("--lossy")
    else:
        pool = SCORE_OPTIONS if command == "score" else TWINS_OPTIONS
        chosen = data.draw(st.lists(st.sampled_from(pool), max_size=3))
        args = [command, str(key), str(response), *(a for option in chosen for a in option)]
    note(f"args: {args}")

    code, out, err = run_cli(args)
    assert code in (0, 1, 2), err
    if code == 0:
        if command == "convert":
            assert out == ""
            # Empty only for a source of no documents (a JSON file holding {}).
            assert target.stat().st_size > 0 or len(read_corpus(response, side="input")) == 0
        else:
            assert out.strip(), "success without a result"
        return
    assert out == "", "output on stdout after an error"
    assert len(err.splitlines()) == 1, err
    assert err.startswith("corefscore: "), err
    if command == "convert":
        assert not target.exists(), "a refused conversion wrote its target"
