"""The ``--regimes`` table: one response scored under every evaluation regime."""

from __future__ import annotations

import json
from collections.abc import Mapping

from ..regimes import REGIME_DESCRIPTIONS
from ..result import SCHEMA_VERSION, ScoreResult
from .numbers import PERCENT, Percent
from .text import LABELS


def format_regimes(
    results: Mapping[str, ScoreResult], *, fmt: str = "text", percent: Percent = PERCENT
) -> str:
    """F1 of every metric (rows: regimes), or every result as JSON."""
    if fmt == "json":
        data = {
            "schema_version": SCHEMA_VERSION,
            "regimes": {
                name: {"description": REGIME_DESCRIPTIONS.get(name, ""), **result.to_dict()}
                for name, result in results.items()
            },
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if not results:
        return ""
    first = next(iter(results.values()))
    metrics = list(first.metrics)
    header = ["regime", *(LABELS.get(m, m) for m in metrics)]
    if first.conll is not None:
        header.append("CoNLL")
    rows = [header]
    for name, result in results.items():
        row = [name, *(percent(result.metrics[m].f1) for m in metrics)]
        if result.conll is not None:
            row.append(percent(result.conll))
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["F1 under each evaluation regime"]
    for k, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    for name, result in results.items():
        lines.append(f"{name}: {REGIME_DESCRIPTIONS.get(name, '')}")
        lines.append(f"  {result.signature}")
    return "\n".join(lines) + "\n"
