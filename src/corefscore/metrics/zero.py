"""The zero score of the CorefUD evaluation: anaphor-level scoring of zero anaphors.

Each key mention that is a zero (its head is an empty node) and is not the
first mention of its key entity is an anaphor; it is right (tp) when the
response mention it finds lies in a response entity that also holds one of
the earlier mentions of its key entity, wrong (wl) when it is found in
another entity, missed (fn) when it is not found or only as the first mention
of a response entity. A response zero that no key anaphor found and that is
not the first of its entity is spurious (fp). R = tp / (tp + fn + wl),
P = tp / (tp + fp + wl). A key mention is found first by its own words (the
response mention with the same words), then through the matching: the
official scorer's order, kept because it decides numbers.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..errors import UsageError
from .base import Metric

if TYPE_CHECKING:
    from ..contingency import ContingencyTable
    from ..corefud import UDMention


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    """(tp, tp + fn + wl, tp, tp + fp + wl) of one document."""
    pair = table.corefud
    if pair is None:
        raise UsageError("zero is a metric of the CorefUD evaluation (compat='corefud')")

    def order(m: UDMention) -> tuple[object, ...]:
        return m.order

    key = [sorted(c, key=order) for c in pair.key]
    response = [sorted(c, key=order) for c in pair.response]
    firsts = {c[0].identity for c in response if c}
    tp = fp = fn = wl = 0
    covered: set[Hashable] = set()
    for cluster in key:
        earlier: set[int] = set()
        for i, mention in enumerate(cluster):
            found: UDMention | None
            if mention.identity in pair.response_map:
                found = mention
            else:
                found = pair.lookup.get(mention.identity)
            entity = pair.response_map.get(found.identity) if found is not None else None
            if i > 0 and mention.zero:
                if found is None or found.identity in firsts:
                    fn += 1
                elif entity not in earlier:
                    wl += 1
                else:
                    tp += 1
                if found is not None:
                    covered.add(found.identity)
            if entity is not None:
                earlier.add(entity)
    for cluster in response:
        for mention in cluster:
            if mention.zero and mention.identity not in firsts and mention.identity not in covered:
                fp += 1
    return (tp, tp + fn + wl, tp, tp + fp + wl)


DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="zero",
        statistics=statistics,
        summary="zero anaphors: anaphor-level scores of the key's zeros (CorefUD evaluation)",
        citation="corefud-scorer v1.2 (CRAC 2024 zero score); Universal Anaphora scorer 2.0",
        requires=("corefud",),
    ),
)
