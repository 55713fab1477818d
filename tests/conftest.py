"""Shared test helpers: where ../shared is, and skipping when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("COREFSCORE_SHARED", REPO.parent / "shared"))
DATA = Path(__file__).resolve().parent / "data"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path} (set COREFSCORE_SHARED to its folder)")
    return path


def shared_exists(*parts: str) -> bool:
    return SHARED.joinpath(*parts).exists()
