"""The object engine: one ``Document`` pair at a time.

Each pair is prepared (duplicates policy, regime, matching), tabulated with
``build_table`` and handed to every metric. It
runs every regime and every metric, including those that read entities
(ACE-value, custom CEAF similarities and LEA importances), and is what
``CorefScorer`` runs for each ``update``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..contingency import ContingencyTable, build_table, stack_tables
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
    if evaluation.compat == "corefud":
        from ..corefud import score_pair as score_corefud_pair

        return score_corefud_pair(key, response, evaluation, warnings)
    table = tabulate(key, response, evaluation, warnings)
    return {metric.name: metric.statistics(table) for metric in evaluation.metrics}


def tabulate(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> ContingencyTable:
    """The contingency table of one prepared document pair."""
    key, response = prepare(key, response, evaluation, warnings)
    if any(m.requires for m in evaluation.metrics):
        check_requirements(evaluation, key, response)
    return build_table(key, response)


def table_statistics(
    tables: Sequence[ContingencyTable], evaluation: Evaluation
) -> list[Statistics]:
    """Every metric's statistics of each table.

    Metrics with segment statistics compute all the regular tables at once,
    stacked into one block-diagonal table (the same formula, the same bits,
    without a round of array calls per document); the others, and tables with
    repeated spans, go one table at a time.
    """
    out: list[Statistics] = [{} for _ in tables]
    regular = [i for i, t in enumerate(tables) if not t.irregular]
    stacked = stack_tables([tables[i] for i in regular]) if len(regular) > 1 else None
    for metric in evaluation.metrics:
        if stacked is not None and metric.segment_statistics is not None:
            rows = metric.segment_statistics(stacked).tolist()
            for i, row in zip(regular, rows):
                out[i][metric.name] = tuple(row)
            todo = [i for i, t in enumerate(tables) if t.irregular]
        else:
            todo = list(range(len(tables)))
        for i in todo:
            out[i][metric.name] = metric.statistics(tables[i])
    return out


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
    total = len(pairing.documents)
    pairs = document_pairs(key, response, pairing, warnings, compat=evaluation.compat)
    if evaluation.compat == "corefud":
        # Each metric reads its own resolution of the pair (corefscore.corefud), with
        # entities in the order of their whole file.
        from ..corefud import entity_orders
        from ..corefud import score_pair as score_corefud_pair

        key_orders = entity_orders(key.documents.values())
        response_orders = entity_orders(response.documents.values())
        out: dict[str, Statistics] = {}
        for done, (key_doc, response_doc) in enumerate(pairs, 1):
            orders = (
                key_orders.get(key_doc.doc_id),
                response_orders.get(pairing.response_id(key_doc.doc_id)),
            )
            out[key_doc.doc_id] = score_corefud_pair(
                key_doc, response_doc, evaluation, warnings, orders=orders
            )
            if progress is not None:
                progress(done, total)
        return out
    warned = min_span_warning(evaluation, (key.documents[d] for d in pairing.documents))
    tables = []
    for done, (key_doc, response_doc) in enumerate(pairs, 1):
        if warned is not None and key_doc.doc_id == warned[0]:
            warnings.append(warned[1])
        tables.append(tabulate(key_doc, response_doc, evaluation, warnings))
        if progress is not None:
            progress(done, total)
    return dict(zip(pairing.documents, table_statistics(tables, evaluation)))


__all__ = ["document_statistics", "score_pair", "table_statistics", "tabulate"]
