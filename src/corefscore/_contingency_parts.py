"""The records of a contingency table with repeated spans or several documents.

``corefscore.contingency`` names them. A table of one document without
repeated spans has neither, and a run that builds no other does not pay for
creating these dataclasses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._record import record

if TYPE_CHECKING:
    from .contingency import IntArray


@record(frozen=True, eq=False)
class IrregularSpan:
    """A span that occurs more than once on a side: the entities holding each copy."""

    key_entities: tuple[int, ...]
    response_entities: tuple[int, ...]


@record(frozen=True, eq=False)
class Segmentation:
    """Where the entities and mentions of a table spanning several documents belong.

    *Segments* are the units whose statistics are reported apart: the
    documents in per-document scoring, the one partition in cross-document
    scoring. *Groups* are the units whose floating-point terms are added one
    at a time, in table order, as the reference scorer adds them within a
    document: always the documents. A group lies in one segment, and a
    segment's sum is the correctly rounded sum (``math.fsum``) of its groups'
    sums, so that the order of documents never changes a bit.

    ``key_entity[i]`` is the group of key entity ``i`` (the document of its
    first mention), likewise ``response_entity``; ``response_mention[k]`` is
    the group of response mention ``k`` in ``response_cells`` order.
    ``group_segment[g]`` is the segment of group ``g`` (``None``: each group
    is its own segment). ``key_mentions``, ``response_mentions`` and
    ``matched_mentions`` count mentions per segment.
    """

    count: int
    key_entity: IntArray
    response_entity: IntArray
    response_mention: IntArray
    key_mentions: IntArray
    response_mentions: IntArray
    matched_mentions: IntArray
    group_segment: IntArray | None = None

    @property
    def groups(self) -> int:
        """How many summation groups (documents)."""
        return self.count if self.group_segment is None else len(self.group_segment)

    def segment_of(self, groups: IntArray) -> IntArray:
        """The segment of each of ``groups``."""
        return groups if self.group_segment is None else self.group_segment[groups]
