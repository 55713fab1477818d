"""The mention identification effect check (Moosavi & Strube 2016, §2, Table 1).

Three controlled edits of a system response should move precision one way
and leave recall alone:

* **more precise**: remove every *incorrectly resolved* mention, i.e. a key
  mention ``m`` that the response puts in an entity with other mentions
  (``L_r(m) != {}``) while none of its response links is a key link
  (``L_k(m) & L_r(m) == {}``). Recall should not change; precision and F1
  should not fall.
* **less precise a**: pair the key mentions the response misses into new
  two-mention entities of non-coreferent mentions.
* **less precise b**: link the missed key mentions into larger new entities,
  each holding at most one mention of any key entity.

Both "less precise" edits only add wrong links, so recall should not change
and precision and F1 should not rise. A metric that moves the other way shows
the mention identification effect.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._record import field, record
from ..duplicates import prepare_pair
from ..metrics import CONLL_PARTS, METRICS, REGISTRY, MetricSpec, resolve
from ..model import Corpus, Document, Span
from ..scorer import score_corpora

#: The transformations, in report order.
VARIANTS: tuple[str, ...] = ("more_precise", "less_precise_a", "less_precise_b")

#: Which way each transformation should move precision and F1.
EXPECTED: dict[str, str] = {
    "more_precise": "more precise",
    "less_precise_a": "less precise",
    "less_precise_b": "less precise",
}

DESCRIPTIONS: dict[str, str] = {
    "more_precise": "incorrectly resolved mentions removed",
    "less_precise_a": "missed key mentions linked into wrong pairs",
    "less_precise_b": "missed key mentions linked into larger wrong entities",
}

#: Metrics scored by default: the reference scorer's seven, plus the CoNLL score.
DEFAULT_METRICS: tuple[str, ...] = METRICS

#: Differences smaller than this are rounding, not movement.
TOLERANCE = 1e-9


@record(frozen=True)
class Scores:
    """Recall, precision and F1 of one metric (recall/precision are ``None`` for CoNLL)."""

    recall: float | None
    precision: float | None
    f1: float

    def to_dict(self) -> dict[str, float | None]:
        return {"recall": self.recall, "precision": self.precision, "f1": self.f1}


@record(frozen=True)
class MetricChange:
    """How one metric moved from the original response to one transformed response."""

    metric: str
    before: Scores
    after: Scores
    #: Violations: ``recall changed``, ``precision down``/``up``, ``F1 down``/``up``.
    flags: tuple[str, ...]

    @property
    def wrong_direction(self) -> bool:
        """Precision or F1 moved against the transformation (recall changes are listed apart)."""
        return any(not f.startswith("recall") for f in self.flags)

    def delta(self, part: str) -> float | None:
        a, b = getattr(self.before, part), getattr(self.after, part)
        return None if a is None or b is None else float(b - a)

    def to_dict(self) -> dict[str, Any]:
        return {
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "delta": {p: self.delta(p) for p in ("recall", "precision", "f1")},
            "flags": list(self.flags),
            "wrong_direction": self.wrong_direction,
        }


@record(frozen=True)
class Variant:
    """One transformed response: what was done to it and how every metric moved."""

    name: str
    expected: str
    description: str
    #: Mentions removed (more precise) or mentions placed in new entities (less precise).
    mentions_changed: int
    #: New entities added (0 for more precise).
    entities_added: int
    changes: dict[str, MetricChange]
    response: Corpus = field(repr=False, compare=False)

    @property
    def wrong_direction(self) -> tuple[str, ...]:
        return tuple(m for m, c in self.changes.items() if c.wrong_direction)

    @property
    def recall_changed(self) -> tuple[str, ...]:
        return tuple(m for m, c in self.changes.items() if "recall changed" in c.flags)

    def to_dict(self) -> dict[str, Any]:
        return {
            "expected": self.expected,
            "description": self.description,
            "mentions_changed": self.mentions_changed,
            "entities_added": self.entities_added,
            "metrics": {m: c.to_dict() for m, c in self.changes.items()},
            "wrong_direction": list(self.wrong_direction),
            "recall_changed": list(self.recall_changed),
        }


@record(frozen=True)
class MentionEffectReport:
    """The paper's Table 1 for one key/response pair."""

    seed: int
    duplicates: str
    metrics: tuple[str, ...]
    base: dict[str, Scores]
    variants: dict[str, Variant]
    #: What the pairing and the duplicates policy said (for the caller to show).
    warnings: tuple[str, ...] = ()

    def wrong_direction(self) -> dict[str, tuple[str, ...]]:
        """Variant name -> metrics whose precision or F1 moved the wrong way."""
        return {name: v.wrong_direction for name, v in self.variants.items()}

    def to_dict(self) -> dict[str, Any]:
        return {
            "analysis": "mention-effect",
            "citation": "Moosavi & Strube 2016, §2 (Table 1)",
            "seed": self.seed,
            "duplicates": self.duplicates,
            "metrics": list(self.metrics),
            "base": {m: s.to_dict() for m, s in self.base.items()},
            "variants": {n: v.to_dict() for n, v in self.variants.items()},
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


# ---------------------------------------------------------------------------
# The transformations, on one document


def _plain(doc_id: str, entities: Iterable[Sequence[Span]]) -> Document:
    # Per-mention facts (heads, levels...) are dropped: the default metrics
    # read spans only, and new entities have no facts to carry.
    return Document(doc_id, tuple(tuple(e) for e in entities if e))


def more_precise(key: Document, response: Document) -> tuple[Document, int]:
    """Remove the incorrectly resolved mentions; returns the document and how many went.

    A mention is incorrectly resolved when it is a key mention, its response
    entity has other mentions, and none of them is in its key entity. Key
    singletons in non-singleton response entities qualify too (they have no
    key link, so every response link is wrong). The test is made on the
    original response, so all such mentions go at once; what remains of an
    entity stays, even as a singleton.
    """
    key_of = {span: e for e, entity in enumerate(key.entities) for span in entity}
    kept: list[list[Span]] = []
    removed = 0
    for entity in response.entities:
        if len(entity) < 2:
            kept.append(list(entity))
            continue
        in_key: dict[int, int] = {}
        for span in entity:
            if span in key_of:
                in_key[key_of[span]] = in_key.get(key_of[span], 0) + 1
        survivors = [s for s in entity if s not in key_of or in_key[key_of[s]] > 1]
        removed += len(entity) - len(survivors)
        kept.append(survivors)
    return _plain(response.doc_id, kept), removed


def _missing_groups(key: Document, response: Document, rng: random.Random) -> list[list[Span]]:
    """The key mentions the response lacks, grouped by key entity, each group shuffled."""
    present = {span for entity in response.entities for span in entity}
    groups: list[list[Span]] = []
    for entity in key.entities:
        group = sorted(span for span in entity if span not in present)
        rng.shuffle(group)
        if group:
            groups.append(group)
    rng.shuffle(groups)
    return groups


def _rng(seed: int, doc_id: str) -> random.Random:
    # One generator per document, seeded by (seed, document id): a document's
    # transformation does not depend on which other documents are scored.
    return random.Random(f"{seed}\x00{doc_id}")


def less_precise_a(key: Document, response: Document, seed: int = 0) -> tuple[Document, int]:
    """Add wrong two-mention entities of missed key mentions; returns the document and pairs.

    Each pair takes its first mention from the key entity with the most
    missed mentions left and its second from the next one (ties broken by a
    seeded order). Taking from the largest groups first pairs as many
    mentions as possible: only mentions of a single remaining key entity, which
    are coreferent with each other, stay unlinked.
    """
    groups = _missing_groups(key, response, _rng(seed, key.doc_id))
    order = list(range(len(groups)))
    pairs: list[tuple[Span, Span]] = []
    while True:
        live = sorted((g for g in order if groups[g]), key=lambda g: (-len(groups[g]), g))
        if len(live) < 2:
            break
        first, second = groups[live[0]].pop(), groups[live[1]].pop()
        pairs.append((min(first, second), max(first, second)))
    doc = _plain(response.doc_id, [*response.entities, *pairs])
    return doc, len(pairs)


def less_precise_b(key: Document, response: Document, seed: int = 0) -> tuple[Document, int]:
    """Add wrong larger entities of missed key mentions; returns the document and entities.

    Each new entity takes one missed mention from every key entity that still
    has one, so it is as large as it can be without a correct link; this is
    repeated while two key entities have missed mentions left. The mentions
    picked from each key entity follow a seeded order.
    """
    groups = _missing_groups(key, response, _rng(seed, key.doc_id))
    added: list[list[Span]] = []
    while sum(1 for g in groups if g) >= 2:
        added.append(sorted(g.pop() for g in groups if g))
    doc = _plain(response.doc_id, [*response.entities, *added])
    return doc, len(added)


# ---------------------------------------------------------------------------
# Scoring


def _scores(result: Any, names: Sequence[str]) -> dict[str, Scores]:
    out: dict[str, Scores] = {}
    for name in names:
        if name == "conll":
            if result.conll is not None:
                out["conll"] = Scores(None, None, float(result.conll))
            continue
        s = result[name]
        out[name] = Scores(float(s.recall), float(s.precision), float(s.f1))
    return out


def _flags(expected: str, before: Scores, after: Scores) -> tuple[str, ...]:
    flags: list[str] = []
    if before.recall is not None and after.recall is not None:
        if abs(after.recall - before.recall) > TOLERANCE:
            flags.append("recall changed")
    sign = 1.0 if expected == "more precise" else -1.0
    wrong = "down" if expected == "more precise" else "up"
    for label, a, b in (
        ("precision", before.precision, after.precision),
        ("F1", before.f1, after.f1),
    ):
        if a is not None and b is not None and sign * (b - a) < -TOLERANCE:
            flags.append(f"{label} {wrong}")
    return tuple(flags)


def mention_effect(
    key: Corpus,
    response: Corpus,
    *,
    seed: int = 0,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "first",
    conll: bool = True,
) -> MentionEffectReport:
    """Score the response and its three transformations with every metric.

    Documents are paired by id; a key document the response lacks counts as
    an empty response (all its mentions are then "missed"). The duplicates
    policy is applied before transforming. ``conll`` adds the CoNLL score
    (mean F1 of MUC, B³, CEAFe; its parts are scored even if not asked for).
    """
    from ..evaluation import Evaluation
    from ..pipeline import document_pairs, pair_documents

    Evaluation.create(duplicates=duplicates)
    objects = list(resolve(metrics))
    chosen = [m.name for m in objects]
    if conll:
        objects += [REGISTRY[p] for p in CONLL_PARTS if p not in chosen]
    pairing = pair_documents(tuple(key.documents), tuple(response.documents))
    warnings: list[str] = list(pairing.warnings)
    keys: dict[str, Document] = {}
    originals: dict[str, Document] = {}
    for key_doc, resp_doc in document_pairs(key, response, pairing, warnings):
        doc_id = key_doc.doc_id
        k, r = prepare_pair(key_doc, resp_doc, duplicates, warnings)
        keys[doc_id] = _plain(doc_id, k.entities) if duplicates != "reference" else k
        originals[doc_id] = _plain(doc_id, r.entities)
    key_corpus = Corpus(keys, source=key.source)

    def run(docs: Mapping[str, Document]) -> dict[str, Scores]:
        result = score_corpora(
            key_corpus, Corpus(dict(docs)), metrics=objects, duplicates=duplicates
        )
        names = [*chosen, "conll"] if conll else chosen
        return _scores(result, names)

    base = run(originals)
    variants: dict[str, Variant] = {}
    for name in VARIANTS:
        docs: dict[str, Document] = {}
        mentions_changed = entities_added = 0
        for doc_id, r in originals.items():
            k = keys[doc_id]
            if name == "more_precise":
                docs[doc_id], n = more_precise(k, r)
                mentions_changed += n
            else:
                build = less_precise_a if name == "less_precise_a" else less_precise_b
                docs[doc_id], n = build(k, r, seed)
                entities_added += n
                mentions_changed += docs[doc_id].mention_count - r.mention_count
        after = run(docs)
        expected = EXPECTED[name]
        changes = {
            m: MetricChange(m, base[m], after[m], _flags(expected, base[m], after[m])) for m in base
        }
        variants[name] = Variant(
            name=name,
            expected=expected,
            description=DESCRIPTIONS[name],
            mentions_changed=mentions_changed,
            entities_added=entities_added,
            changes=changes,
            response=Corpus(docs),
        )
    return MentionEffectReport(
        seed=seed,
        duplicates=duplicates,
        metrics=tuple(base),
        base=base,
        variants=variants,
        warnings=tuple(warnings),
    )
