"""What a conversion could not keep: refused, or dropped and counted."""

from __future__ import annotations

from collections import Counter

from ..errors import InputError


class Losses:
    """Collects what a writer cannot hold in its target format.

    Structure (a discontinuous mention, crossing mentions of one entity) is
    refused with an error naming the first case, unless ``allow`` (the CLI's
    ``--lossy``): then it is dropped and counted. Facts the target has no
    field for (heads, MIN spans, ...) are always dropped and counted.
    """

    def __init__(self, *, allow: bool, target: str) -> None:
        self.allow = allow
        self.target = target
        self.dropped: Counter[str] = Counter()
        self.facts: Counter[str] = Counter()

    def refuse(self, kind: str, detail: str, *, path: str | None, line: int | None) -> None:
        if not self.allow:
            raise InputError(
                f"cannot convert to {self.target}: {detail} (use --lossy to drop such items)",
                path=path,
                line=line,
            )
        self.dropped[kind] += 1

    def drop_fact(self, what: str, count: int) -> None:
        self.facts[what] += count

    def warnings(self) -> list[str]:
        out = [
            f"dropped {n} {kind} that {self.target} cannot hold (--lossy)"
            for kind, n in self.dropped.items()
        ]
        out += [
            f"{self.target} has no place for {what}; {n} not written"
            for what, n in self.facts.items()
        ]
        return out
