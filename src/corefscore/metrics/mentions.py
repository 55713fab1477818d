"""Mention identification: exact span matches between key and response."""

from __future__ import annotations

from ..contingency import ContingencyTable


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    """(matched, distinct key spans, matched, distinct response spans)."""
    matched = table.matched_mentions
    return (matched, table.key_mentions, matched, table.response_mentions)
