"""The command line: outputs, options, exit codes and error messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import corefscore
from corefscore import cli, evaluation, matching, metrics

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
KEY = EXAMPLES / "key.conll"
RESPONSE = EXAMPLES / "response.conll"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "corefscore", *args], capture_output=True, text=True, check=False
    )


def test_cli_constants_match_the_library() -> None:
    # The CLI keeps its own copies so that --help imports no numpy.
    assert cli.POLICIES == evaluation.DUPLICATE_POLICIES
    assert cli.METRICS == metrics.METRICS
    assert cli.MATCHINGS == (*matching.MATCHINGS, "partial")  # partial: the CorefUD evaluation's
    assert cli.COMPATS == ("auto", *evaluation.COMPATS)
    assert set(cli.CEAF_FAMILY) <= set(metrics.REGISTRY)


def test_version_and_help() -> None:
    assert run("--version").stdout.strip() == f"corefscore {corefscore.__version__}"
    for flag in ("-h", "--help"):
        proc = run(flag)
        assert proc.returncode == 0 and "score" in proc.stdout
        proc = run("score", flag)
        assert proc.returncode == 0 and "--duplicates" in proc.stdout


def test_no_command_is_a_usage_error() -> None:
    proc = run()
    assert proc.returncode == 2 and proc.stdout == ""


def test_text_output_of_the_shipped_example() -> None:
    proc = run("score", str(KEY), str(RESPONSE))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "corpus (micro-average over key documents)"
    muc = next(line for line in lines if line.startswith("MUC "))
    assert muc.split()[1:] == ["66.66", "50.00", "57.14", "2/3", "2/4"]
    assert any(line.startswith("CoNLL ") for line in lines)
    assert "signature" not in proc.stderr


def test_json_schema() -> None:
    proc = run("score", str(KEY), str(RESPONSE), "--format", "json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["schema_version"] == 1
    assert data["signature"].startswith("metrics:mentions+muc+bcub+ceafm+ceafe+blanc+lea|")
    assert data["options"]["duplicates"] == "reference"
    assert set(data["metrics"]) == {
        "mentions",
        "muc",
        "bcub",
        "ceafm",
        "ceafe",
        "blanc",
        "lea",
        "conll",
    }
    fields = {
        "recall",
        "precision",
        "f1",
        "recall_num",
        "recall_den",
        "precision_num",
        "precision_den",
    }
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        assert set(data["metrics"][name]) == fields
    assert set(data["metrics"]["blanc"]) == fields | {"coref", "noncoref"}
    assert set(data["metrics"]["blanc"]["coref"]) == fields
    assert set(data["metrics"]["conll"]) == {"f1"}
    muc = data["metrics"]["muc"]
    assert (muc["recall_num"], muc["recall_den"]) == (2, 3)
    assert "documents" not in data


def test_json_per_document() -> None:
    proc = run("score", str(KEY), str(RESPONSE), "--format", "json", "--per-document", "-m", "muc")
    data = json.loads(proc.stdout)
    assert list(data["metrics"]) == ["muc"]
    assert set(data["documents"]) == {"(example/doc); part 000", "(example/doc); part 001"}
    totals = sum(d["muc"]["recall_num"] for d in data["documents"].values())
    assert totals == data["metrics"]["muc"]["recall_num"]


def test_doc_option_scores_one_document() -> None:
    proc = run(
        "score", str(KEY), str(RESPONSE), "--format", "json", "--doc", "(example/doc); part 001"
    )
    data = json.loads(proc.stdout)
    assert data["metrics"]["mentions"]["recall_den"] == 2
    proc = run("score", str(KEY), str(RESPONSE), "--doc", "nope")
    assert proc.returncode == 1
    assert "document 'nope' is not in the key" in proc.stderr


def test_perl_format_single_and_several_metrics() -> None:
    one = run("score", str(KEY), str(RESPONSE), "--format", "perl", "-m", "muc").stdout
    assert one.startswith("\n====== TOTALS =======\nIdentification of Mentions: Recall: (")
    assert "\nCoreference: Recall: (2 / 3) 66.66%\tPrecision: (2 / 4) 50%\tF1: 57.14%\n" in one
    assert one.endswith("-" * 74 + "\n")
    several = run("score", str(KEY), str(RESPONSE), "--format", "perl", "-m", "muc,blanc").stdout
    assert several.startswith("\nMETRIC muc:\n\n====== TOTALS =======\n")
    assert "\nMETRIC blanc:\n" in several and "\nBLANC: Recall: (" in several


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["score", str(KEY)], 2, "usage error"),
        (["score", str(KEY), str(RESPONSE), "-m", "nope"], 2, "unknown metric 'nope'"),
        (["score", str(KEY), str(RESPONSE), "--format", "xml"], 2, "invalid choice"),
        (
            ["score", str(KEY), str(RESPONSE), "--format", "perl", "--per-document"],
            2,
            "--per-document",
        ),
        (["score", str(KEY), "missing.conll"], 1, "missing.conll: no such file"),
    ],
)
def test_errors_are_one_line_with_exit_code(args: list[str], code: int, message: str) -> None:
    proc = run(*args)
    assert proc.returncode == code
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_malformed_file_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document d\nd\t0\t-\nd\t1\t7)\n#end document\n")
    proc = run("score", str(KEY), str(bad))
    assert proc.returncode == 1
    assert proc.stderr == (
        f"corefscore: error: {bad}:3: closing bracket '7)' without an opening '(7' "
        "in document 'd'\n"
    )


def test_warnings_go_to_stderr_and_quiet_silences_them(tmp_path: Path) -> None:
    response = tmp_path / "resp.conll"
    response.write_text(RESPONSE.read_text() + "#begin document other\nx\t(1)\n#end document\n")
    proc = run("score", str(KEY), str(response), "--format", "json")
    assert proc.returncode == 0
    assert "1 response document(s) not in the key, ignored: 'other'" in proc.stderr
    json.loads(proc.stdout)
    assert run("score", str(KEY), str(response), "-q").stderr == ""


def test_repeated_response_span_is_scored_once_with_a_warning(tmp_path: Path) -> None:
    response = tmp_path / "resp.conll"
    response.write_text("#begin document d\nd\t(1)|(2)\nd\t(1)\nd\t(2)\n#end document\n")
    key = tmp_path / "key.conll"
    key.write_text("#begin document d\nd\t(1)\nd\t(1)\nd\t(2)\n#end document\n")
    proc = run("score", str(key), str(response), "--format", "json", "-m", "muc")
    assert proc.returncode == 0
    # One line for the document, saying what was done (the reference's handling).
    assert proc.stderr == (
        "corefscore: warning: document 'd': repeated spans, handled as the reference scorer "
        "does; response span (0, 0) of key mentions: later copies dropped\n"
    )
    # Entity 2 keeps only (2, 2): response links 1 + 0.
    assert json.loads(proc.stdout)["metrics"]["muc"]["precision_den"] == 1
    first = run("score", str(key), str(response), "--duplicates", "first", "-m", "muc")
    assert "response span (0, 0): kept the copy in the first entity" in first.stderr


def test_repeated_key_span_is_an_error_only_when_strict(tmp_path: Path) -> None:
    key = tmp_path / "key.conll"
    key.write_text("#begin document d\nd\t(1)|(2)\nd\t(1)\n#end document\n")
    proc = run("score", str(key), str(key), "--duplicates", "strict")
    assert proc.returncode == 1
    assert f"{key}:2: span (0, 0) repeated in key document 'd', in entities 1 and 2" in proc.stderr
    for policy in (None, "first", "reference"):
        options = [] if policy is None else ["--duplicates", policy]
        assert run("score", str(key), str(key), *options).returncode == 0


def test_main_in_process_text_per_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", str(KEY), str(RESPONSE), "--per-document", "-m", "muc,lea"]) == 0
    out = capsys.readouterr().out
    assert "document (example/doc); part 000" in out
    # Two documents, the macro-average and the corpus.
    assert out.count("LEA ") == 4
    assert "macro-average" in out


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        ([], 2),
        (["score", str(KEY), str(RESPONSE), "-m", "nope"], 2),
        (["score", str(KEY), "missing.conll"], 1),
        (["score", str(KEY), str(RESPONSE), "--format", "perl", "--per-document"], 2),
    ],
)
def test_main_in_process_exit_codes(
    argv: list[str], code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == code
    captured = capsys.readouterr()
    assert captured.out == ""


def test_main_reports_internal_errors_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("unexpected")

    monkeypatch.setattr("corefscore.scorer.score_corpora", boom)
    monkeypatch.delenv("COREFSCORE_DEBUG", raising=False)
    assert cli.main(["score", str(KEY), str(RESPONSE)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: unexpected" in err


def test_metrics_command_lists_every_metric_with_a_citation() -> None:
    proc = run("metrics")
    assert proc.returncode == 0, proc.stderr
    for name in metrics.REGISTRY:
        assert any(name in line.split()[:2] for line in proc.stdout.splitlines())
    data = json.loads(run("metrics", "--format", "json").stdout)
    names = [m["name"] for m in data["metrics"]]
    assert names == list(metrics.REGISTRY)
    assert all(m["citation"] and m["summary"] for m in data["metrics"])
    assert [m["name"] for m in data["metrics"] if m["default"]] == list(metrics.METRICS)


def test_regimes_table_has_one_row_per_regime(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", str(KEY), str(RESPONSE), "-m", "muc", "--regimes"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[3:8]}
    assert list(rows) == [
        "as-given",
        "singletons-dropped",
        "gold-mentions",
        "anaphoric-only",
        "nested-removed",
    ]
    assert rows["as-given"] == ["57.14"]  # MUC R 2/3, P 2/4
    as_given = corefscore.score_files(KEY, RESPONSE, metrics="muc")["muc"].f1
    assert float(rows["as-given"][0]) == round(100 * as_given, 2)
    gold = corefscore.score_files(KEY, RESPONSE, metrics="muc", gold_mentions=True)["muc"].f1
    assert float(rows["gold-mentions"][0]) == round(100 * gold, 2)
    assert cli.main(["score", str(KEY), str(RESPONSE), "--regimes", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["regimes"]) == set(rows)
    assert "mentions:gold" in data["regimes"]["gold-mentions"]["signature"]


def test_regime_options_reach_the_signature(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", str(KEY), str(RESPONSE), "--format", "json", "--singletons", "drop"]
    assert cli.main([*args, "--response-singletons", "keep", "--anaphoric-only"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "|singletons:key-drop+response-keep|mentions:anaphoric|" in data["signature"]
    assert data["options"]["anaphoric_only"] is True


def test_regimes_refuse_perl_format(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["score", str(KEY), str(RESPONSE), "--regimes", "--format", "perl"])
    assert code == 2
    assert "--regimes prints one table" in capsys.readouterr().err


# Two sentences with CoNLL-2012 parse bits: "The old man saw the dog ." / "He ran ."
PARSED = """#begin document (parsed); part 000
parsed 0 0 The DT (TOP(S(NP* - - - - * {0}
parsed 0 1 old JJ * - - - - * {1}
parsed 0 2 man NN *) - - - - * {2}
parsed 0 3 saw VBD (VP* - - - - * -
parsed 0 4 the DT (NP* - - - - * {3}
parsed 0 5 dog NN *)) - - - - * {4}
parsed 0 6 . . *)) - - - - * -

parsed 0 0 He PRP (TOP(S(NP*) - - - - * {5}
parsed 0 1 ran VBD (VP*) - - - - * -
parsed 0 2 . . *)) - - - - * -
#end document
"""


def parsed_file(tmp_path: Path, name: str, coref: list[str]) -> Path:
    path = tmp_path / name
    path.write_text(PARSED.format(*coref))
    return path


def test_head_matching_reads_the_parse_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Key: "The old man" ... "He" (entity 1), "the dog" (entity 2).
    key = parsed_file(tmp_path, "key", ["(1", "-", "1)", "(2", "2)", "(1)"])
    # Response: "old man" ... "He", and "dog" alone: same heads, other spans.
    response = parsed_file(tmp_path, "resp", ["-", "(1", "1)", "-", "(2)", "(1)"])
    args = ["score", str(key), str(response), "-m", "mentions,muc", "--format", "json"]
    assert cli.main(args) == 0
    exact = json.loads(capsys.readouterr().out)["metrics"]
    assert exact["mentions"]["recall_num"] == 1 and exact["muc"]["recall_num"] == 0
    assert cli.main([*args, "--match", "head"]) == 0
    head = json.loads(capsys.readouterr().out)
    assert head["metrics"]["mentions"]["f1"] == 1 and head["metrics"]["muc"]["f1"] == 1
    assert "|match:head|" in head["signature"]
    assert cli.main(["twins", str(key), str(response), "--match", "head"]) == 0
    out = capsys.readouterr().out
    assert "3 twins (2 with different spans), 0 missed, 0 spurious" in out
    assert cli.main(["twins", str(key), str(response)]) == 0
    out = capsys.readouterr().out
    assert 'missed    (0, 2) entity 1 "The old man"' in out
    assert 'spurious  (1, 2) entity 1 "old man"' in out


def test_head_matching_without_syntax_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["score", str(KEY), str(RESPONSE), "--match", "head"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert "head matching needs" in err


def test_min_span_matching_without_min_warns(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", str(KEY), str(RESPONSE), "--match", "min-span", "-m", "muc"]) == 0
    captured = capsys.readouterr()
    assert "has no MIN spans" in captured.err
    assert "57.14" in captured.out  # the same as exact matching


def test_show_alignment_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", str(KEY), str(RESPONSE), "-m", "ceafe", "--show-alignment"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "Optimal CEAF entity alignments" in out
    assert "key 1 -> response 1  φ = 0.8" in out
    assert "unaligned key entities: 1" in out
    assert cli.main([*args, "ceafm", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    alignment = data["alignments"]["(example/doc); part 000"]
    assert alignment["metric"] == "ceafm" and alignment["total"] == 4


def test_analyze_and_lab_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Mention effect on the shipped example: MUC and LEA never move the wrong way.
    assert cli.main(["analyze", "mention-effect", str(KEY), str(RESPONSE), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variants"]
    # The lab: the list, a run as CSV into a file, and a plot.
    assert cli.main(["lab", "--list"]) == 0
    assert "split-entities" in capsys.readouterr().out
    out = tmp_path / "split.csv"
    plot = tmp_path / "split.svg"
    args = ["lab", "split-entities", "-m", "muc,lea", "--format", "csv", "-o", str(out)]
    assert cli.main([*args, "--plot", str(plot)]) == 0
    assert out.read_text().splitlines()[0].startswith("experiment,")
    assert plot.read_bytes().startswith(b"<?xml")
    assert cli.main(["lab", "no-such-experiment"]) == 2
    assert "unknown experiment" in capsys.readouterr().err
    assert cli.main(["analyze"]) == 2
    # Classes need the key's POS tags: the example has them, jsonlines would not.
    assert cli.main(["analyze", "classes", str(KEY), str(RESPONSE), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == "corefscore.resolution-classes/1"
    saved = tmp_path / "example.json"
    saved.write_text(json.dumps(report))
    assert cli.main(["analyze", "cpp", str(saved), "--key", str(KEY), "--format", "json"]) == 0
    predicted = json.loads(capsys.readouterr().out)["predicted"]
    # Predicting a corpus from itself: the share-weighted sum of its own class scores.
    own = sum(c["share"] * c["muc_rc"]["f1"] for c in report["classes"].values() if c["count"])
    assert predicted == pytest.approx(own)


def test_main_restores_the_garbage_collector(capsys: pytest.CaptureFixture[str]) -> None:
    """main() pauses the cyclic collector for speed, and gives it back as it found it,
    also when the run ends in an error."""
    import gc

    from corefscore.cli import main

    examples = Path(__file__).resolve().parents[1] / "examples"
    key, response = str(examples / "key.conll"), str(examples / "response.conll")
    assert gc.isenabled()
    assert main(["score", key, response]) == 0
    assert gc.isenabled()
    assert main(["score", key, "/no/such/file"]) == 1
    assert gc.isenabled()
    gc.disable()
    try:
        assert main(["score", key, response]) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
    capsys.readouterr()


def test_the_command_ends_without_teardown_but_with_its_exit_handlers(tmp_path: Path) -> None:
    # end_process skips the interpreter's teardown; what has an effect still
    # happens: the atexit handlers run, buffered output is written, the code is kept.
    marker = tmp_path / "ran"
    code = (
        "import atexit, sys\n"
        f"atexit.register(lambda: open({str(marker)!r}, 'w').write('ran'))\n"
        "from corefscore.cli import end_process\n"
        "sys.stdout.write('buffered, no newline')\n"
        "sys.stderr.write('to stderr')\n"
        "end_process(3)\n"
    )
    proc = run_code(code)
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "buffered, no newline", "to stderr")
    assert marker.read_text() == "ran"


def test_the_command_waits_for_a_running_thread() -> None:
    code = (
        "import threading, time\n"
        "from corefscore.cli import end_process\n"
        "threading.Thread(target=lambda: (time.sleep(0.2), print('thread done'))).start()\n"
        "end_process(0)\n"
    )
    proc = run_code(code)
    assert (proc.returncode, proc.stdout) == (0, "thread done\n")


def test_output_into_a_closed_pipe_is_no_error(tmp_path: Path) -> None:
    # `corefscore score ... | head -1`: the reader goes away long before the
    # output (about 600 kB, more than a pipe holds) ends.
    many = tmp_path / "many.conll"
    many.write_text(
        "".join(
            f"#begin document (d{n}); part 000\nd{n}\t0\t0\tJohn\t(0)\nd{n}\t0\t1\the\t(0)\n"
            "#end document\n"
            for n in range(3000)
        )
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "corefscore", "score", str(many), str(many), "--per-document"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(100)
    proc.stdout.close()
    assert proc.wait() == 0
    assert proc.stderr.read() == b""


def test_the_output_of_the_command_is_complete(tmp_path: Path) -> None:
    # The JSON of `python -m corefscore` (which ends without teardown) equals main()'s.
    proc = run("score", str(KEY), str(RESPONSE), "--format", "json", "--per-document")
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out.json"
    with out.open("w") as stream:
        saved = sys.stdout
        sys.stdout = stream
        try:
            assert (
                cli.main(["score", str(KEY), str(RESPONSE), "--format", "json", "--per-document"])
                == 0
            )
        finally:
            sys.stdout = saved
    assert proc.stdout == out.read_text()


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_the_parser_of_one_command_is_that_of_all(command: str) -> None:
    # main() builds only the parser of the command it runs.
    whole, alone = cli.build_parser(), cli.build_parser(command)
    assert list(whole._subparsers._group_actions[0].choices) == list(cli.COMMANDS)  # type: ignore[union-attr]
    assert list(alone._subparsers._group_actions[0].choices) == [command]  # type: ignore[union-attr]
    sub_whole = whole._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    sub_alone = alone._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    assert sub_alone.format_help() == sub_whole.format_help()
    if command == "score":
        args = [command, "a", "b", "--match", "head", "--format", "json"]
        assert vars(alone.parse_args(args)) == vars(whole.parse_args(args))


def test_the_progress_bar_is_made_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from corefscore.cli import score
    from corefscore.report.progress import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert isinstance(score._progress_bar(), ProgressBar)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert score._progress_bar() is None
    monkeypatch.setattr(sys, "stderr", None)
    assert score._progress_bar() is None


def test_the_terminal_width_is_looked_up_once_per_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    # argparse makes a help formatter for every option; a lookup each was part
    # of every run's start-up. The help still follows COLUMNS.
    calls: list[int] = []

    def columns() -> int:
        calls.append(1)
        return 60

    from corefscore.cli import full_parser

    monkeypatch.setattr(full_parser, "_terminal_columns", columns)
    parser = cli.build_parser("score")
    assert len(calls) == 2  # the top-level parser and the score sub-parser
    sub = parser._subparsers._group_actions[0].choices["score"]  # type: ignore[union-attr]
    description = sub.format_help().split("\n\n")[1]
    assert description.startswith("Score RESPONSE against KEY")
    assert max(len(line) for line in description.splitlines()) <= 58


@pytest.mark.parametrize("name", ["out.jsonl", "out.jsonl.gz"])
def test_a_file_written_by_the_command_is_complete(tmp_path: Path, name: str) -> None:
    # The command ends without teardown: its output file must be closed (and, for
    # gzip, finished) before that.
    out = tmp_path / name
    proc = run("convert", str(KEY), str(out), "--to", "jsonl")
    assert proc.returncode == 0, proc.stderr
    converted = corefscore.score_files(KEY, out)
    assert converted.metrics == corefscore.score_files(KEY, KEY).metrics


def run_code(code: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in a fresh process, its output captured."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def score_argv(key: Path, response: Path) -> str:
    """The line of a ``python -c`` program that makes its command line ``corefscore score``."""
    return f"sys.argv = ['corefscore', 'score', {str(key)!r}, {str(response)!r}]\n"


def small_pair(tmp_path: Path) -> tuple[Path, Path]:
    """A two-token CoNLL key and a response that splits its entity."""
    key = tmp_path / "key.conll"
    key.write_text(
        "#begin document (a); part 000\na\t0\t0\tJohn\t(0)\na\t0\t1\tsaw\t-\n"
        "a\t0\t2\thim\t(0)\n#end document\n"
    )
    response = tmp_path / "response.conll"
    response.write_text(key.read_text().replace("him\t(0)", "him\t(1)"))
    return key, response


def test_small_inputs_are_scored_without_importing_numpy(tmp_path: Path) -> None:
    # Importing numpy costs several times what the rest of a small run costs: a
    # small CoNLL file and small in-memory documents never need it.
    key, response = small_pair(tmp_path)
    code = (
        "import sys\n"
        "from corefscore.cli import main\n"
        "import corefscore\n"
        "corefscore.CorefScorer().update([[(0, 0), (2, 2)]], [[(0, 0)], [(2, 2)]])\n"
        "corefscore.score({'d': [[(0, 0), (2, 2)]]}, {'d': [[(0, 0)]]})\n"
        f"code = main(['score', {str(key)!r}, {str(response)!r}])\n"
        "print('numpy' in sys.modules, code)\n"
    )
    proc = run_code(code)
    assert proc.stdout.splitlines()[-1] == "False 0", proc.stderr
    assert "MUC" in proc.stdout


def test_the_score_command_loads_only_what_it_uses(tmp_path: Path) -> None:
    # Start-up is most of a small run (docs/performance.md): `corefscore score`
    # on CoNLL text loads neither the other commands nor modules that only
    # other formats, outputs or the help text need.
    key, response = small_pair(tmp_path)
    # As `python -m corefscore score`; the process ends in end_process, after
    # the exit handlers, so one of them reports what was loaded.
    code = (
        "import atexit, runpy, sys\n"
        "atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))\n"
        + score_argv(key, response)
        + "runpy.run_module('corefscore', run_name='__main__', alter_sys=True)\n"
    )
    proc = run_code(code)
    assert proc.returncode == 0 and "MUC" in proc.stdout, proc.stderr
    loaded = set(proc.stderr.split())
    assert "corefscore.cli.score" in loaded
    never = {"numpy", "json", "gzip", "shutil", "bz2", "lzma", "threading"}
    # Its types are records (corefscore._record): dataclasses without their import.
    never |= {"dataclasses", "inspect", "numbers"}
    # Its command line is read without argparse (corefscore.cli.light_parser), and
    # no NamedTuple or TypedDict compiles its annotations (corefscore._typing).
    never |= {"argparse", "gettext", "locale", "ast", "corefscore.cli.full_parser"}
    # The progress bar is drawn only on a terminal (stderr is a pipe here).
    never |= {"corefscore.report.progress"}
    never |= {"corefscore.report.perl", "corefscore.stats", "corefscore.analysis"}
    # The forms digest packs word lengths without struct (two extension modules).
    never |= {"struct", "_struct"}
    # The metric families beyond the reference scorer's, imported by name.
    never |= {
        f"corefscore.metrics.{family}" for family in ("ace", "anaphora", "mor", "twinless", "zero")
    }
    # Dataclasses a small run never makes, each created on first use.
    never |= {"corefscore._entity", "corefscore._contingency_parts"}
    never |= {"corefscore.metrics._ceaf_alignment"}
    others = ("analyze", "compare", "convert", "lab", "metrics", "report", "scorer_pl", "twins")
    never |= {f"corefscore.cli.{command}" for command in others}
    assert not loaded & never, sorted(loaded & never)


def test_the_score_command_compiles_no_source_of_its_own(tmp_path: Path) -> None:
    # A string annotation or bound that typing turns into a ForwardRef is compiled
    # at run time, and the first compilation of a process builds the compiler's
    # syntax-tree types: 9 million instructions, a sixth of `corefscore score` on
    # small files over the import (a TypeVar's bound="MetricScore" did it once).
    # The only source compiled is collections.namedtuple's constructor of each
    # typed tuple; modules are compiled only when their bytecode is not cached.
    key, response = small_pair(tmp_path)
    code = (
        "import sys\n"
        "def hook(event, args):\n"
        "    if event == 'compile' and args[1] == '<string>':\n"
        "        source = args[0] if isinstance(args[0], bytes) else str(args[0]).encode()\n"
        "        if not source.startswith(b'lambda _cls, '):\n"
        "            print('compiled:', source[:80], file=sys.stderr)\n"
        "sys.addaudithook(hook)\n"
        "from corefscore.cli import entry_point\n" + score_argv(key, response) + "entry_point()\n"
    )
    proc = run_code(code)
    assert proc.returncode == 0 and "MUC" in proc.stdout, proc.stderr
    assert "compiled:" not in proc.stderr, proc.stderr


def test_the_command_keeps_freed_memory_once_it_works_with_arrays(tmp_path: Path) -> None:
    # keep_freed_memory tunes the whole process: only the command's own process
    # does it, once numpy is needed, never a small run or a caller of main().
    key, response = small_pair(tmp_path)
    big = tmp_path / "big.conll"
    line = "a\t0\t{}\tword\t(0)\n"
    body = "".join(line.format(i) for i in range(16_000))
    big.write_text(f"#begin document (a); part 000\n{body}#end document\n")
    assert big.stat().st_size > 256 * 1024
    code = (
        "import sys\n"
        "import corefscore.cli as cli\n"
        "cli.keep_freed_memory = lambda: print('tuned', file=sys.stderr)\n"
        "sys.argv = ['corefscore', 'score', *sys.argv[1:]]\n"
        "cli.entry_point()\n"
    )
    for files, tuned in (((key, response), False), ((big, big), True)):
        proc = subprocess.run(
            [sys.executable, "-c", code, *map(str, files)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0 and "MUC" in proc.stdout, proc.stderr
        assert proc.stderr.split() == (["tuned"] if tuned else []), proc.stderr
    # On glibc it runs and changes no result; elsewhere it does nothing.
    cli.keep_freed_memory()
    assert corefscore.score_files(big, big).metrics["muc"].f1 == 1.0


def test_first_use_hooks_of_numpy_run_once() -> None:
    from corefscore import _numpy

    proxy = _numpy._Numpy()
    calls: list[int] = []
    _numpy.on_first_use(lambda: calls.append(1))
    assert proxy.int64 is not None and proxy.zeros is not None
    assert calls == [1] and not _numpy._first_use


# ---------------------------------------------------------------------------------------------
# Universal Anaphora


def ua_pair(tmp_path: Path) -> tuple[Path, Path]:
    from .metrics.test_anaphora import KEY, RESPONSE, write

    return write(tmp_path / "fx1.key", KEY), write(tmp_path / "fx1.sys", RESPONSE)


def test_ua_files_score_with_the_anaphora_options(tmp_path: Path) -> None:
    key, response = ua_pair(tmp_path)
    proc = run("score", str(key), str(response), "--non-referring", "--bridging")
    assert proc.returncode == 0, proc.stderr
    assert "non-referring" in proc.stdout and "bridging-entities" in proc.stdout
    proc = run("score", str(key), str(response), "--compat", "ua", "--format", "json")
    data = json.loads(proc.stdout)
    assert data["metrics"]["lea"]["recall"] == pytest.approx(0.4074074074074074)
    assert "mentions" not in data["metrics"] and data["options"]["compat"] == "ua"
    proc = run("score", str(key), str(response), "--compat", "ua")
    assert "CoNLL" in proc.stdout and "60.90" in proc.stdout  # rounded as the UA scorer prints
    proc = run("score", str(key), str(response), "--split-antecedents", "only", "-m", "muc")
    assert "anaphora:split-only" in proc.stdout


def test_ua_option_errors_are_one_line(tmp_path: Path) -> None:
    key, response = ua_pair(tmp_path)
    for args, message in (
        (("--min", "--match", "head"), "--min is --match min-span"),
        (("--compat", "ua", "--format", "perl"), "--compat conll"),
        (("--split-antecedents", "only", "-m", "mentions"), "not with mentions"),
        (("--discourse-deixis", "--compat", "corefud"), "leaves split antecedents out"),
    ):
        proc = run("score", str(key), str(response), *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    conll = tmp_path / "plain.conll"
    conll.write_text(KEY.read_text(encoding="utf-8"), encoding="utf-8")
    proc = run("score", str(conll), str(conll), "--discourse-deixis")
    assert proc.returncode == 2 and "discourse" in proc.stderr


def test_convert_to_ua_and_back(tmp_path: Path) -> None:
    key, _ = ua_pair(tmp_path)
    out = tmp_path / "copy.ua"
    proc = run("convert", str(key), str(out), "--to", "ua")
    assert proc.returncode == 0, proc.stderr
    proc = run("score", str(key), str(out), "--compat", "ua", "--format", "json")
    assert json.loads(proc.stdout)["metrics"]["conll"]["f1"] == 1.0
    proc = run("convert", str(key), str(tmp_path / "x.conll"), "--to", "conll")
    assert proc.returncode == 1 and "--lossy" in proc.stderr
