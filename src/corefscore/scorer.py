"""Scoring: pairing documents, the stateful :class:`CorefScorer`, and the
one-call functions :func:`score` and :func:`score_files`."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .contingency import build_table, empty_document
from .duplicates import check_policy, prepare_pair
from .errors import InputError, UsageError
from .metrics import STATISTICS, resolve_metrics, to_score
from .model import ClusterInput, Corpus, Document, corpus_from_mapping, document_from_clusters
from .result import DocumentResult, ScoreResult, conll_score
from .signature import make_signature

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
        self, *, metrics: str | Iterable[str] | None = None, duplicates: str = "default"
    ) -> None:
        self.metrics = resolve_metrics(metrics)
        self.duplicates = check_policy(duplicates)
        self.reset()

    def reset(self) -> None:
        """Forget every document seen so far."""
        self._documents: dict[str, Statistics] = {}
        self._warnings: list[str] = []

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
        table = build_table(key, response)
        stats = {m: STATISTICS[m](table) for m in self.metrics}
        self._documents[key.doc_id] = stats
        return stats

    def merge(self, other: CorefScorer) -> CorefScorer:
        """Add the state of ``other`` (same metrics and policy) to this scorer."""
        if other.metrics != self.metrics or other.duplicates != self.duplicates:
            raise UsageError("cannot merge scorers with different metrics or duplicates policy")
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
            totals[m] = tuple(math.fsum(c) for c in columns) or _zeros(m)
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
        metrics = {m: to_score(m, s) for m, s in self.statistics.items()}
        documents = None
        if per_document:
            documents = {}
            for doc_id, stats in self._documents.items():
                scores = {m: to_score(m, s) for m, s in stats.items()}
                documents[doc_id] = DocumentResult(doc_id, scores, conll_score(scores))
        opts = {"metrics": list(self.metrics), "duplicates": self.duplicates}
        opts.update(options or {})
        return ScoreResult(
            metrics=metrics,
            conll=conll_score(metrics),
            signature=make_signature(metrics=self.metrics, duplicates=self.duplicates),
            options=opts,
            documents=documents,
            warnings=tuple(self._warnings),
        )


def _zeros(metric: str) -> tuple[float, ...]:
    return (0,) * (8 if metric == "blanc" else 4)


def score_corpora(
    key: Corpus,
    response: Corpus,
    *,
    metrics: str | Iterable[str] | None = None,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    options: Mapping[str, Any] | None = None,
) -> ScoreResult:
    """Score two corpora, pairing documents by id.

    Key documents missing from the response are scored as all missed;
    response documents missing from the key are ignored with a warning.
    """
    scorer = CorefScorer(metrics=metrics, duplicates=duplicates)
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
    for doc_id in selected:
        response_doc = response.documents.get(doc_id)
        if response_doc is None:
            missing_in_response += 1
            response_doc = empty_document(doc_id)
        scorer.update_document(key.documents[doc_id], response_doc)
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
    metrics: str | Iterable[str] | None = None,
    duplicates: str = "default",
    per_document: bool = False,
) -> ScoreResult:
    """Score in-memory clusters: ``{doc_id: [[(start, end), ...], ...]}`` on each side."""
    return score_corpora(
        corpus_from_mapping(key, side="key"),
        corpus_from_mapping(response, side="response"),
        metrics=metrics,
        duplicates=duplicates,
        per_document=per_document,
    )


def score_files(
    key_path: str | os.PathLike[str],
    response_path: str | os.PathLike[str],
    *,
    metrics: str | Iterable[str] | None = None,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    per_document: bool = False,
) -> ScoreResult:
    """Score a response file against a key file (CoNLL-2012 / SemEval-2010, ``.gz`` too)."""
    from .io import read_conll

    resolve_metrics(metrics)
    check_policy(duplicates)
    key = read_conll(key_path)
    response = read_conll(response_path)
    return score_corpora(
        key,
        response,
        metrics=metrics,
        duplicates=duplicates,
        documents=documents,
        per_document=per_document,
        options={"key": os.fspath(key_path), "response": os.fspath(response_path)},
    )
