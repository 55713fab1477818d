"""``corefscore analyze mention-effect``: the paper's Table 1 for the user's response."""

from __future__ import annotations

import json

from ..analysis.mention_effect import MentionEffectReport, Scores
from ..errors import UsageError

_LABELS = {
    "more_precise": "More precise",
    "less_precise_a": "Less precise a",
    "less_precise_b": "Less precise b",
}


def _cell(value: float | None) -> str:
    return "     -" if value is None else f"{100 * value:6.2f}"


def _row(label: str, scores: Scores, mark: str = "") -> str:
    return (
        f"  {label:<16}{_cell(scores.recall)} {_cell(scores.precision)} {_cell(scores.f1)}  {mark}"
    ).rstrip()


def format_mention_effect(report: MentionEffectReport, fmt: str = "text") -> str:
    """The report as text (one block per metric, as in Table 1) or JSON."""
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)
    if fmt != "text":
        raise UsageError(f"unknown mention-effect report format {fmt!r}; choose text or json")
    lines = [
        "Mention identification effect (Moosavi & Strube 2016, §2, Table 1)",
        f"seed {report.seed}, duplicates {report.duplicates}",
    ]
    for name, variant in report.variants.items():
        what = (
            f"{variant.mentions_changed} mentions removed"
            if name == "more_precise"
            else f"{variant.entities_added} entities of {variant.mentions_changed} mentions added"
        )
        lines.append(f"{_LABELS[name]}: {variant.description} ({what})")
    lines.append("")
    lines.append(f"  {'':<16}{'R':>6} {'P':>6} {'F1':>6}")
    for metric in report.metrics:
        lines.append(f"{metric}")
        lines.append(_row("Base", report.base[metric]))
        for name, variant in report.variants.items():
            change = variant.changes[metric]
            mark = ("WRONG: " if change.wrong_direction else "") + ", ".join(change.flags)
            lines.append(_row(_LABELS[name], change.after, mark))
    lines.append("")
    for name, variant in report.variants.items():
        wrong = ", ".join(variant.wrong_direction) or "none"
        lines.append(f"{_LABELS[name]}: precision or F1 moved the wrong way for {wrong}")
    return "\n".join(lines) + "\n"
