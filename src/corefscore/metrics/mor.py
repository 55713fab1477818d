"""MOR, the mention overlap ratio of the CorefUD evaluation (corefud-scorer v1.2).

Key and response mentions are paired one to one so that the words they share
are as many as possible: R = shared words / key mention words, P = shared
words / response mention words (sizes in words, empty nodes included; every
copy of a mention repeated in two entities counts). It ignores the entities
and the matching mode, so it measures mention detection alone. The pairing is
a maximum-weight assignment within each stretch of overlapping mentions
(mentions sorted by first word; a stretch goes on while the next mention
starts before the furthest end so far), as the official scorer computes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UsageError
from .base import Metric

if TYPE_CHECKING:
    from ..contingency import ContingencyTable
    from ..corefud import UDMention


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    """(shared words, key words, shared words, response words) of one document."""
    pair = table.corefud
    if pair is None:
        raise UsageError("mor is a metric of the CorefUD evaluation (compat='corefud')")
    keys = [m for cluster in pair.key for m in cluster]
    responses = [m for cluster in pair.response for m in cluster]
    # Stable: on equal order, key mentions before response mentions.
    ordered = sorted(
        [(m, True) for m in keys] + [(m, False) for m in responses], key=lambda x: x[0].order
    )
    shared = 0
    region: list[tuple[UDMention, bool]] = []
    reach = None
    for mention, is_key in ordered:
        if region and reach is not None and mention.first > reach:
            shared += _region(region)
            region = []
            reach = None
        region.append((mention, is_key))
        reach = mention.last if reach is None else max(reach, mention.last)
    if region:
        shared += _region(region)
    key_words = sum(len(m.words) for m in keys)
    response_words = sum(len(m.words) for m in responses)
    return (shared, key_words, shared, response_words)


def _region(region: list[tuple[UDMention, bool]]) -> int:
    """The most words a one-to-one pairing of the region's mentions shares (only the
    total counts, so any maximum pairing gives it)."""
    if len(region) <= 2:  # most stretches: one mention, or one of each side
        if len(region) < 2 or region[0][1] == region[1][1]:
            return 0
        return len(region[0][0].words & region[1][0].words)
    # A key and a response mention with the same words are paired: some maximum
    # pairing holds them (exchanging partners with them never loses words), so
    # only the others are left to the assignment.
    unpaired: dict[frozenset[object], list[UDMention]] = {}
    for m, is_key in region:
        if is_key:
            unpaired.setdefault(m.words, []).append(m)
    shared = 0
    responses = []
    for m, is_key in region:
        if not is_key:
            same = unpaired.get(m.words)
            if same:
                same.pop()
                shared += len(m.words)
            else:
                responses.append(m)
    keys = [m for group in unpaired.values() for m in group]
    if not keys or not responses:
        return shared
    if len(keys) == 1 and len(responses) == 1:
        return shared + len(keys[0].words & responses[0].words)
    from .ceaf import _maximum_assignment

    overlap = [[float(len(k.words & s.words)) for s in responses] for k in keys]
    return shared + int(sum(overlap[i][j] for i, j in _maximum_assignment(overlap)))


DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="mor",
        statistics=statistics,
        summary="mention overlap ratio: words shared by a one-to-one pairing of mentions",
        citation="corefud-scorer v1.2 (CRAC shared tasks); Universal Anaphora scorer 2.0",
        requires=("corefud",),
    ),
)
