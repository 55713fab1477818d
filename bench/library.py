#!/usr/bin/env python3
"""Time corefscore as a library in a training loop, and the small-input start-up.

In one process, on seeded random documents (clusters of ``(start, end)`` spans as
a model emits them, 1-4 mentions per cluster, nested spans allowed):

* ``CorefScorer.update`` with the seven default metrics on documents of 50 key
  mentions, the response a copy with a model's errors (``pairs``), per call;
  next to it, in the same run, a hand-written pure-Python B³ on the same
  documents (the floor: what scoring one metric costs with no checking at all)
  and ``update`` with B³ alone; the target is update ≤ 4× the floor; and two
  of update's parts: the list table of the clusters alone (checked as ``update``
  checks them), and CEAFm with CEAFe on such tables;
* ``corefscore.score`` on one document of 10 and of 50 mentions per side, per call;
* the list and the array formulas side by side on one document of 25 to 4,000
  key mentions (``corefscore.engines.objects.LIST_MENTIONS`` is where the
  list formulas stop: their time must stay below the arrays' up to there).

Each row is the median of ``--runs`` rounds (default 7), rows interleaved
within a round; a round times ``--calls`` calls (default 500) and divides. A row's
ratio is the median of its rounds' ratios (each round's time over the floor's, or
the import's, in the same round).

Then, as fresh processes (CPU = user + sys from ``os.wait4``, median of
``--startup-runs``, default 31, interleaved): ``python -c "import corefscore"``,
``python -c "import numpy"``, and ``corefscore score KEY RESPONSE`` on a
two-document CoNLL file written here, as the installed command (the console script
beside this Python, when there is one) and as ``python -m corefscore``; the target
is the command within 1.5× the import. A process of 20-60 ms moves by a tenth
from round to round on a shared virtual machine, hence the many rounds; where
valgrind is installed, each command's instructions are also counted once
(callgrind: the same count on every run, whatever the load), a figure beside the
CPU that the noise does not move.

It only measures and prints.

    python bench/library.py [--runs 7] [--calls 500] [--startup-runs 31] [--markdown]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from run_bench import cpu_model
from suite import table

Clusters = list[list[tuple[int, int]]]


def clusters(rng: random.Random, mentions: int) -> Clusters:
    """``mentions`` distinct spans over about 8 tokens per mention, in random clusters of 1-4."""
    tokens = 8 * mentions
    spans: set[tuple[int, int]] = set()
    while len(spans) < mentions:
        start = rng.randrange(tokens)
        spans.add((start, start + rng.randrange(3)))
    ordered = sorted(spans)
    rng.shuffle(ordered)
    out: Clusters = []
    i = 0
    while i < len(ordered):
        size = rng.randint(1, 4)
        out.append(ordered[i : i + size])
        i += size
    return out


def pairs(seed: int, mentions: int, count: int) -> list[tuple[Clusters, Clusters]]:
    """Key and response of ``count`` documents; the response is the key with a model's
    errors: about 15% of the mentions dropped, 10% moved to another cluster, one
    cluster in ten merged into another, and 15% more mentions that the key lacks."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        key = clusters(rng, mentions)
        taken = {span for cluster in key for span in cluster}
        response = [[s for s in cluster if rng.random() > 0.15] for cluster in key]
        for cluster in response:
            for span in list(cluster):
                if rng.random() < 0.1 and len(response) > 1:
                    cluster.remove(span)
                    rng.choice(response).append(span)
        for i in range(len(response)):
            if rng.random() < 0.1 and len(response) > 1:
                j = rng.randrange(len(response))
                if j != i:
                    response[j].extend(response[i])
                    response[i] = []
        extra = [s for c in clusters(rng, mentions) for s in c if s not in taken]
        for span in extra[: int(0.15 * mentions)]:
            if rng.random() < 0.5 or not response:
                response.append([span])
            else:
                rng.choice(response).append(span)
        out.append((key, [cluster for cluster in response if cluster]))
    return out


def bcub_floor(key: Clusters, response: Clusters) -> tuple[float, float, float, float]:
    """B³ by hand: entity of each span on each side, overlaps, then the two sums."""
    key_of = {span: i for i, c in enumerate(key) for span in c}
    response_of = {span: j for j, c in enumerate(response) for span in c}
    key_sizes = [len(c) for c in key]
    response_sizes = [len(c) for c in response]
    shared: dict[tuple[int, int], int] = {}
    for span, i in key_of.items():
        j = response_of.get(span)
        if j is not None:
            shared[(i, j)] = shared.get((i, j), 0) + 1
    recall = precision = 0.0
    for span, j in response_of.items():
        owner = key_of.get(span)
        if owner is not None:
            n = shared[(owner, j)]
            recall += n / key_sizes[owner]
            precision += n / response_sizes[j]
    return recall, float(sum(key_sizes)), precision, float(sum(response_sizes))


def per_call(function: Callable[[Any, Any], object], docs: list[Any], calls: int) -> float:
    """Seconds per call, over ``calls`` calls cycling through ``docs``."""
    todo = (docs * (calls // len(docs) + 1))[:calls]
    start = time.perf_counter()
    for key, response in todo:
        function(key, response)
    return (time.perf_counter() - start) / calls


def library_rows(runs: int, calls: int) -> list[list[str]]:
    import corefscore
    from corefscore.contingency import build_table, clusters_list_table, list_table
    from corefscore.engines import objects
    from corefscore.model import document_from_clusters

    fifty = pairs(1, 50, 100)
    ten = pairs(2, 10, 100)
    scorer = corefscore.CorefScorer()
    bcub = corefscore.CorefScorer(metrics=["bcub"])

    def updating(target: Any) -> Callable[[Clusters, Clusters], None]:
        """``target.update``, with a reset every 10,000 calls: a scorer holds every
        document's statistics (counted here: ``document_statistics`` copies the
        state, too slow to ask on every call)."""
        held = [0]

        def update(key: Clusters, response: Clusters) -> None:
            held[0] += 1
            if held[0] > 10_000:
                target.reset()
                held[0] = 0
            target.update(key, response)

        return update

    update, update_bcub = updating(scorer), updating(bcub)

    def score(key: Clusters, response: Clusters) -> None:
        corefscore.score({"d": key}, {"d": response})

    evaluation = scorer.evaluation
    sized: dict[int, list[tuple[Any, Any]]] = {}
    for n in (25, 100, 400, 1000, 2000, 4000):
        sized[n] = [
            (document_from_clusters("d", k, side="key"), document_from_clusters("d", r, side="r"))
            for k, r in pairs(n, n, 3)
        ]

    def by_lists(key: Any, response: Any) -> None:
        lists = list_table(key, response)
        assert lists is not None
        for metric in evaluation.metrics:
            assert metric.list_statistics is not None
            metric.list_statistics(lists)

    def by_arrays(key: Any, response: Any) -> None:
        table = build_table(key, response)
        for metric in evaluation.metrics:
            metric.statistics(table)

    def tabulating(key: Clusters, response: Clusters) -> None:
        clusters_list_table(key, response, objects.LIST_MENTIONS)

    tables = [(clusters_list_table(k, r, objects.LIST_MENTIONS), None) for k, r in fifty]
    ceafs = [m for m in evaluation.metrics if m.name in ("ceafm", "ceafe")]

    def aligning(table: Any, _: object) -> None:
        table.memo.clear()  # what the two share (the components), found afresh
        for metric in ceafs:
            metric.list_statistics(table)

    jobs: dict[str, tuple[Callable[[Any, Any], object], list[Any], int]] = {
        "floor: B³ by hand, 50 mentions": (bcub_floor, fifty, calls),
        "CorefScorer.update, B³ only, 50 mentions": (update_bcub, fifty, calls),
        "CorefScorer.update, 7 metrics, 50 mentions": (update, fifty, calls),
        "update's part: the table (checked clusters to lists)": (tabulating, fifty, calls),
        "update's part: CEAFm + CEAFe on that table": (aligning, tables, calls),
        "score(), one document, 10 mentions": (score, ten, calls),
        "score(), one document, 50 mentions": (score, fifty, calls),
    }
    for n, docs in sized.items():
        reps = max(3, calls * 50 // (n * 4))
        jobs[f"7 metrics by lists, {n} mentions"] = (by_lists, docs, reps)
        jobs[f"7 metrics by arrays, {n} mentions"] = (by_arrays, docs, reps)
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for function, docs, n in jobs.values():  # warm-up
        per_call(function, docs, max(10, n // 10))
    for _ in range(runs):
        for name, (function, docs, n) in jobs.items():
            times[name].append(per_call(function, docs, n))
    floor = times["floor: B³ by hand, 50 mentions"]
    rows = []
    for name in jobs:
        value = statistics.median(times[name])
        rows.append([name, f"{value * 1e6:.1f}", f"{paired(times[name], floor):.2f}×"])
    print(f"list formulas up to LIST_MENTIONS = {objects.LIST_MENTIONS} mentions (both sides)")
    return rows


def cpu_of(command: list[str], env: dict[str, str]) -> float:
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"failed: {' '.join(command)}: {err.decode(errors='replace')[:300]}")
    return usage.ru_utime + usage.ru_stime


def instructions_of(command: list[str], env: dict[str, str]) -> int | None:
    """The instructions ``command`` executes (callgrind), or None without valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    child = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", child.stderr)
    return int(found.group(1)) if found and child.returncode == 0 else None


def startup_rows(runs: int) -> list[list[str]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    folder = Path(tempfile.mkdtemp(prefix="corefscore-bench-"))
    key, response = folder / "key.conll", folder / "response.conll"
    text = "".join(
        f"#begin document ({d}); part 000\n{d}\t0\t0\tJohn\t(0)\n{d}\t0\t1\tsaw\t-\n"
        f"{d}\t0\t2\thim\t(0)\n\n#end document\n"
        for d in ("a", "b")
    )
    key.write_text(text)
    response.write_text(text.replace("him\t(0)", "him\t(1)"))
    python = sys.executable
    commands = {
        "python -c pass": [python, "-c", "pass"],
        'python -c "import corefscore"': [python, "-c", "import corefscore"],
        'python -c "import numpy"': [python, "-c", "import numpy"],
    }
    # The command the issue names, as installed next to this Python (a console
    # script, where a user types it), and the same through runpy: -m loads runpy
    # and three importlib modules more.
    script = Path(python).with_name("corefscore")
    if script.is_file():
        commands["corefscore score (two documents)"] = [
            str(script),
            "score",
            str(key),
            str(response),
        ]
    commands["python -m corefscore score (two documents)"] = [
        python,
        "-m",
        "corefscore",
        "score",
        str(key),
        str(response),
    ]
    for command in commands.values():  # warm-up: bytecode cached, as installed
        cpu_of(command, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(cpu_of(command, env))
    base = times['python -c "import corefscore"']
    counts = {name: instructions_of(command, env) for name, command in commands.items()}
    import_count = counts['python -c "import corefscore"']
    rows = []
    for name, v in times.items():
        count = counts[name]
        rows.append(
            [
                name,
                f"{statistics.median(v) * 1000:.1f}",
                f"{paired(v, base):.2f}×",
                "-" if count is None else f"{count / 1e6:.1f}",
                "-" if count is None or not import_count else f"{count / import_count:.3f}×",
            ]
        )
    return rows


def paired(values: list[float], base: list[float]) -> float:
    """The median over the rounds of each round's value over the base's in that round
    (issue 17's "paired medians": what drifts between rounds cancels)."""
    return statistics.median(v / b for v, b in zip(values, base))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--startup-runs", type=int, default=31)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    import corefscore

    print(f"- date: {dt.datetime.now(dt.timezone.utc).isoformat(timespec='seconds')}")
    print(f"- machine: {platform.platform()}; {os.cpu_count()} CPUs ({cpu_model()})")
    print(f"- python: {platform.python_version()}; corefscore {corefscore.__version__}")
    print(f"- load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    rows = library_rows(args.runs, args.calls)
    print(
        f"In one process, median of {args.runs} rounds; ratio to the B³ floor: the median "
        "of the rounds' ratios:\n"
    )
    print(table([["what", "µs per call", "÷ floor"], *rows], args.markdown))
    print()
    rows = startup_rows(args.startup_runs)
    print(
        f"Fresh processes, median CPU of {args.startup_runs} interleaved runs; ratio to the "
        "import: the median of the rounds' ratios; instructions: callgrind's count, once:\n"
    )
    header = ["command", "CPU ms", "÷ import corefscore", "instructions (M)", "÷ import"]
    print(table([header, *rows], args.markdown))
    print(f"\n- load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
