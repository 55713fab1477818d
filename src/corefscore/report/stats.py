"""Tables of bootstrap intervals, paired tests and rankings (``corefscore.stats``).

Each ``format_*`` function takes ``fmt``: ``text`` (aligned), ``json``,
``csv``, ``markdown`` or ``latex``. Scores are percentages with two decimals,
p-values have four significant digits; JSON keeps full precision.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from ..errors import UsageError
from ..stats import BootstrapResult, Ranking, SignificanceResult
from .numbers import PERCENT, Percent
from .text import LABELS

FORMATS = ("text", "json", "csv", "markdown", "latex")
_TEST_LABELS = {
    "ar": "approximate randomization",
    "exact": "exact randomization",
    "bootstrap": "paired bootstrap",
}


def _p(x: float) -> str:
    return f"{x:.4g}"


def _label(metric: str) -> str:
    return LABELS.get(metric, metric)


def _latex_escape(text: str) -> str:
    for char, repl in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_")):
        text = text.replace(char, repl)
    for char in "#$":
        text = text.replace(char, "\\" + char)
    return text


def _table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    fmt: str,
    *,
    title: str,
    note: str,
    numeric_from: int = 1,
) -> str:
    """Render one table; columns from ``numeric_from`` on are right-aligned."""
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return out.getvalue()
    if fmt == "markdown":
        align = ["---" if i < numeric_from else "---:" for i in range(len(headers))]
        lines = [
            f"**{title}**",
            "",
            "| " + " | ".join(headers) + " |",
            "| " + " | ".join(align) + " |",
        ]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        lines += ["", note]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        spec = "l" * numeric_from + "r" * (len(headers) - numeric_from)
        lines = [
            "\\begin{table}",
            "\\centering",
            f"\\begin{{tabular}}{{{spec}}}",
            "\\hline",
            " & ".join(_latex_escape(h) for h in headers) + " \\\\",
            "\\hline",
        ]
        lines += [" & ".join(_latex_escape(c) for c in r) + " \\\\" for r in rows]
        lines += [
            "\\hline",
            "\\end{tabular}",
            f"\\caption{{{_latex_escape(title)}. {_latex_escape(note)}}}",
            "\\end{table}",
        ]
        return "\n".join(lines) + "\n"
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(w) if i < numeric_from else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([title, line(headers), *[line(r) for r in rows], note]) + "\n"


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def format_bootstrap(
    result: BootstrapResult, fmt: str = "text", *, percent: Percent = PERCENT
) -> str:
    """Each metric's recall, precision and F1 with their percentile intervals."""
    _check(fmt)
    if fmt == "json":
        return _json(result.to_dict())
    headers = ["metric"]
    for part in ("R", "P", "F1"):
        headers += [part, f"{part} low", f"{part} high"]
    rows: list[list[str]] = []
    for name, m in result.metrics.items():
        row = [_label(name)]
        for iv in (m.recall, m.precision, m.f1):
            row += [percent(iv.estimate), percent(iv.low), percent(iv.high)]
        rows.append(row)
    if result.conll is not None:
        c = result.conll
        rows.append(
            ["CoNLL", "", "", "", "", "", "", percent(c.estimate), percent(c.low), percent(c.high)]
        )
    title = f"{result.ci:g}% bootstrap confidence intervals"
    note = (
        f"{result.n} resamples of {result.documents} documents, seed {result.seed}; "
        f"{result.method} percentiles"
    )
    return _table(headers, rows, fmt, title=title, note=note)


def format_significance(
    result: SignificanceResult, fmt: str = "text", *, percent: Percent = PERCENT
) -> str:
    """Each metric's F1 for both systems, their difference and the p-value."""
    _check(fmt)
    if fmt == "json":
        return _json(result.to_dict())
    headers = ["metric", result.system_a, result.system_b, "difference", "p"]
    rows = [
        [_label(name), percent(t.score_a), percent(t.score_b), percent(t.difference), _p(t.p_value)]
        for name, t in result.tests.items()
    ]
    title = f"{_TEST_LABELS[result.test]}: {result.system_a} vs {result.system_b} (F1)"
    if result.test == "exact":
        note = f"all {result.trials} swap patterns of {result.documents} documents; two-sided"
    else:
        note = (
            f"{result.trials} trials over {result.documents} documents, seed {result.seed}; "
            "two-sided, p = (c+1)/(trials+1)"
        )
    return _table(headers, rows, fmt, title=title, note=note)


def format_ranking(ranking: Ranking, fmt: str = "text", *, percent: Percent = PERCENT) -> str:
    """Systems best first with their rank (shared where not significant), as in
    Moosavi & Strube (2016), Table 5: each compared metric's F1, the ranking
    metric followed by its rank in parentheses."""
    _check(fmt)
    if fmt == "json":
        return _json(ranking.to_dict())
    metrics = list(next(iter(ranking.scores.values()), {}))
    headers = ["rank", "system", *(_label(m) for m in metrics)]
    rows = []
    for s in ranking.systems:
        cells = []
        for m in metrics:
            value = percent(ranking.scores[s.name][m])
            cells.append(f"{value} ({s.rank})" if m == ranking.metric else value)
        rows.append([str(s.rank), s.name, *cells])
    title = f"Ranking by {_label(ranking.metric)} F1"
    test = _TEST_LABELS[ranking.test]
    runs = "all swap patterns" if ranking.test == "exact" else f"{ranking.trials} trials"
    note = (
        f"Ranks are shared where differences are not significant at alpha = "
        f"{ranking.alpha:g} ({test}, {runs}, "
        f"seed {ranking.seed}, Holm correction over {len(ranking.pairs)} pair(s), "
        f"{ranking.documents} documents)"
    )
    if ranking.signature and fmt in ("text", "markdown"):
        note += f"\n{ranking.signature}" if fmt == "text" else f"  `{ranking.signature}`"
    table = _table(headers, rows, fmt, title=title, note=note, numeric_from=2)
    if ranking.signature and fmt == "latex":
        return f"% {ranking.signature}\n{table}"
    if ranking.signature and fmt == "csv":
        return table + _table(["signature", ranking.signature], [], fmt, title="", note="")
    if fmt != "text":
        return table
    pair_rows = [
        [
            p.a,
            p.b,
            percent(p.difference),
            _p(p.p_value),
            _p(p.p_holm),
            "yes" if p.significant else "no",
        ]
        for p in ranking.pairs
    ]
    pairs = _table(
        ["better", "worse", "difference", "p", "p (Holm)", "significant"],
        pair_rows,
        fmt,
        title="Pairwise tests",
        note="",
        numeric_from=2,
    )
    return table + "\n" + pairs.rstrip("\n") + "\n"
