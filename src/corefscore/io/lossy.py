"""What a conversion could not keep: refused, or dropped and counted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..errors import InputError, option
from ..model import Document


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
                f"cannot convert to {self.target}: {detail} (use {option('lossy')} to drop such "
                "items)",
                path=path,
                line=line,
            )
        self.dropped[kind] += 1

    def drop_fact(self, what: str, count: int) -> None:
        self.facts[what] += count

    def warnings(self) -> list[str]:
        out = [
            f"dropped {n} {kind} that {self.target} cannot hold (lossy conversion)"
            for kind, n in self.dropped.items()
        ]
        out += [
            f"{self.target} has no place for {what}; {n} not written"
            for what, n in self.facts.items()
        ]
        return out


#: Per-mention facts by the name a warning gives them.
MENTION_FACTS = {
    "heads": "heads",
    "MIN spans": "min_spans",
    "optional flags": "optional",
    "mention levels": "mention_levels",
}


def drop_mention_facts(doc: Document, losses: Losses, names: Iterable[str]) -> None:
    """Count the mentions whose facts ``names`` (keys of MENTION_FACTS) are not written."""
    for what in names:
        values = getattr(doc, MENTION_FACTS[what])
        count = sum(1 for entity in values for v in entity if v is not None and v is not False)
        if count:
            losses.drop_fact(what, count)


def token_count(doc: Document) -> int:
    """Tokens to write: the words if known, else up to the last mention; refuses a gap."""
    words = doc.syntax.words if doc.syntax is not None else None
    last = max((span[1] for entity in doc.entities for span in entity), default=-1)
    n_tokens = len(words) if words is not None else last + 1
    if last >= n_tokens:
        raise InputError(
            f"document {doc.doc_id!r} has a mention ending at token {last} but only "
            f"{n_tokens} words",
            path=doc.source,
        )
    return n_tokens
