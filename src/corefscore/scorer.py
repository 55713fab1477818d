"""Scoring: pairing documents, the stateful :class:`CorefScorer`, and the
one-call functions :func:`score` and :func:`score_files`."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .contingency import build_table, empty_document
from .duplicates import check_policy, prepare_pair
from .errors import CorefScoreError, InputError, UsageError
from .metrics import Metric, MetricSpec, resolve
from .model import (
    ClusterInput,
    Corpus,
    Document,
    Syntax,
    corpus_from_mapping,
    document_from_clusters,
)
from .regimes import EvaluationSetup
from .result import DocumentResult, ScoreResult, conll_score
from .signature import make_signature

if TYPE_CHECKING:
    from .matching import Twins
    from .metrics.ceaf import EntityAlignment

Statistics = dict[str, tuple[float, ...]]


class CorefScorer:
    """Accumulates additive statistics document by document.

    The state is each document's additive statistics (numerators and
    denominators), so scorers fed on different workers can be combined with
    :meth:`merge`::

        scorer = CorefScorer()
        for key_clusters, predicted in batches:
            scorer.update(key_clusters, predicted)
        result = scorer.compute()
        scorer.reset()
    """

    def __init__(
        self,
        *,
        metrics: MetricSpec | Iterable[MetricSpec] | None = None,
        duplicates: str = "default",
        matching: str = "exact",
        singletons: str = "keep",
        key_singletons: str | None = None,
        response_singletons: str | None = None,
        gold_mentions: bool = False,
        anaphoric_only: bool = False,
        remove_nested: bool = False,
        setup: EvaluationSetup | None = None,
    ) -> None:
        """Options are those of :func:`score`; ``setup`` replaces the regime options."""
        self._metrics: dict[str, Metric] = {m.name: m for m in resolve(metrics)}
        self.metrics: tuple[str, ...] = tuple(self._metrics)
        self.duplicates = check_policy(duplicates)
        self.setup = setup or EvaluationSetup.create(
            matching=matching,
            singletons=singletons,
            key_singletons=key_singletons,
            response_singletons=response_singletons,
            gold_mentions=gold_mentions,
            anaphoric_only=anaphoric_only,
            remove_nested=remove_nested,
        )
        if self.setup.matching != "exact" and self.duplicates == "reference":
            raise UsageError(
                f"--duplicates reference reproduces the reference scorer, which matches "
                f"mentions exactly; it cannot be combined with {self.setup.matching} matching"
            )
        self._requires = {r for m in self._metrics.values() for r in m.requires}
        self.reset()

    def reset(self) -> None:
        """Forget every document seen so far."""
        self._documents: dict[str, Statistics] = {}
        self._warnings: list[str] = []
        self._no_min_warned = False

    def update(
        self,
        key_clusters: ClusterInput,
        response_clusters: ClusterInput,
        *,
        doc_id: str | None = None,
    ) -> Statistics:
        """Score one document given as clusters of ``(start, end)`` spans.

        Returns that document's statistics and adds them to the state.
        """
        name = doc_id if doc_id is not None else f"doc{len(self._documents)}"
        key = document_from_clusters(name, key_clusters, side="key")
        response = document_from_clusters(name, response_clusters, side="response")
        return self.update_document(key, response)

    def update_document(self, key: Document, response: Document) -> Statistics:
        """Score one key/response :class:`Document` pair (same ``doc_id``)."""
        if key.doc_id in self._documents:
            raise InputError(
                f"document {key.doc_id!r} was already scored; call reset() or give another doc_id"
            )
        key, response = prepare_pair(key, response, self.duplicates, self._warnings)
        if self.setup.matching == "min-span" and not key.min_spans and not self._no_min_warned:
            self._no_min_warned = True
            self._warnings.append(
                f"min-span matching: key document {key.doc_id!r} has no MIN spans (neither may "
                "others); a key mention without MIN needs an exact match"
            )
        key, response = self.setup.apply(key, response)
        if self._requires:
            _check_requirements(self._metrics.values(), key, response)
        table = build_table(key, response)
        stats = {name: metric.statistics(table) for name, metric in self._metrics.items()}
        self._documents[key.doc_id] = stats
        return stats

    def merge(self, other: CorefScorer) -> CorefScorer:
        """Add the state of ``other`` (same metrics and policy) to this scorer."""
        if (
            other._metrics != self._metrics
            or other.duplicates != self.duplicates
            or other.setup != self.setup
        ):
            raise UsageError(
                "cannot merge scorers with different metrics, duplicates policy or regime"
            )
        for doc_id, stats in other._documents.items():
            if doc_id in self._documents:
                raise InputError(f"document {doc_id!r} was scored by both scorers")
            self._documents[doc_id] = stats
        self._warnings.extend(other._warnings)
        return self

    @property
    def statistics(self) -> Statistics:
        """The summed statistics: metric -> (recall num, recall den, precision num, den...).

        Sums are correctly rounded (``math.fsum``), hence independent of the
        order in which documents were added or scorers merged. The reference
        scorer adds documents in Perl hash order, which varies from run to run.
        """
        totals: Statistics = {}
        for m in self.metrics:
            columns = zip(*(stats[m] for stats in self._documents.values()))
            totals[m] = tuple(math.fsum(c) for c in columns) or (0,) * self._metrics[m].width
        return totals

    @property
    def document_statistics(self) -> dict[str, Statistics]:
        return dict(self._documents)

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(self._warnings)

    def compute(
        self, *, per_document: bool = False, options: Mapping[str, Any] | None = None
    ) -> ScoreResult:
        """Recall, precision and F1 of every metric over all documents so far."""
        combine = {name: metric.combine for name, metric in self._metrics.items()}
        metrics = {m: combine[m](s) for m, s in self.statistics.items()}
        documents = None
        if per_document:
            documents = {}
            for doc_id, stats in self._documents.items():
                scores = {m: combine[m](s) for m, s in stats.items()}
                documents[doc_id] = DocumentResult(doc_id, scores, conll_score(scores))
        opts: dict[str, Any] = {"metrics": list(self.metrics), "duplicates": self.duplicates}
        opts.update(self.setup.to_dict())
        opts.update(options or {})
        return ScoreResult(
            document_statistics=dict(self._documents),
            metrics=metrics,
            conll=conll_score(metrics),
            signature=make_signature(
                metrics=self.metrics, duplicates=self.duplicates, setup=self.setup
            ),
            options=opts,
            documents=documents,
            warnings=tuple(self._warnings),
        )


_FACTS = {"entity_types": "entity types", "mention_levels": "mention levels"}


def _check_requirements(metrics: Iterable[Metric], key: Document, response: Document) -> None:
    """Refuse a document that lacks the facts a selected metric needs."""
    for metric in metrics:
        for need in metric.requires:
            for side, doc in (("key", key), ("response", response)):
                values = getattr(doc, need, ())
                flat = values if need == "entity_types" else [v for e in values for v in e]
                if doc.entities and (not values or any(v is None for v in flat)):
                    raise InputError(
                        f"metric {metric.name} needs {_FACTS.get(need, need)} for every "
                        f"{'entity' if need == 'entity_types' else 'mention'}, and {side} "
                        f"document {doc.doc_id!r} lacks them",
                        path=doc.source,
                    )


def score_corpora(
    key: Corpus,
    response: Corpus,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    matching: str = "exact",
    singletons: str = "keep",
    key_singletons: str | None = None,
    response_singletons: str | None = None,
    gold_mentions: bool = False,
    anaphoric_only: bool = False,
    remove_nested: bool = False,
    setup: EvaluationSetup | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ScoreResult:
    """Score two corpora, pairing documents by id.

    Key documents missing from the response are scored as all missed;
    response documents missing from the key are ignored with a warning.
    ``progress(done, total)`` is called after each document (the command
    line draws a progress bar with it; the library itself never prints).
    """
    scorer = CorefScorer(
        metrics=metrics,
        duplicates=duplicates,
        matching=matching,
        singletons=singletons,
        key_singletons=key_singletons,
        response_singletons=response_singletons,
        gold_mentions=gold_mentions,
        anaphoric_only=anaphoric_only,
        remove_nested=remove_nested,
        setup=setup,
    )
    scorer._warnings.extend(key.warnings)
    scorer._warnings.extend(response.warnings)
    selected = list(key.documents)
    if documents is not None:
        missing = [d for d in documents if d not in key.documents]
        if missing:
            raise InputError(
                f"document {missing[0]!r} is not in the key "
                f"({len(key.documents)} documents, e.g. {next(iter(key.documents))!r})",
                path=key.source,
            )
        selected = list(dict.fromkeys(documents))
    else:
        extra = [d for d in response.documents if d not in key.documents]
        if extra:
            shown = ", ".join(repr(d) for d in extra[:3]) + (" ..." if len(extra) > 3 else "")
            if len(extra) == len(response.documents):
                scorer._warnings.append(
                    f"no response document id matches a key document id ({shown}); "
                    "every key document is scored as all missed"
                )
            else:
                scorer._warnings.append(
                    f"{len(extra)} response document(s) not in the key, ignored: {shown}"
                )
    missing_in_response = 0
    for done, doc_id in enumerate(selected, 1):
        response_doc = response.documents.get(doc_id)
        if response_doc is None:
            missing_in_response += 1
            response_doc = empty_document(doc_id)
        else:
            check_shared_tokens(key.documents[doc_id], response_doc)
        scorer.update_document(key.documents[doc_id], response_doc)
        if progress is not None:
            progress(done, len(selected))
    if missing_in_response and len(response.documents):
        scorer._warnings.append(
            f"{missing_in_response} key document(s) not in the response, scored as all missed"
        )
    opts: dict[str, Any] = {"documents": list(documents) if documents is not None else None}
    opts.update(options or {})
    return scorer.compute(per_document=per_document, options=opts)


def score(
    key: Mapping[str, ClusterInput],
    response: Mapping[str, ClusterInput],
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "default",
    per_document: bool = False,
    matching: str = "exact",
    singletons: str = "keep",
    key_singletons: str | None = None,
    response_singletons: str | None = None,
    gold_mentions: bool = False,
    anaphoric_only: bool = False,
    remove_nested: bool = False,
) -> ScoreResult:
    """Score in-memory clusters: ``{doc_id: [[(start, end), ...], ...]}`` on each side.

    ``metrics`` takes names (see ``corefscore metrics``) and :class:`Metric`
    objects, e.g. ``corefscore.metrics.ceaf.custom(...)``.

    Regime options (:mod:`corefscore.regimes`): ``matching`` pairs response
    mentions with key mentions (``exact``, ``head``, ``min-span``,
    ``overlap``); ``singletons`` (``keep``/``drop``) applies to both sides
    unless ``key_singletons`` or ``response_singletons`` is given;
    ``gold_mentions`` keeps only response mentions with a key twin;
    ``anaphoric_only`` keeps only mentions of non-singleton key entities and
    their twins; ``remove_nested`` keeps only maximal spans.
    """
    return score_corpora(
        corpus_from_mapping(key, side="key"),
        corpus_from_mapping(response, side="response"),
        metrics=metrics,
        duplicates=duplicates,
        per_document=per_document,
        matching=matching,
        singletons=singletons,
        key_singletons=key_singletons,
        response_singletons=response_singletons,
        gold_mentions=gold_mentions,
        anaphoric_only=anaphoric_only,
        remove_nested=remove_nested,
    )


def score_files(
    key_path: str | os.PathLike[str],
    response_path: str | os.PathLike[str],
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    matching: str = "exact",
    singletons: str = "keep",
    key_singletons: str | None = None,
    response_singletons: str | None = None,
    gold_mentions: bool = False,
    anaphoric_only: bool = False,
    remove_nested: bool = False,
    key_format: str | None = None,
    response_format: str | None = None,
) -> ScoreResult:
    """Score a response file against a key file (``.gz`` too).

    Formats (``conll``, ``conllu``, ``jsonl``, ``json``, ``sgml``) are detected
    from each file's content and name unless given; key and response may differ.
    """
    setup = EvaluationSetup.create(
        matching=matching,
        singletons=singletons,
        key_singletons=key_singletons,
        response_singletons=response_singletons,
        gold_mentions=gold_mentions,
        anaphoric_only=anaphoric_only,
        remove_nested=remove_nested,
    )
    resolve(metrics)
    check_policy(duplicates)
    key, response = read_pair(
        key_path, response_path, setup=setup, key_format=key_format, response_format=response_format
    )
    return score_corpora(
        key,
        response,
        metrics=metrics,
        duplicates=duplicates,
        documents=documents,
        per_document=per_document,
        setup=setup,
        options={"key": os.fspath(key_path), "response": os.fspath(response_path)},
    )


def read_pair(
    key_path: str | os.PathLike[str],
    response_path: str | os.PathLike[str],
    *,
    setup: EvaluationSetup | None = None,
    syntax: bool = False,
    head_column: int | None = None,
    key_format: str | None = None,
    response_format: str | None = None,
    empty_nodes: bool = False,
) -> tuple[Corpus, Corpus]:
    """Read a key and a response file, in any supported formats (detected if not given).

    Head matching needs each document's syntax (a parse or dependency column),
    which for CoNLL files a second, slower pass reads; ``syntax=True`` forces
    it. ``head_column`` names a dependency head field (0-based), as in
    :func:`corefscore.io.read_conll`. ``empty_nodes`` keeps CoNLL-U empty nodes
    as tokens.
    """
    from .io import read_corpus

    if head_column is not None and head_column < 0:
        raise UsageError(f"--head-column must be a field index >= 0, got {head_column}")
    with_syntax = syntax or (setup is not None and setup.matching == "head")
    key = read_corpus(
        key_path,
        format=key_format,
        side="key",
        syntax=with_syntax,
        head_column=head_column,
        empty_nodes=empty_nodes,
    )
    # Heads of both sides come from the key's syntax (the same tokens, and the
    # same parse for both); the response's own columns are read only when the
    # key has none.
    response_syntax = with_syntax and not all(
        doc.syntax is not None
        and (doc.syntax.parse is not None or doc.syntax.dependency_heads is not None)
        for doc in key
    )
    response = read_corpus(
        response_path,
        format=response_format,
        side="response",
        syntax=response_syntax,
        head_column=head_column,
        empty_nodes=empty_nodes,
    )
    return key, response


def check_shared_tokens(key: Document, response: Document) -> None:
    """Refuse a key and a response document whose tokens differ.

    Mentions are token positions, so a pair is only comparable when both
    sides have the same tokens. Checked when both readers state the token
    count (CoNLL-U, jsonlines, MUC SGML; the CoNLL reader, like the reference
    scorer, does not): then the error names the first sentence whose tokens
    differ, re-reading the files' words if they were not kept.
    """
    key_count, response_count = key.token_count, response.token_count
    if key_count is None or response_count is None:
        return
    key_words = key.syntax.words if key.syntax is not None else None
    response_words = response.syntax.words if response.syntax is not None else None
    if key_count == response_count and (
        key_words is None or response_words is None or key_words == response_words
    ):
        return
    key_syntax = _with_words(key)
    key_words, response_words = key_syntax.words, _with_words(response).words
    where = ""
    if key_words is not None and response_words is not None:
        first = next(
            (t for t, (a, b) in enumerate(zip(key_words, response_words)) if a != b),
            min(len(key_words), len(response_words)),
        )
        sentence = key_syntax.sentence_of(min(first, max(len(key_words) - 1, 0)))
        shown = [
            f"{side} {words[first]!r}" if first < len(words) else f"{side} none"
            for side, words in (("key", key_words), ("response", response_words))
        ]
        where = f", first at sentence {sentence}, token {first} ({', '.join(shown)})"
    raise InputError(
        f"document {key.doc_id!r}: key and response tokens differ (key {key_count} tokens, "
        f"response {response_count}{where}); both must have the same tokens",
        path=response.source,
    )


def _with_words(doc: Document) -> Syntax:
    """The document's syntax with words, re-reading its file if they were not kept."""
    if doc.syntax is not None and (doc.syntax.words is not None or doc.source is None):
        return doc.syntax
    if doc.source is None:
        return Syntax()
    from .io import read_corpus

    try:
        again = read_corpus(doc.source, syntax=True, side="input")
    except CorefScoreError:
        return doc.syntax or Syntax()
    found = again.documents.get(doc.doc_id)
    if found is not None and found.syntax is not None:
        return found.syntax
    return doc.syntax or Syntax()


def _paired_documents(
    key: Corpus, response: Corpus, documents: Sequence[str] | None
) -> Iterator[tuple[Document, Document]]:
    for doc_id in documents if documents is not None else key.documents:
        if doc_id not in key.documents:
            raise InputError(f"document {doc_id!r} is not in the key", path=key.source)
        response_doc = response.documents.get(doc_id)
        if response_doc is None:
            response_doc = empty_document(doc_id)
        else:
            check_shared_tokens(key.documents[doc_id], response_doc)
        yield key.documents[doc_id], response_doc


def score_regimes(
    key: Corpus,
    response: Corpus,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    setup: EvaluationSetup | None = None,
) -> dict[str, ScoreResult]:
    """Score one response under every regime of :data:`corefscore.regimes.REGIMES`.

    Each regime is applied on top of ``setup`` (e.g. a matching method), so
    the results show how much each assumption changes the numbers.
    """
    from .regimes import regime_setups

    return {
        name: score_corpora(
            key, response, metrics=metrics, duplicates=duplicates, documents=documents, setup=s
        )
        for name, s in regime_setups(setup or EvaluationSetup()).items()
    }


def alignments(
    key: Corpus,
    response: Corpus,
    *,
    metric: str | Metric = "ceafe",
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    setup: EvaluationSetup | None = None,
) -> dict[str, EntityAlignment]:
    """The optimal CEAF entity alignment of every document, for a CEAF-family metric."""
    from .metrics.ceaf import entity_alignment

    setup = setup or EvaluationSetup()
    out: dict[str, EntityAlignment] = {}
    for key_doc, response_doc in _paired_documents(key, response, documents):
        key_doc, response_doc = prepare_pair(key_doc, response_doc, duplicates, [])
        key_doc, response_doc = setup.apply(key_doc, response_doc)
        out[key_doc.doc_id] = entity_alignment(build_table(key_doc, response_doc), metric)
    return out


def find_twins(
    key: Corpus,
    response: Corpus,
    *,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    setup: EvaluationSetup | None = None,
    warnings: list[str] | None = None,
) -> dict[str, Twins]:
    """Twins, missed and spurious mentions of every document under ``setup``'s matching.

    The duplicates policy and the regime steps that come before matching
    (nested spans, singletons) are applied first, as when scoring.
    """
    from dataclasses import replace

    from .matching import match

    setup = setup or EvaluationSetup()
    before = replace(setup, matching="exact", gold_mentions=False, anaphoric_only=False)
    sink = warnings if warnings is not None else []
    out: dict[str, Twins] = {}
    for key_doc, response_doc in _paired_documents(key, response, documents):
        key_doc, response_doc = prepare_pair(key_doc, response_doc, duplicates, sink)
        key_doc, response_doc = before.apply(key_doc, response_doc)
        out[key_doc.doc_id] = match(key_doc, response_doc, method=setup.matching)
    return out
