"""``corefscore analyze cpp``: a CPP prediction, or the leave-one-out table."""

from __future__ import annotations

import json

from ..analysis.cpp import LeaveOneOutTable, Prediction
from ..errors import UsageError


def _num(value: float | None, width: int = 7) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:{width}.4f}"


def format_cpp(result: Prediction | LeaveOneOutTable, fmt: str = "text") -> str:
    """A prediction (its class terms) or a leave-one-out table, as text or JSON."""
    if fmt == "json":
        return json.dumps(result.to_dict(), indent=2, ensure_ascii=False)
    if fmt != "text":
        raise UsageError(f"unknown cpp report format {fmt!r}; choose text or json")
    if isinstance(result, Prediction):
        return _prediction(result)
    return _table(result)


def _prediction(p: Prediction) -> str:
    lines = [
        "Coreference Performance Prediction (Stoyanov et al. 2009, §4.4)",
        f"class score {p.score}, measured on: {', '.join(p.measured)}",
        "",
        f"{'class':<8}{'share':>8}{'mean':>8}{'corpora':>9}{'share*mean':>12}",
    ]
    for t in p.terms:
        lines.append(
            f"{t.name:<8}{_num(t.share, 8)}{_num(t.mean, 8)}{t.corpora:>9}"
            f"{_num(t.contribution if t.mean is not None else None, 12)}"
        )
    lines.append("")
    if p.uncovered_share > 0:
        lines.append(
            f"uncovered share {p.uncovered_share:.4f} (classes without a measured score); "
            f"sum {p.raw_value:.4f} renormalised over the covered share"
        )
    lines.append(f"predicted {p.score}: {_num(p.value, 0).strip()}")
    return "\n".join(lines) + "\n"


def _table(t: LeaveOneOutTable) -> str:
    width = max([len("corpus"), *(len(r.corpus) for r in t.rows)]) + 2
    lines = [
        "CPP leave-one-out: each corpus predicted from the others (Stoyanov et al. 2009, Table 6)",
        f"predicted from class {t.score}; observed {t.observed_key}",
        "",
        f"{'corpus':<{width}}{'predicted':>10}{'observed':>10}{'error':>9}{'uncovered':>11}",
    ]
    for r in t.rows:
        lines.append(
            f"{r.corpus:<{width}}{_num(r.predicted, 10)}{_num(r.observed, 10)}"
            f"{_num(r.error, 9)}{_num(r.uncovered_share, 11)}"
        )
    lines.append("")
    lines.append(f"correlation (Pearson) {_num(t.correlation, 0).strip()}")
    lines.append(f"mean absolute error {_num(t.mean_absolute_error, 0).strip()}")
    return "\n".join(lines) + "\n"
