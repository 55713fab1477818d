"""What the commands write: warnings on stderr, results on stdout or to a file."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

    from ..report.numbers import Percent
    from ..result import ScoreResult


def warn(warnings: Sequence[str], quiet: bool) -> None:
    """Each warning on a line of its own on stderr, unless ``quiet``."""
    if not quiet:
        for warning in warnings:
            print(f"corefscore: warning: {warning}", file=sys.stderr)


def emit(text: str, args: argparse.Namespace) -> None:
    """``text`` to the file of ``--output`` if one was given, else to stdout."""
    if getattr(args, "output", None):
        from ..io.files import write_text

        write_text(args.output, text)
    else:
        sys.stdout.write(text)


def render_json(result: ScoreResult, extra: Mapping[str, Any] | None = None) -> str:
    """The result's JSON form, with the ``extra`` fields after its own."""
    import json

    data = result.to_dict()
    data.update(extra or {})
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def percent_of(args: argparse.Namespace, compat: str = "conll") -> Percent:
    """How ``--digits`` and ``--round`` print percentages: by default as the
    official scorer of the evaluation prints them."""
    from ..report.numbers import Percent

    # corefud-scorer and the UA scorer print Python's "%.2f" (half to even on the double).
    official = "half-even" if compat in ("corefud", "ua") else "truncate"
    rounding = args.round or official
    scorer = {"corefud": "corefud-scorer", "ua": "the UA scorer"}.get(compat, "scorer.pl")
    return Percent(
        digits=args.digits, rounding=rounding, printed_by=scorer if rounding == official else None
    )


def render(
    result: ScoreResult,
    fmt: str,
    metrics: Sequence[str],
    per_document: bool,
    percent: Percent | None = None,
) -> str:
    """The result in ``fmt``: text (the default), json, perl, csv, markdown or latex."""
    from ..report.numbers import PERCENT
    from ..report.text import format_text, use_color
    from ..result import ScoreResult

    percent = percent or PERCENT
    color = use_color(sys.stdout)

    if fmt == "json":
        return render_json(result)
    if fmt == "perl":
        from ..report.perl import format_perl

        return format_perl(result, metrics)
    if fmt == "corefud":
        from ..report.corefud import format_corefud

        return format_corefud(result)
    if fmt in ("csv", "markdown", "latex"):
        from ..report import tables

        if fmt == "csv":
            return tables.format_csv(result)
        if fmt == "markdown":
            return tables.format_markdown(result, percent=percent)
        return tables.format_latex(result, percent=percent)
    parts = []
    if per_document and result.documents:
        for doc_id, doc in result.documents.items():
            doc_result = ScoreResult(doc.metrics, doc.conll, result.signature)
            text = format_text(doc_result, title=f"document {doc_id}", color=color, percent=percent)
            parts.append(text)
        parts.append("")
        parts.append(_macro_text(result, percent))
    title = "corpus (micro-average over key documents)"
    if result.options.get("cross_document"):
        title = "corpus (one cross-document partition)"
    parts.append(format_text(result, title=title, color=color, percent=percent))
    return "\n".join(parts)


def _macro_text(result: ScoreResult, percent: Percent) -> str:
    from ..report.text import LABELS

    lines = ["macro-average (mean of the documents' scores)"]
    for name, values in result.macro().items():
        cells = "  ".join(
            f"{field[0].upper()} {percent(values[field]):>6}"
            for field in ("recall", "precision", "f1")
            if field in values
        )
        lines.append(f"  {LABELS.get(name, name):<9}{cells}")
    ranked = result.ranked_documents()
    what = "CoNLL F1" if result.conll is not None else f"{next(iter(result.metrics))} F1"
    lines.append(f"documents by {what}, worst first")
    lines += [f"  {percent(f1):>6}  {doc_id}" for doc_id, f1 in ranked]
    return "\n".join(lines) + "\n"
