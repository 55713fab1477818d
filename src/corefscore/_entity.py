"""``corefscore.model.Entity``, created on first use (only user callables receive one)."""

from __future__ import annotations

from ._record import record
from .model import Span  # at run time too: typing.get_type_hints resolves the fields


@record(frozen=True)
class Entity:
    """One entity as user callables see it (custom CEAF similarity, LEA importance).

    ``levels`` and ``heads`` are parallel to ``mentions`` (``None`` where unknown).
    """

    label: str
    mentions: tuple[Span, ...]
    type: str | None = None
    levels: tuple[str | None, ...] = ()
    heads: tuple[int | None, ...] = ()

    def __len__(self) -> int:
        return len(self.mentions)
