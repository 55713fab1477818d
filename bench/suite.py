#!/usr/bin/env python3
"""Benchmark corefscore side by side with the peers installed on this machine.

One command regenerates the corpora (bench/.corpora/, as run_bench.py does)
and times, in one interleaved run:

* the peer table: corefscore, the Perl reference scorer (``--perl-scorer``),
  coval (``--coval``), scorch and neleval (``--peer-python``) on corpora
  a, b, c, d, each converted to one sentence per document part ("nosent"),
  because the generator's mentions may cross sentence breaks, which coval
  mis-reads and scorch rejects (document-level offsets, hence the reference
  scores, are unchanged);
* corefscore's reading: total CPU, parse-only CPU (the CoNLL reader on both
  files, measured inside the process) and the floor (issue 17's "bare Python
  line loop": ``for line in handle: pass`` over both files opened in binary),
  with reading each file whole and splitting it into lines beside it (the
  floor of the runs up to commit 7f521cc, about twice the loop's cost from 16k
  mentions up: it makes every line an object at once), on the original
  corpora;
* the single-document scaling series (1k to 1M key mentions, the generator
  arguments of GENERATE.sh's s_single_doc_* series) and its exponent;
* the pathological documents of bench/gen_pathological.py (one entity of N
  mentions; N singletons) at 100k and 1M mentions.

Each run is a fresh process (several for a peer that converts its input
first: the conversion is part of its time). CPU = user+sys from os.wait4
of that child alone; peak MB = its ru_maxrss (the largest step's for a
pipeline). A peer missing on this machine is reported as "not installed".

    python bench/suite.py --perl-scorer /tmp/refscorer/scorer.pl \\
        --coval /tmp/coval --peer-python /tmp/peers/bin/python \\
        --markdown --json-out bench/.corpora/suite.json --plot docs/img/perf-scaling.svg
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from run_bench import CACHE, GEN_ARGS, REPO, cpu_model, die, ensure_corpus, key_mentions

BENCH = REPO / "bench"
MAIN = ["a_conll12like", "b_conll12like_singletons", "c_single_doc_20k", "d_10x"]
SHORT = {name: name[0] for name in MAIN}
SINGLE_SIZES = (1000, 2000, 4000, 8000, 16000, 64000, 256000, 1000000)
# The slopes "over 64k..1M" start at the series' 64k corpus, which holds 63,860 key
# mentions (a size names the generator's target, not the count).
TAIL_FROM = 60_000
# The rows timed inside their process (their "work"), not as a whole command: the
# reader and the two floors.
FLOORS = ("floor", "read+split")
IN_PROCESS = ("parse-only", *FLOORS)
ONE_DOC = ["--seed", "11", "--docs", "1", "--doc-len-sigma", "0", "--tokens-per-doc"]
PATHOLOGICAL_SIZES = (100_000, 1_000_000)
SHAPES = ("one_entity", "singletons")
# Child processes of every tool get single-threaded BLAS, as the corefscore CLI sets for itself.
THREADS = {v: "1" for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}

METRICS = {
    "corefscore": "mentions, MUC, B³, CEAFm, CEAFe, BLANC, LEA",
    "perl": "MUC, B³, CEAFm, CEAFe, BLANC (all)",
    "coval": "mentions, MUC, B³, CEAFe, LEA",
    "scorch": "MUC, B³, CEAFm, CEAFe, BLANC (+ conll→json)",
    "neleval": "mentions, MUC, B³, CEAFm, CEAFe, pairwise (+ conll→tab)",
}
NELEVAL_MEASURES = ["muc", "b_cubed", "mention_ceaf", "entity_ceaf", "pairwise"]
NELEVAL_MEASURES += ["strong_mention_match"]

# neleval 3.1.1 predates Python 3.10 and NumPy 1.24: restore the two names it imports.
NELEVAL_COMPAT = """
import collections, collections.abc, sys
import numpy
collections.Sequence = collections.abc.Sequence
numpy.int = int
from neleval.__main__ import main
main(sys.argv[1:])
"""

# The fixed cost of a run on the benchmark files: Python, corefscore and numpy, which
# corefscore imports on first use, for any file over 256 KiB (all of them here), and
# the command's allocator setting, made at that first use.
STARTUP = (
    "from corefscore.cli import _single_threaded_numerics as s, keep_freed_memory as k; s(); "
    "import corefscore.scorer; k(); import numpy"
)
PARSE_CODE = """
import json, sys, time
from corefscore.cli import _single_threaded_numerics as s, keep_freed_memory as k; s()
from corefscore.io import read_corpus
k()  # as the command does when it first needs numpy
import numpy  # imported on first use by the reader: a start-up cost, not parsing
import corefscore.io.conll_arrays  # the array reader's module, likewise (1.1 ms)
import gc
gc.disable()  # as the command reads (corefscore.cli.main)
start = time.process_time()
read_corpus(sys.argv[1], format="conll", side="key")
read_corpus(sys.argv[2], format="conll", side="response")
print(json.dumps({"work": time.process_time() - start}))
"""
# Issue 17's floor: "a bare Python line loop over the same files".
FLOOR_CODE = """
import json, sys, time
start = time.process_time()
for path in sys.argv[1:3]:
    with open(path, "rb") as handle:
        for line in handle:
            pass
print(json.dumps({"work": time.process_time() - start}))
"""
# Reading each file whole and splitting it into lines: the floor of the earlier
# runs, shown beside the loop. It holds every line at once, so it pays for fresh
# memory the loop reuses; it is not what the target is measured against.
SPLIT_CODE = """
import json, sys, time
start = time.process_time()
for path in sys.argv[1:3]:
    with open(path, "rb") as handle:
        handle.read().split(b"\\n")
print(json.dumps({"work": time.process_time() - start}))
"""


@dataclass
class Step:
    cmd: list[str]
    cwd: Path | None = None
    stdout: Path | None = None  # redirect stdout to this file


@dataclass
class Outcome:
    status: str  # "ok", "timeout", "failed: ..."
    cpu: float
    peak_mb: float
    stdout: str = ""


@dataclass
class Row:
    """One (corpus, tool) cell: how to run it and what it measured."""

    group: str  # peers / reading / scaling / pathological
    corpus: str
    tool: str
    make_steps: Callable[[Path], list[Step]]  # given a scratch directory
    repeat: int
    mentions: int | None = None
    cpu: list[float] = field(default_factory=list)
    peak_mb: list[float] = field(default_factory=list)
    work: list[float] = field(default_factory=list)  # in-process CPU (parse / floor rows)
    status: str = "ok"
    note: str = ""

    @property
    def done(self) -> bool:
        return self.status != "ok"

    def median_cpu(self) -> float | None:
        return statistics.median(self.cpu) if self.cpu and self.status == "ok" else None

    def median_work(self) -> float | None:
        return statistics.median(self.work) if self.work and self.status == "ok" else None


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(THREADS)
    return env


def run_steps(steps: list[Step], timeout: float) -> Outcome:
    """Run the steps one after the other; sum their CPU, keep the largest peak RSS."""
    cpu, peak, deadline = 0.0, 0.0, time.monotonic() + timeout
    stdout = ""
    for step in steps:
        with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
            sink = step.stdout.open("wb") if step.stdout else out
            try:
                proc = subprocess.Popen(
                    step.cmd,
                    cwd=step.cwd,
                    stdin=subprocess.DEVNULL,
                    stdout=sink,
                    stderr=err,
                    env=child_env(),
                    start_new_session=True,  # so a timeout can end the child's whole group
                )
            except OSError as exc:
                return Outcome(f"failed: {exc}", cpu, peak)
            finally:
                if step.stdout:
                    sink.close()
            timed_out, pause = False, 0.005
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    os.killpg(proc.pid, signal.SIGKILL)
                    _, status, usage = os.wait4(proc.pid, 0)
                    timed_out = True
                    break
                time.sleep(pause)
                pause = min(pause * 1.5, 0.2)
            proc.returncode = os.waitstatus_to_exitcode(status)
            kib = usage.ru_maxrss / (1024 if sys.platform == "darwin" else 1)
            cpu += usage.ru_utime + usage.ru_stime
            peak = max(peak, kib / 1024)
            if timed_out:
                return Outcome(f"timeout (>{timeout:g} s wall)", cpu, peak)
            if proc.returncode != 0:
                err.seek(0)
                last = err.read().decode(errors="replace").strip().splitlines()[-1:] or [""]
                return Outcome(f"failed (exit {proc.returncode}): {last[0][:120]}", cpu, peak)
            out.seek(0)
            stdout = out.read().decode(errors="replace")
    return Outcome("ok", cpu, peak, stdout)


def make_nosent(prefix: Path) -> Path:
    """Write PREFIX.nosent.{key,response}: each document part as one sentence."""
    target = Path(f"{prefix}.nosent")
    for side in ("key", "response"):
        dst = Path(f"{target}.{side}")
        if dst.exists():
            continue
        tmp = Path(f"{dst}.partial")
        with (
            Path(f"{prefix}.{side}").open(encoding="utf-8") as src,
            tmp.open("w", encoding="utf-8") as out,
        ):
            word = 0
            for line in src:
                if line.startswith("#"):
                    if word and line.startswith("#end"):
                        out.write("\n")  # the one sentence ends here
                    word = 0
                    out.write(line)
                    continue
                cols = line.split()
                if not cols:
                    continue  # a sentence break inside the part
                cols[2] = str(word)  # the word number runs over the whole part
                word += 1
                out.write("   ".join(cols) + "\n")
        tmp.replace(dst)
    return target


@dataclass
class Peers:
    python: str  # corefscore's interpreter
    peer_python: str | None
    perl_dir: Path | None
    coval_dir: Path | None
    missing: dict[str, str] = field(default_factory=dict)

    def available(self) -> list[str]:
        return [t for t in METRICS if t not in self.missing]


def detect_peers(args: argparse.Namespace) -> Peers:
    peers = Peers(args.python, args.peer_python, None, None)
    script = args.perl_scorer
    if script is None:
        peers.missing["perl"] = "not installed (pass --perl-scorer PATH/scorer.pl)"
    elif shutil.which("perl") is None:
        peers.missing["perl"] = "not installed (no perl on PATH)"
    elif not script.is_file():
        peers.missing["perl"] = f"not installed ({script} not found)"
    else:
        peers.perl_dir = script.resolve().parent
    if args.coval is None:
        peers.missing["coval"] = "not installed (pass --coval PATH to a checkout)"
    elif not (args.coval / "scorer.py").is_file():
        peers.missing["coval"] = f"not installed (no scorer.py in {args.coval})"
    else:
        peers.coval_dir = args.coval.resolve()
    for name, module in (("scorch", "scorch.main"), ("neleval", "neleval.coref_metrics")):
        if args.peer_python is None:
            peers.missing[name] = "not installed (pass --peer-python)"
            continue
        probe = [
            args.peer_python,
            "-c",
            f"import importlib.util as u, sys; sys.exit(not u.find_spec({module.split('.')[0]!r}))",
        ]
        if subprocess.run(probe, check=False, capture_output=True).returncode != 0:
            peers.missing[name] = f"not installed (cannot import {name} with {args.peer_python})"
    if peers.coval_dir is not None and args.peer_python is None:
        peers.missing["coval"] = "not installed (coval needs --peer-python with scipy)"
    return peers


def tool_steps(peers: Peers, tool: str, key: Path, resp: Path) -> Callable[[Path], list[Step]]:
    """The command(s) of one run of `tool` on (key, resp); scratch files go to the given dir."""
    py, peer_py = peers.python, peers.peer_python or ""

    def corefscore(_: Path) -> list[Step]:
        return [Step([py, "-m", "corefscore", "score", str(key), str(resp), "--format", "json"])]

    def perl(_: Path) -> list[Step]:
        assert peers.perl_dir is not None
        cmd = ["perl", "scorer.pl", "all", str(key), str(resp), "none"]
        return [Step(cmd, cwd=peers.perl_dir)]

    def coval(_: Path) -> list[Step]:
        assert peers.coval_dir is not None
        return [Step([peer_py, "scorer.py", str(key), str(resp)], cwd=peers.coval_dir)]

    def scorch(tmp: Path) -> list[Step]:
        gold, system = tmp / "gold", tmp / "sys"
        gold.mkdir()
        system.mkdir()
        return [
            Step([peer_py, "-m", "scorch.conll", str(key), str(gold)]),
            Step([peer_py, "-m", "scorch.conll", str(resp), str(system)]),
            Step([peer_py, "-m", "scorch.main", str(gold), str(system)]),
        ]

    def neleval(tmp: Path) -> list[Step]:
        run = [peer_py, "-c", NELEVAL_COMPAT]
        gold, system = tmp / "gold.tab", tmp / "sys.tab"
        measures = [arg for m in NELEVAL_MEASURES for arg in ("-m", m)]
        return [
            Step([*run, "prepare-conll-coref", str(key)], stdout=gold),
            Step([*run, "prepare-conll-coref", str(resp)], stdout=system),
            Step([*run, "evaluate", "-g", str(gold), str(system), *measures]),
        ]

    steps: dict[str, Callable[[Path], list[Step]]] = {
        "corefscore": corefscore,
        "perl": perl,
        "coval": coval,
        "scorch": scorch,
        "neleval": neleval,
    }
    return steps[tool]


def code_steps(python: str, code: str, *files: Path) -> Callable[[Path], list[Step]]:
    return lambda _: [Step([python, "-c", code, *map(str, files)])]


REGENERATED: set[str] = set()


def corpus(
    args: argparse.Namespace, name: str, generator: Path, gen_args: list[str] | None = None
) -> Path:
    """The cache prefix of corpus `name`, generated if missing (or once, with --regenerate)."""
    if args.regenerate and name not in REGENERATED:
        REGENERATED.add(name)
        for old in CACHE.glob(f"{name}.*"):
            old.unlink()
    return ensure_corpus(name, generator, gen_args)


def mentions_of(prefix: Path) -> int:
    return key_mentions(prefix)


def build_rows(args: argparse.Namespace, peers: Peers) -> list[Row]:
    generator = args.shared / "bench" / "gen_conll.py"
    if not generator.is_file():
        die(f"corpus generator not found: {generator}; pass --shared PATH (folder with bench/)")
    py = args.python
    rows: list[Row] = [Row("start-up", "-", "start-up", code_steps(py, STARTUP), args.repeat)]
    main = [] if args.skip_peers else args.corpora
    for name in main:
        prefix = corpus(args, name, generator)
        nosent = make_nosent(prefix)
        key, resp = Path(f"{nosent}.key"), Path(f"{nosent}.response")
        mentions = mentions_of(prefix)
        for tool in METRICS:
            repeat = args.repeat if tool == "corefscore" else args.peer_repeat
            row = Row("peers", name, tool, tool_steps(peers, tool, key, resp), repeat, mentions)
            if tool in peers.missing:
                row.status = peers.missing[tool]
            elif tool == "perl" and SHORT[name] not in args.perl_corpora:
                row.status = "not run (see --perl-corpora)"
            rows.append(row)
    for name in args.corpora:
        prefix = corpus(args, name, generator)
        key, resp = Path(f"{prefix}.key"), Path(f"{prefix}.response")
        add_reading_rows(rows, "reading", name, key, resp, args.repeat, mentions_of(prefix), py)
    if args.scaling:
        for n in SINGLE_SIZES:
            name = f"s_single_doc_{n}"
            gen_args = GEN_ARGS.get(name, [*ONE_DOC, str(n * 167000 // 20000)])
            prefix = corpus(args, name, generator, gen_args)
            key, resp = Path(f"{prefix}.key"), Path(f"{prefix}.response")
            add_reading_rows(rows, "scaling", name, key, resp, args.repeat, mentions_of(prefix), py)
            if n > args.peer_scaling_max or args.skip_peers:
                continue
            nosent = make_nosent(prefix)
            nkey, nresp = Path(f"{nosent}.key"), Path(f"{nosent}.response")
            for tool in METRICS:
                if tool == "corefscore":
                    continue
                steps = tool_steps(peers, tool, nkey, nresp)
                row = Row("scaling-peers", name, tool, steps, args.peer_repeat, n)
                row.status = peers.missing.get(tool, "ok")
                rows.append(row)
    if args.pathological:
        for shape in SHAPES:
            for n in PATHOLOGICAL_SIZES:
                name = f"{shape}_{n}"
                gen = BENCH / "gen_pathological.py"
                prefix = corpus(args, name, gen, ["--shape", shape, "--mentions", str(n)])
                key, resp = Path(f"{prefix}.key"), Path(f"{prefix}.response")
                add_reading_rows(rows, "pathological", name, key, resp, args.repeat, n, py)
    return rows


def add_reading_rows(
    rows: list[Row], group: str, name: str, key: Path, resp: Path, repeat: int, n: int, py: str
) -> None:
    rows.append(Row(group, name, "corefscore", tool_steps_total(py, key, resp), repeat, n))
    rows.append(Row(group, name, "parse-only", code_steps(py, PARSE_CODE, key, resp), repeat, n))
    rows.append(Row(group, name, "floor", code_steps(py, FLOOR_CODE, key, resp), repeat, n))
    rows.append(Row(group, name, "read+split", code_steps(py, SPLIT_CODE, key, resp), repeat, n))


def tool_steps_total(py: str, key: Path, resp: Path) -> Callable[[Path], list[Step]]:
    cmd = [py, "-m", "corefscore", "score", str(key), str(resp), "--format", "json"]
    return lambda _: [Step(cmd)]


def run_all(rows: list[Row], args: argparse.Namespace) -> None:
    """Round-robin over the rows, so drifts of the machine's load hit them alike."""
    rounds = max(r.repeat for r in rows)
    for i in range(rounds):
        for row in rows:
            if row.done or i >= row.repeat:
                continue
            if skip_larger(row, rows, args.peer_scaling_cap):
                continue
            print(f"run {i + 1}/{row.repeat} {row.corpus} {row.tool}", file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory(prefix="corefscore-bench-") as tmp:
                outcome = run_steps(row.make_steps(Path(tmp)), args.timeout)
            if outcome.status != "ok":
                row.status = outcome.status
                row.cpu.append(outcome.cpu)
                print(f"  {row.tool} on {row.corpus}: {outcome.status}", file=sys.stderr)
                continue
            row.cpu.append(outcome.cpu)
            row.peak_mb.append(outcome.peak_mb)
            if row.tool in IN_PROCESS:
                row.work.append(float(json.loads(outcome.stdout)["work"]))
            # A slow peer gets a single run; its ratio is then from one run.
            if row.tool in METRICS and row.tool != "corefscore" and outcome.cpu > args.slow_after:
                row.repeat = len(row.cpu)


def skip_larger(row: Row, rows: list[Row], cap: float) -> bool:
    """In the peers' scaling series, skip a size once a smaller one took longer than `cap`."""
    if row.group != "scaling-peers" or row.cpu:
        return False
    for other in rows:
        if other.group == row.group and other.tool == row.tool and other is not row:
            smaller = (other.mentions or 0) < (row.mentions or 0)
            slow = other.status.startswith("timeout") or max(other.cpu, default=0) > cap
            if smaller and slow:
                row.status = f"skipped (a smaller size took > {cap:g} s)"
                return True
    return False


# ---------------------------------------------------------------------- report


def header(args: argparse.Namespace, peers: Peers) -> list[str]:
    code = "import sys, numpy, corefscore; print(sys.version.split()[0], numpy.__version__, "
    code += "corefscore.__version__)"
    done = subprocess.run([args.python, "-c", code], check=False, capture_output=True, text=True)
    if done.returncode != 0:
        die(f"{args.python} cannot import corefscore (pip install -e .):\n{done.stderr}", 1)
    py_version, np_version, version = done.stdout.split()[:3]
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    now = dt.datetime.now().astimezone().isoformat(timespec="seconds")
    lines = [
        f"date: {now}",
        f"machine: {platform.platform()}; {os.cpu_count()} CPUs ({cpu_model()}); {mem:.0f} GiB RAM",
        f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"corefscore {version}: Python {py_version}, numpy {np_version} ({args.python})",
    ]
    if args.peer_python:
        code = "import sys, numpy; print(sys.version.split()[0], numpy.__version__)"
        done = subprocess.run([args.peer_python, "-c", code], capture_output=True, text=True)
        lines.append(f"peers' Python: {done.stdout.strip()} ({args.peer_python})")
    if shutil.which("perl"):
        done = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True)
        lines.append(f"perl: {done.stdout.strip()}")
    lines.append(
        f"settings: --repeat {args.repeat} --peer-repeat {args.peer_repeat} "
        f"--slow-after {args.slow_after:g} --timeout {args.timeout:g}"
    )
    return lines


def fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def table(rows: list[list[str]], markdown: bool, left: int = 1) -> str:
    if markdown:
        sep = ["---"] * left + ["---:"] * (len(rows[0]) - left)
        return "\n".join("| " + " | ".join(r) + " |" for r in [rows[0], sep, *rows[1:]])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in [rows[0], ["-" * w for w in widths], *rows[1:]]:
        cells = [c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def find(rows: list[Row], group: str, corpus: str, tool: str) -> Row | None:
    for r in rows:
        if r.group == group and r.corpus == corpus and r.tool == tool:
            return r
    return None


def paired_ratio(row: Row, base: Row) -> float | None:
    """The median over the rounds of the row's CPU over corefscore's in the same round.

    Rows run round-robin, so run i of every row is in round i: pairing the runs by
    round cancels what drifts between rounds, which a ratio of the two medians does
    not (issue 17's ratios are these "paired medians"). ``None`` when either row
    failed or has no run."""
    if row.status != "ok" or base.status != "ok" or not row.cpu or not base.cpu:
        return None
    return statistics.median(p / c for p, c in zip(row.cpu, base.cpu) if c > 0)


def peers_report(rows: list[Row], md: bool) -> list[str]:
    out = []
    cells = [["corpus", "tool", "metrics", "runs", "median CPU s", "median peak MB", "CPU ratio"]]
    cells[0] += ["paired ratio", "status"]
    corpora = list(dict.fromkeys(r.corpus for r in rows if r.group == "peers"))
    targets: list[str] = []
    for corpus in corpora:
        base = find(rows, "peers", corpus, "corefscore")
        base_cpu = base.median_cpu() if base else None
        # (paired ratio, ratio of medians, tool) of each Python peer that ran.
        python_peers: list[tuple[float, float, str]] = []
        for tool in METRICS:
            r = find(rows, "peers", corpus, tool)
            if r is None:
                continue
            cpu = r.median_cpu()
            ratio = "-" if cpu is None or not base_cpu else f"{cpu / base_cpu:.1f}×"
            paired = paired_ratio(r, base) if base and tool != "corefscore" else None
            status = r.status if r.status != "ok" else "ok"
            if r.status.startswith("timeout") and r.cpu:
                status += f", {max(r.cpu):.0f} CPU s used"
                ratio = f"> {max(r.cpu) / base_cpu:.0f}×" if base_cpu else "-"
            peak = statistics.median(r.peak_mb) if r.peak_mb and r.status == "ok" else None
            runs = str(len(r.cpu)) if r.cpu else "0"
            name = SHORT.get(corpus, corpus)
            shown = "-" if paired is None else f"{paired:.1f}×"
            cells.append(
                [name, tool, METRICS[tool], runs, fmt(cpu, 2), fmt(peak, 0), ratio, shown, status]
            )
            if tool in ("coval", "scorch", "neleval") and base_cpu:
                if cpu is not None and paired is not None:
                    python_peers.append((paired, cpu / base_cpu, tool))
                elif r.status.startswith("timeout"):
                    bound = max(r.cpu, default=math.inf) / base_cpu
                    python_peers.append((bound, bound, f"{tool} (timeout)"))
            if tool == "perl" and base_cpu and r.cpu:
                # Issue 17's targets: 30× the reference's `all` on (a), 100× on (b).
                goal = {"a": 30, "b": 100}.get(SHORT.get(corpus, ""))
                if goal:
                    where = f"({SHORT[corpus]})"
                    if paired is not None and cpu is not None:
                        verdict = "met" if paired >= goal else "NOT met"
                        got = f"{paired:.1f}× paired ({cpu / base_cpu:.1f}× as medians' ratio)"
                    else:  # stopped: its CPU so far is a lower bound
                        bound = max(r.cpu) / base_cpu
                        verdict = "met" if bound >= goal else "NOT met"
                        got = f"> {bound:.1f}×"
                    targets.append(
                        f"Perl / corefscore on {where}: {got} (target ≥ {goal}×): {verdict}"
                    )
        if python_peers:
            # The strictest: the peer with the smallest paired ratio.
            paired, of_medians, tool = min(python_peers)
            verdict = "met" if paired >= 5 else "NOT met"
            where = f"({SHORT.get(corpus, corpus)})"
            got = f"{paired:.1f}× paired ({of_medians:.1f}× as medians' ratio)"
            if "timeout" in tool:
                got = f"> {paired:.1f}×"
            targets.append(
                f"smallest ratio of a Python peer on {where}: {tool}, {got} (target ≥ 5×): "
                f"{verdict}"
            )
    out.append(table(cells, md, left=3))
    out.append("")
    out.extend(f"- {t}" if md else t for t in targets)
    return out


def reading_report(rows: list[Row], group: str, md: bool) -> list[str]:
    start = find(rows, "start-up", "-", "start-up")
    start_cpu = start.median_cpu() if start else None
    cells = [["corpus", "key mentions", "total CPU s", "net of start-up", "parse-only CPU s"]]
    floor_name = "floor (read+split, an older run)" if legacy_floor(rows) else "floor (line loop)"
    cells[0] += [f"{floor_name} CPU s", "parse / net", "parse / floor (paired)"]
    cells[0] += ["read+split CPU s", "parse / read+split (paired)", "peak MB"]
    for corpus in dict.fromkeys(r.corpus for r in rows if r.group == group):
        total, parse, floor, split = (
            find(rows, group, corpus, t)
            for t in ("corefscore", "parse-only", "floor", "read+split")
        )
        assert total and parse and floor
        t, p, f = total.median_cpu(), parse.median_work(), floor.median_work()
        net = None if t is None or start_cpu is None else t - start_cpu
        share = "-" if p is None or not net else f"{p / net:.0%}"
        over_floor = paired_over(parse, floor)
        over_split = "-" if split is None else paired_over(parse, split)
        peak = statistics.median(total.peak_mb) if total.peak_mb and total.status == "ok" else None
        status = "" if total.status == "ok" else f" ({total.status})"
        mentions = f"{total.mentions:,}"
        cells.append(
            [
                corpus + status,
                mentions,
                fmt(t),
                fmt(net),
                fmt(p),
                fmt(f),
                share,
                over_floor,
                fmt(None if split is None else split.median_work()),
                over_split,
                fmt(peak, 0),
            ]
        )
    return [table(cells, md)]


def paired_work_ratio(parse: Row, floor: Row) -> float | None:
    """The reader's time over a floor's, paired as the peers' ratios (the two run in
    the same rounds): the median of the rounds' ratios."""
    pairs = [a / b for a, b in zip(parse.work, floor.work) if b > 0]
    return statistics.median(pairs) if pairs else None


def paired_over(parse: Row, floor: Row) -> str:
    """``paired_work_ratio`` to two decimals, as the target of 3 is judged on it."""
    ratio = paired_work_ratio(parse, floor)
    return "-" if ratio is None else f"{ratio:.2f}×"


def legacy_floor(rows: list[Row]) -> bool:
    """Whether the rows are of a run saved before b21b2e4 (--from-json), which timed
    reading and splitting as its floor."""
    return not any(r.tool == "read+split" for r in rows)


def fit_power(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """Fit y = a + b·x^k (a, b ≥ 0) by least squares on relative errors; grid over k."""
    best = (math.inf, 0.0, 0.0, 0.0)
    for step in range(501):
        k = 0.5 + step * 0.003
        # Weighted linear least squares for (a, b) at fixed k, weights 1/y².
        w = [1 / (y * y) for y in ys]
        u = [x**k for x in xs]
        sw = sum(w)
        su = sum(wi * ui for wi, ui in zip(w, u))
        suu = sum(wi * ui * ui for wi, ui in zip(w, u))
        sy = sum(wi * y for wi, y in zip(w, ys))
        suy = sum(wi * ui * y for wi, ui, y in zip(w, u, ys))
        det = sw * suu - su * su
        if det == 0:
            continue
        a = (suu * sy - su * suy) / det
        b = (sw * suy - su * sy) / det
        if a < 0:
            a, b = 0.0, suy / suu
        if b <= 0:
            continue
        err = sum(wi * (y - a - b * ui) ** 2 for wi, y, ui in zip(w, ys, u))
        if err < best[0]:
            best = (err, k, a, b)
    return best[1], best[2], best[3]


def slope(xs: list[float], ys: list[float]) -> float:
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    num = sum((a - mx) * (b - my) for a, b in zip(lx, ly))
    return num / sum((a - mx) ** 2 for a in lx)


def scaling_report(rows: list[Row], md: bool) -> tuple[list[str], dict[str, Any]]:
    start = find(rows, "start-up", "-", "start-up")
    start_cpu = start.median_cpu() if start else None
    points = []
    for r in rows:
        if r.group == "scaling" and r.tool == "corefscore" and r.median_cpu() is not None:
            points.append((float(r.mentions or 0), r.median_cpu() or 0.0))
    lines: list[str] = []
    fits: dict[str, Any] = {}
    if len(points) < 3:
        return ["Scaling: fewer than three sizes succeeded."], fits
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    fits["raw"] = slope(xs, ys)
    k, a, b = fit_power(xs, ys)
    fits["fit"] = {"k": k, "a": a, "b": b}
    tail = [(x, y) for x, y in points if x >= TAIL_FROM]
    if len(tail) >= 2:
        fits["tail"] = slope([x for x, _ in tail], [y for _, y in tail])
    if start_cpu is not None and all(y > start_cpu for y in ys):
        fits["net"] = slope(xs, [y - start_cpu for y in ys])
    say = (lambda s: f"- {s}") if md else (lambda s: s)
    lines.append(say(f"slope of log CPU vs log mentions, all sizes, raw: k = {fits['raw']:.3f}"))
    if "net" in fits:
        lines.append(say(f"same, start-up ({start_cpu:.3f} s) subtracted: k = {fits['net']:.3f}"))
    lines.append(say(f"fit CPU = a + b·n^k: k = {k:.3f}, a = {a:.3f} s, b = {b:.3g} s"))
    if "tail" in fits:
        share = (
            f" (start-up: {100 * start_cpu / tail[0][1]:.0f} % of 64k's CPU)" if start_cpu else ""
        )
        lines.append(say(f"slope over 64k..1M only{share}: k = {fits['tail']:.3f}"))
    # The same slope for the reader and for the floors (bare Python processes looping
    # over, or splitting, the same files' lines): how much of the growth is the
    # machine's own cost of touching more memory, which the floors pay as well.
    for tool, what in (
        ("parse-only", "the reader (parse-only)"),
        ("floor", "the floor (line loop)"),
        ("read+split", "reading and splitting"),
    ):
        works = [
            (float(r.mentions or 0), r.median_work() or 0.0)
            for r in rows
            if r.group == "scaling" and r.tool == tool and r.median_work()
            if (r.mentions or 0) >= TAIL_FROM
        ]
        if len(works) >= 2:
            fits[f"tail_{tool}"] = k_tool = slope([x for x, _ in works], [y for _, y in works])
            lines.append(say(f"slope over 64k..1M of {what}: k = {k_tool:.3f}"))
    verdict = "met" if k <= 1.05 else "NOT met"
    lines.append(say(f"exponent k = {k:.3f} (target ≤ 1.05): {verdict}"))
    # The reader's target, at every size of the series, against the floor.
    ratios = {
        r.corpus: paired_work_ratio(r, floor)
        for r in rows
        if r.group == "scaling" and r.tool == "parse-only"
        for floor in [find(rows, "scaling", r.corpus, "floor")]
        if floor is not None
    }
    known = {corpus: v for corpus, v in ratios.items() if v is not None}
    if known and not legacy_floor(rows):
        worst = max(known, key=lambda corpus: known[corpus])
        verdict = "met" if known[worst] <= 3 and len(known) == len(ratios) else "NOT met"
        lines.append(
            say(
                f"reader / floor (line loop) at every size, largest {known[worst]:.2f}× on "
                f"{worst} (target ≤ 3×): {verdict}"
            )
        )
    return lines, fits


def pathological_report(rows: list[Row], md: bool) -> list[str]:
    out = reading_report(rows, "pathological", md)
    start = find(rows, "start-up", "-", "start-up")
    start_cpu = (start.median_cpu() if start else None) or 0.0
    say = (lambda s: f"- {s}") if md else (lambda s: s)
    out.append("")
    for shape in SHAPES:
        small = find(rows, "pathological", f"{shape}_{PATHOLOGICAL_SIZES[0]}", "corefscore")
        big = find(rows, "pathological", f"{shape}_{PATHOLOGICAL_SIZES[-1]}", "corefscore")
        if small and big and small.median_cpu() and big.median_cpu():
            s, b = (small.median_cpu() or 0) - start_cpu, (big.median_cpu() or 0) - start_cpu
            grow = PATHOLOGICAL_SIZES[-1] / PATHOLOGICAL_SIZES[0]
            k = math.log(b / s) / math.log(grow) if s > 0 and b > 0 else math.nan
            out.append(
                say(f"{shape}: ×{grow:g} mentions → ×{b / s:.2f} CPU net of start-up (k = {k:.3f})")
            )
    return out


def plot(rows: list[Row], path: Path, fits: dict[str, Any]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        die("--plot needs matplotlib (pip install 'corefscore[plot]')")
    start = find(rows, "start-up", "-", "start-up")
    start_cpu = (start.median_cpu() if start else None) or 0.0
    fig, ax = plt.subplots(figsize=(7, 4.8))
    series: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        if r.group == "scaling" and r.median_cpu() is not None and r.tool not in FLOORS:
            value = r.median_cpu() if r.tool == "corefscore" else r.median_work()
            names = {"corefscore": "corefscore (total)", "parse-only": "corefscore: parse only"}
            series.setdefault(names[r.tool], []).append((float(r.mentions or 0), value or 0.0))
            if r.tool == "corefscore" and (value or 0) > start_cpu:
                series.setdefault("corefscore: total − start-up", []).append(
                    (float(r.mentions or 0), (value or 0) - start_cpu)
                )
        if r.group == "scaling-peers" and r.median_cpu() is not None:
            series.setdefault(r.tool, []).append((float(r.mentions or 0), r.median_cpu() or 0.0))
    styles = {"corefscore (total)": "o-", "corefscore: total − start-up": "o--"}
    styles["corefscore: parse only"] = "s:"
    for label, pts in series.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], styles.get(label, "^-"), label=label)
    ref = series.get("corefscore: total − start-up")
    if ref:
        x0, y0 = ref[-1]
        xs = [ref[0][0], x0]
        ax.plot(xs, [y0 * (x / x0) for x in xs], color="grey", lw=0.8, label="linear (slope 1)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("key mentions in one document")
    ax.set_ylabel("CPU s (median)")
    k = fits.get("fit", {}).get("k")
    title = "Single-document scaling"
    if k:
        title += f" (corefscore: CPU = a + b·n^k, k = {k:.2f})"
    ax.set_title(title)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def report(rows: list[Row], args: argparse.Namespace, info: list[str]) -> dict[str, Any]:
    md = args.markdown
    say = (lambda s: f"- {s}") if md else (lambda s: s)
    print("\n".join(say(line) for line in info), end="\n\n")
    start = find(rows, "start-up", "-", "start-up")
    if start and start.median_cpu() is not None:
        print(
            say(
                f"start-up (Python + import corefscore.scorer and numpy): "
                f"{start.median_cpu():.3f} CPU s"
            )
        )
        print()
    if any(r.group == "peers" for r in rows):
        print(
            "Peers (nosent variants of the corpora; CPU ratio = tool's median / corefscore's "
            "median; paired ratio = median over the rounds of tool / corefscore):\n"
        )
        print("\n".join(peers_report(rows, md)), end="\n\n")
    print(
        "corefscore reading (original corpora; parse-only and the floors: in-process CPU, "
        "both files; the reader's target is parse / floor ≤ 3):\n"
    )
    print("\n".join(reading_report(rows, "reading", md)), end="\n\n")
    fits: dict[str, Any] = {}
    if args.scaling:
        print("Single-document scaling series:\n")
        print("\n".join(reading_report(rows, "scaling", md)), end="\n\n")
        lines, fits = scaling_report(rows, md)
        print("\n".join(lines), end="\n\n")
        peer_rows = [r for r in rows if r.group == "scaling-peers"]
        if peer_rows:
            cells = [["corpus", "tool", "runs", "median CPU s", "status"]]
            for r in peer_rows:
                cells.append([r.corpus, r.tool, str(len(r.cpu)), fmt(r.median_cpu(), 2), r.status])
            print("Peers on the small sizes of the series (nosent):\n")
            print(table(cells, md, left=2), end="\n\n")
    if args.pathological:
        print("Pathological single documents:\n")
        print("\n".join(pathological_report(rows, md)), end="\n\n")
    own_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.from_json:
        # The run's own settings are in its "settings" line (or, for older files,
        # in the options the report is redone with): this process ran nothing.
        print(say("runs interleaved round-robin; see the settings line for the run's options"))
        return fits
    print(say(f"runs interleaved round-robin; timeout {args.timeout:g} s wall per run; a peer run"))
    print(f"  over {args.slow_after:g} CPU s is not repeated. Peak MB floor: {own_mb:.0f} MB.")
    return fits


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    opt = ap.add_argument
    opt("--perl-scorer", type=Path, help="path to the reference scorer.pl (v8.01)")
    opt("--coval", type=Path, help="path to a coval checkout (run with --peer-python)")
    opt(
        "--peer-python", help="interpreter with scorch, neleval, scipy (e.g. /tmp/peers/bin/python)"
    )
    opt("--python", default=sys.executable, help="interpreter that runs corefscore")
    opt("--corpora", default="a,b,c,d", help="subset of a,b,c,d (default: all)")
    opt("--perl-corpora", default="a,b", help="corpora for the Perl scorer (c needs ~100 GB)")
    opt("--repeat", type=int, default=5, help="runs per corefscore row, every size (default 5)")
    opt("--peer-repeat", type=int, default=5, help="runs per peer row (default 5)")
    opt(
        "--slow-after",
        type=float,
        default=15.0,
        help="a peer run above this CPU s is not repeated (default 15)",
    )
    opt("--timeout", type=float, default=600.0, help="wall seconds per run before 'timeout'")
    opt("--no-scaling", dest="scaling", action="store_false", help="skip the 1k..1M series")
    opt("--no-pathological", dest="pathological", action="store_false")
    opt("--skip-peers", action="store_true", help="corefscore rows only")
    opt("--peer-scaling-max", type=int, default=8000, help="largest series size for peers")
    opt(
        "--peer-scaling-cap", type=float, default=15.0, help="stop a peer's series after this CPU s"
    )
    opt("--regenerate", action="store_true", help="delete and regenerate the corpora first")
    opt("--markdown", action="store_true")
    opt("--json-out", type=Path, help="write every measurement as JSON")
    opt("--from-json", type=Path, help="print the report of a --json-out file; run nothing")
    opt("--plot", type=Path, help="write the log-log scaling plot (svg/png; needs matplotlib)")
    opt("--shared", type=Path, default=REPO.parent / "shared", help="default: <repo>/../shared")
    args = ap.parse_args()
    names = {c: n for n, c in SHORT.items()}
    picked = [p.strip() for p in args.corpora.split(",") if p.strip()]
    if any(p not in names for p in picked):
        ap.error("--corpora takes a comma-separated subset of a,b,c,d")
    args.corpora = [names[p] for p in picked]
    args.perl_corpora = {p.strip() for p in args.perl_corpora.split(",")}
    if args.repeat < 1 or args.peer_repeat < 1:
        ap.error("--repeat and --peer-repeat must be at least 1")
    return args


def load_rows(path: Path) -> tuple[list[str], list[Row]]:
    """Rows saved by --json-out, to print the report again (--from-json)."""
    data = json.loads(path.read_text())
    rows = []
    for r in data["rows"]:
        row = Row(r["group"], r["corpus"], r["tool"], lambda _: [], len(r["cpu"]), r["mentions"])
        row.cpu, row.peak_mb, row.work, row.status = r["cpu"], r["peak_mb"], r["work"], r["status"]
        rows.append(row)
    return list(data["info"]), rows


def main() -> None:
    args = parse_args()
    if args.from_json:
        info, rows = load_rows(args.from_json)
    else:
        peers = detect_peers(args)
        info = header(args, peers)
        for tool, why in peers.missing.items():
            print(f"{tool}: {why}", file=sys.stderr)
        CACHE.mkdir(parents=True, exist_ok=True)
        rows = build_rows(args, peers)
        run_all(rows, args)
        if args.json_out:  # saved before the report, which can then be redone from it
            save_rows(args.json_out, info, rows)
    args.scaling = args.scaling and any(r.group == "scaling" for r in rows)
    args.pathological = args.pathological and any(r.group == "pathological" for r in rows)
    fits = report(rows, args, info)
    if args.plot:
        plot(rows, args.plot, fits)


def save_rows(path: Path, info: list[str], rows: list[Row]) -> None:
    dump = {
        "info": info,
        "rows": [
            {
                "group": r.group,
                "corpus": r.corpus,
                "tool": r.tool,
                "mentions": r.mentions,
                "status": r.status,
                "cpu": r.cpu,
                "peak_mb": r.peak_mb,
                "work": r.work,
            }
            for r in rows
        ],
    }
    path.write_text(json.dumps(dump, indent=1) + "\n")


if __name__ == "__main__":
    main()
