"""The object engine: one ``Document`` pair at a time.

Each pair is prepared (duplicates policy, regime, matching), tabulated with
``build_table`` and handed to every metric. It
runs every regime and every metric, including those that read entities
(ACE-value, custom CEAF similarities and LEA importances), and is what
``CorefScorer`` runs for each ``update``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..contingency import build_table
from ..evaluation import Evaluation
from ..model import Corpus, Document
from ..pipeline import (
    Pairing,
    Statistics,
    check_requirements,
    document_pairs,
    min_span_warning,
    prepare,
)


def score_pair(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> Statistics:
    """The statistics of every metric on one key/response document pair."""
    key, response = prepare(key, response, evaluation, warnings)
    if any(m.requires for m in evaluation.metrics):
        check_requirements(evaluation, key, response)
    table = build_table(key, response)
    return {metric.name: metric.statistics(table) for metric in evaluation.metrics}


def document_statistics(
    key: Corpus,
    response: Corpus,
    pairing: Pairing,
    evaluation: Evaluation,
    warnings: list[str],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Statistics]:
    """The statistics of every paired document, in pairing order."""
    warnings.extend(pairing.warnings)
    warned = min_span_warning(evaluation, (key.documents[d] for d in pairing.documents))
    out: dict[str, Statistics] = {}
    total = len(pairing.documents)
    for done, (key_doc, response_doc) in enumerate(document_pairs(key, response, pairing), 1):
        if warned is not None and key_doc.doc_id == warned[0]:
            warnings.append(warned[1])
        out[key_doc.doc_id] = score_pair(key_doc, response_doc, evaluation, warnings)
        if progress is not None:
            progress(done, total)
    return out


__all__ = ["document_statistics", "score_pair"]
