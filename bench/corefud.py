#!/usr/bin/env python3
"""Time corefscore's CorefUD evaluation side by side with the official CorefUD scorer.

On one CoNLL-U pair (default: the GUM train pair of ../shared/data/real/gum/pairs,
gold GUM key against the xrenner response), for each matching mode (default: head,
the CRAC setting, then exact and partial; singletons dropped and zeros paired by
their dependencies, the official defaults), one run is, as a fresh process each:

* corefscore: ``PYTHON -m corefscore score KEY RESPONSE --match M --singletons drop
  --zeros dependent --format json`` (two CoNLL-U files: the CorefUD evaluation);
* corefud-scorer v1.2: ``COREFUD_PYTHON corefud-scorer.py KEY RESPONSE -a M
  -z dependent`` (cwd: its checkout).

Both compute the same eight metrics (MUC, B³, CEAFe, CEAFm, BLANC, LEA, MOR, zero)
and the CoNLL score; the CoNLL score of every run is read back (corefscore's JSON,
the official "CoNLL score:" line) and the two are compared, so the timing is known
to compare equal work. CPU = user+sys of the child from os.wait4, peak MB = its
ru_maxrss, wall = elapsed seconds. Runs are interleaved (round-robin over modes,
the two tools' order alternating each round); the ratio official / corefscore is
taken per interleaved pair, and its median is reported, with the medians of the
times. Children get single-threaded BLAS, as in suite.py, and run with their
bytecode cached (PYTHONDONTWRITEBYTECODE removed, one untimed warm-up run of
each command first), as installed packages run. It only measures and
prints: a slow result never fails it.

    python bench/corefud.py [--split train] [--runs 5] [--modes head,exact,partial]
                            [--corefud-scorer DIR] [--corefud-python PY] [--markdown]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from run_bench import cpu_model
from suite import table

REPO = Path(__file__).resolve().parent.parent
PAIRS = REPO.parent / "shared" / "data" / "real" / "gum" / "pairs"
SPLITS = ("train", "dev", "test", "test2")
MODES = ("head", "exact", "partial")
RESEARCH = Path("/work/research/corefud")
DEFAULT_SCORER = RESEARCH / "corefud-scorer"
DEFAULT_PYTHON = RESEARCH / "venv" / "bin" / "python"
SCORER_ENV, PYTHON_ENV = "COREFSCORE_COREFUD_SCORER", "COREFSCORE_COREFUD_PYTHON"
TARGET = 10.0  # official / corefscore CPU time in head mode, on the GUM train pair
# Child processes get single-threaded BLAS, as the corefscore CLI sets for itself (suite.py).
THREADS = {v: "1" for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
INSTALL = (
    "git clone https://github.com/ufal/corefud-scorer DIR (v1.2); python3 -m venv VENV; "
    "VENV/bin/pip install -r DIR/requirements.txt (udapi, numpy, scipy); then pass "
    f"--corefud-scorer DIR --corefud-python VENV/bin/python, or set {SCORER_ENV} and "
    f"{PYTHON_ENV}"
)
# Start-up rows (interpreter plus the modules each tool imports, no input read), as in run_bench.py.
OUR_STARTUP = (
    "from corefscore.cli import _single_threaded_numerics as s, keep_freed_memory as k; "
    "s(); import corefscore.scorer; k()"
)
THEIR_STARTUP = "import importlib; importlib.import_module('ua-scorer')"  # cwd: the checkout
CONLL_LINE = re.compile(r"^CoNLL score:\s*([0-9.]+)", re.MULTILINE)


def die(msg: str, code: int = 2) -> NoReturn:
    print(f"corefud: error: {msg}", file=sys.stderr)
    sys.exit(code)


@dataclass
class Outcome:
    status: str  # "ok", "timeout ...", "failed ..."
    cpu: float
    wall: float
    peak_mb: float
    stdout: str = ""


@dataclass
class Cell:
    """One (mode, tool): its command and what its runs measured."""

    mode: str
    tool: str
    cmd: list[str]
    cwd: Path | None = None
    status: str = "ok"
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    peak_mb: list[float] = field(default_factory=list)
    conll: list[str] = field(default_factory=list)  # the CoNLL score as printed, 2 decimals

    def median(self, values: list[float]) -> float | None:
        return statistics.median(values) if values and self.status == "ok" else None


def run_child(cmd: list[str], cwd: Path | None, timeout: float) -> Outcome:
    """Run one child to its end; CPU and peak RSS from os.wait4 on it alone."""
    env = dict(os.environ)
    env.update(THREADS)
    # Both tools run with their bytecode cached, as installed packages do (pip
    # compiles it); a session with PYTHONDONTWRITEBYTECODE would otherwise time
    # the compilation of every module at every run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(
                cmd,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env=env,
                start_new_session=True,  # so a timeout can end the child's whole group
            )
        except OSError as exc:
            return Outcome(f"failed: {exc}", 0.0, 0.0, 0.0)
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:  # it ended meanwhile
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
        peak = usage.ru_maxrss / (1024 if sys.platform == "darwin" else 1) / 1024
        if timed_out.is_set():
            return Outcome(f"timeout (>{timeout:g} s wall)", cpu, wall, peak)
        if proc.returncode != 0:
            err.seek(0)
            last = err.read().decode(errors="replace").strip().splitlines()[-1:] or [""]
            return Outcome(f"failed (exit {proc.returncode}): {last[0][:160]}", cpu, wall, peak)
        out.seek(0)
        return Outcome("ok", cpu, wall, peak, out.read().decode(errors="replace"))


def conll_of(tool: str, stdout: str) -> str:
    """The CoNLL score a run printed, as a percentage with 2 decimals."""
    if tool == "corefscore":
        f1 = json.loads(stdout)["metrics"]["conll"]["f1"]
        return f"{float(f1) * 100:.2f}"
    found = CONLL_LINE.findall(stdout)
    if not found:
        raise ValueError("no 'CoNLL score:' line in its output")
    return f"{float(found[-1]):.2f}"


def locate_scorer(args: argparse.Namespace) -> tuple[Path, str] | str:
    """(checkout, python) of the official scorer, or why it cannot be run."""
    scorer = Path(args.corefud_scorer or os.environ.get(SCORER_ENV) or DEFAULT_SCORER)
    python = str(args.corefud_python or os.environ.get(PYTHON_ENV) or DEFAULT_PYTHON)
    if not (scorer / "corefud-scorer.py").is_file():
        return f"no corefud-scorer.py in {scorer}"
    probe = [python, "-c", "import udapi, numpy, scipy"]
    try:
        done = subprocess.run(probe, check=False, capture_output=True, text=True, cwd=scorer)
    except OSError as exc:
        return f"cannot run {python}: {exc}"
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or [""])[-1]
        return f"{python} cannot import udapi, numpy and scipy ({tail})"
    return scorer.resolve(), python


def build_cells(
    args: argparse.Namespace, key: Path, resp: Path, official: tuple[Path, str] | None
) -> list[Cell]:
    cells = []
    for mode in args.modes:
        opts = ["--match", mode, "--singletons", args.singletons, "--zeros", args.zeros]
        cmd = [args.python, "-m", "corefscore", "score", str(key), str(resp), *opts]
        cells.append(Cell(mode, "corefscore", [*cmd, "--format", "json"]))
        if official is None:
            continue
        scorer, python = official
        cmd = [python, "corefud-scorer.py", str(key), str(resp), "-a", mode, "-z", args.zeros]
        cmd += ["-s"] if args.singletons == "keep" else []
        cells.append(Cell(mode, "corefud-scorer", cmd, cwd=scorer))
    cells.append(Cell("start-up", "corefscore", [args.python, "-c", OUR_STARTUP]))
    if official is not None:
        scorer, python = official
        cells.append(Cell("start-up", "corefud-scorer", [python, "-c", THEIR_STARTUP], scorer))
    return cells


def run_all(cells: list[Cell], runs: int, timeout: float) -> None:
    """Round-robin over the modes; within a mode the tools' order alternates each round."""
    modes = list(dict.fromkeys(c.mode for c in cells))
    for cell in cells:  # a warm-up run each, untimed: it writes the bytecode caches
        print(f"warm-up {cell.mode} {cell.tool}", file=sys.stderr, flush=True)
        run_child(cell.cmd, cell.cwd, timeout)
    for i in range(runs):
        for mode in modes:
            pair = [c for c in cells if c.mode == mode]
            for cell in pair if i % 2 == 0 else pair[::-1]:
                if cell.status != "ok":
                    continue
                print(f"run {i + 1}/{runs} {mode} {cell.tool}", file=sys.stderr, flush=True)
                got = run_child(cell.cmd, cell.cwd, timeout)
                if got.status == "ok" and mode != "start-up":
                    try:
                        cell.conll.append(conll_of(cell.tool, got.stdout))
                    except (ValueError, KeyError, TypeError) as exc:
                        got.status = f"failed: cannot read its CoNLL score ({exc})"
                if got.status != "ok":
                    cell.status = got.status
                    print(f"  {cell.tool} ({mode}): {got.status}", file=sys.stderr)
                    continue
                cell.cpu.append(got.cpu)
                cell.wall.append(got.wall)
                cell.peak_mb.append(got.peak_mb)


# ---------------------------------------------------------------------- report


def versions(python: str, code: str, cwd: Path | None = None) -> str:
    try:
        done = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=cwd)
    except OSError as exc:
        return f"? ({exc})"
    return done.stdout.strip() if done.returncode == 0 else "?"


def header(
    args: argparse.Namespace, key: Path, resp: Path, official: tuple[Path, str] | None
) -> list[str]:
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    now = dt.datetime.now().astimezone().isoformat(timespec="seconds")
    code = "import sys, numpy, corefscore; "
    code += "print(f'corefscore {corefscore.__version__}: Python {sys.version.split()[0]}, "
    code += "numpy {numpy.__version__}')"
    lines = [
        f"date: {now}",
        f"machine: {platform.platform()}; {os.cpu_count()} CPUs ({cpu_model()}); {mem:.0f} GiB RAM",
        f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"key: {key} ({key.stat().st_size / 1e6:.1f} MB)",
        f"response: {resp} ({resp.stat().st_size / 1e6:.1f} MB)",
        f"{versions(args.python, code)} ({args.python})",
    ]
    if official is not None:
        scorer, python = official
        code = "import sys, numpy, scipy; from importlib.metadata import version; "
        code += 'print(f\'Python {sys.version.split()[0]}, udapi {version("udapi")}, '
        code += "numpy {numpy.__version__}, scipy {scipy.__version__}')"
        commit = subprocess.run(
            ["git", "-C", str(scorer), "log", "-1", "--format=%h %cs"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        at = f" at {commit}" if commit else ""
        lines.append(f"corefud-scorer{at}: {versions(python, code, scorer)} ({python})")
    return lines


def fmt(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def pair_ratios(ours: list[float], theirs: list[float]) -> list[float]:
    """official / corefscore for each interleaved round both completed."""
    return [b / a for a, b in zip(ours, theirs) if a > 0]


def ratio_text(r: float | None) -> str:
    return "-" if r is None else f"{r:.1f}×"


def report(cells: list[Cell], args: argparse.Namespace, info: list[str], missing: str) -> bool:
    """Print the report; True when every run succeeded and the CoNLL scores agreed."""
    md = args.markdown
    say = (lambda s: f"- {s}") if md else (lambda s: s)
    print("\n".join(say(line) for line in info), end="\n\n")
    rows = [["mode", "tool", "runs", "median CPU s", "median wall s", "median peak MB"]]
    rows[0] += ["CoNLL", "CPU ratio", "wall ratio", "status"]
    notes: list[str] = []
    agree: list[bool] = []
    saved: dict[str, Any] = {}
    for mode in args.modes:
        pair = [c for c in cells if c.mode == mode]
        ours, theirs = pair[0], (pair[1] if len(pair) > 1 else None)
        cpu_pairs: list[float] = []
        wall_pairs: list[float] = []
        if theirs is not None and ours.status == theirs.status == "ok":
            cpu_pairs = pair_ratios(ours.cpu, theirs.cpu)
            wall_pairs = pair_ratios(ours.wall, theirs.wall)
        cpu_r = statistics.median(cpu_pairs) if cpu_pairs else None
        wall_r = statistics.median(wall_pairs) if wall_pairs else None
        if cpu_pairs:
            each = ", ".join(f"{r:.1f}" for r in cpu_pairs)
            walls = ", ".join(f"{r:.1f}" for r in wall_pairs)
            notes.append(f"{mode}: per-run ratios, CPU {each}; wall {walls}")
        for cell in pair:
            mine = cell is ours and cpu_r is not None
            rows.append(
                [
                    mode,
                    cell.tool,
                    str(len(cell.cpu)),
                    fmt(cell.median(cell.cpu)),
                    fmt(cell.median(cell.wall)),
                    fmt(cell.median(cell.peak_mb), 0),
                    "/".join(sorted(set(cell.conll))) or "-",
                    "1.0×" if mine else "-" if cell is ours else ratio_text(cpu_r),
                    "1.0×" if mine else "-" if cell is ours else ratio_text(wall_r),
                    cell.status,
                ]
            )
        if theirs is not None and ours.conll and theirs.conll:
            agree.append(len(set(ours.conll) | set(theirs.conll)) == 1)
        saved[mode] = {
            "cpu_ratios": cpu_pairs,
            "wall_ratios": wall_pairs,
            "cpu_ratio": cpu_r,
            "wall_ratio": wall_r,
            **{
                c.tool: {"cmd": c.cmd, "status": c.status, "cpu": c.cpu, "wall": c.wall}
                | {"peak_mb": c.peak_mb, "conll": c.conll}
                for c in pair
            },
        }
    what = f"singletons {'kept' if args.singletons == 'keep' else 'dropped'}, {args.zeros} zeros"
    print(f"CorefUD evaluation ({what}), {args.runs} interleaved runs per row.")
    print("Ratio = corefud-scorer / corefscore, taken per run, then the median:\n")
    print(table(rows, md, left=2), end="\n\n")
    for note in notes:
        print(say(note))
    starts = [c for c in cells if c.mode == "start-up"]
    if starts:
        each = "; ".join(f"{c.tool} {fmt(c.median(c.cpu))} ({c.status})" for c in starts)
        print(say(f"start-up (interpreter + imports, no input), median CPU s: {each}"))
        saved["start-up"] = {c.tool: {"cpu": c.cpu, "wall": c.wall} for c in starts}
    if missing:
        print(say(f"corefud-scorer not run: {missing}. To get it: {INSTALL}"))
    elif agree:
        verdict = "yes" if all(agree) and len(agree) == len(args.modes) else "NO"
        print(say(f"CoNLL scores equal (2 decimals) in every mode and run: {verdict}"))
    head = saved.get("head", {}).get("cpu_ratio")
    if head is not None:
        verdict = "met" if head >= TARGET else "NOT met"
        where = "the GUM train pair" if args.split == "train" and not args.key else "this pair"
        text = f"head mode: corefud-scorer / corefscore CPU = {head:.1f}× on {where}"
        print(say(f"{text} (target ≥ {TARGET:g}× on the GUM train pair): {verdict}"))
    own_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(say(f"load average at end: {load}; peak MB floor (this harness at fork): {own_mb:.0f}"))
    if args.json_out:
        dump = {"info": info, "runs": args.runs, "modes": saved}
        args.json_out.write_text(json.dumps(dump, indent=1) + "\n")
    return all(c.status == "ok" for c in cells) and all(agree)


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    opt = ap.add_argument
    opt("--split", choices=SPLITS, default="train", help="GUM pair to use (default: train)")
    opt("--key", type=Path, help=f"key CoNLL-U file (default: {PAIRS}/SPLIT.key_gum.conllu)")
    opt(
        "--response",
        type=Path,
        help=f"response CoNLL-U file (default: {PAIRS}/SPLIT.resp_xrenner.conllu)",
    )
    opt("--modes", default=",".join(MODES), help="comma-separated subset of head,exact,partial")
    opt("--singletons", choices=("drop", "keep"), default="drop", help="default: drop")
    opt("--zeros", choices=("dependent", "linear"), default="dependent", help="default: dependent")
    opt("--runs", type=int, default=5, help="interleaved runs per mode and tool (default 5)")
    opt("--timeout", type=float, default=600.0, help="wall seconds per run before 'timeout'")
    opt(
        "--corefud-scorer",
        type=Path,
        help=f"corefud-scorer checkout (default: ${SCORER_ENV}, else {DEFAULT_SCORER})",
    )
    opt(
        "--corefud-python",
        help=f"Python with udapi, numpy, scipy (default: ${PYTHON_ENV}, else {DEFAULT_PYTHON})",
    )
    opt("--python", default=sys.executable, help="interpreter that runs corefscore")
    opt("--markdown", action="store_true", help="print Markdown tables")
    opt("--json-out", type=Path, help="also write every measurement as JSON")
    args = ap.parse_args()
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not args.modes or any(m not in MODES for m in args.modes):
        ap.error("--modes takes a comma-separated subset of head,exact,partial")
    args.modes = list(dict.fromkeys(args.modes))
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    return args


def main() -> None:
    args = parse_args()
    key = (args.key or PAIRS / f"{args.split}.key_gum.conllu").resolve()
    resp = (args.response or PAIRS / f"{args.split}.resp_xrenner.conllu").resolve()
    for side, path in (("key", key), ("response", resp)):
        if not path.is_file():
            die(
                f"{side} file not found: {path}. The GUM pairs live in ../shared/data/real/gum/"
                "pairs next to the repository; pass --key and --response to use other files."
            )
    located = locate_scorer(args)
    official = located if isinstance(located, tuple) else None
    missing = located if isinstance(located, str) else ""
    if missing:
        print(
            f"corefud: corefud-scorer not found ({missing}); timing corefscore alone.",
            file=sys.stderr,
        )
        print(f"corefud: to get it: {INSTALL}", file=sys.stderr)
    info = header(args, key, resp, official)
    cells = build_cells(args, key, resp, official)
    run_all(cells, args.runs, args.timeout)
    sys.exit(0 if report(cells, args, info, missing) else 1)


if __name__ == "__main__":
    main()
