"""``corefscore analyze errors``: the error categories as text, JSON or CSV."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from ..analysis.error_analysis import CATEGORIES, LABELS, MENTION_TYPES, ErrorAnalysis
from ..errors import UsageError
from .numbers import PERCENT
from .text import pct

FORMATS = ("text", "json", "csv")

_OPERATION_LABELS = {
    "correct_span": "correct span",
    "introduce": "introduce mention",
    "split": "split from entity",
    "merge": "merge into entity",
    "remove": "remove mention",
}


def printed_costs(steps: Sequence[float]) -> list[str]:
    """What each category costs, from the CoNLL F1 after each step (``original``
    first), as the difference of the printed scores, so that a column adds up."""
    return [f"{float(pct(b)) - float(pct(a)):+.2f}" for a, b in pairwise(steps)]


def format_errors(analysis: ErrorAnalysis, fmt: str = "text", *, per_document: bool = False) -> str:
    """The analysis as text (totals, the score after each step, optionally each
    document), JSON (everything, ``ErrorAnalysis.to_dict``) or CSV (one row per
    document and a total row)."""
    # json and csv are imported for their formats only (a few ms of every text run).
    if fmt == "json":
        import json

        return json.dumps(analysis.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return _csv(analysis)
    if fmt != "text":
        raise UsageError(f"unknown error-analysis format {fmt!r}; choose {', '.join(FORMATS)}")
    return _text(analysis, per_document=per_document)


def _text(analysis: ErrorAnalysis, *, per_document: bool) -> str:
    totals = analysis.totals
    steps = {s.name: s for s in analysis.steps}
    lines = [
        "Error analysis (Kummerfeld & Klein 2013), "
        f"{len(analysis.documents)} document(s); response singletons "
        f"{analysis.options.get('response_singletons')}, heads {analysis.options.get('heads')}",
        "",
        f"{'category':<20}{'errors':>7}{'name':>7}{'nominal':>9}{'pronoun':>9}"
        f"{'CoNLL after':>13}{'cost':>8}",
    ]
    costs = printed_costs([s.conll for s in analysis.steps])
    for category, cost in zip(CATEGORIES, costs):
        kinds = totals.by_type[category]
        after = pct(steps[category].conll)
        lines.append(
            f"{LABELS[category]:<20}{totals.categories[category]:>7}"
            + "".join(f"{kinds[t]:>{w}}" for t, w in zip(MENTION_TYPES, (7, 9, 9)))
            + f"{after:>13}{cost:>8}"
        )
    lines.append("")
    lines.append(
        f"CoNLL F1 of the response: {pct(steps['original'].conll)} (each row: after "
        f"correcting that category and the ones above; cost: the gain; {PERCENT.note})"
    )
    lines.append(
        "operations: "
        + ", ".join(f"{_OPERATION_LABELS[o]} {n}" for o, n in totals.operations.items())
    )
    if per_document:
        width = max([len(d) for d in analysis.documents] + [8])
        lines.append("")
        header = "".join(f"{_short(c):>8}" for c in CATEGORIES)
        lines.append(f"{'document':<{width}}{header}")
        for doc_id, doc in analysis.documents.items():
            counts = doc.counts.categories
            lines.append(f"{doc_id:<{width}}" + "".join(f"{counts[c]:>8}" for c in CATEGORIES))
    return "\n".join(lines) + "\n"


def _short(category: str) -> str:
    return {
        "span_error": "span",
        "conflated_entities": "confl",
        "extra_mention": "x-ment",
        "extra_entity": "x-ent",
        "divided_entity": "divided",
        "missing_mention": "m-ment",
        "missing_entity": "m-ent",
    }[category]


def _csv(analysis: ErrorAnalysis) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["document", *CATEGORIES])
    for doc_id, doc in analysis.documents.items():
        writer.writerow([doc_id, *(doc.counts.categories[c] for c in CATEGORIES)])
    writer.writerow(["TOTAL", *(analysis.totals.categories[c] for c in CATEGORIES)])
    return out.getvalue()
