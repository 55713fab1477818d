"""Mention types for resolution classes: proper name, common noun, pronoun.

Stoyanov et al. (2009, §4.1) split anaphors into "CEs that are named entities"
(proper names), "CEs that have a common noun as a head", and pronouns, the
latter by person and gender: "1st or 2nd person", "gendered 3rd person
(e.g. 'she', 'him')" and "ungendered 3rd person". This module decides the type
of one mention from its head token:

* the head is found with ``corefscore.heads.HeadFinder`` when the syntax
  has dependency heads (CoNLL-U) or a parse (CoNLL-2012); otherwise with
  ``fallback_head``, a part-of-speech chunk heuristic (documented there);
* **pronoun**: the head's tag is a pronoun tag (PTB ``PRP``, ``PRP$``, ``WP``,
  ``WP$``; UPOS ``PRON``, or ``DET`` with ``PronType=Prs``). Its person/gender
  group comes from the word lists of ``PronounLists`` (English by
  default) and, for a word in none of them, from the FEATS ``Person`` and
  ``Gender`` features when the source has them. A pronoun in none of the
  lists and without such features (English "this", "that", "who") is left
  unclassified: the paper's three pronoun classes do not cover it;
* **proper name**: the head's tag is ``NNP``/``NNPS``/``PROPN``, or a
  CoNLL-2012 named-entity span covers the head;
* **common noun**: the head's tag is ``NN``/``NNS``/``NOUN``;
* anything else (verbs of event mentions, numerals, adjectives, ...) is
  ``other`` and gets no resolution class.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from enum import Enum

from .._record import field, record
from ..errors import InputError
from ..heads import HeadFinder
from ..model import Document, Span, Syntax


class Kind(str, Enum):
    NAME = "name"
    NOUN = "noun"
    PRONOUN = "pronoun"
    OTHER = "other"


class PronounGroup(str, Enum):
    FIRST_SECOND = "first_second"
    GENDERED_THIRD = "gendered_third"
    UNGENDERED_THIRD = "ungendered_third"


_ENGLISH_FIRST_SECOND = (
    "i me my mine myself we us our ours ourselves you your yours yourself yourselves"
)
_ENGLISH_GENDERED = "he him his himself she her hers herself"
_ENGLISH_UNGENDERED = "it its itself they them their theirs themselves"

#: Function words that never count as a shared "content word" (PN-p/CN-p).
#: Deliberately small: determiners, possessive markers, common prepositions,
#: conjunctions and auxiliaries; pronouns are added from the pronoun lists.
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    """a an the this that these those 's ' of in on at to for from by with about as into
    over under after before between through during without within and or but nor so
    yet is are was were be been being am do does did has have had will would shall
    should can could may might must not no some any all each every other another
    such own same""".split()
)


@record(frozen=True)
class PronounLists:
    """Lower-case pronoun word lists of one language, by resolution class.

    English by default. For another language write a JSON file
    ``{"first_second": [...], "gendered_third": [...], "ungendered_third": [...]}``
    and load it with ``from_json``; words are compared lower-cased.
    """

    first_second: frozenset[str] = field(
        default_factory=lambda: frozenset(_ENGLISH_FIRST_SECOND.split())
    )
    gendered_third: frozenset[str] = field(
        default_factory=lambda: frozenset(_ENGLISH_GENDERED.split())
    )
    ungendered_third: frozenset[str] = field(
        default_factory=lambda: frozenset(_ENGLISH_UNGENDERED.split())
    )

    @classmethod
    def from_json(cls, path: str | os.PathLike[str]) -> PronounLists:
        name = os.fspath(path)
        try:
            with open(name, encoding="utf-8") as handle:
                data = json.load(handle)
        except OSError as exc:
            raise InputError(f"cannot read pronoun lists: {exc.strerror}", path=name) from exc
        except json.JSONDecodeError as exc:
            raise InputError(f"pronoun lists are not valid JSON: {exc.msg}", path=name) from exc
        keys = ("first_second", "gendered_third", "ungendered_third")
        if not isinstance(data, dict) or set(data) != set(keys):
            raise InputError(
                "pronoun lists must be a JSON object with exactly the keys " + ", ".join(keys),
                path=name,
            )
        lists: dict[str, frozenset[str]] = {}
        for key in keys:
            words = data[key]
            if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
                raise InputError(f"pronoun list {key!r} must be a list of strings", path=name)
            lists[key] = frozenset(w.lower() for w in words)
        return cls(**lists)

    def group(self, word: str) -> PronounGroup | None:
        low = word.lower()
        if low in self.first_second:
            return PronounGroup.FIRST_SECOND
        if low in self.gendered_third:
            return PronounGroup.GENDERED_THIRD
        if low in self.ungendered_third:
            return PronounGroup.UNGENDERED_THIRD
        return None

    @property
    def words(self) -> frozenset[str]:
        return self.first_second | self.gendered_third | self.ungendered_third


@record(frozen=True)
class MentionType:
    """The type of one mention, decided by its ``head`` token."""

    kind: Kind
    head: int
    pronoun: PronounGroup | None = None


_PTB_PRONOUN = frozenset({"PRP", "PRP$", "WP", "WP$"})
_NAME_TAGS = frozenset({"NNP", "NNPS", "PROPN"})
_NOUN_TAGS = frozenset({"NN", "NNS", "NOUN"})
# Tokens that end a nominal chunk once a nominal has been seen (fallback_head):
# prepositions, subordinators, wh-words, verbs, coordination, punctuation.
_BOUNDARY = frozenset(
    """IN TO WDT WP WP$ WRB MD VB VBD VBG VBN VBP VBZ CC , : -LRB- -RRB- HYPH ``
    '' . ADP SCONJ VERB AUX CCONJ PUNCT""".split()
)
_NOMINAL = frozenset({"NN", "NNS", "NNP", "NNPS", "PRP", "CD", "NOUN", "PROPN", "PRON", "NUM"})
_NEVER_HEAD = frozenset({"POS", "PART", "PUNCT", ",", ".", ":", "``", "''", "HYPH", "DT", "DET"})


def fallback_head(pos: Sequence[str], span: Span) -> int:
    """The head of ``span`` when the syntax has neither dependency heads nor a parse.

    Scanning left to right, the first boundary tag (preposition, wh-word,
    verb, coordinator, punctuation) after a nominal tag ends the mention's
    first chunk, so that "the prevalence of discrimination in America" has
    the head "prevalence", not the last token. The head is the chunk's last
    token that is not a possessive marker, determiner or punctuation (the
    span's last token if there is none).
    """
    start, end = span
    seen_nominal = False
    stop = end
    for token in range(start, end + 1):
        tag = pos[token]
        if seen_nominal and tag in _BOUNDARY:
            stop = token - 1
            break
        if tag in _NOMINAL:
            seen_nominal = True
    for token in range(stop, start - 1, -1):
        if pos[token] not in _NEVER_HEAD:
            return token
    return end


def named_entity_tokens(columns: Sequence[str]) -> frozenset[int]:
    """The tokens covered by some CoNLL-2012 named-entity span (``(PERSON*``...``*)``)."""
    covered: set[int] = set()
    opened: int | None = None
    for token, bit in enumerate(columns):
        if bit.startswith("("):
            opened = token
        if opened is not None:
            covered.add(token)
        if bit.endswith(")"):
            opened = None
    return frozenset(covered)


def _features(feats: str) -> dict[str, str]:
    if not feats or feats == "_":
        return {}
    out: dict[str, str] = {}
    for item in feats.split("|"):
        name, _, value = item.partition("=")
        out[name] = value
    return out


class MentionTyper:
    """Types the mentions of one document; build it once per document."""

    def __init__(self, doc: Document, pronouns: PronounLists | None = None):
        syntax = doc.syntax
        where = doc.source
        if syntax is None or syntax.words is None:
            raise InputError(
                f"resolution classes need the words of document {doc.doc_id!r}: "
                "read the key with syntax=True from CoNLL-2012 or CoNLL-U",
                path=where,
            )
        if syntax.pos is None:
            raise InputError(
                f"resolution classes need part-of-speech tags for document {doc.doc_id!r}: "
                "the CoNLL-2012 POS column (5) or the CoNLL-U UPOS column is empty",
                path=where,
            )
        self.syntax: Syntax = syntax
        self.words: tuple[str, ...] = syntax.words
        self.pos: tuple[str, ...] = tuple(syntax.pos)  # (a tuple already, or decoded once)
        self.pronouns = pronouns or PronounLists()
        self.feats = tuple(syntax.feats) if syntax.feats is not None else None
        self.names = (
            named_entity_tokens(syntax.named_entities) if syntax.named_entities else frozenset()
        )
        self.finder = (
            HeadFinder(syntax)
            if syntax.dependency_heads is not None or syntax.parse is not None
            else None
        )

    def head(self, span: Span) -> int:
        start, end = span
        if not 0 <= start <= end < len(self.words):
            raise InputError(f"mention {span} lies outside the document's {len(self.words)} tokens")
        if self.finder is not None:
            return self.finder.head(span)
        return fallback_head(self.pos, span)

    def mention_type(self, span: Span) -> MentionType:
        head = self.head(span)
        tag = self.pos[head]
        feats = _features(self.feats[head]) if self.feats is not None else {}
        is_pronoun = (
            tag in _PTB_PRONOUN
            or tag == "PRON"
            or (tag == "DET" and feats.get("PronType") == "Prs")
        )
        if is_pronoun:
            return MentionType(Kind.PRONOUN, head, self._pronoun_group(head, feats))
        if tag in _NAME_TAGS or head in self.names:
            return MentionType(Kind.NAME, head)
        if tag in _NOUN_TAGS:
            return MentionType(Kind.NOUN, head)
        return MentionType(Kind.OTHER, head)

    def _pronoun_group(self, head: int, feats: dict[str, str]) -> PronounGroup | None:
        group = self.pronouns.group(self.words[head])
        if group is not None:
            return group
        # Words outside the lists fall back on morphology, so that a CorefUD
        # corpus of another language gets classes even with English lists.
        person = feats.get("Person")
        if person in ("1", "2"):
            return PronounGroup.FIRST_SECOND
        if person == "3":
            gender = feats.get("Gender", "")
            if "Masc" in gender or "Fem" in gender:
                return PronounGroup.GENDERED_THIRD
            return PronounGroup.UNGENDERED_THIRD
        return None

    def text(self, span: Span) -> tuple[str, ...]:
        return self.words[span[0] : span[1] + 1]


def mention_types(
    doc: Document, spans: Iterable[Span], pronouns: PronounLists | None = None
) -> dict[Span, MentionType]:
    """The type of each of ``spans`` of ``doc`` (whose syntax must have words and POS)."""
    typer = MentionTyper(doc, pronouns)
    return {span: typer.mention_type(span) for span in spans}
