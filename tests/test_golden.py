"""240 random key/response pairs against the reference scorer's totals.

Data: ../shared/data/golden (reference.json per case). Numerators and
denominators must agree within 1e-9 relative. Printed strings must be
identical, except where the reference itself prints different strings from
run to run: it adds documents in Perl hash order, so a percentage that sits
on a truncation boundary can come out either side. Such a case passes only if
some order of our per-document values prints exactly the reference's string.
"""

from __future__ import annotations

import json
import math

import pytest

import corefscore
from corefscore.report.perl import perl_number, perl_percent

from ._perl_order import printed_under_some_order
from .conftest import SHARED, shared_path

GOLDEN = SHARED / "data" / "golden"
CASES = sorted(p.name for p in GOLDEN.glob("case*")) if GOLDEN.exists() else []
PLAIN = ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea")


def _printed(score: corefscore.MetricScore) -> dict[str, str]:
    return {
        "rn": perl_number(score.recall_num),
        "rd": perl_number(score.recall_den),
        "pn": perl_number(score.precision_num),
        "pd": perl_number(score.precision_den),
        "r_pct": perl_percent(score.recall),
        "p_pct": perl_percent(score.precision),
        "f1_pct": perl_percent(score.f1),
    }


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {GOLDEN}")
@pytest.mark.parametrize("case", CASES)
def test_golden_case(case: str) -> None:
    folder = shared_path("data", "golden", case)
    ref = json.loads((folder / "reference.json").read_text())
    result = corefscore.score_files(
        folder / "key.conll", folder / "response.conll", per_document=True
    )
    assert result.documents is not None
    for metric in PLAIN:
        score = result[metric]
        want = ref[metric]
        got = (score.recall_num, score.recall_den, score.precision_num, score.precision_den)
        for g, key in zip(got, ("rn", "rd", "pn", "pd")):
            assert math.isclose(g, want[key], rel_tol=1e-9, abs_tol=1e-12), (metric, key)
        printed = _printed(score)
        if printed != want["printed"]:
            per_doc = [
                (s.recall_num, s.recall_den, s.precision_num, s.precision_den)
                for s in (d[metric] for d in result.documents.values())
            ]
            assert printed_under_some_order(per_doc, want["printed"]), (
                metric,
                printed,
                want["printed"],
            )
    blanc = result["blanc"]
    assert _printed(blanc.coref) == ref["blanc_c"]["printed"]
    assert _printed(blanc.noncoref) == ref["blanc_n"]["printed"]
    assert math.isclose(blanc.recall, ref["blanc"]["r"], rel_tol=1e-12)
    assert math.isclose(blanc.precision, ref["blanc"]["p"], rel_tol=1e-12)
    printed = {k: v for k, v in _printed(blanc).items() if k.endswith("_pct")}
    assert printed == ref["blanc"]["printed"]


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {GOLDEN}")
def test_golden_cases_by_sorted_codes_give_the_same_statistics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every document of the 240 pairs tabulated by ``contingency.array_table`` (which
    large documents take) gives every metric's statistics bit for bit as the default
    path, which the test above checks against the reference."""
    from corefscore import contingency
    from corefscore.engines import objects

    default = {
        case: corefscore.score_files(
            GOLDEN / case / "key.conll", GOLDEN / case / "response.conll", per_document=True
        ).document_statistics
        for case in CASES
    }
    calls: list[int] = []
    array_table = contingency.array_table

    def counted(key: corefscore.Document, response: corefscore.Document) -> object:
        table = array_table(key, response)
        calls.append(table is not None)
        return table

    monkeypatch.setattr(objects, "LIST_MENTIONS", -1)
    monkeypatch.setattr(contingency, "ARRAY_MENTIONS", 0)
    monkeypatch.setattr(contingency, "array_table", counted)
    for case in CASES:
        got = corefscore.score_files(
            GOLDEN / case / "key.conll", GOLDEN / case / "response.conll", per_document=True
        ).document_statistics
        assert got == default[case], case
    assert len(calls) >= 240 and all(calls)
