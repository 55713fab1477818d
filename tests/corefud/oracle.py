"""The official CorefUD scorer (ufal/corefud-scorer v1.2) as an optional test oracle.

Nothing of the official scorer is vendored here. The oracle is an existing
checkout of https://github.com/ufal/corefud-scorer run with a Python that has
udapi, numpy and scipy; ``oracle_driver.py`` (our code) is started in that
Python as a subprocess and prints, for each (key, response, options) job, every
metric's recall, precision, F1 and raw counts at full precision.

Where it is found:

* ``COREFSCORE_COREFUD_SCORER``: the checkout (the folder with ``corefud-scorer.py``);
* ``COREFSCORE_COREFUD_PYTHON``: the Python to run it with (default: the Python
  running the tests);
* with neither set, the research copy ``/work/research/corefud/corefud-scorer`` with
  ``/work/research/corefud/venv/bin/python``, if both exist;
* otherwise every oracle test skips, saying how to install it (``INSTALL``).

Results are cached (``.pytest_cache/d/corefud-oracle/`` by default; the
``COREFSCORE_COREFUD_ORACLE_CACHE`` variable names another folder, or ``off``),
keyed by the SHA-256 of both files' bytes, the options, the driver's source and the
oracle's identity (its Python, udapi, numpy and scipy versions and a hash of the
scorer's ``.py`` files). Jobs that are not cached run in a few parallel driver
processes (``COREFSCORE_COREFUD_WORKERS``, default: the number of CPUs, at most 4).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MATCHES = ("exact", "partial", "head")
SINGLETONS = ("keep", "drop")
ZEROS = ("dependent", "linear")
COMBINATIONS = tuple((m, s, z) for m in MATCHES for s in SINGLETONS for z in ZEROS)
CRAC = ("head", "drop", "dependent")  # the official CLI defaults = the CRAC 2024 setting
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")

RESEARCH = Path("/work/research/corefud")
FALLBACK_SCORER = RESEARCH / "corefud-scorer"
FALLBACK_PYTHON = RESEARCH / "venv" / "bin" / "python"
DRIVER = Path(__file__).with_name("oracle_driver.py")
INSTALL = (
    "the official CorefUD scorer is not installed: git clone "
    "https://github.com/ufal/corefud-scorer; pip install udapi numpy scipy (into some "
    "Python); set COREFSCORE_COREFUD_SCORER=<the checkout> and "
    "COREFSCORE_COREFUD_PYTHON=<that Python>"
)


def combo_id(combo: Sequence[str]) -> str:
    return "-".join(combo)


@dataclass(frozen=True)
class Job:
    key: Path
    response: Path
    match: str
    singletons: str
    zeros: str

    def request(self) -> dict[str, str]:
        return {
            "key": str(self.key),
            "response": str(self.response),
            "match": self.match,
            "singletons": self.singletons,
            "zeros": self.zeros,
        }


def jobs_for(
    key: Path, response: Path, combos: Sequence[Sequence[str]] = COMBINATIONS
) -> list[Job]:
    return [Job(Path(key), Path(response), m, s, z) for m, s, z in combos]


_FILE_HASHES: dict[tuple[str, int, int], str] = {}


def file_hash(path: Path) -> str:
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _FILE_HASHES:
        _FILE_HASHES[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _FILE_HASHES[key]


class OracleError(RuntimeError):
    """The driver itself failed (not the scorer rejecting an input)."""


class Oracle:
    def __init__(self, scorer: Path, python: Path, cache_dir: Path | None = None):
        self.scorer = scorer
        self.python = python
        self.cache_dir = cache_dir
        self.identity = self._probe()
        self.driver_hash = hashlib.sha256(DRIVER.read_bytes()).hexdigest()
        self.workers = int(
            os.environ.get("COREFSCORE_COREFUD_WORKERS") or min(4, os.cpu_count() or 1)
        )
        self.ran = 0  # jobs run (not cached) in this process
        self.hits = 0  # jobs answered from the cache
        self.seconds = 0.0  # wall time spent running them

    def __repr__(self) -> str:
        return f"Oracle({self.scorer}, {self.python}, {self.identity})"

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env["PYTHONHASHSEED"] = "0"
        env["PYTHONIOENCODING"] = "utf-8"
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[var] = "1"
        return env

    def _probe(self) -> dict[str, str]:
        proc = subprocess.run(
            [str(self.python), str(DRIVER), str(self.scorer), "--probe"],
            capture_output=True,
            text=True,
            env=self._env(),
            timeout=300,
            check=False,
        )
        if proc.returncode != 0:
            tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
            raise OracleError(f"{self.python} cannot run the scorer in {self.scorer}: {tail}")
        info: dict[str, str] = json.loads(proc.stdout.strip().splitlines()[-1])
        return info

    def _cache_key(self, job: Job) -> str:
        blob = json.dumps(
            {
                "identity": self.identity,
                "driver": self.driver_hash,
                "key": file_hash(job.key),
                "response": file_hash(job.response),
                "options": [job.match, job.singletons, job.zeros],
            },
            sort_keys=True,
        )
        return hashlib.sha256(blob.encode()).hexdigest()

    def _cached(self, job: Job) -> dict[str, Any] | None:
        if self.cache_dir is None:
            return None
        path = self.cache_dir / f"{self._cache_key(job)}.json"
        if path.exists():
            try:
                result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
                return result
            except ValueError:
                return None
        return None

    def _store(self, job: Job, result: dict[str, Any]) -> None:
        if self.cache_dir is None:
            return
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        path = self.cache_dir / f"{self._cache_key(job)}.json"
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(result), encoding="utf-8")
        tmp.replace(path)

    def _run_batch(self, jobs: list[Job], selfcheck: bool) -> list[dict[str, Any]]:
        request = json.dumps({"jobs": [j.request() for j in jobs], "selfcheck": selfcheck})
        proc = subprocess.run(
            [str(self.python), str(DRIVER), str(self.scorer)],
            input=request,
            capture_output=True,
            text=True,
            env=self._env(),
            timeout=3600,
            check=False,
        )
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or len(lines) != len(jobs):
            tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
            raise OracleError(
                f"oracle driver failed (exit {proc.returncode}, {len(lines)}/{len(jobs)} "
                f"results):\n{tail}"
            )
        return [json.loads(line) for line in lines]

    def run(self, jobs: Sequence[Job], *, selfcheck: bool = False) -> list[dict[str, Any]]:
        """The oracle's result for every job (from the cache when there)."""
        results: list[dict[str, Any] | None] = [
            None if selfcheck else self._cached(j) for j in jobs
        ]
        todo = [i for i, r in enumerate(results) if r is None]
        self.hits += len(jobs) - len(todo)
        if todo:
            # Longest jobs first, each to the least loaded worker.
            cost = {i: jobs[i].key.stat().st_size + jobs[i].response.stat().st_size for i in todo}
            n = max(1, min(self.workers, len(todo)))
            bins: list[list[int]] = [[] for _ in range(n)]
            load = [0] * n
            for i in sorted(todo, key=lambda i: -cost[i]):
                b = load.index(min(load))
                bins[b].append(i)
                load[b] += cost[i] + 20_000  # plus a fixed cost per job
            start = time.perf_counter()
            with ThreadPoolExecutor(max_workers=n) as pool:
                outs = list(
                    pool.map(lambda b: self._run_batch([jobs[i] for i in b], selfcheck), bins)
                )
            self.seconds += time.perf_counter() - start
            self.ran += len(todo)
            for b, out in zip(bins, outs):
                for i, result in zip(b, out):
                    results[i] = result
                    self._store(jobs[i], result)
        return [r for r in results if r is not None]

    def score(
        self, key: Path, response: Path, match: str, singletons: str, zeros: str
    ) -> dict[str, Any]:
        return self.run([Job(Path(key), Path(response), match, singletons, zeros)])[0]


def locate() -> tuple[Path, Path] | str:
    """(scorer checkout, python) or the reason why there is no oracle."""
    scorer_env = os.environ.get("COREFSCORE_COREFUD_SCORER")
    python_env = os.environ.get("COREFSCORE_COREFUD_PYTHON")
    if scorer_env:
        scorer = Path(scorer_env)
        python = Path(python_env) if python_env else Path(sys.executable)
    elif python_env:
        return f"COREFSCORE_COREFUD_PYTHON is set but COREFSCORE_COREFUD_SCORER is not; {INSTALL}"
    elif FALLBACK_SCORER.is_dir() and FALLBACK_PYTHON.exists():
        scorer, python = FALLBACK_SCORER, FALLBACK_PYTHON
    else:
        return INSTALL
    if not (scorer / "corefud-scorer.py").is_file():
        return f"{scorer} has no corefud-scorer.py; {INSTALL}"
    if not python.exists():
        return f"{python} does not exist; {INSTALL}"
    return scorer, python


def cache_dir_from_env(default: Path | None) -> Path | None:
    value = os.environ.get("COREFSCORE_COREFUD_ORACLE_CACHE")
    if value is None:
        return default
    if value.lower() in ("", "0", "off", "no", "none"):
        return None
    return Path(value)


_ORACLES: dict[tuple[str, str, str | None], Oracle | str] = {}


def load(cache_dir: Path | None) -> Oracle | str:
    """The oracle, or why there is none (memoised per process)."""
    where = locate()
    if isinstance(where, str):
        return where
    scorer, python = where
    memo = (str(scorer), str(python), str(cache_dir) if cache_dir else None)
    if memo not in _ORACLES:
        try:
            _ORACLES[memo] = Oracle(scorer, python, cache_dir)
        except (OracleError, OSError, subprocess.TimeoutExpired, ValueError) as e:
            _ORACLES[memo] = f"{e}; {INSTALL}"
    return _ORACLES[memo]


# ------------------------------------------------------------------- errors
# How an input the official scorer does not score is classified. "reject": a
# validation error of the official scorer or of udapi (corefscore must reject the
# input with an InputError too). "crash": the official scorer breaks on an input it
# does not handle (an accidental exception); there corefscore may score the input
# instead, once the lead has documented what it does (until then: xfail).
CRASHES: tuple[tuple[str, str, str], ...] = (
    ("TypeError", "list indices must be integers", "no # newdoc before the first mention"),
    ("TypeError", "unsupported operand type", "discontinuous mention without a head value"),
    ("ZeroDivisionError", "", "zero with empty DEPS next to another zero (dependent)"),
    ("ValueError", "Cross-sentence mentions not supported", "mention across sentences"),
    ("ValueError", "not enough values to unpack", "malformed DEPS on a mention head"),
    ("ValueError", "Empty node with ord", "DEPS names an empty node that is not there"),
    ("IndexError", "", "DEPS parent out of range"),
    ("KeyError", "", "SplitAnte/Bridge to an entity not yet defined"),
    ("StopIteration", "", "discontinuous subspans that cannot be paired"),
    ("RuntimeError", "", "discontinuous subspans that cannot be paired"),
    ("AttributeError", "", "the scorer broke on an unexpected structure"),
)


def classify(error: dict[str, str]) -> tuple[str, str]:
    """("reject" | "crash", description) of an oracle error record."""
    for etype, text, what in CRASHES:
        if error.get("type") == etype and text in error.get("message", ""):
            return "crash", what
    return "reject", f"{error.get('type')}: {error.get('message', '')[:120]}"
