"""Evaluation regimes: which mentions are compared, and how they are paired.

Stoyanov et al. (2009, §3 and Table 3) show that a score depends as much on
the evaluation's assumptions as on the system: whether singletons count,
whether the system is given the annotated mentions ("perfect CEs"), whether
only anaphoric mentions are scored. Each assumption is an option here, and
every result's signature states which were in force.

The steps run in this order, for each document, after the duplicates policy:

1. ``remove_nested``: on each side, keep only maximal spans (a mention inside
   another mention of the same side is dropped, whatever its entity);
2. ``key_singletons`` / ``response_singletons`` = ``"drop"``: remove the
   entities of one mention on that side;
3. twin matching (``corefscore.matching``): each response mention that has a
   twin takes the twin's key span; then optional key mentions (MUC's
   ``STATUS="OPT"``) without a twin are removed from the key;
4. ``gold_mentions``: keep only response mentions that have a twin;
5. ``anaphoric_only``: keep only key mentions of non-singleton key entities,
   and only response mentions whose twin is one of them (Stoyanov et al.'s
   "anaphoric CEs": extracted CEs whose annotated twin is not a singleton).
"""

from __future__ import annotations

from typing import Any

from ._record import record, replace
from .errors import UsageError
from .model import Document, Span

SINGLETON_POLICIES = ("keep", "drop")


@record(frozen=True)
class EvaluationSetup:
    """Everything besides the metrics and duplicates policy that changes a number."""

    matching: str = "exact"
    key_singletons: str = "keep"
    response_singletons: str = "keep"
    gold_mentions: bool = False
    anaphoric_only: bool = False
    remove_nested: bool = False

    def __post_init__(self) -> None:
        if self.matching not in ("exact", "partial"):
            # ``partial`` is the CorefUD evaluation's own (corefscore.corefud),
            # which Evaluation validates. Imported here: the default path never
            # needs the matching code.
            from .matching import check_method

            check_method(self.matching)
        for side, value in (("key", self.key_singletons), ("response", self.response_singletons)):
            if value not in SINGLETON_POLICIES:
                raise UsageError(f"unknown {side} singletons policy {value!r}; choose keep or drop")

    @classmethod
    def create(
        cls,
        *,
        matching: str = "exact",
        singletons: str = "keep",
        key_singletons: str | None = None,
        response_singletons: str | None = None,
        gold_mentions: bool = False,
        anaphoric_only: bool = False,
        remove_nested: bool = False,
    ) -> EvaluationSetup:
        """Build a setup; ``singletons`` applies to each side without its own option."""
        if singletons not in SINGLETON_POLICIES:
            raise UsageError(f"unknown singletons policy {singletons!r}; choose keep or drop")
        return cls(
            matching=matching,
            key_singletons=key_singletons or singletons,
            response_singletons=response_singletons or singletons,
            gold_mentions=bool(gold_mentions),
            anaphoric_only=bool(anaphoric_only),
            remove_nested=bool(remove_nested),
        )

    @property
    def is_standard(self) -> bool:
        """Whether this is the reference scorer's setting (nothing to do)."""
        return (
            self.matching == "exact"
            and self.key_singletons == "keep"
            and self.response_singletons == "keep"
            and not (self.gold_mentions or self.anaphoric_only or self.remove_nested)
        )

    @property
    def singletons(self) -> str:
        if self.key_singletons == self.response_singletons:
            return self.key_singletons
        return f"key-{self.key_singletons}+response-{self.response_singletons}"

    @property
    def mentions(self) -> str:
        chosen = [
            name
            for name, on in (("gold", self.gold_mentions), ("anaphoric", self.anaphoric_only))
            if on
        ]
        return "+".join(chosen) or "system"

    def to_dict(self) -> dict[str, Any]:
        return {
            "matching": self.matching,
            "key_singletons": self.key_singletons,
            "response_singletons": self.response_singletons,
            "gold_mentions": self.gold_mentions,
            "anaphoric_only": self.anaphoric_only,
            "remove_nested": self.remove_nested,
        }

    def apply(self, key: Document, response: Document) -> tuple[Document, Document]:
        """Apply the steps of the module docstring to one document pair."""
        if self.is_standard:
            return drop_unfound_optional(key, response), response
        if self.remove_nested:
            key, response = maximal_spans(key), maximal_spans(response)
        if self.key_singletons == "drop":
            key = drop_singletons(key)
        if self.response_singletons == "drop":
            response = drop_singletons(response)
        if self.matching != "exact":
            from .matching import match

            response = match(key, response, method=self.matching).response
        key = drop_unfound_optional(key, response)
        if self.gold_mentions or self.anaphoric_only:
            if self.anaphoric_only:
                key = drop_singletons(key)
            twins = {span for entity in key.entities for span in entity}
            response = response.select(lambda e, k, span: span in twins)
        return key, response


def drop_unfound_optional(key: Document, response: Document) -> Document:
    """The key without its optional mentions that have no twin in the response.

    MUC-6/7 (``STATUS="OPT"``): a response need not find an optional mention,
    and is not penalised when it does, so an optional key mention counts only
    when the response has it (as Reconcile's MUC scoring does).
    """
    if not key.optional:
        return key
    found = {span for entity in response.entities for span in entity}
    return key.select(lambda e, k, span: not key.optional[e][k] or span in found)


def drop_singletons(doc: Document) -> Document:
    """The document without its one-mention entities. A split antecedent counts
    as a mention (as in the Universal Anaphora scorer): "they" referring to
    John and Mary is not a singleton."""
    splits = doc.split_antecedents
    if splits:
        return doc.select(lambda e, k, span: len(doc.entities[e]) + (splits[e] is not None) > 1)
    return doc.select(lambda e, k, span: len(doc.entities[e]) > 1)


def maximal_spans(doc: Document) -> Document:
    """The document with only its maximal spans: no mention inside another one."""
    spans = sorted(
        {span for entity in doc.entities for span in entity}, key=lambda s: (s[0], -s[1])
    )
    nested: set[Span] = set()
    reach = -1
    for start, end in spans:
        # Spans sorted by start, longest first: a span ending no later than an
        # earlier one lies inside it.
        if end <= reach:
            nested.add((start, end))
        reach = max(reach, end)
    if not nested:
        return doc
    return doc.select(lambda e, k, span: span not in nested)


#: The regimes ``--regimes`` compares, each as changes to the setup it starts from.
REGIMES: dict[str, dict[str, Any]] = {
    "as-given": {},
    "singletons-dropped": {"key_singletons": "drop", "response_singletons": "drop"},
    "gold-mentions": {"gold_mentions": True},
    "anaphoric-only": {"anaphoric_only": True},
    "nested-removed": {"remove_nested": True},
}

REGIME_DESCRIPTIONS = {
    "as-given": "the options as given (system mentions; by default singletons kept)",
    "singletons-dropped": "one-mention entities removed from key and response (MUC-style data)",
    "gold-mentions": "response restricted to mentions with a key twin (Stoyanov et al.'s "
    "'perfect CEs')",
    "anaphoric-only": "only key mentions of non-singleton key entities and their response twins "
    "(Stoyanov et al.'s 'anaphoric CEs')",
    "nested-removed": "only maximal spans on each side",
}


def regime_setups(base: EvaluationSetup) -> dict[str, EvaluationSetup]:
    """The setups of ``REGIMES``, each applied on top of ``base``."""
    return {name: replace(base, **changes) for name, changes in REGIMES.items()}


__all__ = [
    "REGIMES",
    "SINGLETON_POLICIES",
    "EvaluationSetup",
    "drop_singletons",
    "maximal_spans",
    "regime_setups",
]
