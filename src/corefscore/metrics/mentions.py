"""Mention identification: exact span matches between key and response."""

from __future__ import annotations

from ..contingency import ContingencyTable
from .base import Metric


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    """(matched, distinct key spans, matched, distinct response spans)."""
    matched = table.matched_mentions
    return (matched, table.key_mentions, matched, table.response_mentions)


DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="mentions",
        statistics=statistics,
        summary="mention identification: key and response spans that match exactly",
        citation="Pradhan et al. 2014 (P14-2006), reference scorer v8.01",
        aliases=("mention",),
    ),
)
