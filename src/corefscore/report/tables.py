"""Score tables for pasting into papers and spreadsheets: CSV, Markdown, LaTeX."""

from __future__ import annotations

import csv
import io

from ..result import ScoreResult
from .numbers import PERCENT, Percent
from .text import LABELS


def format_csv(result: ScoreResult) -> str:
    """One row per (scope, metric) with full-precision fractions and the counts.

    ``scope`` is ``corpus``, ``macro`` (with ``--per-document``) or a document id.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["scope", "metric", "recall", "precision", "f1", "recall_num", "recall_den",
         "precision_num", "precision_den"]
    )  # fmt: skip
    scopes = [("corpus", result.metrics, result.conll)]
    scopes += [(d, r.metrics, r.conll) for d, r in (result.documents or {}).items()]
    for scope, metrics, conll in scopes:
        for name, m in metrics.items():
            writer.writerow(
                [scope, name, repr(m.recall), repr(m.precision), repr(m.f1),
                 repr(m.recall_num), repr(m.recall_den), repr(m.precision_num),
                 repr(m.precision_den)]
            )  # fmt: skip
        if conll is not None:
            writer.writerow([scope, "conll", "", "", repr(conll), "", "", "", ""])
    for name, values in result.macro().items():
        cells = [repr(values[f]) if f in values else "" for f in ("recall", "precision", "f1")]
        writer.writerow(["macro", name, *cells, "", "", "", ""])
    writer.writerow(["signature", result.signature, "", "", "", "", "", "", ""])
    return out.getvalue()


def _table(result: ScoreResult, percent: Percent) -> tuple[list[str], list[list[str]]]:
    header = ["Metric", "R", "P", "F1"]
    body = [
        [LABELS.get(name, name), percent(m.recall), percent(m.precision), percent(m.f1)]
        for name, m in result.metrics.items()
    ]
    if result.conll is not None:
        body.append(["CoNLL", "", "", percent(result.conll)])
    return header, body


def format_markdown(result: ScoreResult, *, percent: Percent = PERCENT) -> str:
    """A Markdown table of the corpus scores (percentages as ``percent`` prints them)
    and the signature."""
    header, body = _table(result, percent)
    lines = ["| " + " | ".join(header) + " |", "| --- | ---: | ---: | ---: |"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines) + f"\n\n`{result.signature}`\n"


def _latex_escape(text: str) -> str:
    for char, escaped in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"),
                          ("_", r"\_"), ("#", r"\#"), ("$", r"\$"), ("{", r"\{"),
                          ("}", r"\}"), ("^", r"\^{}"), ("~", r"\~{}")):  # fmt: skip
        text = text.replace(char, escaped)
    return text


def format_latex(result: ScoreResult, *, percent: Percent = PERCENT) -> str:
    """A ``tabular`` of the corpus scores (booktabs rules), with the signature as a comment."""
    header, body = _table(result, percent)
    lines = [
        f"% {result.signature}",
        r"\begin{tabular}{lrrr}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(_latex_escape(c) for c in row) + r" \\" for row in body]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


__all__ = ["format_csv", "format_latex", "format_markdown"]
