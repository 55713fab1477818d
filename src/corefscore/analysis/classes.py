"""Resolution classes and per-class scores (Stoyanov et al. 2009, §4.1-4.2).

Every non-first key mention of a key entity (an *anaphor*; mentions are in
text order, by ``(start, end)``) gets one of nine classes:

* ``PN-e``/``PN-p``/``PN-n`` for proper names and ``CN-e``/``CN-p``/``CN-n``
  for common nouns: "e" if some preceding mention of its gold chain "exactly
  matches it" (here: the whole mention's words, joined by spaces,
  case-insensitively), else "p" if one "has some content words in common"
  (a token with a letter or digit that is not a stopword, compared
  lower-cased), else "n";
* ``1+2Pr``, ``G3Pr``, ``U3Pr`` for 1st/2nd person, gendered 3rd person and
  ungendered 3rd person pronouns.

The mention type comes from ``.mention_types``; anaphors of no type
(verbs, numerals, demonstratives outside the pronoun lists) are counted as
``unclassified`` and left out of the shares.

Two scores per class:

**MUC-RC, adapted.** The paper computes MUC-RC for class C by assuming "all
CEs that do not belong to class C are resolved correctly by taking the correct
clustering for them from the gold standard", then re-running its pairwise
classifier on every pair whose second CE is in C, and counting "the number of
unique correct/incorrect links that the system introduced on top of the
correct partial clustering". A scorer cannot re-run a resolver, so the
response stands in for the classifier: each class-C anaphor ``a`` is linked to
every key mention that precedes it inside ``a``'s response entity (exact span
match; response-only mentions are ignored, since the partial clustering
covers key mentions only). Starting from the key clustering with the class-C
anaphors removed (each a singleton), the links are merged in, and the change
is scored as MUC scores it: a *unique* link is a merge of two clusters, a
correct one a merge that lowers the number of partitions of some key entity.

    R = correct merges / number of class-C anaphors
    P = correct merges / all merges

The two differ in what the response can express: the classifier decides every
pair independently, while the response's decisions are already transitively
closed and its links between non-class-C mentions are discarded.

**Anaphor-level score** (``anaphor_level_score`` of the CorefUD scorer, with
the filter "the key mention is in class C"): an anaphor is a false negative if
it has no response twin or its twin is first in its response entity, a wrong
link if its twin's response entity holds no twin of a preceding mention of its
key chain, and a true positive otherwise. Response-only mentions have no class,
so FP is always 0 here. ``R = TP/(TP+FN+WL)``, ``P = TP/(TP+FP+WL)``.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .._record import field, record
from ..duplicates import prepare_pair
from ..errors import InputError
from ..metrics.base import MetricScore
from ..model import Corpus, Document, Span
from .mention_types import ENGLISH_STOPWORDS, Kind, MentionTyper, PronounGroup, PronounLists

CLASSES: tuple[str, ...] = (
    "PN-e",
    "PN-p",
    "PN-n",
    "CN-e",
    "CN-p",
    "CN-n",
    "1+2Pr",
    "G3Pr",
    "U3Pr",
)
SCHEMA = "corefscore.resolution-classes/1"

_PRONOUN_CLASS = {
    PronounGroup.FIRST_SECOND: "1+2Pr",
    PronounGroup.GENDERED_THIRD: "G3Pr",
    PronounGroup.UNGENDERED_THIRD: "U3Pr",
}
_WORDLIKE = re.compile(r"\w")


@record(frozen=True)
class AnaphorCounts:
    """CorefUD anaphor-level counts of one class."""

    tp: int = 0
    wl: int = 0
    fn: int = 0
    fp: int = 0

    def __add__(self, other: AnaphorCounts) -> AnaphorCounts:
        return AnaphorCounts(
            self.tp + other.tp, self.wl + other.wl, self.fn + other.fn, self.fp + other.fp
        )

    def score(self) -> MetricScore:
        return MetricScore.from_counts(
            self.tp, self.tp + self.fn + self.wl, self.tp, self.tp + self.fp + self.wl
        )


@record(frozen=True)
class ClassScore:
    """One resolution class: its size and both scores."""

    name: str
    count: int
    share: float
    muc_rc: MetricScore
    anaphor: MetricScore
    anaphor_counts: AnaphorCounts

    def to_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "share": self.share,
            "muc_rc": _score_dict(self.muc_rc),
            "anaphor": {**_score_dict(self.anaphor), **_counts_dict(self.anaphor_counts)},
        }


@record(frozen=True)
class ClassReport:
    """Resolution classes of a corpus pair (see the module docstring)."""

    classes: tuple[ClassScore, ...]
    total: ClassScore
    unclassified: int
    documents: int
    key_source: str | None = None
    response_source: str | None = None
    warnings: tuple[str, ...] = field(default=())
    #: A name for the corpus (CPP's leave-one-out rows), the key file's stem by default.
    corpus: str | None = None
    #: The pair's ordinary scores (MUC, B3, CEAFe F1 and the CoNLL score), which
    #: CPP compares its predictions with.
    overall: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> ClassScore:
        for entry in self.classes:
            if entry.name == name:
                return entry
        if name == "total":
            return self.total
        raise KeyError(name)

    @property
    def distribution(self) -> dict[str, int]:
        return {c.name: c.count for c in self.classes}

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "corpus": self.corpus,
            "key": self.key_source,
            "response": self.response_source,
            "documents": self.documents,
            "anaphors": self.total.count + self.unclassified,
            "unclassified": self.unclassified,
            "classes": {c.name: c.to_dict() for c in self.classes},
            "total": self.total.to_dict(),
            "overall": dict(self.overall),
            "warnings": list(self.warnings),
        }


def _score_dict(score: MetricScore) -> dict[str, float]:
    return {
        "recall": score.recall,
        "precision": score.precision,
        "f1": score.f1,
        "recall_num": score.recall_num,
        "recall_den": score.recall_den,
        "precision_num": score.precision_num,
        "precision_den": score.precision_den,
    }


def _counts_dict(counts: AnaphorCounts) -> dict[str, int]:
    return {"tp": counts.tp, "wl": counts.wl, "fn": counts.fn, "fp": counts.fp}


class _Tally:
    """Per-class additive statistics of a corpus."""

    def __init__(self) -> None:
        self.count = dict.fromkeys(CLASSES, 0)
        self.rc_correct = dict.fromkeys(CLASSES, 0)
        self.rc_merges = dict.fromkeys(CLASSES, 0)
        self.als = {c: AnaphorCounts() for c in CLASSES}
        self.unclassified = 0


def _content_words(words: Iterable[str], stopwords: frozenset[str]) -> set[str]:
    return {
        low for low in (w.lower() for w in words) if _WORDLIKE.search(low) and low not in stopwords
    }


def classify_document(
    doc: Document,
    pronouns: PronounLists | None = None,
    stopwords: Iterable[str] | None = None,
) -> dict[Span, str | None]:
    """The resolution class of every anaphor of ``doc`` (``None``: no class).

    ``doc`` is a key document whose syntax has words and POS tags.
    """
    lists = pronouns or PronounLists()
    stop = frozenset(w.lower() for w in (ENGLISH_STOPWORDS if stopwords is None else stopwords))
    # Pronouns are function words too, whatever the language's lists.
    stop |= lists.words
    typer = MentionTyper(doc, lists)
    classes: dict[Span, str | None] = {}
    for entity in doc.entities:
        chain = sorted(entity)
        seen_text: set[str] = set()
        seen_content: set[str] = set()
        for position, span in enumerate(chain):
            words = typer.text(span)
            text = " ".join(words).lower()
            content = _content_words(words, stop)
            if position:
                mtype = typer.mention_type(span)
                label: str | None = None
                if mtype.kind is Kind.PRONOUN:
                    label = _PRONOUN_CLASS[mtype.pronoun] if mtype.pronoun else None
                elif mtype.kind in (Kind.NAME, Kind.NOUN):
                    prefix = "PN" if mtype.kind is Kind.NAME else "CN"
                    if text in seen_text:
                        label = prefix + "-e"
                    elif content & seen_content:
                        label = prefix + "-p"
                    else:
                        label = prefix + "-n"
                classes[span] = label
            seen_text.add(text)
            seen_content |= content
    return classes


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[Span, Span] = {}

    def find(self, item: Span) -> Span:
        parent = self.parent.setdefault(item, item)
        if parent == item:
            return item
        root = self.find(parent)
        self.parent[item] = root
        return root

    def union(self, a: Span, b: Span) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[ra] = rb
        return True


def _muc_rc(
    key: Document, response_entity: dict[Span, int], response: Document, members: set[Span]
) -> tuple[int, int]:
    """(correct merges, all merges) of the adapted MUC-RC for the anaphors ``members``."""
    forest = _UnionFind()
    key_spans: set[Span] = set()
    for entity in key.entities:
        anchor: Span | None = None
        for span in entity:
            key_spans.add(span)
            forest.find(span)
            if span in members:
                continue
            if anchor is None:
                anchor = span
            else:
                forest.union(anchor, span)
    partitions_before = {
        i: len({forest.find(s) for s in entity}) for i, entity in enumerate(key.entities)
    }
    merges = 0
    for anaphor in sorted(members):
        j = response_entity.get(anaphor)
        if j is None:
            continue
        for span in response.entities[j]:
            if span < anaphor and span in key_spans and forest.union(anaphor, span):
                merges += 1
    correct = 0
    for i, entity in enumerate(key.entities):
        correct += partitions_before[i] - len({forest.find(s) for s in entity})
    return correct, merges


def _anaphor_level(
    key: Document,
    response_entity: dict[Span, int],
    response_first: set[Span],
    classes: dict[Span, str | None],
) -> dict[str, AnaphorCounts]:
    tally: dict[str, list[int]] = {c: [0, 0, 0] for c in CLASSES}  # tp, wl, fn
    for entity in key.entities:
        previous: set[int] = set()
        for position, span in enumerate(sorted(entity)):
            j = response_entity.get(span)
            label = classes.get(span) if position else None
            if label is not None:
                if j is None or span in response_first:
                    tally[label][2] += 1
                elif j not in previous:
                    tally[label][1] += 1
                else:
                    tally[label][0] += 1
            if j is not None:
                previous.add(j)
    return {c: AnaphorCounts(tp=t[0], wl=t[1], fn=t[2]) for c, t in tally.items()}


def _score_document(
    key: Document,
    response: Document,
    tally: _Tally,
    pronouns: PronounLists | None,
    stopwords: Iterable[str] | None,
) -> None:
    classes = classify_document(key, pronouns, stopwords)
    response_entity = {span: j for j, entity in enumerate(response.entities) for span in entity}
    response_first = {min(entity) for entity in response.entities if entity}
    by_class: dict[str, set[Span]] = {c: set() for c in CLASSES}
    for span, label in classes.items():
        if label is None:
            tally.unclassified += 1
        else:
            by_class[label].add(span)
    for name, members in by_class.items():
        tally.count[name] += len(members)
        if members:
            correct, merges = _muc_rc(key, response_entity, response, members)
            tally.rc_correct[name] += correct
            tally.rc_merges[name] += merges
    for name, counts in _anaphor_level(key, response_entity, response_first, classes).items():
        tally.als[name] = tally.als[name] + counts


def resolution_classes(
    key: Corpus,
    response: Corpus,
    *,
    pronouns: PronounLists | None = None,
    duplicates: str = "first",
    stopwords: Iterable[str] | None = None,
    corpus: str | None = None,
) -> ClassReport:
    """Resolution classes of ``key`` and their scores for ``response``.

    ``key`` must be read with its syntax (``read_corpus(..., syntax=True)``)
    from a format with words and POS tags; ``pronouns`` replaces the English
    pronoun lists, ``stopwords`` the English stopwords of the partial match.
    Repeated spans are handled by the ``duplicates`` policy (as in scoring).
    Key documents missing from the response count as all missed.
    """
    from ..evaluation import Evaluation
    from ..pipeline import document_pairs, pair_documents

    Evaluation.create(duplicates=duplicates)
    pairing = pair_documents(tuple(key.documents), tuple(response.documents))
    warnings: list[str] = [*key.warnings, *response.warnings, *pairing.warnings]
    tally = _Tally()
    for key_doc, response_doc in document_pairs(key, response, pairing, warnings):
        _require_syntax(key_doc, key)
        key_doc, response_doc = prepare_pair(key_doc, response_doc, duplicates, warnings)
        _score_document(key_doc, response_doc, tally, pronouns, stopwords)
    total_count = sum(tally.count.values())
    entries = []
    for name in CLASSES:
        count = tally.count[name]
        entries.append(
            ClassScore(
                name=name,
                count=count,
                share=count / total_count if total_count else 0.0,
                muc_rc=MetricScore.from_counts(
                    tally.rc_correct[name], count, tally.rc_correct[name], tally.rc_merges[name]
                ),
                anaphor=tally.als[name].score(),
                anaphor_counts=tally.als[name],
            )
        )
    correct = math.fsum(tally.rc_correct.values())
    all_als = AnaphorCounts()
    for counts in tally.als.values():
        all_als = all_als + counts
    total = ClassScore(
        name="total",
        count=total_count,
        share=1.0 if total_count else 0.0,
        muc_rc=MetricScore.from_counts(
            correct, total_count, correct, math.fsum(tally.rc_merges.values())
        ),
        anaphor=all_als.score(),
        anaphor_counts=all_als,
    )
    from ..scorer import score_corpora

    plain = score_corpora(key, response, metrics="conll", duplicates=duplicates)
    overall: dict[str, Any] = {
        name: {"recall": m.recall, "precision": m.precision, "f1": m.f1}
        for name, m in plain.metrics.items()
    }
    overall["conll"] = {"f1": plain.conll}
    return ClassReport(
        classes=tuple(entries),
        total=total,
        unclassified=tally.unclassified,
        documents=len(key.documents),
        key_source=key.source,
        response_source=response.source,
        warnings=tuple(warnings),
        corpus=corpus if corpus is not None else _stem(key.source),
        overall=overall,
    )


def _require_syntax(doc: Document, key: Corpus) -> None:
    if doc.syntax is None:
        raise InputError(
            f"resolution classes need the key's words and POS tags (document {doc.doc_id!r}): "
            "read it with syntax=True from CoNLL-2012 or CoNLL-U",
            path=doc.source or key.source,
        )


def _stem(source: str | None) -> str | None:
    if source is None:
        return None
    name = os.path.basename(source)
    for suffix in (".gz", ".conllu", ".conll", ".jsonl", ".json"):
        name = name.removesuffix(suffix)
    return name


def class_distribution(
    key: Corpus,
    pronouns: PronounLists | None = None,
    *,
    stopwords: Iterable[str] | None = None,
) -> dict[str, float]:
    """The share of the key's classified anaphors in each class (the key alone).

    This is what CPP needs of a new corpus: no response is involved.
    """
    counts = dict.fromkeys(CLASSES, 0)
    for doc in key:
        _require_syntax(doc, key)
        for name in classify_document(doc, pronouns, stopwords).values():
            if name is not None:
                counts[name] += 1
    total = sum(counts.values())
    return {name: n / total if total else 0.0 for name, n in counts.items()}
