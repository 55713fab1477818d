"""Result dataclasses and their JSON form."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._record import field, made_from, record
from ._version import __version__
from .metrics import CONLL_PARTS, MetricScore

if TYPE_CHECKING:
    from .evaluation import Evaluation

#: Version of the JSON layout produced by ``ScoreResult.to_dict``.
SCHEMA_VERSION = 1


def conll_score(metrics: Mapping[str, MetricScore]) -> float | None:
    """Mean F1 of MUC, B³ and CEAFe, or ``None`` if one of them was not computed."""
    # One list, not two generators: this runs for every result and document.
    try:
        f1s = [metrics[m].f1 for m in CONLL_PARTS]
    except KeyError:
        return None
    return sum(f1s) / len(CONLL_PARTS)


@record(frozen=True)
class DocumentResult:
    """The scores of one document."""

    doc_id: str
    metrics: dict[str, MetricScore]
    conll: float | None

    def __getitem__(self, metric: str) -> MetricScore:
        return self.metrics[metric]

    def to_dict(self) -> dict[str, Any]:
        """This document's metrics as in the JSON ``documents`` section."""
        return _metrics_dict(self.metrics, self.conll)


@record(frozen=True)
class ScoreResult:
    """Corpus-level scores (micro-averaged over key documents).

    ``result["muc"].f1``, ``result.conll``; ``documents`` holds per-document
    scores when they were asked for.
    """

    metrics: dict[str, MetricScore]
    conll: float | None
    signature: str
    options: dict[str, Any] = field(default_factory=dict)
    documents: dict[str, DocumentResult] | None = None
    warnings: tuple[str, ...] = ()
    #: Every document's additive statistics (metric -> numerators and
    #: denominators), for bootstrap and significance tests; not in the JSON.
    document_statistics: Mapping[str, Mapping[str, tuple[float, ...]]] | None = field(
        default=None, repr=False, compare=False
    )

    def __getitem__(self, metric: str) -> MetricScore:
        return self.metrics[metric]

    def macro(self) -> dict[str, dict[str, float]]:
        """Per-document recall, precision and F1 averaged over documents (needs ``documents``).

        The corpus scores of ``metrics`` are micro-averages (sums, then ratios);
        these are the unweighted means of the documents' own scores, which
        weigh a short document like a long one.
        """
        if not self.documents:
            return {}
        docs = list(self.documents.values())
        out: dict[str, dict[str, float]] = {}
        for name in self.metrics:
            scores = [d.metrics[name] for d in docs]
            out[name] = {
                field: math.fsum(getattr(m, field) for m in scores) / len(scores)
                for field in ("recall", "precision", "f1")
            }
        conll = [d.conll for d in docs if d.conll is not None]
        if conll and len(conll) == len(docs):
            out["conll"] = {"f1": math.fsum(conll) / len(conll)}
        return out

    def ranked_documents(self, metric: str | None = None) -> list[tuple[str, float]]:
        """Documents sorted by F1 (the CoNLL score, else the first metric), worst first."""
        if not self.documents:
            return []
        use_conll = metric is None and self.conll is not None
        name = metric or next(iter(self.metrics))

        def f1(doc: DocumentResult) -> float:
            if use_conll and doc.conll is not None:
                return doc.conll
            return doc.metrics[name].f1

        pairs = [(doc_id, f1(doc)) for doc_id, doc in self.documents.items()]
        return sorted(pairs, key=lambda p: (p[1], p[0]))

    def to_dict(self) -> dict[str, Any]:
        """The JSON layout of ``--format json`` (``docs/json.md``), as Python objects."""
        out: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "corefscore_version": __version__,
            "signature": self.signature,
            "options": dict(self.options),
            "metrics": _metrics_dict(self.metrics, self.conll),
        }
        if self.documents is not None:
            out["documents"] = {d: r.to_dict() for d, r in self.documents.items()}
            out["macro"] = self.macro()
            out["documents_by_f1"] = [{"document": d, "f1": f} for d, f in self.ranked_documents()]
        out["warnings"] = list(self.warnings)
        return out

    def to_json(self, *, indent: int | None = 2) -> str:
        """``to_dict()`` as JSON text (what ``--format json`` prints)."""
        import json  # not at the top: the text output of a run needs no json

        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def build_result(
    evaluation: Evaluation,
    statistics: Mapping[str, Mapping[str, tuple[float, ...]]],
    *,
    warnings: Sequence[str] = (),
    per_document: bool = False,
    options: Mapping[str, Any] | None = None,
    signature: str | None = None,
    floats: bool = False,
) -> ScoreResult:
    """The result of every document's statistics (what every engine returns).

    Corpus statistics are the correctly rounded sums (``math.fsum``) of the
    documents', so neither the order of documents nor the engine changes a
    bit. ``options`` (the inputs, ``documents``...) follow the evaluation's
    own record in the result's ``options``. ``floats``: the caller vouches that
    every statistic is a tuple of Python floats already (those of the built-in
    list formulas, which tests/metrics/test_list_formulas.py checks), which a
    lone document's sums then are as they stand.
    """
    metrics = evaluation.metrics
    totals: dict[str, MetricScore] = {}
    only = next(iter(statistics.values())) if len(statistics) == 1 else None
    for metric in metrics:
        if only is not None:
            # The correctly rounded sum of one number is that number, as a float.
            summed = only[metric.name] if floats else tuple(map(float, only[metric.name]))
        else:
            columns = zip(*(stats[metric.name] for stats in statistics.values()))
            summed = tuple(math.fsum(c) for c in columns) or (0,) * metric.width
        totals[metric.name] = metric.combine(summed)
    documents = None
    if per_document:
        documents = {}
        for doc_id, stats in statistics.items():
            scores = {m.name: m.combine(stats[m.name]) for m in metrics}
            documents[doc_id] = DocumentResult(doc_id, scores, conll_score(scores))
    record = evaluation.to_dict()
    record.update(options or {})
    # Every field, in order, without the record's generic __init__ (score() on a
    # small document makes one per call; tests/test_result.py compares the two).
    return made_from(
        ScoreResult,
        {
            "metrics": totals,
            "conll": conll_score(totals),
            "signature": signature or evaluation.signature(),
            "options": record,
            "documents": documents,
            "warnings": tuple(warnings),
            "document_statistics": dict(statistics),
        },
    )


def _metrics_dict(metrics: Mapping[str, MetricScore], conll: float | None) -> dict[str, Any]:
    out: dict[str, Any] = {name: score.to_dict() for name, score in metrics.items()}
    if conll is not None:
        out["conll"] = {"f1": conll}
    return out
