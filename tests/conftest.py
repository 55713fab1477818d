"""Shared test helpers: where ../shared is, and skipping when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

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


# Test profiles: "ci" (the default) keeps the suite fast; "nightly" runs many more
# hypothesis examples and 10,000 differential cases (tests/metrics/test_differential.py).
# Chosen by COREFSCORE_TEST_PROFILE (or HYPOTHESIS_PROFILE); an unknown name is an error.
PROFILE = os.environ.get("COREFSCORE_TEST_PROFILE") or os.environ.get("HYPOTHESIS_PROFILE") or "ci"
settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("nightly", deadline=None, print_blob=True, max_examples=2000)
settings.load_profile(PROFILE)
NIGHTLY = PROFILE == "nightly"


def examples(ci: int) -> int:
    """A hypothesis test's example count: ``ci`` normally, 25 times as many at night."""
    return ci * 25 if NIGHTLY else ci
