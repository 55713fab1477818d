"""Plots: lab experiments (``corefscore lab EXPERIMENT --plot FILE``) and error
categories (``corefscore analyze errors KEY RESPONSE --plot FILE``).

matplotlib is optional (the ``plot`` extra) and imported only here, on use.
The figure is drawn on a bare ``matplotlib.figure.Figure`` with the Agg
canvas, so the caller's pyplot backend is never touched, and the output is
byte-for-byte reproducible: fixed style and size, a fixed SVG hash salt, and
no date or version in the file's metadata.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError, UsageError
from .text import LABELS as TEXT_LABELS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..analysis.error_analysis import ErrorAnalysis
    from ..analysis.lab import LabResult

#: Display names as the papers print them.
LABELS: dict[str, str] = {**TEXT_LABELS, "bcub": "B³"}

_MARKERS = ("o", "s", "^", "v", "D", "P", "X", "*", "<", ">", "h", "p")

_STYLE: dict[str, Any] = {
    "svg.hashsalt": "corefscore",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 9.0,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "lines.linewidth": 1.4,
    "lines.markersize": 5.0,
}


def _matplotlib() -> tuple[Any, Any, Any]:
    """matplotlib itself, its Figure and the Agg canvas (typed loosely: it is optional)."""
    try:
        import matplotlib
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError("plotting needs matplotlib: pip install 'corefscore[plot]'") from None
    return matplotlib, Figure, FigureCanvasAgg


def plot_lab(
    result: LabResult,
    path: str | os.PathLike[str],
    *,
    metrics: Iterable[str] | None = None,
) -> Path:
    """Draw the F1 of each metric along the experiment's x axis; PNG or SVG by extension.

    ``metrics`` picks and orders the lines (default: all of ``result``'s,
    without the mention-identification score, which is flat in most
    experiments and is not a coreference metric). Returns the path written.
    """
    out, suffix = _plot_file(path)
    if metrics is None:
        names = [m for m in result.metrics if m != "mentions"] or list(result.metrics)
    else:
        names = list(metrics)
        unknown = [m for m in names if m not in result.metrics]
        if unknown:
            raise UsageError(
                f"metric(s) {', '.join(unknown)} not in this lab result "
                f"({', '.join(result.metrics)})"
            )
    mpl, figure_cls, canvas_cls = _matplotlib()
    with mpl.rc_context(_STYLE):
        fig = figure_cls(figsize=(6.4, 4.0), dpi=100)
        canvas_cls(fig)
        ax = fig.add_subplot()
        if result.numeric and all(r.value is not None for r in result.rows):
            xs: list[float] = [float(r.value) for r in result.rows if r.value is not None]
            ax.set_xticks(xs, [r.x for r in result.rows])
        else:
            xs = [float(i) for i in range(len(result.rows))]
            ax.set_xticks(xs, [r.x for r in result.rows])
        for i, name in enumerate(names):
            ys = [float("nan") if v is None else 100.0 * v for v in result.f1(name)]
            ax.plot(xs, ys, marker=_MARKERS[i % len(_MARKERS)], label=LABELS.get(name, name))
        ax.set_xlabel(result.x_label)
        ax.set_ylabel("F1 (%)")
        ax.set_title(f"{result.title}\n{result.source}", fontsize=9.0)
        ax.legend(fontsize=8.0, ncols=min(len(names), 4) or 1, loc="best")
        _save(fig, out, suffix)
    return out


def plot_error_categories(
    analyses: Mapping[str, ErrorAnalysis], path: str | os.PathLike[str]
) -> Path:
    """A bar chart of the error categories (Kummerfeld & Klein 2013), one bar per
    system in each category; PNG or SVG by extension. Returns the path written."""
    from ..analysis.error_analysis import CATEGORIES
    from ..analysis.error_analysis import LABELS as CATEGORY_LABELS

    if not analyses:
        raise UsageError("no error analysis to plot")
    out, suffix = _plot_file(path)
    mpl, figure_cls, canvas_cls = _matplotlib()
    with mpl.rc_context(_STYLE):
        fig = figure_cls(figsize=(7.2, 4.0), dpi=100)
        canvas_cls(fig)
        ax = fig.add_subplot()
        width = 0.8 / len(analyses)
        for k, (name, analysis) in enumerate(analyses.items()):
            xs = [i - 0.4 + width * (k + 0.5) for i in range(len(CATEGORIES))]
            counts = [analysis.totals.categories[c] for c in CATEGORIES]
            ax.bar(xs, counts, width=width, label=name)
        ax.set_xticks(
            range(len(CATEGORIES)), [CATEGORY_LABELS[c].replace(" ", "\n") for c in CATEGORIES]
        )
        ax.set_ylabel("errors")
        ax.set_title("Error categories (Kummerfeld & Klein 2013)", fontsize=9.0)
        ax.grid(axis="x", visible=False)
        if len(analyses) > 1:
            ax.legend(fontsize=8.0, loc="best")
        _save(fig, out, suffix)
    return out


def _plot_file(path: str | os.PathLike[str]) -> tuple[Path, str]:
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise UsageError(f"plot file must end in .png or .svg, got {out.name!r}")
    return out, suffix


def _save(fig: Any, out: Path, suffix: str) -> None:
    """Write the figure without a date or version in its metadata (reproducible bytes)."""
    fig.tight_layout()
    if suffix == ".svg":
        metadata: dict[str, Any] = {"Date": None, "Creator": "corefscore"}
    else:
        metadata = {"Software": "corefscore"}
    try:
        fig.savefig(out, format=suffix[1:], metadata=metadata)
    except OSError as exc:
        raise InputError(f"cannot write ({exc.strerror or exc})", path=str(out)) from None


__all__ = ["LABELS", "plot_error_categories", "plot_lab"]
