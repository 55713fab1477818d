"""``corefscore metrics``: every metric with its definition and citation."""

from __future__ import annotations

import json
from typing import Any

from ..metrics import CONLL_PARTS, METRICS, REGISTRY


def format_metric_catalogue(*, fmt: str = "text") -> str:
    rows: list[dict[str, Any]] = [
        {
            "name": m.name,
            "aliases": list(m.aliases),
            "default": m.name in METRICS,
            "summary": m.summary,
            "citation": m.citation,
            "requires": list(m.requires),
            "symmetric": m.symmetric,
        }
        for m in REGISTRY.values()
    ]
    if fmt == "json":
        return json.dumps({"metrics": rows, "conll": list(CONLL_PARTS)}, indent=2) + "\n"
    width = max(len(r["name"]) for r in rows)
    lines = []
    for r in rows:
        mark = "*" if r["default"] else " "
        lines.append(f"{mark} {r['name'].ljust(width)}  {r['summary']}")
        extra = [r["citation"]]
        if r["aliases"]:
            extra.append("aliases: " + ", ".join(r["aliases"]))
        if r["requires"]:
            extra.append("needs: " + ", ".join(r["requires"]).replace("_", " "))
        lines.append(f"  {' ' * width}  [{'; '.join(extra)}]")
    lines.append("")
    lines.append(
        "* computed by default (-m all). conll = mean F1 of "
        + ", ".join(CONLL_PARTS)
        + ". Select with -m NAME[,NAME...]."
    )
    return "\n".join(lines) + "\n"
