#!/usr/bin/env python3
"""Time the Universal Anaphora evaluation: reading, and scoring without the reading.

Generates UA CoNLL-U Plus key/response pairs (seeded, in bench/.corpora/ua/):
documents of ``--doc-markables`` markables each, a share ``--plurals`` of the
entities plural (a split antecedent of two or three earlier entities; default
2%, four times GUM's share, plus a stress row at 10%), one markable in twenty
non-referring, one in ten a bridging anaphor; the response relabels and drops
markables and changes split antecedents. For each size (default 25k, 50k, 100k
and 200k markables) and one long single document, it reports, in this process:
the median of ``--runs`` times of reading both files, and of scoring the read
corpora: the default metrics (what ``corefscore score`` computes), the same with
the four anaphora scores, and ``--compat ua``. The first is the parse-free time
the target of issue 19 names ("a 100k-markable UA file scores in well under a
second"); the time per markable, constant across sizes, shows linear scaling.
It only measures and prints.

    python bench/ua.py [--sizes 25000,50000,100000,200000] [--plurals 0.02] [--runs 5]
                       [--markdown]
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from run_bench import CACHE, cpu_model
from suite import table

T = TypeVar("T")

HEADER = (
    "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
    "BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM"
)


def document(
    base: random.Random, side: random.Random, name: str, markables: int, plurals: float
) -> list[str]:
    """One document's lines: a markable on about every other token. ``base`` draws
    the key (the same for both sides), ``side`` the response's changes (none for
    the key)."""
    response = side is not base
    entities = max(2, markables // 4)
    plural_of: dict[int, list[int]] = {}
    for e in range(entities):
        if e > 3 and base.random() < plurals:
            plural_of[e] = base.sample(range(e), base.choice((2, 2, 3)))
    element_of: dict[int, list[int]] = {}
    for plural, members in plural_of.items():
        for m in members:
            element_of.setdefault(m, []).append(plural)
    first_seen: set[int] = set()
    lines = [f"# newdoc id = {name}", f"# sent_id = {name}-1"]
    count = 0
    for t in range(1, 2 * markables + 1):
        cell = bridge = "_"
        if base.random() < 0.5:
            count += 1
            e = base.randrange(entities)
            pseudo = base.random() < 0.05
            anchor = base.randrange(1, count) if count > 1 else 0
            bridged = anchor and base.random() < 0.1
            if response and side.random() < 0.2:
                e = side.randrange(entities)
            if not (response and side.random() < 0.1):
                label = f"{e}-Pseudo" if pseudo else str(e)
                extra = ""
                if e in element_of and e not in first_seen and not pseudo:
                    plurals = element_of[e]
                    if response and side.random() < 0.3:
                        plurals = plurals[:1]
                    # A plural's id is above its members': never a cycle.
                    plurals = [p for p in plurals if p > e]
                    if plurals:
                        extra = "|ElementOf=" + ",".join(map(str, plurals))
                    first_seen.add(e)
                cell = f"(EntityID={label}|MarkableID=m{count}{extra})"
                if bridged:
                    bridge = f"(MarkableID=m{count}|MentionAnchor=m{anchor})"
        lines.append("\t".join([str(t), f"w{t}", *["_"] * 8, cell, bridge, "_", "_", "_"]))
    lines.append("")
    return lines


def generate(total: int, per_document: int, seed: int, plurals: float) -> tuple[Path, Path]:
    folder = CACHE / "ua"
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / f"ua_{total}_{per_document}_{plurals:g}.key"
    response = folder / f"ua_{total}_{per_document}_{plurals:g}.sys"
    if key.exists() and response.exists():
        return key, response
    for path, is_response in ((key, False), (response, True)):
        lines = [HEADER]
        for d in range(max(1, total // per_document)):
            base = random.Random(seed * 100_003 + d)
            side = random.Random(seed * 100_003 + d + 0.5) if is_response else base
            lines += document(base, side, f"doc{d}", per_document, plurals)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return key, response


def median_time(runs: int, work: Callable[[], T]) -> tuple[float, T]:
    """The median CPU seconds of ``runs`` calls of ``work`` (GC off), and its result."""
    times = []
    result: Any = None
    for _ in range(runs):
        gc.collect()
        gc.disable()
        start = time.process_time()
        result = work()
        times.append(time.process_time() - start)
        gc.enable()
    return statistics.median(times), result


def read_pair(key: Path, response: Path) -> tuple[Any, Any]:
    from corefscore.io import read_corpus

    return read_corpus(key), read_corpus(response, side="response")


def main() -> None:
    from corefscore.evaluation import Evaluation
    from corefscore.pipeline import evaluate

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="25000,50000,100000,200000")
    parser.add_argument("--doc-markables", type=int, default=1000)
    parser.add_argument("--long", type=int, default=20000, help="markables of the one-document run")
    parser.add_argument("--plurals", type=float, default=0.02)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    cases = [(int(n), args.doc_markables, args.plurals) for n in args.sizes.split(",")]
    cases.append((args.long, args.long, args.plurals))
    cases.append((100_000, args.doc_markables, 0.1))
    runs = {
        "defaults": {},
        "+ anaphora": {"metrics": "all,non-referring,bridging"},
        "--compat ua": {"compat": "ua"},
    }
    rows = [
        [
            "markables",
            "documents",
            "plurals",
            "read s",
            *(f"score s ({name})" for name in runs),
            "µs per markable",
            "CoNLL F1",
        ]
    ]
    for total, per_document, plurals in cases:
        key_path, response_path = generate(total, per_document, seed=total, plurals=plurals)
        sides = median_time(args.runs, partial(read_pair, key_path, response_path))
        read_s, (key, response) = sides
        results: dict[str, float] = {}
        timings = []
        for name, options in runs.items():
            seconds, result = median_time(
                args.runs, partial(evaluate, key, response, Evaluation.create(**options))
            )
            results[name] = result.conll or 0.0
            timings.append(seconds)
        markables = sum(d.mention_count + len(d.non_referring) for d in key)
        rows.append(
            [
                f"{markables:,}",
                str(len(key)),
                f"{plurals:.0%}",
                f"{read_s:.3f}",
                *(f"{t:.3f}" for t in timings),
                f"{timings[0] / markables * 1e6:.2f}",
                f"{results['defaults'] * 100:.2f}",
            ]
        )
    print(f"- date: {dt.datetime.now(dt.timezone.utc).isoformat(timespec='seconds')}")
    print(f"- machine: {platform.platform()}; {os.cpu_count()} CPUs ({cpu_model()})")
    print(f"- load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"- CPU seconds in one process, median of {args.runs}")
    print()
    print(table(rows, markdown=args.markdown))


if __name__ == "__main__":
    main()
