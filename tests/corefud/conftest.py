"""Fixtures of the CorefUD agreement tests: the optional official-scorer oracle."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from . import oracle

_LOADED: list[oracle.Oracle] = []


def _cache_dir(config: pytest.Config) -> Path | None:
    cache = getattr(config, "cache", None)
    default = cache.mkdir("corefud-oracle") if cache is not None else None
    return oracle.cache_dir_from_env(default)


@pytest.fixture(scope="session")
def corefud_oracle(pytestconfig: pytest.Config) -> oracle.Oracle:
    """The official scorer, or a skip saying how to install it."""
    found = oracle.load(_cache_dir(pytestconfig))
    if isinstance(found, str):
        pytest.skip(found)
    if found not in _LOADED:
        _LOADED.append(found)
    return found


class LazyResults:
    """The oracle's results for a set of jobs, computed in one batch on first use."""

    def __init__(self, oracle_: oracle.Oracle, jobs: Iterable[oracle.Job]):
        self.oracle = oracle_
        self.jobs = list(dict.fromkeys(jobs))
        self._results: dict[oracle.Job, dict[str, Any]] | None = None

    def get(self, job: oracle.Job) -> dict[str, Any]:
        if self._results is None:
            self._results = dict(zip(self.jobs, self.oracle.run(self.jobs)))
        if job not in self._results:
            self._results[job] = self.oracle.run([job])[0]
        return self._results[job]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for o in _LOADED:
        if o.ran or o.hits:
            terminalreporter.write_line(
                f"corefud oracle: {o.ran} job(s) run in {o.seconds:.1f} s, "
                f"{o.hits} from the cache ({o.cache_dir or 'no cache'})"
            )
