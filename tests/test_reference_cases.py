"""The official scorer's own test cases (TC-A ... TC-N), against its printed outputs.

Data: ../shared/data/reference-tests (CC BY-SA 4.0, conll/reference-coreference-scorers).
"""

from __future__ import annotations

import json
import math

import pytest

import corefscore
from corefscore.metrics import MetricScore
from corefscore.report.perl import perl_percent

from .conftest import SHARED, shared_path

CASES_FILE = SHARED / "data" / "reference-tests" / "expected.json"
CASES = sorted(json.loads(CASES_FILE.read_text())["cases"]) if CASES_FILE.exists() else []


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _check(score: MetricScore, ref: dict[str, str], what: str) -> None:
    got = (score.recall_num, score.recall_den, score.precision_num, score.precision_den)
    want = tuple(float(ref[k]) for k in ("rn", "rd", "pn", "pd"))
    assert all(_close(a, b) for a, b in zip(got, want)), f"{what}: {got} != {want}"
    printed = (perl_percent(score.recall), perl_percent(score.precision), perl_percent(score.f1))
    assert printed == (ref["rp"], ref["pp"], ref["f"]), f"{what}: printed {printed}"


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {CASES_FILE}")
@pytest.mark.parametrize("tables", ["default", "sorted codes"])
@pytest.mark.parametrize("policy", ["strict", "reference"])
@pytest.mark.parametrize("case", CASES)
def test_reference_case(
    case: str, policy: str, tables: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if tables == "sorted codes":
        # Every document tabulated as a large one is (contingency.array_table).
        from corefscore import contingency
        from corefscore.engines import objects

        monkeypatch.setattr(objects, "LIST_MENTIONS", -1)
        monkeypatch.setattr(contingency, "ARRAY_MENTIONS", 0)
    folder = shared_path("data", "reference-tests")
    spec = json.loads(CASES_FILE.read_text())["cases"][case]
    result = corefscore.score_files(
        folder / spec["key"], folder / spec["response"], duplicates=policy
    )
    for metric, ref in spec["reference"].items():
        if metric == "blanc":
            blanc = result["blanc"]
            _check(blanc.coref, ref["coref_links"], f"{case} blanc coref")
            _check(blanc.noncoref, ref["noncoref_links"], f"{case} blanc noncoref")
            _check(blanc, ref["blanc"], f"{case} blanc")
        else:
            _check(result[metric], ref, f"{case} {metric}")


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {CASES_FILE}")
@pytest.mark.parametrize("case", CASES)
def test_reference_case_expectations(case: str) -> None:
    """The test suite's own (R, P, F1) expectations, within its 1e-4 tolerance."""
    folder = shared_path("data", "reference-tests")
    spec = json.loads(CASES_FILE.read_text())["cases"][case]
    result = corefscore.score_files(folder / spec["key"], folder / spec["response"])
    for metric, (r, p, f) in spec["expected"].items():
        s = result[metric]
        assert abs(s.recall - r) + abs(s.precision - p) + abs(s.f1 - f) < 1e-4, (case, metric)
