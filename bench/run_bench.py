#!/usr/bin/env python3
"""Benchmark the corefscore CLI on the synthetic CoNLL-2012 timing corpora.

Generates the corpora of ../shared/bench/GENERATE.sh (same generator, same
arguments) into bench/.corpora/ unless already there, then times
``PYTHON -m corefscore score KEY RESPONSE --format json`` (all default metrics)
in fresh processes, interleaved with a baseline ``PYTHON -c "import corefscore.scorer"``
(interpreter start-up plus the package with numpy: the fixed cost of every run).
Each run's CPU time (user+sys) and peak RSS come from os.wait4 on that child
alone. The table shows the medians next to the project's targets and the CPU
time of the official Perl scorer (../shared/spec/reference-scorer-timing.md).
It only measures and prints; it asserts nothing.

    python bench/run_bench.py [--corpora a,b,c,d] [--repeat N] [--scaling]
                              [--markdown] [--python PYTHON] [--shared PATH]
    python bench/run_bench.py --variants [--corpora a,b,c] [--repeat N] [--markdown]

``--variants`` instead times each metric variant, matching method and regime on
top of the seven default metrics, side by side with the default run on the same
corpus, and prints each one's CPU time as a ratio to the default (the target is
at most 2).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / "bench" / ".corpora"
EXTS = (".key", ".response", ".stats.json")
BASELINE = "baseline: import corefscore.scorer"
COLUMNS = ["corpus", "key mentions", "median CPU s", "median peak MB"]
COLUMNS += ["target CPU s", "meets target", "reference scorer CPU s"]
MEM_TARGET_MB = 300.0

# Generator arguments exactly as in ../shared/bench/GENERATE.sh (only --out differs).
SIZES = (1000, 2000, 4000, 8000)
CONLL12 = ["--seed", "4", "--docs", "348"]
ONE_DOC = ["--seed", "11", "--docs", "1", "--doc-len-sigma", "0", "--tokens-per-doc"]
GEN_ARGS: dict[str, list[str]] = {
    "a_conll12like": CONLL12,
    "b_conll12like_singletons": [*CONLL12, "--singletons-ratio", "1.0", "--response-singletons"],
    "c_single_doc_20k": [*ONE_DOC, "167000"],
    "d_10x": ["--seed", "4", "--docs", "3480"],
    # scaling series: --tokens-per-doc $(( n * 167000 / 20000 ))
    **{f"s_single_doc_{n}": [*ONE_DOC, str(n * 167000 // 20000)] for n in SIZES},
}
MAIN = {name[0]: name for name in list(GEN_ARGS)[:4]}  # a, b, c, d
SCALING = list(GEN_ARGS)[4:]

# corpus -> (target CPU s, memory target?, reference scorer CPU s, all 5 metrics + LEA),
# from ../shared/spec/reference-scorer-timing.md (Perl scorer v8.01 and its LEA branch).
TARGETS: dict[str, tuple[float, bool, str]] = {
    "a_conll12like": (0.5, False, "6.6 + LEA 0.4"),
    "b_conll12like_singletons": (0.8, False, "91.8"),
    "c_single_doc_20k": (1.0, True, "did not finish (>1200 s wall; BLANC alone ~100 GB)"),
    "d_10x": (4.0, True, "126 + LEA 6.5"),
}


@dataclass
class Series:
    """The command and measurements behind one table row."""

    cmd: list[str]
    repeat: int
    mentions: int | None = None
    cpu: list[float] = field(default_factory=list)
    peak_mb: list[float] = field(default_factory=list)
    failed: bool = False


def die(msg: str, code: int = 2) -> NoReturn:
    print(f"run_bench: error: {msg}", file=sys.stderr)
    sys.exit(code)


def ensure_corpus(name: str, generator: Path, gen_args: list[str] | None = None) -> Path:
    """Return the cache prefix of corpus `name`; generate it if a file is missing.

    `gen_args` default to the GENERATE.sh arguments of `name` (GEN_ARGS).
    """
    prefix = CACHE / name
    if all(Path(f"{prefix}{ext}").exists() for ext in EXTS):
        return prefix
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = CACHE / f"{name}.partial"
    print(f"generating {name} ...", file=sys.stderr, flush=True)
    cmd = [sys.executable, str(generator), "--out", str(tmp)]
    cmd += GEN_ARGS[name] if gen_args is None else gen_args
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        die(f"generator failed on {name} (exit {done.returncode}):\n{done.stderr}", 1)
    for ext in EXTS:  # publish complete corpora only
        Path(f"{tmp}{ext}").replace(f"{prefix}{ext}")
    return prefix


def key_mentions(prefix: Path) -> int:
    """All key mentions (coreferring + singletons), from the generator's stats."""
    stats = json.loads(Path(f"{prefix}.stats.json").read_text())
    return int(stats["key_coref_mentions"]) + int(stats["key_singletons"])


def measure(cmd: list[str]) -> tuple[int, float, float, str]:
    """Run `cmd`; return its exit code, CPU s (user+sys), peak RSS MB and stderr."""
    with tempfile.TemporaryFile() as err:
        out = subprocess.DEVNULL
        proc = subprocess.Popen(cmd, stdin=out, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)  # rusage of this child only
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    kib = usage.ru_maxrss / (1024 if sys.platform == "darwin" else 1)  # macOS: bytes
    return proc.returncode, usage.ru_utime + usage.ru_stime, kib / 1024, stderr


def cpu_model() -> str:
    info = Path("/proc/cpuinfo")
    lines = info.read_text().splitlines() if info.is_file() else []
    names = [ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("model name")]
    return names[0] if names else platform.processor() or platform.machine()


def header(python: str) -> list[str]:
    code = "import sys, corefscore; print(sys.version.split()[0])\n"
    code += "print(corefscore.__version__)"
    try:
        done = subprocess.run([python, "-c", code], check=False, capture_output=True)
    except OSError as exc:
        die(f"cannot run --python {python}: {exc}")
    if done.returncode != 0:
        hint = "install it (pip install -e .) or set PYTHONPATH=src"
        die(f"{python} cannot import corefscore; {hint}:\n{done.stderr.decode()}", 1)
    py_version, version = done.stdout.decode().split()[:2]
    now = dt.datetime.now().astimezone().isoformat(timespec="seconds")
    return [
        f"date:       {now}",
        f"machine:    {platform.platform()}; {os.cpu_count()} CPUs ({cpu_model()})",
        f"python:     {py_version} ({python})",
        f"corefscore: {version}",
    ]


def row(name: str, s: Series) -> list[str]:
    mentions = "-" if s.mentions is None else str(s.mentions)
    target_cpu, mem_target, ref = TARGETS.get(name, (math.nan, False, "-"))
    target = "-" if math.isnan(target_cpu) else f"≤{target_cpu:g}"
    if s.failed:
        return [name, mentions, "FAILED", "FAILED", target, "FAILED", ref]
    cpu, peak = statistics.median(s.cpu), statistics.median(s.peak_mb)
    missed = ["CPU"] if cpu > target_cpu else []
    if mem_target and peak > MEM_TARGET_MB:
        missed.append("mem")
    meets = "-" if target == "-" else f"no ({', '.join(missed)})" if missed else "yes"
    return [name, mentions, f"{cpu:.3f}", f"{peak:.1f}", target, meets, ref]


def render(rows: list[list[str]], markdown: bool) -> str:
    table = [COLUMNS, *rows]
    if markdown:
        table.insert(1, ["---", *["---:"] * 4, "---", "---"])  # right-align numbers
        return "\n".join("| " + " | ".join(r) + " |" for r in table)
    widths = [max(len(r[i]) for r in table) for i in range(len(COLUMNS))]
    table.insert(1, ["-" * w for w in widths])
    lines = []
    for r in table:  # text columns left-aligned, numbers right-aligned
        cells = zip(r, widths, strict=True)
        just = [c.ljust(w) if i in (0, 5, 6) else c.rjust(w) for i, (c, w) in enumerate(cells)]
        lines.append("  ".join(just).rstrip())
    return "\n".join(lines)


def loglog_slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(ys) against log(xs)."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    num = sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True))
    return num / sum((a - mx) ** 2 for a in lx)


def scaling_exponent(rows: list[Series], base: Series) -> str:
    """Fit CPU ~ mentions^k over the scaling series (also net of the baseline)."""
    ok = [s for s in rows if not s.failed]
    if len(ok) < 2:
        return "Scaling exponent: fewer than two s_single_doc_* rows succeeded."
    xs = [float(s.mentions or 1) for s in ok]
    ys = [statistics.median(s.cpu) for s in ok]
    text = f"Scaling exponent (CPU ~ mentions^k, s_single_doc_*): k = {loglog_slope(xs, ys):.2f}"
    net = [y - statistics.median(base.cpu) for y in ys]
    if not base.failed and min(net) > 0:
        text += f"; {loglog_slope(xs, net):.2f} after subtracting the baseline"
    return text


def parse_corpora(text: str) -> list[str]:
    names = [MAIN.get(p.strip(), p.strip()) for p in text.split(",") if p.strip()]
    for name in names:
        if name not in MAIN.values():
            raise argparse.ArgumentTypeError(f"unknown corpus {name!r} (use a,b,c,d)")
    return names


# Each row adds one thing to the default run (all seven metrics).
VARIANT_METRICS = (
    "ceaf-phi1",
    "ceaf-phi2",
    "bcub-all",
    "bcub-0",
    "bcub-sys",
    "ceafm-sys",
    "ceafe-sys",
    "blanc-luo2014",
    "lea-uniform",
)
VARIANT_ROWS: dict[str, list[str]] = {
    "default: 7 metrics": [],
    **{f"+ {m}": ["-m", f"all,{m}"] for m in VARIANT_METRICS},
    "+ all 9 variants above": ["-m", ",".join(("all", *VARIANT_METRICS))],
    "--match head (parse column)": ["--match", "head"],
    "--match min-span (no MIN: exact)": ["--match", "min-span", "-q"],
    "--match overlap": ["--match", "overlap"],
    "--singletons drop": ["--singletons", "drop"],
    "--gold-mentions": ["--gold-mentions"],
    "--anaphoric-only": ["--anaphoric-only"],
    "--remove-nested": ["--remove-nested"],
    "--regimes (5 scorings)": ["--regimes"],
}
VARIANT_NOTE = (
    "Not timed: blanc-gold (needs equal mention sets; the corpora's differ) and ace-value "
    "(needs entity types and mention levels, which CoNLL files do not carry)."
)


def run_variants(args: argparse.Namespace, generator: Path, info: list[str]) -> None:
    """Time every variant row against the default row, corpus by corpus, interleaved."""
    corpora = (
        args.corpora
        if args.corpora_given
        else ["a_conll12like", "b_conll12like_singletons", "c_single_doc_20k"]
    )
    repeat = args.repeat or 5
    series: dict[tuple[str, str], Series] = {}
    for corpus in corpora:
        prefix = ensure_corpus(corpus, generator)
        for label, extra in VARIANT_ROWS.items():
            cmd = [args.python, "-m", "corefscore", "score", f"{prefix}.key"]
            cmd += [f"{prefix}.response", "--format", "json", *extra]
            series[(corpus, label)] = Series(cmd, repeat, key_mentions(prefix))
    for i in range(repeat):
        for (corpus, label), s in series.items():
            if s.failed:
                continue
            print(f"run {i + 1}/{repeat} {corpus} {label}", file=sys.stderr, flush=True)
            code, cpu, peak, stderr = measure(s.cmd)
            if code != 0:
                s.failed = True
                print(f"FAILED {corpus} {label} (exit {code}):\n{stderr}", file=sys.stderr)
            s.cpu.append(cpu)
            s.peak_mb.append(peak)
    columns = ["variant"]
    for corpus in corpora:
        columns += [f"{corpus[0]}: CPU s", f"{corpus[0]}: ratio"]
    rows = []
    for label in VARIANT_ROWS:
        cells = [label]
        for corpus in corpora:
            s, base = series[(corpus, label)], series[(corpus, "default: 7 metrics")]
            if s.failed or base.failed:
                cells += ["FAILED", "-"]
                continue
            cpu = statistics.median(s.cpu)
            cells += [f"{cpu:.3f}", f"{cpu / statistics.median(base.cpu):.2f}"]
        rows.append(cells)
    print("\n".join(f"- {line}" if args.markdown else line for line in info), end="\n\n")
    table = [columns, *rows]
    if args.markdown:
        table.insert(1, ["---", *["---:"] * (len(columns) - 1)])
        print("\n".join("| " + " | ".join(r) + " |" for r in table))
    else:
        widths = [max(len(r[i]) for r in table) for i in range(len(columns))]
        table.insert(1, ["-" * w for w in widths])
        for r in table:
            cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
            print("  ".join(cells).rstrip())
    print()
    print(f"Median CPU s (user+sys) of {repeat} interleaved runs per cell, fresh process, both")
    print("files read; ratio = row / default row on the same corpus (target: <= 2).")
    print(VARIANT_NOTE)
    if any(s.failed for s in series.values()):
        sys.exit(1)


FORMAT_CODE = """
import json, statistics, sys, time
from corefscore.io import read_corpus
fmt, key, response, repeat = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
times = []
for _ in range(repeat):
    start = time.process_time()
    read_corpus(key, format=fmt, side="key")
    read_corpus(response, format=fmt, side="response")
    times.append(time.process_time() - start)
print(json.dumps(times))
"""


def run_formats(args: argparse.Namespace, info: list[str]) -> None:
    """Time reading the GUM test pair in every format, against the CoNLL-2012 reader."""
    pairs = args.shared / "data" / "real" / "gum" / "pairs"
    conll = (pairs / "test.key_gum.conll", pairs / "test.resp_xrenner.conll")
    conllu = (pairs / "test.key_gum.conllu", pairs / "test.resp_xrenner.conllu")
    if not all(p.is_file() for p in (*conll, *conllu)):
        die(f"GUM test pair not found under {pairs}; pass --shared PATH")
    repeat = args.repeat or 7
    with tempfile.TemporaryDirectory() as tmp:
        files: dict[str, tuple[Path, Path]] = {"conll": conll, "conllu": conllu}
        for fmt, ext in (("jsonl", "jsonl"), ("json", "json")):
            converted = []
            for source in conll:
                target = Path(tmp) / f"{source.stem}.{ext}"
                cmd = [args.python, "-m", "corefscore", "convert", str(source), str(target)]
                subprocess.run([*cmd, "--to", fmt, "-q"], check=True)
                converted.append(target)
            files[fmt] = (converted[0], converted[1])
        results: dict[str, list[float]] = {}
        for fmt, (key, response) in files.items():
            cmd = [args.python, "-c", FORMAT_CODE, fmt, str(key), str(response), str(repeat)]
            done = subprocess.run(cmd, check=True, capture_output=True, text=True)
            results[fmt] = json.loads(done.stdout)
    base = statistics.median(results["conll"])
    print("\n".join(f"- {line}" if args.markdown else line for line in info), end="\n\n")
    rows = [["format", "median CPU s (key + response)", "ratio to conll"]]
    for fmt, times in results.items():
        cpu = statistics.median(times)
        rows.append([fmt, f"{cpu:.3f}", f"{cpu / base:.2f}"])
    if args.markdown:
        rows.insert(1, ["---", "---:", "---:"])
        print("\n".join("| " + " | ".join(r) + " |" for r in rows))
    else:
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        for r in rows:
            print(
                "  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:]))])
            )
    print()
    print("Reading only (no scoring), GUM test pair (30 documents, 28,397 tokens), in one process")
    print(f"per format, median of {repeat} reads; jsonl and json converted from the CoNLL files.")
    print("No real MUC SGML data is available, so sgml is not timed. Target: ratio <= 2.")


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    opt = ap.add_argument
    opt("--corpora", type=parse_corpora, help="subset (default: a,b,c,d; a,b,c with --variants)")
    opt("--repeat", type=int, help="runs per corpus (default 5)")
    opt("--scaling", action="store_true", help="also time s_single_doc_*, fit the exponent")
    opt("--markdown", action="store_true", help="print the table as Markdown")
    opt("--variants", action="store_true", help="time metric variants, matchings and regimes")
    opt("--formats", action="store_true", help="time reading the GUM test pair in each format")
    opt("--python", default=sys.executable, help="interpreter/venv to time (default: this)")
    opt("--shared", type=Path, default=REPO.parent / "shared", help="default: <repo>/../shared")
    args = ap.parse_args()
    if args.repeat is not None and args.repeat < 1:
        ap.error("--repeat must be at least 1")
    args.corpora_given = args.corpora is not None
    if args.corpora is None:
        args.corpora = list(MAIN.values())
    return args


def main() -> None:
    args = parse_args()
    if args.formats:
        run_formats(args, header(args.python))
        return
    generator = args.shared / "bench" / "gen_conll.py"
    if not generator.is_file():
        die(f"corpus generator not found: {generator}; pass --shared PATH (folder with bench/)")
    info = header(args.python)
    if args.variants:
        run_variants(args, generator, info)
        return
    series: dict[str, Series] = {}
    for name in dict.fromkeys(args.corpora + (SCALING if args.scaling else [])):
        prefix = ensure_corpus(name, generator)
        repeat = args.repeat or 5
        cmd = [args.python, "-m", "corefscore", "score", f"{prefix}.key"]
        cmd += [f"{prefix}.response", "--format", "json"]
        series[name] = Series(cmd, repeat, key_mentions(prefix))
    runs = max(s.repeat for s in series.values())
    # Same start-up as the CLI, which keeps BLAS single-threaded before numpy loads.
    startup = (
        "from corefscore.cli import _single_threaded_numerics as s, keep_freed_memory as k; "
        "s(); import corefscore.scorer; k()"
    )
    base = Series([args.python, "-c", startup], runs)

    # Round-robin over all rows, so slow drifts of the machine's load hit them alike.
    for i in range(runs):
        for name, s in [(BASELINE, base), *series.items()]:
            if i >= s.repeat or s.failed:
                continue
            print(f"run {i + 1}/{s.repeat} {name}", file=sys.stderr, flush=True)
            code, cpu, peak, stderr = measure(s.cmd)
            if code != 0:
                s.failed = True
                print(f"FAILED {name} (exit {code}):\n{stderr}", file=sys.stderr)
            s.cpu.append(cpu)
            s.peak_mb.append(peak)

    print("\n".join(f"- {line}" if args.markdown else line for line in info), end="\n\n")
    rows = [row(BASELINE, base), *(row(n, s) for n, s in series.items())]
    print(render(rows, args.markdown), end="\n\n")
    common = statistics.mode(s.repeat for s in series.values())
    odd = "".join(f", {n} {s.repeat}" for n, s in series.items() if s.repeat != common)
    own_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Runs per row: {common}{odd}; baseline {base.repeat}; interleaved. CPU = user+sys.")
    print(f"Peak MB floor: a child inherits this harness's peak RSS ({own_mb:.0f} MB).")
    print(f"Meets target: CPU ≤ target; on c and d also peak ≤ {MEM_TARGET_MB:g} MB.")
    print("Reference: official Perl scorer v8.01, all 5 metrics (+ LEA branch), from")
    print("../shared/spec/reference-scorer-timing.md (2-vCPU machine, CPU s).")
    if args.scaling:
        print(scaling_exponent([series[n] for n in SCALING], base))
    if base.failed or any(s.failed for s in series.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
