"""``corefscore twins``: missed and spurious mentions, and twins whose spans differ."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import UsageError
from ..matching import Twins
from ..model import Document, Span

_TEXT_WIDTH = 60  # words shown per mention in the text format, in characters


def twins_summary(twins: Twins) -> dict[str, int]:
    """Mention counts of one document's matching (additive over documents)."""
    inexact = sum(1 for key_span, response_span in twins.pairs if key_span != response_span)
    return {
        "key_mentions": twins.key.mention_count,
        "response_mentions": twins.response.mention_count,
        "twins": len(twins.pairs),
        "exact": len(twins.pairs) - inexact,
        "inexact": inexact,
        "missed": len(twins.missed),
        "spurious": len(twins.spurious),
    }


def format_twins(reports: Mapping[str, Twins], *, fmt: str = "text") -> str:
    """Per document: missed key mentions, spurious response mentions, inexact twins; totals.

    Every mention is shown with its span, its entity label and, when the key
    (or else the response) has words, its words.
    """
    if fmt not in ("text", "json"):
        raise UsageError(f"unknown twins report format {fmt!r}; choose text or json")
    documents = {doc_id: _document(twins) for doc_id, twins in reports.items()}
    total: dict[str, int] = {}
    for doc in documents.values():
        for name, value in doc["summary"].items():
            total[name] = total.get(name, 0) + value
    if fmt == "json":
        return json.dumps({"documents": documents, "total": total}, indent=2) + "\n"
    lines: list[str] = []
    for doc_id, doc in documents.items():
        lines.append(f"document {doc_id}: {_counts(doc['summary'])}")
        for kind in ("missed", "spurious"):
            for mention in doc[kind]:
                lines.append(f"  {kind:<9} {_mention(mention)}")
        for pair in doc["inexact"]:
            lines.append(f"  twin      key {_mention(pair['key'])}")
            lines.append(f"            <- response {_mention(pair['response'])}")
    lines.append(f"total: {_counts(total)}" if total else "total: no documents")
    return "\n".join(lines) + "\n"


def _counts(summary: Mapping[str, int]) -> str:
    return (
        f"{summary['key_mentions']} key and {summary['response_mentions']} response mentions; "
        f"{summary['twins']} twins ({summary['inexact']} with different spans), "
        f"{summary['missed']} missed, {summary['spurious']} spurious"
    )


def _mention(mention: Mapping[str, Any]) -> str:
    start, end = mention["span"]
    out = f"({start}, {end}) entity {mention['entity']}"
    words = mention.get("words")
    if words is not None:
        if len(words) > _TEXT_WIDTH:
            words = words[: _TEXT_WIDTH - 3] + "..."
        out += f" {json.dumps(words, ensure_ascii=False)}"
    return out


def _document(twins: Twins) -> dict[str, Any]:
    words = _words(twins.key) or _words(twins.response)
    key_labels = _labels(twins.key)
    response_labels = _labels(twins.response)

    def describe(span: Span, labels: Mapping[Span, str]) -> dict[str, Any]:
        out: dict[str, Any] = {"span": list(span), "entity": labels.get(span)}
        if words is not None:
            out["words"] = " ".join(words[span[0] : span[1] + 1])
        return out

    # A moved response mention sits on its key twin's span in twins.response.
    inexact = [
        {
            "key": describe(key_span, key_labels),
            "response": {
                **describe(response_span, {}),
                "entity": response_labels.get(key_span),
            },
        }
        for key_span, response_span in twins.pairs
        if key_span != response_span
    ]
    return {
        "summary": twins_summary(twins),
        "missed": [describe(span, key_labels) for span in twins.missed],
        "spurious": [describe(span, response_labels) for span in twins.spurious],
        "inexact": inexact,
    }


def _words(doc: Document) -> tuple[str, ...] | None:
    return doc.syntax.words if doc.syntax is not None else None


def _labels(doc: Document) -> dict[Span, str]:
    """Entity label of each span (the first entity holding it, for a repeated span)."""
    out: dict[Span, str] = {}
    for label, entity in zip(doc.labels, doc.entities):
        for span in entity:
            out.setdefault(span, label)
    return out
