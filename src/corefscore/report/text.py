"""A readable, aligned text table of a result."""

from __future__ import annotations

from ..result import ScoreResult

LABELS = {
    "mentions": "mentions",
    "muc": "MUC",
    "bcub": "B3",
    "ceafm": "CEAFm",
    "ceafe": "CEAFe",
    "blanc": "BLANC",
    "lea": "LEA",
}


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _num(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.4f}"


def format_text(result: ScoreResult, *, title: str | None = None) -> str:
    header = ("metric", "recall", "precision", "F1", "R num/den", "P num/den")
    rows = [header]
    for name, score in result.metrics.items():
        counts = (
            ("", "")
            if name == "blanc"
            else (
                f"{_num(score.recall_num)}/{_num(score.recall_den)}",
                f"{_num(score.precision_num)}/{_num(score.precision_den)}",
            )
        )
        rows.append(
            (
                LABELS.get(name, name),
                _pct(score.recall),
                _pct(score.precision),
                _pct(score.f1),
                *counts,
            )
        )
    if result.conll is not None:
        rows.append(("CoNLL", "", "", _pct(result.conll), "", ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = []
    if title:
        lines.append(title)
    for k, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append(f"(percentages rounded to 2 decimals)  {result.signature}")
    return "\n".join(lines) + "\n"
