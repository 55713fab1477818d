"""The optimal CEAF entity alignment of each document, as text or JSON (``--show-alignment``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from ..errors import UsageError
from ..metrics.ceaf import EntityAlignment
from ..model import Span


def _number(x: float) -> str:
    """Integers as integers, other values to six decimals without trailing zeros."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.6f}".rstrip("0")


def _percent(x: float) -> str:
    return f"{100 * x:.2f}%"


def _mentions(spans: Iterable[Span], shared: set[Span] | None = None) -> str:
    # A star marks the mentions the aligned partner has too, so a reader sees
    # at a glance what the similarity was computed from.
    out = []
    for start, end in spans:
        text = f"{start}" if start == end else f"{start}-{end}"
        if shared is not None and (start, end) in shared:
            text += "*"
        out.append(text)
    return " ".join(out) if out else "-"


def _text(alignment: EntityAlignment) -> list[str]:
    a = alignment
    lines = [
        f"{a.doc_id}  {a.metric}: Φ* = {_number(a.total)}; "
        f"recall {_number(a.total)}/{_number(a.key_self)} = {_percent(a.recall)}; "
        f"precision {_number(a.total)}/{_number(a.response_self)} = {_percent(a.precision)}"
    ]
    width = max((len(p.key_label) for p in a.pairs), default=0)
    for p in a.pairs:
        shared = set(p.key_mentions) & set(p.response_mentions)
        lines.append(
            f"  key {p.key_label.ljust(width)} -> response {p.response_label}"
            f"  φ = {_number(p.similarity)}"
        )
        lines.append(f"      key:      {_mentions(p.key_mentions, shared)}")
        lines.append(f"      response: {_mentions(p.response_mentions, shared)}")
    for side, labels, mentions in (
        ("key", a.unaligned_key, a.unaligned_key_mentions),
        ("response", a.unaligned_response, a.unaligned_response_mentions),
    ):
        if not labels:
            lines.append(f"  unaligned {side} entities: none")
            continue
        lines.append(f"  unaligned {side} entities: {len(labels)}")
        for k, label in enumerate(labels):
            spans = mentions[k] if k < len(mentions) else ()
            lines.append(f"    {label}: {_mentions(spans)}")
    return lines


def format_alignment(
    alignments: Mapping[str, EntityAlignment] | Iterable[EntityAlignment],
    fmt: str = "text",
) -> str:
    """Each document's alignment: which key entity maps to which response entity.

    ``alignments`` is a mapping of document id to ``EntityAlignment``
    (as the scorer returns them) or an iterable of them. In ``text``, mentions
    are token positions (``start-end`` for longer spans) and a ``*`` marks a
    mention both aligned entities contain; ``json`` is a list of
    ``EntityAlignment.to_dict``.
    """
    items = list(alignments.values() if isinstance(alignments, Mapping) else alignments)
    if fmt == "json":
        return json.dumps([a.to_dict() for a in items], indent=2, ensure_ascii=False) + "\n"
    if fmt != "text":
        raise UsageError(f"unknown alignment format {fmt!r}; choose text or json")
    blocks = ["\n".join(_text(a)) for a in items]
    header = "Optimal CEAF entity alignments (* = mention shared with the aligned entity)"
    return "\n\n".join([header, *blocks]) + "\n"


__all__ = ["format_alignment"]
