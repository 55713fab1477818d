"""CEAF's alignment records, created on first use.

``corefscore.metrics.ceaf`` names them. The reference metrics score small
documents by their list formulas, which align no arrays and report no
alignment: a run that never asks for one does not pay for creating these
dataclasses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._record import record
from ..model import Span  # at run time too: typing.get_type_hints resolves the fields
from .base import ratio, sequential_sum

if TYPE_CHECKING:
    import numpy as np


@record(frozen=True)
class Alignment:
    """The optimal alignment: ``similarity[k]`` between key row and response column.

    Pairs are in key entity order.
    """

    key_entities: np.ndarray
    response_entities: np.ndarray
    similarity: np.ndarray

    @property
    def total(self) -> float:
        """Φ*, added as the reference adds it: 1 - (1 - φ) per key entity, in key order."""
        return sequential_sum(1 - (1 - self.similarity))


@record(frozen=True)
class AlignedPair:
    """A key entity and the response entity the optimal alignment gives it."""

    key_entity: int
    response_entity: int
    key_label: str
    response_label: str
    similarity: float
    key_mentions: tuple[Span, ...] = ()
    response_mentions: tuple[Span, ...] = ()

    @property
    def shared(self) -> int:
        """How many mentions the two entities share."""
        return len(set(self.key_mentions) & set(self.response_mentions))

    def to_dict(self) -> dict[str, Any]:
        return {
            "key_entity": self.key_entity,
            "response_entity": self.response_entity,
            "key_label": self.key_label,
            "response_label": self.response_label,
            "similarity": self.similarity,
            "key_mentions": [list(m) for m in self.key_mentions],
            "response_mentions": [list(m) for m in self.response_mentions],
        }


@record(frozen=True)
class EntityAlignment:
    """The optimal CEAF alignment of one document.

    ``pairs`` are in key entity order and have similarity > 0; the other
    entities are listed by label in ``unaligned_key``/``unaligned_response``
    (their mentions in the parallel ``*_mentions`` tuples). ``total`` is Φ*,
    ``key_self`` Σφ(K,K) and ``response_self`` Σφ(R,R), so recall is
    ``total / key_self`` and precision ``total / response_self``.
    """

    doc_id: str
    metric: str
    pairs: tuple[AlignedPair, ...]
    unaligned_key: tuple[str, ...]
    unaligned_response: tuple[str, ...]
    total: float
    key_self: float
    response_self: float
    unaligned_key_mentions: tuple[tuple[Span, ...], ...] = ()
    unaligned_response_mentions: tuple[tuple[Span, ...], ...] = ()

    @property
    def recall(self) -> float:
        return ratio(self.total, self.key_self)

    @property
    def precision(self) -> float:
        return ratio(self.total, self.response_self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "metric": self.metric,
            "total": self.total,
            "key_self": self.key_self,
            "response_self": self.response_self,
            "recall": self.recall,
            "precision": self.precision,
            "pairs": [p.to_dict() for p in self.pairs],
            "unaligned_key": list(self.unaligned_key),
            "unaligned_response": list(self.unaligned_response),
            "unaligned_key_mentions": [[list(m) for m in e] for e in self.unaligned_key_mentions],
            "unaligned_response_mentions": [
                [list(m) for m in e] for e in self.unaligned_response_mentions
            ],
        }
