#!/usr/bin/env python3
"""Where the CoNLL reader's time goes, part by part, next to issue 17's floor.

For each file, in a fresh process (numpy and the reader's modules imported, the
command's allocator setting made and the garbage collector off, as
``corefscore score`` reads): the file read once cold, then ``--runs`` rounds of
the reader and of the floor (``for line in handle: pass``, in binary), rows
interleaved, in CPU time (``time.process_time``, as ``suite.py`` times the reader
inside its process). The reader's time is split by timing its steps where they
are called (a wrapper each; a few hundred calls a file, a microsecond each):

* ``lines and fields``: ``conll_arrays._Block``, the newlines, field edges and
  token lines of each block, found by array operations over every byte;
* ``forms digest``: ``FormsDigest.add_lines``, the words gathered and hashed;
* ``brackets``: ``conll_arrays._block_items``, the coreference fields' items;
* ``pairing``: ``conll_arrays._mention_arrays``, the brackets paired and the
  mentions grouped by entity, by sorting;
* ``objects``: the rest of ``conll_arrays._corpus``, the documents' Python
  tuples and strings (spans, labels, source lines);
* ``other``: what is left (reading the blocks, the document lines, the calls).

Each part is the median of the rounds, as a share of the reader's median and
in nanoseconds per byte of the file. The cold read is the process's first:
its page faults (fresh memory, a few microseconds each on a virtual machine)
and first calls are what a one-file command pays beyond the steady rounds.
It only measures and prints.

    python bench/reader_parts.py [FILE ...] [--runs 7] [--markdown]

Without files: the benchmark corpora that ``suite.py`` generated into
``bench/.corpora`` (one document of 1k, 16k and 256k mentions, corpora (a) and (b)).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from run_bench import cpu_model
from suite import table

CORPORA = Path(__file__).resolve().parent / ".corpora"
DEFAULT_FILES = (
    "s_single_doc_1000",
    "s_single_doc_16000",
    "s_single_doc_256000",
    "a_conll12like",
    "b_conll12like_singletons",
)
PARTS = ("lines and fields", "forms digest", "brackets", "pairing", "objects", "other")

# Run in a fresh process per file; prints one JSON object.
CHILD = r"""
import gc, json, resource, statistics, sys, time
from corefscore.cli import _single_threaded_numerics, keep_freed_memory
_single_threaded_numerics()
from corefscore.io import read_corpus
keep_freed_memory()
import numpy
import corefscore.io.conll as conll
import corefscore.io.conll_arrays as arrays
gc.disable()
path, runs = sys.argv[1], int(sys.argv[2])
spent = {}

def timed(owner, name, part):
    function = getattr(owner, name)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[part] = spent.get(part, 0.0) + time.process_time() - start
    setattr(owner, name, wrapper)

timed(arrays, "_Block", "lines and fields")
timed(conll.FormsDigest, "add_lines", "forms digest")
timed(arrays, "_block_items", "brackets")
timed(arrays, "_mention_arrays", "pairing")
timed(arrays, "_corpus", "corpus")
handed_back = []
by_arrays = arrays.read_by_arrays

def watched(*args, **kwargs):
    found = by_arrays(*args, **kwargs)
    if found is None:
        handed_back.append(True)
    return found

arrays.read_by_arrays = watched

def read():
    spent.clear()
    start = time.process_time()
    corpus = read_corpus(path, format="conll", side="key")
    total = time.process_time() - start
    if "lines and fields" not in spent or handed_back:
        sys.exit("not read by the array reader alone (too small, or a layout it leaves)")
    parts = dict(spent)
    parts["objects"] = parts.pop("corpus") - parts["pairing"]
    parts["other"] = total - sum(parts.values())
    parts["total"] = total
    return corpus, parts

def floor():
    start = time.process_time()
    with open(path, "rb") as handle:
        for line in handle:
            pass
    return time.process_time() - start

faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
corpus, cold = read()
cold["faults"] = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
mentions = sum(len(e) for d in corpus.documents.values() for e in d.entities)
documents = len(corpus.documents)
del corpus
rounds = []
for _ in range(runs):
    floor_time = floor()
    rounds.append({**read()[1], "floor": floor_time})
print(json.dumps({"cold": cold, "rounds": rounds, "mentions": mentions, "documents": documents}))
"""


def measure(python: str, path: Path, runs: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [python, "-c", CHILD, str(path), str(runs)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"{path}: {done.stderr.strip().splitlines()[-1] if done.stderr else 'failed'}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def rows_of(path: Path, found: dict[str, object]) -> tuple[list[str], list[str]]:
    rounds = found["rounds"]
    cold = found["cold"]
    assert isinstance(rounds, list) and isinstance(cold, dict)
    size = path.stat().st_size
    total = statistics.median(r["total"] for r in rounds)
    loop = statistics.median(r["floor"] for r in rounds)
    ratio = statistics.median(r["total"] / r["floor"] for r in rounds)
    name = path.name
    summary = [
        name,
        f"{size / 2**20:.1f}",
        f"{found['documents']:,}",
        f"{found['mentions']:,}",
        f"{loop * 1e3:.2f}",
        f"{total * 1e3:.2f}",
        f"{ratio:.2f}×",
        f"{cold['total'] * 1e3:.2f}",
        f"{cold['faults']:,}",
    ]
    shares = [name]
    for part in PARTS:
        value = statistics.median(r[part] for r in rounds)
        shares.append(f"{value / total:.0%} ({value / size * 1e9:.2f})")
    return summary, shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    files = args.files or [
        CORPORA / f"{name}.key" for name in DEFAULT_FILES if (CORPORA / f"{name}.key").is_file()
    ]
    if not files:
        sys.exit(f"no file given and no benchmark corpus in {CORPORA} (run suite.py first)")
    import corefscore

    print(f"- date: {dt.datetime.now(dt.timezone.utc).isoformat(timespec='seconds')}")
    print(f"- machine: {platform.platform()}; {os.cpu_count()} CPUs ({cpu_model()})")
    print(f"- python: {platform.python_version()}; corefscore {corefscore.__version__}")
    print(f"- load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    summaries = [
        [
            "file",
            "MiB",
            "documents",
            "mentions",
            "loop ms",
            "reader ms",
            "reader ÷ loop",
            "cold read ms",
            "page faults",
        ]
    ]
    shares = [["file", *PARTS]]
    for path in files:
        found = measure(args.python, path, args.runs)
        summary, share = rows_of(path, found)
        summaries.append(summary)
        shares.append(share)
    print(
        f"One file per process; the loop and the reader: medians of {args.runs} interleaved "
        "rounds after the cold read (ratio: the median of the rounds' ratios):\n"
    )
    print(table(summaries, args.markdown))
    print("\nThe reader's parts: share of its median (ns per byte of the file):\n")
    print(table(shares, args.markdown))
    print(f"\n- load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
