"""Output of ``corefscore analyze classes``: a table of resolution classes, or JSON."""

from __future__ import annotations

import json

from ..analysis.classes import ClassReport, ClassScore
from ..errors import UsageError

_HEADER = (
    "class",
    "count",
    "share%",
    "MUC-RC R",
    "P",
    "F1",
    "anaphor R",
    "P",
    "F1",
)


def _row(entry: ClassScore) -> tuple[str, ...]:
    def pct(value: float) -> str:
        return f"{100 * value:.2f}"

    return (
        entry.name,
        str(entry.count),
        pct(entry.share),
        pct(entry.muc_rc.recall),
        pct(entry.muc_rc.precision),
        pct(entry.muc_rc.f1),
        pct(entry.anaphor.recall),
        pct(entry.anaphor.precision),
        pct(entry.anaphor.f1),
    )


def format_classes(report: ClassReport, fmt: str = "text") -> str:
    """``report`` as an aligned table (``fmt="text"``) or as JSON (``fmt="json"``)."""
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2) + "\n"
    if fmt != "text":
        raise UsageError(f"unknown output format {fmt!r} for resolution classes; use text or json")
    rows = [_HEADER, *(_row(c) for c in report.classes), _row(report.total)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADER))]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        # A gap between the three groups of columns keeps them apart by eye.
        line = "  ".join(cells[:3]) + "   " + "  ".join(cells[3:6]) + "   " + "  ".join(cells[6:])
        if n == len(rows) - 1:
            lines.append("-" * len(line))
        lines.append(line.rstrip())
    anaphors = report.total.count + report.unclassified
    lines.append(
        f"{anaphors} anaphors in {report.documents} documents; "
        f"{report.unclassified} without a class (not a name, noun or listed pronoun)"
    )
    lines.append(
        "MUC-RC: adapted from Stoyanov et al. (2009) §4.2 (response links instead of a re-run "
        "resolver); anaphor: CorefUD anaphor-level score"
    )
    return "\n".join(lines) + "\n"
