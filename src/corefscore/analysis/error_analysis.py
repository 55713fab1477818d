"""Error analysis: the categories of Kummerfeld & Klein (2013), and their cost in points.

"Error-Driven Analysis of Challenges in Coreference Resolution" (EMNLP 2013)
turns a response into the key by a sequence of transformations and names each
one; its tool is the Berkeley Coreference Analyser. This module implements the
same procedure on corefscore's corpus, document by document:

1. **Span errors.** A response mention that is not a key mention is moved onto
   the key mention it stands for: first when the two are equal once a leading
   ``the`` or one-character non-letter token and a trailing ``'s`` or
   one-character non-letter token are trimmed (same sentence), then when it is
   the only unmatched response mention and the key mention the only unmatched
   key mention with that head token in that sentence.
2. **Pieces.** Each response entity is split along the key entities
   (one *split* per piece that is not the whole entity), its mentions in no key
   entity are split off alone and *removed*; each key mention absent from the
   response is *introduced*; each piece smaller than its key entity is *merged*
   into it.
3. **Categories**, in this order, each explaining some of those operations:
   an *extra entity* (a response entity without a non-pronoun key mention, at
   least two of whose mentions are in no key entity), a *missing entity* (a key
   entity of which at least two mentions are missing and only pronouns are
   present), the pieces holding an entity's *anchor* (its earliest non-pronoun
   mention, which the entity "stays" or "grows" from: not errors), *extra
   mentions* (the remaining mentions split off alone), *missing mentions* (the
   remaining single introduced mentions merged in); the splits left are
   **conflated entities** and the merges left **divided entities**.

Counting follows the analyser: a response entity mixing k key entities gives
k - 1 conflated entities, a key entity in k pieces k - 1 divided entities, and
one wrong link usually both. ``docs/analysis.md`` states the rules in full and
the deliberate differences from the analyser (``docs/compatibility.md``).

The score after each step is the CoNLL score of the response with the errors of
that category and the ones before it corrected, the way the analyser writes its
corrected files: the difference between two steps is what the category costs.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import chain, count, filterfalse, repeat
from operator import attrgetter, itemgetter
from typing import Any, Literal, TypeVar

from .._record import field, made_from, record
from ..errors import InputError, UsageError
from ..model import Corpus, Document, Span, Syntax

#: The seven categories, in the order the analyser corrects them.
CATEGORIES = (
    "span_error",
    "conflated_entities",
    "extra_mention",
    "extra_entity",
    "divided_entity",
    "missing_mention",
    "missing_entity",
)

#: The analyser's names of the categories.
LABELS = {
    "span_error": "Span Error",
    "conflated_entities": "Conflated Entities",
    "extra_mention": "Extra Mention",
    "extra_entity": "Extra Entity",
    "divided_entity": "Divided Entity",
    "missing_mention": "Missing Mention",
    "missing_entity": "Missing Entity",
}

#: The raw operations of step 2 (and the span corrections of step 1).
OPERATIONS = ("correct_span", "introduce", "split", "merge", "remove")

#: Mention types, as the analyser assigns them (see ``mention_type``).
MENTION_TYPES = ("name", "nominal", "pronoun")

#: The corrected responses that are scored, in order (each includes the ones before).
STEPS = ("original", *CATEGORIES)

# The analyser's pronoun words (its ``pronoun_properties`` table): a one-token
# mention with one of these words is a pronoun whatever its tag.
PRONOUN_WORDS = frozenset(
    """her hers herself she he him himself his our ours yours ourselves yourselves
    they their theirs them 'em em themselves us we whoever whomever whose i me mine
    my myself one thyself ya you your yourself it its itself what when where which
    how whatever who whom everybody everyone anybody anyone somebody someone nobody
    all few several some many most none noone something nothing everything that this
    these those""".split()
)
# Pronoun tags: the analyser's Penn Treebank ones, and the Universal POS tags of
# CoNLL-U files that stand for them.
PRONOUN_TAGS = frozenset({"PRP", "PRP$", "WP", "WP$", "WDT", "WRB", "DT", "PRON", "DET"})
NAME_TAGS = frozenset({"NNP", "NNPS", "PROPN"})

HeadRule = Literal["syntax", "last"]
#: A custom head rule: (document id, span) -> the head token (a document position).
HeadFunction = Callable[[str, Span], int]

# A mention as the analyser has it: (sentence, first token, end) with positions
# within the sentence and the end exclusive; tuples order mentions as the text does.
_Mention = tuple[int, int, int]
_Cluster = frozenset[_Mention]


@record(frozen=True)
class ErrorInstance:
    """One error: its category, the mentions it is about (document spans), and the
    mention type that stands for it (of the mention, or of the part's anchor)."""

    category: str
    mentions: tuple[Span, ...]
    mention_type: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "mentions": [list(span) for span in self.mentions],
            "mention_type": self.mention_type,
        }


@record(frozen=True)
class ErrorCounts:
    """How many errors of each category, of each category by mention type, and how
    many raw operations (``OPERATIONS``)."""

    categories: Mapping[str, int]
    by_type: Mapping[str, Mapping[str, int]]
    operations: Mapping[str, int]

    @classmethod
    def of(cls, errors: Iterable[ErrorInstance], operations: Mapping[str, int]) -> ErrorCounts:
        kinds = Counter(map(attrgetter("category", "mention_type"), errors))
        categories: Counter[str] = Counter()
        for (category, _), n in kinds.items():
            categories[category] += n
        # get(): a Counter's missing key would cost a call of its __missing__.
        by_type = {c: {t: kinds.get((c, t), 0) for t in MENTION_TYPES} for c in CATEGORIES}
        return cls(
            categories={c: categories.get(c, 0) for c in CATEGORIES},
            by_type=by_type,
            operations={o: int(operations.get(o, 0)) for o in OPERATIONS},
        )

    @classmethod
    def total(cls, parts: Iterable[ErrorCounts]) -> ErrorCounts:
        parts = list(parts)
        return cls(
            categories={c: sum(p.categories[c] for p in parts) for c in CATEGORIES},
            by_type={
                c: {t: sum(p.by_type[c][t] for p in parts) for t in MENTION_TYPES}
                for c in CATEGORIES
            },
            operations={o: sum(p.operations[o] for p in parts) for o in OPERATIONS},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "categories": dict(self.categories),
            "by_type": {c: dict(t) for c, t in self.by_type.items()},
            "operations": dict(self.operations),
        }


@record(frozen=True)
class DocumentErrors:
    """The errors of one document."""

    doc_id: str
    counts: ErrorCounts
    errors: tuple[ErrorInstance, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "counts": self.counts.to_dict(),
            "errors": [e.to_dict() for e in self.errors],
        }


@record(frozen=True)
class Step:
    """The scores of the response with the errors up to one category corrected."""

    name: str
    #: metric -> F1 (a fraction), for MUC, B³ and CEAFe.
    f1: Mapping[str, float]
    conll: float

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.name, "f1": dict(self.f1), "conll": self.conll}


@record(frozen=True)
class ErrorAnalysis:
    """The error analysis of a response: per document, in total, and the score
    after each correction step (``STEPS``)."""

    documents: Mapping[str, DocumentErrors]
    totals: ErrorCounts
    steps: tuple[Step, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    def cost(self, category: str) -> float:
        """CoNLL points (a fraction) gained by correcting ``category`` after the
        categories before it."""
        names = [s.name for s in self.steps]
        at = names.index(category)
        return self.steps[at].conll - self.steps[at - 1].conll

    def to_dict(self) -> dict[str, Any]:
        return {
            "options": dict(self.options),
            "totals": self.totals.to_dict(),
            "steps": [
                {**s.to_dict(), "cost": self.cost(s.name) if s.name != "original" else None}
                for s in self.steps
            ],
            "documents": {d: e.to_dict() for d, e in self.documents.items()},
            "warnings": list(self.warnings),
        }


class _Text:
    """A document's tokens by sentence: words, tags and heads for the analysis."""

    def __init__(self, doc: Document, syntax: Syntax | None, heads: HeadRule | HeadFunction):
        self.doc_id = doc.doc_id
        self.syntax = syntax
        starts = list(syntax.sentence_starts) if syntax is not None else []
        if not starts or starts[0] != 0:
            starts.insert(0, 0)
        self.starts = starts
        self.words = syntax.words if syntax is not None else None
        self.pos = syntax.pos if syntax is not None else None
        self.heads = heads
        # The head finder is made on first use: most mentions never need a head.
        self._finder: Any = None
        self._by_syntax = (
            heads == "syntax"
            and syntax is not None
            and (syntax.parse is not None or syntax.dependency_heads is not None)
        )
        self._types: dict[_Mention, str] = {}
        self._anchors: dict[frozenset[_Mention], _Mention | None] = {}
        self.spans: dict[_Mention, Span] = {}

    def check_spans(self, spans: Iterable[Span]) -> None:
        """Refuse mentions beyond the key's words: a format without tokens (JSON
        clusters) cannot be checked when read."""
        if self.words is None:
            return
        size = len(self.words)
        beyond = [span for span in spans if span[1] >= size]
        if beyond:
            span = beyond[0]
            raise InputError(
                f"document {self.doc_id!r}: mention {span} lies beyond the key's "
                f"{len(self.words)} tokens; the error analysis reads the key's words"
            )

    def mention(self, span: Span) -> _Mention | None:
        """The analyser's mention of a document span; ``None`` across sentences."""
        if self.words is not None and span[1] >= len(self.words):
            # A format without tokens (JSON clusters) cannot be checked when read.
            raise InputError(
                f"document {self.doc_id!r}: mention {span} lies beyond the key's "
                f"{len(self.words)} tokens; the error analysis reads the key's words"
            )
        first = bisect_right(self.starts, span[0]) - 1
        offset = self.starts[first]
        if first + 1 < len(self.starts) and span[1] >= self.starts[first + 1]:
            return None
        mention = (first, span[0] - offset, span[1] + 1 - offset)
        self.spans[mention] = span
        return mention

    def span(self, mention: _Mention) -> Span:
        found = self.spans.get(mention)
        if found is None:
            offset = self.starts[mention[0]]
            found = self.spans[mention] = (mention[1] + offset, mention[2] - 1 + offset)
        return found

    def word(self, sentence: int, index: int) -> str:
        if self.words is None:
            return ""
        return self.words[self.starts[sentence] + index]

    def head(self, mention: _Mention) -> int:
        """The head token of a mention, as a position in its sentence."""
        span = self.span(mention)
        if callable(self.heads):
            head = self.heads(self.doc_id, span)
        elif self._by_syntax:
            if self._finder is None:
                from ..heads import HeadFinder

                assert self.syntax is not None
                self._finder = HeadFinder(self.syntax)
            head = self._finder.head(span)
        else:
            head = span[1]
        return head - self.starts[mention[0]]

    def mention_type(self, mention: _Mention) -> str:
        """name, nominal or pronoun, by the analyser's rule (``docs/analysis.md``)."""
        found = self._types.get(mention)
        if found is None:
            sentence, start, end = mention
            head = self.starts[sentence] + (start if end - start == 1 else self.head(mention))
            tag = self.pos[head] if self.pos is not None else ""
            word = self.words[head].lower() if self.words is not None else ""
            if end - start == 1 and (tag in PRONOUN_TAGS or word in PRONOUN_WORDS):
                found = "pronoun"
            elif tag in NAME_TAGS:
                found = "name"
            else:
                found = "nominal"
            self._types[mention] = found
        return found

    def is_pronoun(self, mention: _Mention) -> bool:
        # Only a one-token mention can be a pronoun (no head needed to say so).
        return mention[2] - mention[1] == 1 and self.mention_type(mention) == "pronoun"

    def anchor(self, cluster: Iterable[_Mention]) -> _Mention | None:
        """The earliest non-pronoun mention of ``cluster`` (``None`` if all are pronouns)."""
        if isinstance(cluster, frozenset):
            # The same entities and pieces are asked about again and again.
            if cluster in self._anchors:
                return self._anchors[cluster]
            found = self._anchors[cluster] = self._anchor(cluster)
            return found
        return self._anchor(cluster)

    def _anchor(self, cluster: Iterable[_Mention]) -> _Mention | None:
        # The earliest mention is usually no pronoun: then it is the anchor, found
        # without the type of every mention.
        cluster = list(cluster)
        first = min(cluster, default=None)
        if first is None or not self.is_pronoun(first):
            return first
        return min(filterfalse(self.is_pronoun, cluster), default=None)

    def trimmed(self, mention: _Mention) -> tuple[int, int, int]:
        """The mention without a leading "the" or one-character non-letter token,
        and without a trailing "'s" or one-character non-letter token (repeatedly,
        never below one token)."""
        sentence, start, end = mention
        while start < end - 1 and _trimmable(self.word(sentence, start), "the"):
            start += 1
        while start < end - 1 and _trimmable(self.word(sentence, end - 1), "'s"):
            end -= 1
        return sentence, start, end


_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _trimmable(word: str, extra: str) -> bool:
    return word == extra or (len(word) == 1 and word not in _LETTERS)


# The changes of a group, thousands per corpus: plain classes, as a record's
# generic __init__ costs several times their own. Equal by their fields, as records.
class _Split:
    """``part`` split off the response entity ``whole``."""

    __slots__ = ("nowhere", "part", "whole")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, part: _Cluster, whole: _Cluster, nowhere: bool) -> None:
        self.part = part
        self.whole = whole
        self.nowhere = nowhere  # a mention in no key entity, split off alone

    def __eq__(self, other: object) -> bool:
        if type(other) is not _Split:
            return NotImplemented
        return (self.part, self.whole, self.nowhere) == (other.part, other.whole, other.nowhere)

    def __repr__(self) -> str:
        return f"_Split(part={self.part!r}, whole={self.whole!r}, nowhere={self.nowhere!r})"


class _Merge:
    """``part`` merged into the key entity ``whole``."""

    __slots__ = ("part", "whole")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, part: _Cluster, whole: _Cluster) -> None:
        self.part = part
        self.whole = whole

    def __eq__(self, other: object) -> bool:
        if type(other) is not _Merge:
            return NotImplemented
        return (self.part, self.whole) == (other.part, other.whole)

    def __repr__(self) -> str:
        return f"_Merge(part={self.part!r}, whole={self.whole!r})"


_Change = TypeVar("_Change", _Split, _Merge)
_UNSEEN = object()


class _Document:
    """The analysis of one document, on the analyser's mentions."""

    def __init__(
        self,
        text: _Text,
        key: list[list[_Mention]],
        response: list[list[_Mention]],
    ):
        self.text = text
        self.gold = [frozenset(e) for e in key if e]
        self.gold_of = _entity_of(self.gold)
        self.auto = [list(e) for e in response if e]
        # The response's entity of each mention, kept up to date by the span
        # corrections (which move a mention within its entity: none empties).
        self.auto_of = _entity_of(self.auto)
        self.errors: list[ErrorInstance] = []
        self.operations: Counter[str] = Counter()
        # The corrected responses, one per step (mention -> entity number).
        self.states: dict[str, dict[_Mention, int]] = {}
        self._fresh = count(len(self.auto))

    # Step 1 ---------------------------------------------------------------

    def correct_spans(self) -> None:
        text = self.text
        auto_of = self.auto_of
        self.states["original"] = dict(auto_of)
        mapping: dict[_Mention, _Mention] = {}
        used: set[_Mention] = set()
        gold_of = self.gold_of
        extra, missing = _facing(auto_of.keys() - gold_of.keys(), gold_of.keys() - auto_of.keys())
        # The unmatched key mentions by their trimmed span (which holds the sentence),
        # in text order: each response mention looks at its own candidates only.
        candidates: dict[tuple[int, int, int], list[_Mention]] = {}
        for g in missing:
            candidates.setdefault(text.trimmed(g), []).append(g)
        for a in extra:
            for g in candidates.get(text.trimmed(a), ()):
                if g not in used:
                    # Every match is taken, the last one wins (as in the analyser).
                    mapping[a] = g
                    used.add(g)
        self._move(mapping, auto_of)
        # The moves leave the other unmatched mentions unmatched, and add none.
        moved = set(mapping.values())
        facing = _facing(
            [a for a in extra if a not in mapping], [g for g in missing if g not in moved]
        )
        by_head: dict[tuple[int, int], tuple[list[_Mention], list[_Mention]]] = {}
        for side, mentions in enumerate(facing):
            for m in mentions:
                by_head.setdefault((m[0], text.head(m)), ([], []))[side].append(m)
        mapping = {a[0]: g[0] for a, g in by_head.values() if len(a) == 1 and len(g) == 1}
        self._move(mapping, auto_of)

    def _move(self, mapping: Mapping[_Mention, _Mention], auto_of: dict[_Mention, int]) -> None:
        for a, g in mapping.items():
            entity = auto_of.pop(a)
            auto_of[g] = entity
            self.auto[entity].remove(a)
            self.auto[entity].append(g)
            self.operations["correct_span"] += 1
            self._error("span_error", (g,), self.text.mention_type(g))

    # Steps 2 and 3 -------------------------------------------------------------

    def categorise(self) -> None:
        auto = [frozenset(e) for e in self.auto]
        auto_of = self.auto_of
        state = dict(auto_of)
        groups = _confusion_groups(auto, self.gold, auto_of, self.gold_of)
        # Each category's changes, group after group.
        found: dict[str, list[Any]] = {category: [] for category in CATEGORIES[1:]}
        for auto_ids, gold_ids in groups:
            # Most groups are one response entity, one key entity, or one of each:
            # those take the shortcuts, which give what _group gives.
            if len(auto_ids) == 1 and len(gold_ids) == 1:
                whole, entity = auto[auto_ids[0]], self.gold[gold_ids[0]]
                if whole != entity:
                    self._one_on_one(whole, entity, found)
                continue
            if not gold_ids:
                self._extra_entity(auto[auto_ids[0]], found)
                continue
            if not auto_ids:
                self._missing_entity(self.gold[gold_ids[0]], found)
                continue
            group_auto = [auto[i] for i in auto_ids]
            group_gold = [self.gold[i] for i in gold_ids]
            if set(group_auto) == set(group_gold) and len(group_auto) == len(group_gold):
                continue
            self._group(group_auto, gold_ids, auto_of, found)
        self.states["span_error"] = dict(state)
        self._correct(found, state)

    def _group(
        self,
        auto: list[_Cluster],
        gold_ids: list[int],
        auto_of: Mapping[_Mention, int],
        found: dict[str, list[Any]],
    ) -> None:
        """Steps 2 and 3 on a group of entities linked by shared mentions: the
        errors, and the changes of each category added to ``found``."""
        text = self.text
        gold_of = self.gold_of
        gold = [self.gold[g] for g in gold_ids]  # in key order, as gold_ids
        splits: list[_Split] = []
        removes: list[_Cluster] = []
        # The pieces within each key entity, in the order they are made (a piece
        # lies in one key entity only): whole & entity for each pair that meets,
        # found from each mention's key entity rather than by intersecting all pairs.
        pieces: dict[int, list[_Cluster]] = {owner: [] for owner in gold_ids}
        for whole in auto:
            parts: dict[int, list[_Mention]] = {}
            alone: list[_Mention] = []
            for m in whole:
                owner = gold_of.get(m)
                if owner is None:
                    alone.append(m)
                elif owner in parts:
                    parts[owner].append(m)
                else:
                    parts[owner] = [m]
            for owner in sorted(parts):
                part = frozenset(parts[owner])
                pieces[owner].append(part)
                if len(part) != len(whole):
                    splits.append(_Split(part, whole, False))
            for m in sorted(alone):
                splits.append(_Split(frozenset((m,)), whole, True))
                removes.append(frozenset((m,)))
        introduces: list[_Cluster] = []
        for owner, entity in zip(gold_ids, gold):
            for m in sorted(entity):
                if m not in auto_of:
                    introduces.append(frozenset((m,)))
                    pieces[owner].append(frozenset((m,)))
        merges = [
            _Merge(part, entity)
            for owner, entity in zip(gold_ids, gold)
            for part in pieces[owner]
            if part != entity
        ]
        self.operations["split"] += len(splits)
        self.operations["remove"] += len(removes)
        self.operations["introduce"] += len(introduces)
        self.operations["merge"] += len(merges)

        def drop_remove(mention: _Mention) -> None:
            for r in removes:
                if mention in r:
                    removes.remove(r)
                    return

        # Extra entities: response entities whose key mentions are all pronouns,
        # with at least two mentions in no key entity.
        extra_parts: dict[_Cluster, list[_Split]] = {}
        for s in splits:
            if all(m not in gold_of or text.is_pronoun(m) for m in s.whole) and all(
                m not in gold_of for m in s.part
            ):
                extra_parts.setdefault(s.whole, []).append(s)
        extra_entities = []
        for alone_parts in extra_parts.values():
            union = frozenset().union(*(s.part for s in alone_parts))
            if len(union) == 1:
                continue
            extra_entities.append(union)
            for s in alone_parts:
                splits.remove(s)
                drop_remove(next(iter(s.part)))
        # Missing entities: key entities with more than one mention missing and
        # only pronouns present.
        missing_entities = []
        for entity in gold:
            present = [m for m in entity if m in auto_of]
            if len(entity) - len(present) > 1 and all(text.is_pronoun(m) for m in present):
                missing_entities.append(entity)
                for m in entity:
                    if m in auto_of:
                        continue
                    merge = next(x for x in merges if len(x.part) == 1 and m in x.part)
                    introduce = next(x for x in introduces if len(x) == 1 and m in x)
                    merges.remove(merge)
                    introduces.remove(introduce)
        # The pieces an entity stays as, or grows from (its anchor's): not errors.
        splits = self._without_anchored(splits, removes)
        merges = self._without_anchored(merges, introduces)
        # Extra mentions: what is still split off alone.
        extra_mentions = [s for s in splits if len(s.part) == 1 and s.nowhere]
        for s in extra_mentions:
            splits.remove(s)
            drop_remove(next(iter(s.part)))
        # Missing mentions: single introduced mentions still merged in.
        missing_mentions = []
        singles = {next(iter(s.part)) for s in splits if len(s.part) == 1}
        for g in list(merges):
            if len(g.part) != 1:
                continue
            m = next(iter(g.part))
            if m in singles or m == text.anchor(g.whole) or m in auto_of:
                continue
            missing_mentions.append(g)
            # Its merge stays a divided entity too if its introduce was explained
            # already (as in the analyser).
            single = frozenset((m,))
            if single in introduces:
                merges.remove(g)
                introduces.remove(single)
        # A key singleton absent from the response: the analyser stops there
        # (its introduce is never explained); here it is a missing mention.
        for introduce in introduces:
            m = next(iter(introduce))
            if self.gold[self.gold_of[m]] == introduce:
                missing_mentions.append(_Merge(introduce, introduce))

        self._record(
            found,
            splits,
            extra_mentions,
            extra_entities,
            merges,
            missing_mentions,
            missing_entities,
        )

    def _record(
        self,
        found: dict[str, list[Any]],
        splits: list[_Split],
        extra_mentions: list[_Split],
        extra_entities: list[_Cluster],
        merges: list[_Merge],
        missing_mentions: list[_Merge],
        missing_entities: list[_Cluster],
    ) -> None:
        """A group's errors, in the analyser's order of categories, and its changes
        added to ``found``."""
        text = self.text
        for union in extra_entities:
            self._error("extra_entity", tuple(sorted(union)), self._type_of(union))
        for entity in missing_entities:
            self._error("missing_entity", tuple(sorted(entity)), self._type_of(entity))
        for s in extra_mentions:
            self._error("extra_mention", tuple(s.part), text.mention_type(next(iter(s.part))))
        for g in missing_mentions:
            self._error("missing_mention", tuple(g.part), text.mention_type(next(iter(g.part))))
        for s in splits:
            self._error("conflated_entities", tuple(sorted(s.part)), self._type_of(s.part))
        for g in merges:
            self._error("divided_entity", tuple(sorted(g.part)), self._type_of(g.part))
        found["conflated_entities"] += splits
        found["extra_mention"] += extra_mentions
        found["extra_entity"] += extra_entities
        found["divided_entity"] += merges
        found["missing_mention"] += missing_mentions
        found["missing_entity"] += missing_entities

    def _extra_entity(self, whole: _Cluster, found: dict[str, list[Any]]) -> None:
        """``_group`` of a response entity alone in its group: no mention of it is
        in the key."""
        operations = self.operations
        operations["split"] += len(whole)
        operations["remove"] += len(whole)
        if len(whole) == 1:
            # Its one split is its anchor's piece: no error.
            return
        self._error("extra_entity", tuple(sorted(whole)), self._type_of(whole))
        found["extra_entity"].append(whole)

    def _missing_entity(self, entity: _Cluster, found: dict[str, list[Any]]) -> None:
        """``_group`` of a key entity alone in its group: no mention of it is in
        the response."""
        operations = self.operations
        operations["introduce"] += len(entity)
        if len(entity) == 1:
            (m,) = entity
            self._error("missing_mention", (m,), self.text.mention_type(m))
            found["missing_mention"].append(_Merge(entity, entity))
            return
        operations["merge"] += len(entity)
        self._error("missing_entity", tuple(sorted(entity)), self._type_of(entity))
        found["missing_entity"].append(entity)

    def _one_on_one(self, whole: _Cluster, entity: _Cluster, found: dict[str, list[Any]]) -> None:
        """``_group`` of a response entity and a key entity that share mentions
        and meet no other entity: its other mentions are in no key entity, and the
        key entity's other mentions in no response entity."""
        text = self.text
        part = whole & entity
        alone = sorted(whole - entity)
        missing = sorted(entity - whole)
        operations = self.operations
        # An extra or a missing entity takes two mentions, and pronouns only in common.
        pronouns_only = (len(alone) > 1 or len(missing) > 1) and all(
            text.is_pronoun(m) for m in part
        )
        splits: list[_Split] = []
        extra_mentions: list[_Split] = []
        extra_entities: list[_Cluster] = []
        if alone:
            operations["split"] += 1 + len(alone)
            operations["remove"] += len(alone)
            stays = self._first(whole)
            if stays not in part:
                splits.append(_Split(part, whole, False))
            if pronouns_only and len(alone) > 1:
                extra_entities.append(frozenset(alone))
            else:
                extra_mentions = [_Split(frozenset((m,)), whole, True) for m in alone if m != stays]
        merges: list[_Merge] = []
        missing_mentions: list[_Merge] = []
        missing_entities: list[_Cluster] = []
        if missing:
            operations["introduce"] += len(missing)
            operations["merge"] += 1 + len(missing)
            grows = self._first(entity)
            if grows not in part:
                merges.append(_Merge(part, entity))
            if pronouns_only and len(missing) > 1:
                missing_entities.append(entity)
            else:
                missing_mentions = [_Merge(frozenset((m,)), entity) for m in missing if m != grows]

        self._record(
            found,
            splits,
            extra_mentions,
            extra_entities,
            merges,
            missing_mentions,
            missing_entities,
        )

    def _without_anchored(self, changes: list[_Change], listed: list[_Cluster]) -> list[_Change]:
        """``changes`` but those whose part holds its whole's anchor, whose parts
        leave ``listed`` too. (No two changes of a group are equal: filtering
        keeps the rest in order without a search of the list per change.)"""
        kept = []
        for change in changes:
            if self._same_anchor(change.part, change.whole):
                if change.part in listed:
                    listed.remove(change.part)
            else:
                kept.append(change)
        return kept

    def _same_anchor(self, part: _Cluster, whole: _Cluster) -> bool:
        """Whether ``part`` (a subset of ``whole``) has ``whole``'s anchor, or, both
        without one (pronouns only), its first mention."""
        # The anchor is the earliest non-pronoun, so a subset has the whole's
        # anchor exactly when it holds it: the part's own is never computed.
        return self._first(whole) in part

    def _first(self, whole: _Cluster) -> _Mention:
        """The mention of ``whole`` that the piece it stays as or grows from holds:
        its anchor, or without one (pronouns only) its first mention."""
        anchor = self.text.anchor(whole)
        return anchor if anchor is not None else min(whole)

    def _type_of(self, cluster: Iterable[_Mention]) -> str:
        anchor = self.text.anchor(cluster)
        return "pronoun" if anchor is None else self.text.mention_type(anchor)

    def _error(self, category: str, mentions: tuple[_Mention, ...], kind: str) -> None:
        spans = tuple(map(self.text.span, mentions))
        # One per error: made as the constructor makes it, without its generic __init__.
        self.errors.append(
            made_from(
                ErrorInstance, {"category": category, "mentions": spans, "mention_type": kind}
            )
        )

    # The corrected responses -----------------------------------------------------

    def _correct(self, found: dict[str, list[Any]], state: dict[_Mention, int]) -> None:
        """Apply the corrections category by category (each group's in turn),
        keeping the response after each: the analyser's progressive corrected files."""
        text = self.text
        gold_of = self.gold_of
        fresh = self._fresh
        # Each entity's mentions, kept with the state once a divided piece, which
        # relabels a whole entity, needs them (it must not cost a pass over the
        # document each time); before that the state alone is kept.
        members: dict[int, set[_Mention]] = {}
        tracked = False

        def assign(m: _Mention, entity: int) -> None:
            if tracked:
                old = state.get(m)
                if old is not None:
                    members[old].discard(m)
                members.setdefault(entity, set()).add(m)
            state[m] = entity

        def drop(m: _Mention) -> None:
            old = state.pop(m, None)
            if tracked and old is not None:
                members[old].discard(m)

        earliest: dict[_Cluster, Any] = {}
        for category in CATEGORIES[1:]:
            for change in found[category]:
                if category == "conflated_entities":
                    entity = next(fresh)
                    for m in change.part:
                        assign(m, entity)
                    rest = change.whole - change.part
                    if len(rest) == 1:
                        (alone,) = rest
                        if alone not in gold_of:
                            drop(alone)
                elif category in ("extra_mention", "extra_entity"):
                    part = change.part if category == "extra_mention" else change
                    for m in part:
                        drop(m)
                elif category == "divided_entity":
                    if not tracked:
                        for x, e in state.items():
                            members.setdefault(e, set()).add(x)
                        tracked = True
                    target = text.anchor(change.whole) or min(change.whole)
                    if target not in state:
                        assign(target, next(fresh))
                    entity = state[target]
                    done: set[int] = set()
                    for m in change.part:
                        if m not in state:
                            assign(m, entity)
                        elif state[m] not in done:
                            old = state[m]
                            done.add(old)
                            for other in list(members.get(old, ())):
                                assign(other, entity)
                elif category == "missing_mention":
                    (m,) = change.part
                    # The earliest of the entity's mentions in the response: found
                    # once per entity, then kept (this pass only adds mentions).
                    first = earliest.get(change.whole, _UNSEEN)
                    if first is _UNSEEN:
                        first = min(filter(state.__contains__, change.whole), default=None)
                    if first is not None:
                        assign(m, state[first])
                        earliest[change.whole] = min(first, m)
                    else:
                        entity = next(fresh)
                        assign(min(change.whole), entity)
                        assign(m, entity)
                        earliest[change.whole] = min(change.whole)
                else:  # missing_entity
                    entity = next(fresh)
                    for m in change:
                        assign(m, entity)
            self.states[category] = dict(state)


def _entity_of(entities: Sequence[Collection[_Mention]]) -> dict[_Mention, int]:
    """Each mention's entity number, built in C (it runs over every mention)."""
    return dict(zip(chain.from_iterable(entities), _entity_numbers(entities)))


def _entity_numbers(entities: Sequence[Collection[_Mention]]) -> Iterator[int]:
    """The entity number of each mention, entity by entity."""
    return chain.from_iterable(map(repeat, range(len(entities)), map(len, entities)))


def _facing(
    extra: Iterable[_Mention], missing: Iterable[_Mention]
) -> tuple[list[_Mention], list[_Mention]]:
    """Of the response mentions not in the key (``extra``) and the key mentions
    not in the response (``missing``), those of the sentences that have both, in
    text order: a span is only corrected within its sentence, so the others need
    no trimming and no head."""
    extra, missing = list(extra), list(missing)
    both = {m[0] for m in extra}.intersection([m[0] for m in missing])
    return sorted(m for m in extra if m[0] in both), sorted(m for m in missing if m[0] in both)


def _confusion_groups(
    auto: list[_Cluster],
    gold: list[_Cluster],
    auto_of: Mapping[_Mention, int],
    gold_of: Mapping[_Mention, int],
) -> list[tuple[list[int], list[int]]]:
    """The connected components of response and key entities linked by a shared
    mention: (response entities, key entities) of each."""
    parent = list(range(len(auto) + len(gold)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = x = parent[parent[x]]
        return x

    for m, a in auto_of.items():
        g = gold_of.get(m)
        if g is not None:
            ra, rg = find(a), find(len(auto) + g)
            if ra != rg:
                parent[ra] = rg
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for a in range(len(auto)):
        groups.setdefault(find(a), ([], []))[0].append(a)
    for g in range(len(gold)):
        groups.setdefault(find(len(auto) + g), ([], []))[1].append(g)
    return list(groups.values())


def _mentions(
    doc: Document, text: _Text, side: str, warnings: list[str], drop_singletons: bool
) -> list[list[_Mention]]:
    """The document's entities as the analyser's mentions: a span across a sentence
    break and a repeated span are left out, with a warning; with
    ``drop_singletons``, one-mention entities too.

    Of the copies of a repeated span, the one read first is kept (the document's
    ``reading_order``; without it, the copy in the earlier entity).
    """
    entities = doc.entities
    fast = _distinct_mentions(doc, text, warnings, side, drop_singletons)
    if fast is not None:
        return fast
    if len(doc.reading_order) == sum(map(len, entities)):
        nth = [0] * len(entities)
        reading = []
        for e in doc.reading_order:
            reading.append((e, nth[e]))
            nth[e] += 1
    else:
        reading = [(e, k) for e, entity in enumerate(entities) for k in range(len(entity))]
    kept: dict[tuple[int, int], _Mention] = {}
    seen: set[_Mention] = set()
    crossing: list[Span] = []
    repeated: list[Span] = []
    for e, k in reading:
        if drop_singletons and len(entities[e]) == 1:
            continue
        span = entities[e][k]
        m = text.mention(span)
        if m is None:
            crossing.append(span)
        elif m in seen:
            repeated.append(span)
        else:
            seen.add(m)
            kept[(e, k)] = m
    out = [
        [kept[(e, k)] for k in range(len(entity)) if (e, k) in kept]
        for e, entity in enumerate(entities)
        if not (drop_singletons and len(entity) == 1)
    ]
    if crossing:
        warnings.append(_crossing_warning(side, doc, crossing))
    if repeated:
        warnings.append(
            f"{side} document {doc.doc_id!r}: {len(repeated)} repeated span(s) left out "
            f"of the error analysis, the first copy kept (first {repeated[0]})"
        )
    return out


def _distinct_mentions(
    doc: Document, text: _Text, warnings: list[str], side: str, drop_singletons: bool
) -> list[list[_Mention]] | None:
    """``_mentions`` when no span repeats (the usual document): entity by entity,
    without the reading order that only decides which copy of a repeat is kept;
    ``None`` when a span repeats."""
    starts = text.starts
    last = len(starts) - 1
    entities = [e for e in doc.entities if len(e) > 1] if drop_singletons else doc.entities
    out: list[list[_Mention]] = []
    crossing: list[Span] = []
    for entity in entities:
        mentions = []
        for span in entity:
            start, end = span
            first = bisect_right(starts, start) - 1
            if first < last and end >= starts[first + 1]:
                crossing.append(span)
                continue
            offset = starts[first]
            mentions.append((first, start - offset, end + 1 - offset))
        out.append(mentions)
    made = list(chain.from_iterable(out))
    if len(set(made)) != len(made):
        return None
    # The spans are checked in C; only a document that fails is read again, in
    # the order that names the same first span as the general path.
    words = text.words
    if words is not None and max(map(itemgetter(1), chain(*entities)), default=-1) >= len(words):
        crossed = set(crossing)
        text.check_spans(chain((s for e in entities for s in e if s not in crossed), crossing))
    if crossing:
        warnings.append(_crossing_warning(side, doc, crossing))
    return out


def _crossing_warning(side: str, doc: Document, crossing: list[Span]) -> str:
    return (
        f"{side} document {doc.doc_id!r}: {len(crossing)} mention(s) across a sentence "
        f"break left out of the error analysis (first {crossing[0]})"
    )


def analyse_errors(
    key: Corpus,
    response: Corpus,
    *,
    response_singletons: str = "drop",
    heads: HeadRule | HeadFunction = "syntax",
    documents: Sequence[str] | None = None,
) -> ErrorAnalysis:
    """The error analysis of ``response`` against ``key`` (see the module docstring).

    ``key`` should carry its syntax (``read_corpus(..., syntax=True)``): words
    for the span trimming, tags for the mention types, sentence breaks, and a
    parse or dependency heads for the heads. ``response_singletons``: ``drop``
    (the analyser's default: one-mention response entities are removed before
    anything else) or ``keep``. ``heads``: ``syntax`` (corefscore's head finder
    on the key's parse or dependencies; the last token without either),
    ``last`` (always the last token), or a function ``(doc_id, span) -> token``.
    Key documents missing from the response are analysed against an empty
    response; response documents missing from the key are ignored (warnings say so).
    Tokens are checked as for scoring (``corefscore.tokens``): a pair whose tokens
    do not line up raises ``InputError``.
    """
    if response_singletons not in ("drop", "keep"):
        raise UsageError(
            f"response_singletons must be 'drop' or 'keep', got {response_singletons!r}"
        )
    if not callable(heads) and heads not in ("syntax", "last"):
        raise UsageError(f"heads must be 'syntax', 'last' or a function, got {heads!r}")
    from ..pipeline import document_pairs, pair_documents

    warnings: list[str] = [*key.warnings, *response.warnings]
    pairing = pair_documents(
        tuple(key.documents),
        tuple(response.documents),
        documents=documents,
        key_source=key.source,
        response_source=response.source,
    )
    warnings.extend(pairing.warnings)
    results: dict[str, DocumentErrors] = {}
    scoring = _StepScores()
    # Tokens are checked as for scoring: a response whose tokens do not line up
    # with the key's is refused, not analysed.
    for key_doc, response_doc in document_pairs(key, response, pairing, warnings):
        doc_id = key_doc.doc_id
        text = _Text(key_doc, key_doc.syntax, heads)
        analysis = _Document(
            text,
            _mentions(key_doc, text, "key", warnings, drop_singletons=False),
            _mentions(
                response_doc,
                text,
                "response",
                warnings,
                drop_singletons=response_singletons == "drop",
            ),
        )
        analysis.correct_spans()
        analysis.categorise()
        results[doc_id] = DocumentErrors(
            doc_id,
            ErrorCounts.of(analysis.errors, analysis.operations),
            tuple(analysis.errors),
        )
        scoring.add(doc_id, analysis)
    return ErrorAnalysis(
        documents=results,
        totals=ErrorCounts.total(r.counts for r in results.values()),
        steps=scoring.steps(),
        options={
            "response_singletons": response_singletons,
            "heads": heads if isinstance(heads, str) else "custom",
            "key": os.fspath(key.source) if key.source else None,
            "response": os.fspath(response.source) if response.source else None,
        },
        warnings=tuple(warnings),
    )


class _StepScores:
    """The CoNLL metrics' statistics of every document at every step; a document
    that a step leaves unchanged keeps the statistics of the step before.

    Each corrected response waits as its mentions' labels, and the waiting ones
    are tabulated together and scored stacked, a segment each (every metric's
    segment statistics: the bits of scoring them one by one, without a round of
    Python per mention, table and metric)."""

    # Tables are made and scored when this many mentions wait (and at the end):
    # bounded memory.
    BATCH_MENTIONS = 200_000

    def __init__(self) -> None:
        from ..evaluation import Evaluation

        self.evaluation = Evaluation.create(metrics="conll", duplicates="first")
        self.statistics: dict[str, dict[str, Any]] = {step: {} for step in STEPS}
        # Waiting responses: the document's key entities and twins, the response's
        # labels, and the (step, document) pairs that each one scores.
        self._keys: list[list[int]] = []
        self._twins: list[list[int]] = []
        self._labels: list[list[int]] = []
        self._uses: list[list[tuple[str, str]]] = []
        self._waiting = 0

    def add(self, doc_id: str, analysis: _Document) -> None:
        # Labelled on the analysis' own mentions: no spans, no Document, and no
        # duplicates policy (a mention is a dict key, so it cannot repeat).
        gold = analysis.gold
        key_entities = list(_entity_numbers(gold))
        key_index = dict(zip(chain.from_iterable(gold), count()))
        # Every mention of every step, in text order, sorted once for all steps.
        order = sorted(set().union(*analysis.states.values()))
        # map() with a second iterable of -1: dict.get's default, looked up in C.
        twins = list(map(key_index.get, order, repeat(-1)))
        # A step's labels: this copied and updated with its state, whose mentions
        # are all in it already (so they keep its order), and whose stored hashes
        # are used: a mention's hash is not computed again per step.
        unlabelled = dict.fromkeys(order, -1)
        previous: dict[_Mention, int] | None = None
        for step in STEPS:
            state = analysis.states[step]
            if state != previous:
                self._keys.append(key_entities)
                self._twins.append(twins)
                labels = unlabelled.copy()
                labels.update(state)
                self._labels.append(list(labels.values()))
                self._uses.append([])
                self._waiting += len(order)
            self._uses[-1].append((step, doc_id))
            previous = state
        if self._waiting >= self.BATCH_MENTIONS:
            self._score()

    def _score(self) -> None:
        from ..engines.columnar import labelled_segments_table

        if not self._labels:
            return
        table = labelled_segments_table(self._keys, self._twins, self._labels)
        rows: dict[str, list[tuple[float, ...]]] = {}
        for metric in self.evaluation.metrics:
            assert metric.segment_statistics is not None  # MUC, B³, CEAFe
            rows[metric.name] = list(map(tuple, metric.segment_statistics(table).tolist()))
        for uses, *values in zip(self._uses, *rows.values()):
            stats = dict(zip(rows, values))
            for step, doc_id in uses:
                self.statistics[step][doc_id] = stats
        self._keys, self._twins, self._labels, self._uses = [], [], [], []
        self._waiting = 0

    def steps(self) -> tuple[Step, ...]:
        from ..result import build_result

        self._score()
        out = []
        for step in STEPS:
            result = build_result(self.evaluation, self.statistics[step])
            f1 = {m: result.metrics[m].f1 for m in ("muc", "bcub", "ceafe")}
            out.append(Step(step, f1, float(result.conll or 0.0)))
        return tuple(out)
