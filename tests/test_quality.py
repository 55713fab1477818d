"""Project hygiene that the README's single test command also guarantees."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .conftest import REPO

TEST_COMMAND = 'python -m pip install -e ".[test]" && python -m pytest'


def test_ci_runs_the_readme_test_command() -> None:
    readme = (REPO / "README.md").read_text()
    ci = (REPO / ".ci" / "run").read_text()
    assert TEST_COMMAND in readme
    assert TEST_COMMAND in ci.splitlines()


def _tool(module: str) -> None:
    if (
        shutil.which(module) is None
        and subprocess.run(
            [sys.executable, "-m", module, "--version"], capture_output=True, check=False
        ).returncode
    ):
        pytest.skip(f"{module} is not installed (it comes with the [test] extra)")


def test_ruff_clean() -> None:
    _tool("ruff")
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "bench", "fuzz"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_clean() -> None:
    _tool("mypy")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_package_is_typed() -> None:
    assert (REPO / "src" / "corefscore" / "py.typed").exists()
