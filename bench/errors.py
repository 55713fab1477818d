#!/usr/bin/env python3
"""Time ``corefscore analyze errors`` next to ``corefscore score`` on the same files.

The error analysis (Kummerfeld & Klein 2013) reads the key with its syntax, turns
the response into the key step by step and scores the corrected response after
each category; its target is at most 2× the time of ``corefscore score`` on
corpus (a). As fresh processes (CPU = user + sys from ``os.wait4``, peak MB =
ru_maxrss), interleaved, ``--runs`` rounds (default 5), the two commands'
order alternating each round; the ratio is taken per round and its median
reported. The corpora are bench/.corpora's (``python bench/run_bench.py``
generates them), or ``--pair KEY RESPONSE``. It only measures and prints.

    python bench/errors.py [--corpora a_conll12like,c_single_doc_20k] [--runs 5]
                           [--pair KEY RESPONSE] [--markdown]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
from pathlib import Path

from run_bench import CACHE, cpu_model, measure
from suite import table

COMMANDS = {
    "score": ["score"],
    "analyze errors": ["analyze", "errors", "-q"],
}


def run(python: str, args: list[str], key: Path, response: Path) -> tuple[float, float]:
    code, cpu, peak, stderr = measure([python, "-m", "corefscore", *args, str(key), str(response)])
    if code != 0:
        sys.exit(f"errors.py: {' '.join(args)} failed (exit {code}): {stderr.strip()[-500:]}")
    return cpu, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default="a_conll12like,c_single_doc_20k")
    parser.add_argument("--pair", nargs=2, metavar=("KEY", "RESPONSE"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package runs
    pairs: dict[str, tuple[Path, Path]] = {}
    if args.pair:
        pairs[Path(args.pair[1]).name] = (Path(args.pair[0]), Path(args.pair[1]))
    else:
        for name in args.corpora.split(","):
            key, response = CACHE / f"{name}.key", CACHE / f"{name}.response"
            if not key.exists():
                sys.exit(f"errors.py: {key} is missing; run bench/run_bench.py to generate it")
            pairs[name] = (key, response)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for name, (key, response) in pairs.items():  # one untimed warm-up run each
        for what, command in COMMANDS.items():
            run(args.python, command, key, response)
            times[(name, what)] = []
    for round_ in range(args.runs):
        for name, (key, response) in pairs.items():
            order = list(COMMANDS.items())
            if round_ % 2:
                order.reverse()
            for what, command in order:
                times[(name, what)].append(run(args.python, command, key, response))
    print(f"- date: {dt.datetime.now(dt.timezone.utc).isoformat(timespec='seconds')}")
    print(f"- machine: {platform.platform()}; {os.cpu_count()} CPUs ({cpu_model()})")
    print(f"- load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"- median of {args.runs} interleaved runs; ratio = per-round analysis / score")
    print()
    rows = [["corpus", "score CPU s", "analyze errors CPU s", "ratio", "peak MB (score / errors)"]]
    for name in pairs:
        score, errors = times[(name, "score")], times[(name, "analyze errors")]
        ratios = [e[0] / s[0] for s, e in zip(score, errors)]
        rows.append(
            [
                name,
                f"{statistics.median(c for c, _ in score):.3f}",
                f"{statistics.median(c for c, _ in errors):.3f}",
                f"{statistics.median(ratios):.3f}×",
                f"{statistics.median(p for _, p in score):.0f} / "
                f"{statistics.median(p for _, p in errors):.0f}",
            ]
        )
    print(table(rows, args.markdown))


if __name__ == "__main__":
    main()
