"""A readable, aligned text table of a result."""

from __future__ import annotations

from ..result import ScoreResult
from .numbers import PERCENT, Percent

LABELS = {
    "mentions": "mentions",
    "muc": "MUC",
    "bcub": "B3",
    "ceafm": "CEAFm",
    "ceafe": "CEAFe",
    "blanc": "BLANC",
    "lea": "LEA",
    "mor": "MOR",
    "zero": "zero",
    "conll": "CoNLL",
}


def pct(x: float) -> str:
    """A fraction as a percentage in the default style (2 decimals, truncated)."""
    return PERCENT(x)


def _num(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.4f}"


_BOLD, _DIM, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"


def use_color(stream: object) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    import os

    isatty = getattr(stream, "isatty", None)
    return (
        callable(isatty)
        and bool(isatty())
        and "NO_COLOR" not in os.environ
        and os.environ.get("TERM") != "dumb"
    )


def format_text(
    result: ScoreResult,
    *,
    title: str | None = None,
    color: bool = False,
    percent: Percent = PERCENT,
) -> str:
    """An aligned table; ``color`` adds ANSI bold to the title, header and F1 column;
    ``percent`` prints the percentages."""
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
                percent(score.recall),
                percent(score.precision),
                percent(score.f1),
                *counts,
            )
        )
    if result.conll is not None:
        rows.append(("CoNLL", "", "", percent(result.conll), "", ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]

    def bold(text: str) -> str:
        return f"{_BOLD}{text}{_RESET}" if color and text.strip() else text

    lines = []
    if title:
        lines.append(bold(title))
    for k, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        if k == 0:
            cells = [bold(c) for c in cells]
        else:
            cells[3] = bold(cells[3])
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    note = f"({percent.note})  {result.signature}"
    lines.append(f"{_DIM}{note}{_RESET}" if color else note)
    return "\n".join(lines) + "\n"
