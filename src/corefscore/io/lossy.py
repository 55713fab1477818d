"""What a conversion could not keep: refused, or dropped and counted."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import TypeVar

from .._record import replace
from ..errors import InputError, option
from ..model import Corpus, Document, Span

T = TypeVar("T")
_NUMBER = re.compile(r"[0-9]+")


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
        self.notes: Counter[str] = Counter()

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

    def note(self, what: str, count: int) -> None:
        """Count items written in a form some readers of the target misread."""
        self.notes[what] += count

    def warnings(self) -> list[str]:
        out = [
            f"dropped {n} {kind} that {self.target} cannot hold (lossy conversion)"
            for kind, n in self.dropped.items()
        ]
        out += [
            f"{self.target} has no place for {what}; {n} not written"
            for what, n in self.facts.items()
        ]
        out += [f"{n} {what}" for what, n in self.notes.items()]
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


# --------------------------------------------------------------------------------------------
# Universal Anaphora facts: split antecedents, non-referring markables, bridging


def split_members(doc: Document) -> tuple[Document, dict[int, list[int]]]:
    """``doc`` with every split-antecedent member that is none of its entities
    added as an entity, and each plural entity's members as entity indices.

    A member is an entity given by its mentions; the writers name it by an
    entity id, so one that is not an entity of the document (a singleton
    dropped after reading, say) is written as an entity of its own, at the
    end, rather than lost. Members match entities by their sets of spans;
    their order is that of the entities.
    """
    if not any(split for split in doc.split_antecedents):
        return doc, {}
    by_spans: dict[frozenset[Span], int] = {}
    for e, entity in enumerate(doc.entities):
        by_spans.setdefault(frozenset(entity), e)
    added: list[tuple[Span, ...]] = []
    members: dict[int, list[int]] = {}
    for e, split in enumerate(doc.split_antecedents):
        if not split:
            continue
        found: set[int] = set()
        # Sorted, so that added entities come in the same order on every run.
        for member in sorted(split):
            if not member:
                continue
            key = frozenset(member)
            if key not in by_spans:
                by_spans[key] = len(doc.entities) + len(added)
                added.append(tuple(member))
            if by_spans[key] != e:
                found.add(by_spans[key])
        members[e] = sorted(found)
    return (_with_entities(doc, added) if added else doc), members


def _with_entities(doc: Document, added: list[tuple[Span, ...]]) -> Document:
    """``doc`` with entities ``added`` at the end, their per-mention facts unknown."""

    def extended(values: tuple[tuple[T, ...], ...], unknown: T) -> tuple[tuple[T, ...], ...]:
        if not values:
            return values
        return values + tuple((unknown,) * len(entity) for entity in added)

    used = set(doc.labels)
    # New ids in the style of the others: numbers after numbers (CoNLL, UA), else e<n>.
    prefix = "" if all(_NUMBER.fullmatch(x) for x in doc.labels) else "e"
    labels = list(doc.labels)
    n = len(doc.entities)
    for _ in added:
        n += 1
        while f"{prefix}{n}" in used:
            n += 1
        labels.append(f"{prefix}{n}")
    more = len(added)
    return replace(
        doc,
        entities=doc.entities + tuple(added),
        labels=tuple(labels),
        lines=doc.lines + tuple((0,) * len(entity) for entity in added),
        heads=extended(doc.heads, None),
        min_spans=extended(doc.min_spans, None),
        mention_levels=extended(doc.mention_levels, None),
        entity_types=doc.entity_types + (None,) * more if doc.entity_types else (),
        optional=extended(doc.optional, False),
        pieces=extended(doc.pieces, None),
        split_antecedents=doc.split_antecedents + (None,) * more,
    )


def mention_line(doc: Document, span: Span) -> int | None:
    """The source line of the first mention with ``span``, if any."""
    for e, entity in enumerate(doc.entities):
        if span in entity:
            return doc.line_of(e, entity.index(span))
    return None


def _annotation_line(doc: Document, key: str, index: int, parallel: int) -> int | None:
    """The line a reader recorded for item ``index`` of ``annotations[key]``
    (the UA reader's markables and bridging pairs), when it is parallel to its field."""
    records = doc.annotations.get(key)
    if not isinstance(records, tuple) or len(records) != parallel:
        return None
    line = getattr(records[index], "line", None)
    return line if isinstance(line, int) and line > 0 else None


def refuse_non_referring(doc: Document, losses: Losses) -> None:
    """Refuse each non-referring markable of ``doc``: ``losses.target`` has no place for one."""
    for i, span in enumerate(doc.non_referring):
        losses.refuse(
            "non-referring markables",
            f"document {doc.doc_id!r}: non-referring markable {span} (in no entity) has no "
            f"place in {losses.target}",
            path=doc.source,
            line=_annotation_line(doc, "ua_non_referring", i, len(doc.non_referring)),
        )


def refuse_bridging(doc: Document, index: int, why: str, losses: Losses) -> None:
    """Refuse bridging pair ``doc.bridging[index]`` for reason ``why``."""
    anaphor, antecedent = doc.bridging[index]
    line = _annotation_line(doc, "ua_bridging", index, len(doc.bridging))
    losses.refuse(
        "bridging links",
        f"document {doc.doc_id!r}: bridging link from {anaphor} to antecedent {antecedent}: {why}",
        path=doc.source,
        line=line if line is not None else mention_line(doc, anaphor),
    )


def refuse_anaphora(corpus: Corpus, losses: Losses) -> None:
    """Refuse the split antecedents, non-referring markables and bridging links
    of ``corpus``, for a target that holds none of them (CoNLL, jsonlines, JSON)."""
    for doc in corpus:
        for e, split in enumerate(doc.split_antecedents):
            if split:
                losses.refuse(
                    "split antecedents",
                    f"document {doc.doc_id!r}, entity {doc.labels[e]}: its split antecedent "
                    f"({len(split)} entities) has no place in {losses.target}",
                    path=doc.source,
                    line=doc.line_of(e, 0) if doc.entities[e] else None,
                )
        refuse_non_referring(doc, losses)
        for i in range(len(doc.bridging)):
            refuse_bridging(doc, i, f"{losses.target} has no place for bridging", losses)
