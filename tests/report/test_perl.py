"""Perl number formatting and the TOTALS block layout."""

from __future__ import annotations

import pytest

import corefscore
from corefscore.metrics.base import MetricScore, f_measure
from corefscore.report.perl import DASHES, format_perl, perl_number, perl_percent, rpf_line


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (6.0, "6"),
        (7 / 3, "2.33333333333333"),
        (0.352272727272727, "0.352272727272727"),
        (1e-05, "1e-05"),
        (1050376, "1050376"),
        (0.0, "0"),
    ],
)
def test_perl_number(value: float, printed: str) -> None:
    assert perl_number(value) == printed


def test_percentages_are_truncated_in_double_precision() -> None:
    assert perl_percent(2 / 3) == "66.66"
    assert perl_percent(0.8) == "80"
    assert perl_percent(0.272) == "27.2"
    # The reference's own artefacts: F1 from unrounded R and P, then truncated.
    assert perl_percent(f_measure(0.6, 1.0)) == "74.99"  # TC-A-3 MUC F1
    assert perl_percent(f_measure(5 / 9, 17 / 42)) == "46.83"
    assert perl_percent(1.0) == "100"


def test_rpf_line_layout() -> None:
    line = rpf_line(MetricScore.from_counts(12.8333333333333, 16, 12, 20))
    assert line == (
        "Recall: (12.8333333333333 / 16) 80.2%\tPrecision: (12 / 20) 60%\tF1: 68.64%\n"
        + DASHES
        + "\n"
    )
    assert len(DASHES) == 74


def test_blanc_block() -> None:
    key = {"d": [[(0, 0), (1, 1)], [(2, 2)]]}
    response = {"d": [[(0, 0)], [(1, 1), (2, 2)]]}
    text = format_perl(corefscore.score(key, response), ["blanc"])
    assert text.splitlines() == [
        "",
        "====== TOTALS =======",
        "Identification of Mentions: Recall: (3 / 3) 100%\tPrecision: (3 / 3) 100%\tF1: 100%",
        DASHES,
        "",
        "Coreference:",
        "Coreference links: Recall: (0 / 1) 0%\tPrecision: (0 / 1) 0%\tF1: 0%",
        DASHES,
        "Non-coreference links: Recall: (1 / 2) 50%\tPrecision: (1 / 2) 50%\tF1: 50%",
        DASHES,
        "BLANC: Recall: (0.25 / 1) 25%\tPrecision: (0.25 / 1) 25%\tF1: 25%",
        DASHES,
    ]
