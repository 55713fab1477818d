"""``corefscore scorer-pl``: a drop-in for ``perl scorer.pl``, byte for byte.

* Fixtures of our own (``tests/data/scorer_pl``) with the reference scorer's
  real outputs (``expected.json``, made by ``capture.py``): every metric and
  mode, the argv edge cases, missing files, parse errors, repeated mentions and
  the refusal; always run.
* The reference's own test cases and GUM, against the outputs stored in
  ``../shared`` (skipped when it is absent).
* The installed Perl shim, run as ``perl shim`` and as ``./shim``.
* The model repositories' output parsers, on our output and the reference's.
* Optionally, the reference scorer itself (``COREFSCORE_PERL_SCORER``, and
  ``COREFSCORE_PERL_SCORER_LEA`` for its LEA branch) on random perturbations.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from corefscore.cli import main
from corefscore.cli.scorer_pl import SHIM_MARK, shim_text
from corefscore.scorer_pl import ALL_METRICS, Options, module_path, run, show_rpf, version_line

from .conftest import NIGHTLY, SHARED, shared_path

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "scorer_pl"
RUNS: dict[str, dict[str, Any]] = json.loads((FIXTURES / "expected.json").read_text())["runs"]
PERL = shutil.which("perl")
needs_perl = pytest.mark.skipif(PERL is None, reason="perl is not installed")


def expected_stdout(record: dict[str, Any], argv0: bytes | None = None) -> bytes:
    """The captured stdout with our version line, and messages naming the module as from argv0."""
    out: bytes = record["stdout"].encode()
    out = re.sub(
        rb"version: \S+ <scorer>/lib/CorScorer.pm\n",
        lambda _: version_line(record["lea"]),
        out,
        count=1,
    )
    return out.replace(b"at lib/CorScorer.pm line", b"at " + module_path(argv0) + b" line")


def expected_stderr(record: dict[str, Any], argv0: bytes | None = None) -> bytes:
    err: bytes = record["stderr"].encode()
    return err.replace(b"at lib/CorScorer.pm line", b"at " + module_path(argv0) + b" line")


def run_bytes(
    args: list[str], *, lea: bool = False, merged: bool = False
) -> tuple[bytes, bytes, int]:
    out, err = io.BytesIO(), io.BytesIO()
    rc = run(args, stdout=out, stderr=out if merged else err, options=Options(lea_branch=lea))
    return out.getvalue(), err.getvalue(), rc


# --------------------------------------------------------------------------------------------
# Our fixtures, against the reference's captured outputs


@pytest.mark.parametrize("name", sorted(RUNS))
def test_fixture_run_is_byte_identical(
    name: str, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """Through the command line: ``corefscore scorer-pl [--lea-branch] -- ARGS``."""
    record = RUNS[name]
    monkeypatch.chdir(FIXTURES)
    if record["merged"]:
        got = run_bytes(record["args"], lea=record["lea"], merged=True)
        assert got == (expected_stdout(record), b"", record["rc"])
        return
    flags = ["--lea-branch"] if record["lea"] else []
    rc = main(["scorer-pl", *flags, "--", *record["args"]])
    captured = capsysbinary.readouterr()
    assert captured.out == expected_stdout(record)
    assert captured.err == expected_stderr(record)
    assert rc == record["rc"]


def test_fixture_runs_cover_the_cases_of_the_notes() -> None:
    codes = {record["rc"] for record in RUNS.values()}
    assert codes >= {0, 1, 2, 25, 255}, codes
    assert any("Repeated mention in the key" in r["stdout"] for r in RUNS.values())
    assert any("Discarded (1+2)" in r["stdout"] for r in RUNS.values())
    assert any(r["stderr"].startswith("Found too many repeated") for r in RUNS.values())


@pytest.mark.parametrize("merged", [False, True])
def test_refusal_through_real_file_descriptors(merged: bool) -> None:
    """stdout is block-buffered as Perl's is: with 2>&1 the refusal comes first."""
    name = "rep11_muc_none_merged" if merged else "rep11_muc_none"
    record = RUNS[name]
    p = subprocess.run(
        [sys.executable, "-m", "corefscore", "scorer-pl", "--", *record["args"]],
        cwd=FIXTURES,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merged else subprocess.PIPE,
        check=False,
    )
    assert p.stdout == expected_stdout(record)
    assert (p.stderr or b"") == expected_stderr(record)
    assert p.returncode == 1


def test_big_output_interleaves_with_stderr_in_perl_blocks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """More than 8 KiB of stdout before a die: with 2>&1, whole 8 KiB blocks come first.

    (The reference's blocks count its longer version line, so the message lands
    that many bytes later in its output.)"""
    monkeypatch.chdir(FIXTURES)
    record = RUNS["big_bad_muc_omitted"]
    out = run_bytes(record["args"], merged=True)[0]
    text = expected_stdout(record)
    died = expected_stderr(record)
    assert len(text) > 8192
    assert out == text[:8192] + died + text[8192:]


def test_no_refusal_keeps_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    out, err = io.BytesIO(), io.BytesIO()
    rc = run(
        ["muc", "rep11.key", "rep11.response", "none"],
        stdout=out,
        stderr=err,
        options=Options(refuse=False),
    )
    assert (rc, err.getvalue()) == (0, b"")
    assert out.getvalue().count(b"Repeated mention in the response") == 11
    assert b"\n====== TOTALS =======\nIdentification of Mentions: Recall: (11 / 11) 100%" in (
        out.getvalue()
    )


def test_document_order_is_the_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    out = run_bytes(["muc", "three.key", "three.response"])[0]
    listed = [line for line in out.split(b"\n") if line.startswith(b"====> (")]
    assert listed[::2] == [
        b"====> (alpha); part 000:",
        b"====> (beta); part 000:",
        b"====> (gamma); part 000:",
    ]
    reversed_order = Options(document_order=lambda names: names[::-1])
    again = io.BytesIO()
    run(
        ["muc", "three.key", "three.response"],
        stdout=again,
        stderr=io.BytesIO(),
        options=reversed_order,
    )
    assert again.getvalue().split(b"====== TOTALS")[1] == out.split(b"====== TOTALS")[1]


def test_command_line_details(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["scorer-pl"]) == 0
    out = capsysbinary.readouterr().out
    assert out == expected_stdout(RUNS["usage_noargs"])
    assert main(["scorer-pl", "--force", "--", "muc", "a", "b"]) == 2
    assert b"--force goes with --install" in capsysbinary.readouterr().err
    assert main(["scorer-pl", "--install", "x", "muc"]) == 2
    assert main(["scorer-pl", "--lea-branch"]) == 0
    assert b"lea: LEA (Moosavi and Strube, 2016)" in capsysbinary.readouterr().out


def test_module_path_follows_perl_begin_block() -> None:
    assert module_path(None) == b"lib/CorScorer.pm"
    assert module_path(b"scorer.pl") == b"lib/CorScorer.pm"
    assert module_path(b"./scorer.pl") == b"./lib/CorScorer.pm"
    assert module_path(b"/opt/v8.01/scorer.pl") == b"/opt/v8.01/lib/CorScorer.pm"
    assert module_path(b"/scorer.pl") == b"/lib/CorScorer.pm"


def test_standard_input_as_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """``-`` is the standard input, read once (Perl's two-argument open)."""
    monkeypatch.chdir(FIXTURES)
    stdin = io.BytesIO((FIXTURES / "repeats.key").read_bytes())
    out, err = io.BytesIO(), io.BytesIO()
    rc = run(
        ["muc", "-", "repeats.response", "(rep); part 000"], stdout=out, stderr=err, stdin=stdin
    )
    from_file = run_bytes(["muc", "repeats.key", "repeats.response", "(rep); part 000"], lea=False)
    monkeypatch.chdir(HERE)
    assert (out.getvalue(), err.getvalue(), rc) == from_file


# --------------------------------------------------------------------------------------------
# The reference's test cases (../shared), against its stored outputs

CASES_FILE = SHARED / "data" / "reference-tests" / "expected.json"
CASES: dict[str, Any] = json.loads(CASES_FILE.read_text())["cases"] if CASES_FILE.exists() else {}
DASHES = "-" * 74
REPEATED = re.compile(rb"^Repeated mention in the (?:key|response): .*\n", re.MULTILINE)


def _rpf(numbers: dict[str, str]) -> str:
    return (
        f"Recall: ({numbers['rn']} / {numbers['rd']}) {numbers['rp']}%\t"
        f"Precision: ({numbers['pn']} / {numbers['pd']}) {numbers['pp']}%\t"
        f"F1: {numbers['f']}%\n{DASHES}\n"
    )


def _totals(reference: dict[str, Any], metric: str) -> str:
    text = "\n====== TOTALS =======\nIdentification of Mentions: " + _rpf(reference["mentions"])
    if metric == "blanc":
        blanc = reference["blanc"]
        return (
            text
            + "\nCoreference:\nCoreference links: "
            + _rpf(blanc["coref_links"])
            + "Non-coreference links: "
            + _rpf(blanc["noncoref_links"])
            + "BLANC: "
            + _rpf(blanc["blanc"])
        )
    return text + "Coreference: " + _rpf(reference[metric])


def _case_files(case: str) -> tuple[str, str]:
    folder = shared_path("data", "reference-tests")
    spec = CASES[case]
    return str(folder / spec["key"]), str(folder / spec["response"])


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {CASES_FILE}")
@pytest.mark.parametrize("metric", [*ALL_METRICS, "lea", "all"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_reference_case_none(case: str, metric: str) -> None:
    """``scorer.pl METRIC KEY RESPONSE none``: the stored TOTALS, byte for byte.

    The stored outputs keep the printed numbers, not the ``Repeated mention``
    notices (TC-A-7, A-8 and A-9); those are compared without the notices.
    """
    key, response = _case_files(case)
    reference = CASES[case]["reference"]
    lea = metric == "lea"
    if metric != "all" and metric not in reference:
        pytest.skip(f"no stored {metric} output for {case}")
    if metric == "all":
        body = "".join(f"\nMETRIC {m}:\n" + _totals(reference, m) for m in ALL_METRICS)
    else:
        body = _totals(reference, metric)
    want = version_line(lea) + body.encode()
    out, err, rc = run_bytes([metric, key, response, "none"], lea=lea)
    if metric == "all" and rc == 1:  # TC-A-9: 11 repeats over the metrics of 'all'
        assert err.startswith(b"Found too many repeated mentions (> 10)")
        assert want.startswith(REPEATED.sub(b"", out))
        return
    assert (err, rc) == (b"", 0)
    if REPEATED.search(out):
        assert case in ("A7", "A8", "A9"), case
        out = REPEATED.sub(b"", out)
    assert out == want


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {CASES_FILE}")
@pytest.mark.parametrize("case", sorted(CASES))
def test_reference_case_listing_and_document(case: str) -> None:
    """Without a 4th argument and with the document id: the same TOTALS as with ``none``
    (the stored outputs hold no listings), one document listed, its score line equal to
    the totals."""
    key, response = _case_files(case)
    doc = re.search(rb"^#\s*begin document (.*?)\r?$", Path(key).read_bytes(), re.MULTILINE)
    assert doc is not None
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
        totals = _totals(CASES[case]["reference"], metric).encode()
        for mode in ([], [os.fsdecode(doc.group(1))]):
            out, err, rc = run_bytes([metric, key, response, *mode])
            assert (err, rc) == (b"", 0)
            assert REPEATED.sub(b"", out).endswith(totals)
            assert out.count(b"====> ") == 2 and b"\nTotal key mentions: " in out
            if metric != "blanc":
                score = out.split(b"\nInvented: ")[1].split(b"\n", 1)[1]
                coreference = totals.split(b"Coreference: ")[1]
                assert score.startswith(coreference)


# --------------------------------------------------------------------------------------------
# GUM with repeated response spans (../shared), against the stored outputs

GUM_EXPECTED = SHARED / "data" / "real" / "gum" / "expected"
GUM_RUNS = (
    sorted(p.name for p in GUM_EXPECTED.glob("refscorer_v8.01.*.txt"))
    if GUM_EXPECTED.exists()
    else []
)


def _sections(text: bytes) -> list[list[bytes]]:
    """Lines grouped so that the Repeated-mention notices of one metric form one group."""
    groups: list[list[bytes]] = [[]]
    for line in text.split(b"\n"):
        if line.startswith(b"Repeated mention"):
            if groups[-1] and not groups[-1][-1].startswith(b"Repeated mention"):
                groups.append([])
            groups[-1].append(line)
        else:
            if groups[-1] and groups[-1][-1].startswith(b"Repeated mention"):
                groups.append([])
            groups[-1].append(line)
    return groups


def differences_up_to_document_order(
    got: bytes, want: bytes, *, aborted: bool
) -> list[tuple[str, bytes, bytes]] | None:
    """The lines (with their metric) that differ once each run of Repeated-mention notices
    is sorted: those follow the documents, which the reference visits in Perl's random
    hash order. A run stopped at the 11th notice may have printed other documents' notices
    in its last run (only their number is compared). ``None``: the outputs differ in shape."""
    a, b = _sections(got), _sections(want)
    if len(a) != len(b):
        return None
    differing: list[tuple[str, bytes, bytes]] = []
    metric = ""
    for i, (x, y) in enumerate(zip(a, b)):
        notices = bool(x) and x[0].startswith(b"Repeated mention")
        if notices:
            if len(x) != len(y):
                return None
            if not (aborted and i >= len(a) - 2) and sorted(x) != sorted(y):
                return None
            continue
        if len(x) != len(y):
            return None
        for line, other in zip(x, y):
            if line.startswith(b"METRIC "):
                metric = line[7:-1].decode()
            if line != other:
                differing.append((metric, line, other))
    return differing


def reachable_by_some_order(
    metric: str, got: bytes, want: bytes, key: Path, response: Path
) -> bool:
    """Whether the reference's line is what adding our per-document values prints for
    some order of the documents."""
    import corefscore

    if not (got.startswith(b"Coreference: ") and want.startswith(b"Coreference: ")):
        return False
    result = corefscore.score_files(
        key, response, duplicates="reference", metrics=[metric], per_document=True
    )
    assert result.document_statistics is not None
    values = [stats[metric] for stats in result.document_statistics.values()]
    rng = random.Random(0)
    for _ in range(3000):
        rng.shuffle(values)
        sums = [0.0, 0.0, 0.0, 0.0]
        for row in values:
            for i in range(4):
                sums[i] += row[i]
        if b"Coreference: " + show_rpf(*sums)[:-76] == want:
            return True
    return False


# --------------------------------------------------------------------------------------------
# The installed shim


def _install(target: Path | str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "corefscore", "scorer-pl", "--install", str(target), *extra],
        capture_output=True,
        text=True,
        check=False,
    )


@needs_perl
@pytest.mark.parametrize("how", ["perl", "direct"])
@pytest.mark.parametrize(
    "name",
    [
        "three_muc_omitted",
        "three_all_none",
        "rep11_muc_none",
        "missing_key_muc_none",
        "bad_close_docid",
        "usage_1arg",
        "case_Blanc_docid",
    ],
)
def test_shim_run_both_ways(tmp_path: Path, name: str, how: str) -> None:
    folder = tmp_path / "v8.01"
    folder.mkdir()
    done = _install(folder)
    assert done.returncode == 0, done.stderr
    assert f"wrote {folder / 'scorer.pl'}" in done.stderr
    shim = folder / "scorer.pl"
    assert os.access(shim, os.X_OK)
    assert shim.read_text().startswith("#!/usr/bin/env perl\n")
    record = RUNS[name]
    command = [PERL or "perl", str(shim)] if how == "perl" else [str(shim)]
    p = subprocess.run([*command, *record["args"]], cwd=FIXTURES, capture_output=True, check=False)
    argv0 = os.fsencode(shim)
    assert p.stdout == expected_stdout(record, argv0)
    assert p.stderr == expected_stderr(record, argv0)
    assert p.returncode == record["rc"]


@needs_perl
def test_shim_relative_run_and_standard_input(tmp_path: Path) -> None:
    folder = tmp_path / "scorer"
    assert _install(f"{folder}{os.sep}").returncode == 0
    shutil.copy(FIXTURES / "repeats.key", folder / "k.conll")
    shutil.copy(FIXTURES / "repeats.response", folder / "r.conll")
    key = (FIXTURES / "repeats.key").read_bytes()
    p = subprocess.run(
        ["./scorer.pl", "muc", "-", "r.conll", "(rep); part 000"],
        cwd=folder,
        input=key,
        capture_output=True,
        check=False,
    )
    want = RUNS["lea_repeats_muc_docid"]
    text = expected_stdout(want).replace(version_line(True), version_line(False))
    assert (p.stdout, p.stderr, p.returncode) == (text, b"", 0)
    p = subprocess.run(
        ["./scorer.pl", "muc", "missing", "r.conll"], cwd=folder, capture_output=True, check=False
    )
    assert p.stderr == (
        b"Can not open missing: No such file or directory at ./lib/CorScorer.pm line 327.\n"
    )
    assert p.returncode == 2


@needs_perl
def test_shim_lea_branch_and_no_refusal(tmp_path: Path) -> None:
    shim = tmp_path / "lea.pl"
    assert _install(shim, "--lea-branch").returncode == 0
    record = RUNS["lea_three_lea_omitted"]
    p = subprocess.run([str(shim), *record["args"]], cwd=FIXTURES, capture_output=True, check=False)
    assert (p.stdout, p.returncode) == (expected_stdout(record), 0)
    shim2 = tmp_path / "tolerant.pl"
    assert _install(shim2, "--no-refusal").returncode == 0
    p = subprocess.run(
        [str(shim2), "muc", "rep11.key", "rep11.response", "none"],
        cwd=FIXTURES,
        capture_output=True,
        check=False,
    )
    assert (p.stderr, p.returncode) == (b"", 0)


def test_install_refuses_to_overwrite_and_keeps_a_backup(tmp_path: Path) -> None:
    checkout = tmp_path / "reference-coreference-scorers"
    (checkout / "lib").mkdir(parents=True)
    original = "#!/usr/bin/perl\nprint 'the reference';\n"
    (checkout / "scorer.pl").write_text(original)
    (checkout / "lib" / "CorScorer.pm").write_text("package CorScorer;\n1;\n")
    refused = _install(checkout)
    assert refused.returncode == 2
    assert "--force" in refused.stderr
    assert (checkout / "scorer.pl").read_text() == original
    done = _install(checkout, "--force")
    assert done.returncode == 0, done.stderr
    assert (checkout / "scorer.pl.orig").read_text() == original
    assert SHIM_MARK in (checkout / "scorer.pl").read_text()
    assert "scorer.pl.orig" in done.stderr and "checkout" in done.stderr
    # Our own shim is replaced without another backup; the first backup stays.
    assert _install(checkout).returncode == 2
    again = _install(checkout, "--force", "--lea-branch")
    assert again.returncode == 0
    assert sorted(p.name for p in checkout.iterdir()) == ["lib", "scorer.pl", "scorer.pl.orig"]
    assert "'--lea-branch'" in (checkout / "scorer.pl").read_text()


def test_install_into_a_new_folder(tmp_path: Path) -> None:
    done = _install(f"{tmp_path / 'conll-2012' / 'scorer' / 'v8.01'}{os.sep}")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "conll-2012" / "scorer" / "v8.01" / "scorer.pl").is_file()
    assert "created the folder" in done.stderr


@needs_perl
def test_shim_falls_back_to_corefscore_on_path(tmp_path: Path) -> None:
    shim = tmp_path / "scorer.pl"
    shim.write_text(shim_text(str(tmp_path / "no-such-python")))
    shim.chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "corefscore"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -m corefscore "$@"\n')
    wrapper.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    record = RUNS["three_ceafe_none"]
    p = subprocess.run(
        [str(shim), *record["args"]], cwd=FIXTURES, capture_output=True, env=env, check=False
    )
    assert (p.stdout, p.returncode) == (expected_stdout(record), 0)
    env["PATH"] = str(tmp_path / "empty")
    p = subprocess.run(
        [PERL or "perl", str(shim), "muc", "a", "b"], capture_output=True, env=env, check=False
    )
    assert p.returncode == 127
    assert b"cannot run corefscore" in p.stderr


# --------------------------------------------------------------------------------------------
# What model code reads from the output (copied from the repositories named)

# kentonl/e2e-coref, mandarjoshi90/coref, lxucs/coref-hoi, yuvalkirstain/s2e-coref conll.py
E2E = re.compile(
    r".*Coreference: Recall: \([0-9.]+ / [0-9.]+\) ([0-9.]+)%\tPrecision: \([0-9.]+ / [0-9.]+\) "
    r"([0-9.]+)%\tF1: ([0-9.]+)%.*",
    re.DOTALL,
)
# lxucs/coref-hoi pull request 18
MENTIONS = re.compile(
    r".*Identification of Mentions: Recall: \([0-9.]+ / [0-9.]+\) ([0-9.]+)%\tPrecision: "
    r"\([0-9.]+ / [0-9.]+\) ([0-9.]+)%\tF1: ([0-9.]+)%.*",
    re.DOTALL,
)
# a GUM/xrenner evaluation script: the counts, summed over per-file runs
COUNTS = re.compile(
    r".*Coreference: Recall: \(([0-9.]+) / ([0-9.]+)\) [0-9.]+%\tPrecision: \(([0-9.]+) / "
    r"([0-9.]+)\) [0-9.]+%\tF1: [0-9.]+%.*",
    re.DOTALL,
)
# vdobrovolskii/wl-coref calculate_conll.py: the second-to-last line
WL_F1 = re.compile(r"F1:\s*([0-9.]+)%")
# LitBank calc_coref_metrics.py: the third-to-last element of split("\n")
LITBANK = re.compile(r"Coreference: Recall: \(.*?\) (.*?)%\tPrecision: \(.*?\) (.*?)%\tF1: (.*?)%")
# stanfordnlp/CoreNLP SieveCoreferenceSystem: a find() loop over 'all' output
CORENLP = re.compile(r"Coreference:.*F1: (.*)%")


def parsers(text: str) -> dict[str, Any]:
    lines = text.splitlines()
    found: dict[str, Any] = {}
    for label, regex in (("e2e", E2E), ("mentions", MENTIONS), ("counts", COUNTS)):
        match = regex.match(text)
        found[label] = match.groups() if match else None
    wl = WL_F1.search(lines[-2]) if len(lines) >= 2 else None
    found["wl-coref"] = wl.group(1) if wl else None
    parts = text.split("\n")
    lit = LITBANK.search(parts[-3]) if len(parts) >= 3 else None
    found["litbank"] = lit.groups() if lit else None
    f1s = CORENLP.findall(text)
    found["corenlp"] = f1s
    if len(f1s) >= 4:
        found["corenlp-final"] = (float(f1s[0]) + float(f1s[1]) + float(f1s[3])) / 3
    return found


@pytest.mark.parametrize(
    "name",
    sorted(
        n
        for n in RUNS
        if n.startswith(("three_", "repeats_", "lea_three", "swapped", "rep6_", "spaces_"))
    ),
)
def test_model_parsers_read_the_same(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    record = RUNS[name]
    monkeypatch.chdir(FIXTURES)
    out = run_bytes(record["args"], lea=record["lea"])[0].decode()
    want = parsers(expected_stdout(record).decode())
    assert parsers(out) == want
    metric = record["args"][0]
    if metric in ("muc", "bcub", "ceafe", "ceafm", "lea") and record["rc"] == 0:
        assert want["e2e"] is not None and want["wl-coref"] is not None
    if metric == "all" and record["args"][-1] == "none" and record["rc"] == 0 and not record["lea"]:
        assert len(want["corenlp"]) == 4


@pytest.mark.skipif(not GUM_RUNS, reason=f"shared data not available: {GUM_EXPECTED}")
@pytest.mark.parametrize("metric", ["muc", "bcub", "ceafe", "all"])
def test_model_parsers_on_gum(metric: str) -> None:
    pairs = shared_path("data", "real", "gum", "pairs")
    name = f"refscorer_v8.01.test.key_gum.resp_xrenner.{metric}.txt".replace(".all.", ".")
    want = (GUM_EXPECTED / name).read_text()
    out = run_bytes(
        [metric, str(pairs / "test.key_gum.conll"), str(pairs / "test.resp_xrenner.conll"), "none"]
    )[0].decode()
    assert parsers(out) == parsers(want)


# --------------------------------------------------------------------------------------------
# Optional oracle: the reference scorer itself on random perturbations

ORACLE = os.environ.get("COREFSCORE_PERL_SCORER")
ORACLE_LEA = os.environ.get("COREFSCORE_PERL_SCORER_LEA")
needs_oracle = pytest.mark.skipif(
    not ORACLE or PERL is None,
    reason="set COREFSCORE_PERL_SCORER to a reference scorer.pl (and have perl) to compare "
    "against it",
)
CHAOS = [
    "#begin document (x); part 000",
    "#end document",
    "# comment",
    "",
    "  ",
    "\t",
    "w\t(3",
    "w\t3)",
    "w\t(1+23)",
    "w\t(99)",
    "w\t_",
    "w\t\xe9(2)",
    "junk",
    "w\t(2)|(2)",
    "w\t(0)\t",
    "w (4)",
    "w\t(1)(1)",
    "x\t(5\t",
    "w\t0)",
    "w\t(1+2)",
]


def _mentions(lines: list[str]) -> tuple[list[list[Any]], int]:
    out: list[list[Any]] = []
    stacks: dict[str, list[int]] = {}
    n = 0
    for line in lines:
        if not line.strip():
            continue
        cell = line.split("\t")[-1]
        for m in re.finditer(r"\((\d+)\)", cell):
            out.append([n, n, m.group(1)])
        rest = re.sub(r"\((\d+)\)", "", cell)
        for m in re.finditer(r"\((\d+)", rest):
            stacks.setdefault(m.group(1), []).append(n)
        for m in re.finditer(r"(?<![(\d])(\d+)\)", rest):
            if stacks.get(m.group(1)):
                out.append([stacks[m.group(1)].pop(), n, m.group(1)])
        n += 1
    return out, n


def _perturbed(
    rng: random.Random, key_file: Path, response_file: Path, name: str
) -> tuple[list[str], list[str]]:
    def body(path: Path) -> list[str]:
        lines = path.read_text(encoding="latin-1").split("\n")
        begin = next(i for i, line in enumerate(lines) if line.startswith("#begin"))
        end = next(i for i, line in enumerate(lines) if line.startswith("#end"))
        return lines[begin + 1 : end]

    key_lines, response_lines = body(key_file), body(response_file)
    out: list[list[str]] = []
    for lines, mutate in ((key_lines, rng.random() < 0.3), (response_lines, True)):
        mentions, n = _mentions(lines)
        ids = sorted({m[2] for m in mentions}) or ["0"]
        for _ in range(rng.randint(0, 4) if mutate else 0):
            op = rng.random()
            if op < 0.2 and mentions:
                mentions.pop(rng.randrange(len(mentions)))
            elif op < 0.4 and mentions:
                rng.choice(mentions)[2] = rng.choice([*ids, str(rng.randint(0, 9))])
            elif op < 0.6 and mentions:
                copy = list(rng.choice(mentions))
                copy[2] = rng.choice([copy[2], *ids])
                mentions.append(copy)
            elif n:
                start = rng.randrange(n)
                mentions.append(
                    [start, min(n - 1, start + rng.choice([0, 0, 1, 2])), rng.choice(ids)]
                )
        cells: list[list[str]] = [[] for _ in range(n)]
        for start, end, label in mentions:
            if start == end:
                cells[start].append(f"({label})")
            else:
                cells[start].insert(0, f"({label}")
                cells[end].append(f"{label})")
        tokens = [line for line in lines if line.strip()]
        sep = "\t" if rng.random() < 0.85 else "   "
        rendered = [f"#begin document {name}"]
        for i, line in enumerate(tokens):
            fields = line.split("\t")[:-1] or ["w"]
            rendered.append(sep.join([*fields, "|".join(cells[i]) or "-"]))
        rendered.append("#end document")
        if rng.random() < 0.3:
            for _ in range(rng.randint(1, 3)):
                position = rng.randrange(len(rendered) + 1)
                if rng.random() < 0.6:
                    rendered.insert(position, rng.choice(CHAOS))
                elif len(rendered) > 1:
                    del rendered[min(position, len(rendered) - 1)]
        out.append(rendered)
    return out[0], out[1]


def _perl_run(scorer: str, args: list[str], cwd: Path) -> tuple[bytes, bytes, int]:
    env = dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")
    p = subprocess.run(
        [PERL or "perl", scorer, *args], cwd=cwd, env=env, capture_output=True, check=False
    )
    return p.stdout, p.stderr, p.returncode


@needs_oracle
@pytest.mark.parametrize("seed", range(8 if not NIGHTLY else 200))
def test_oracle_on_perturbed_reference_cases(seed: int, tmp_path: Path) -> None:
    """Byte for byte against the reference itself, in every mode, on 1-3 document files."""
    folder = shared_path("data", "reference-tests")
    rng = random.Random(seed)
    responses = sorted(folder.glob("TC-*.response"))
    for _ in range(5):
        lea = ORACLE_LEA is not None and rng.random() < 0.3
        scorer = (ORACLE_LEA if lea else ORACLE) or ""
        keys: list[str] = []
        answers: list[str] = []
        names = []
        for d in range(rng.choice([1, 1, 2, 3])):
            response = rng.choice(responses)
            key = folder / (re.sub(r"-\d+\.response$", ".key", response.name))
            name = f"(doc{d}); part 000"
            names.append(name)
            k, r = _perturbed(rng, key, response, name)
            keys += k
            if rng.random() < 0.9:
                answers += r
        (tmp_path / "key").write_bytes("\n".join(keys).encode("latin-1") + b"\n")
        (tmp_path / "response").write_bytes("\n".join(answers).encode("latin-1") + b"\n")
        listing = _perl_run(scorer, ["muc", "key", "response"], tmp_path)[0]
        shown = [line[6:-1] for line in listing.split(b"\n") if line.startswith(b"====> ")]
        order = list(dict.fromkeys(shown[0::2]))

        def visit(ids: list[bytes], order: list[bytes] = order) -> list[bytes]:
            first = [i for i in order if i in ids]
            return first + [i for i in ids if i not in first]

        metrics = [*ALL_METRICS, "all", *(["lea"] if lea else [])]
        for metric in rng.sample(metrics, 3):
            mode = rng.choice([["none"], [], [names[0]], ["nosuch"]])
            args = [metric, "key", "response", *mode]
            want_out, want_err, want_rc = _perl_run(scorer, args, tmp_path)
            out, err = io.BytesIO(), io.BytesIO()
            cwd = os.getcwd()
            os.chdir(tmp_path)
            try:
                rc = run(
                    args,
                    stdout=out,
                    stderr=err,
                    options=Options(
                        lea_branch=lea, argv0=os.fsencode(scorer), document_order=visit
                    ),
                )
            finally:
                os.chdir(cwd)
            got = re.sub(rb"^version: [^\n]*\n", b"", out.getvalue(), count=1)
            want = re.sub(rb"^version: [^\n]*\n", b"", want_out, count=1)
            assert (got, err.getvalue(), rc) == (want, want_err, want_rc), (args, lea)


@needs_oracle
@pytest.mark.skipif(not CASES, reason=f"shared data not available: {CASES_FILE}")
@pytest.mark.parametrize("case", sorted(CASES))
def test_oracle_on_reference_cases_every_mode(case: str) -> None:
    key, response = _case_files(case)
    doc = re.search(rb"^#\s*begin document (.*?)\r?$", Path(key).read_bytes(), re.MULTILINE)
    assert doc is not None
    for metric in [*ALL_METRICS, "all"]:
        for mode in ([], [os.fsdecode(doc.group(1))], ["none"]):
            args = [metric, key, response, *mode]
            want_out, want_err, want_rc = _perl_run(ORACLE or "", args, HERE)
            out, err = io.BytesIO(), io.BytesIO()
            rc = run(args, stdout=out, stderr=err, options=Options(argv0=os.fsencode(ORACLE or "")))
            got = re.sub(rb"^version: [^\n]*\n", b"", out.getvalue(), count=1)
            want = re.sub(rb"^version: [^\n]*\n", b"", want_out, count=1)
            assert (got, err.getvalue(), rc) == (want, want_err, want_rc), args
