"""The object engine: one ``Document`` pair at a time.

Each pair is prepared (duplicates policy, regime, matching), tabulated with
``build_table`` and handed to every metric. It
runs every regime and every metric, including those that read entities
(ACE-value, custom CEAF similarities and LEA importances), and is what
``CorefScorer`` runs for each ``update``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..contingency import (
    ContingencyTable,
    ListTable,
    build_table,
    clusters_list_table,
    list_table,
    stack_tables,
    table_of_lists,
)
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

if TYPE_CHECKING:
    from ..metrics.base import Metric

# Up to this many mentions (key and response together, over all the documents
# scored at once), documents are scored on Python lists when every metric has
# a list formula (``Metric.list_statistics``): below it, the arithmetic costs
# less than the array calls (bench/library.py measures the crossing).
LIST_MENTIONS = 2_000


def score_pair(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> Statistics:
    """The statistics of every metric on one key/response document pair."""
    if evaluation.compat == "corefud":
        from ..corefud import score_pair as score_corefud_pair

        return score_corefud_pair(key, response, evaluation, warnings)
    key, response = _prepared(key, response, evaluation, warnings)
    if _with_splits(evaluation, key, response):
        from ..metrics.split_antecedents import split_statistics

        return split_statistics(key, response, evaluation, warnings)
    return _statistics(key, response, evaluation.metrics, by_lists=_by_lists(evaluation))


def _statistics(
    key: Document, response: Document, metrics: Sequence[Metric], *, by_lists: bool
) -> Statistics:
    """The statistics of ``metrics`` on a prepared pair: by their list formulas when
    ``by_lists`` (every one has one) and the pair is small, by the arrays otherwise."""
    if by_lists and _mentions(key, response) <= LIST_MENTIONS:
        lists = list_table(key, response)
        if lists is not None:
            return _list_statistics(lists, metrics)
    table = build_table(key, response)
    return {metric.name: metric.statistics(table) for metric in metrics}


def score_plain_clusters(
    key_clusters: object, response_clusters: object, evaluation: Evaluation
) -> Statistics | None:
    """``score_pair`` on two sides given as clusters of spans, without making
    documents, when nothing of the pair's preparation applies: the evaluation's
    regime is the standard one, the clusters are the usual input
    (``clusters_list_table``: no span repeats, so no duplicates policy acts),
    every metric has a built-in list formula and the pair is small. ``None``
    otherwise: the caller then makes the documents and calls ``score_pair``
    (``CorefScorer.update`` on a model's clusters, every step of training)."""
    if not _plain_ready(evaluation):
        return None
    lists = clusters_list_table(key_clusters, response_clusters, LIST_MENTIONS)
    if lists is None:
        return None
    return _list_statistics(lists, evaluation.metrics)


def score_plain_corpus(
    key: object, response: object, evaluation: Evaluation
) -> dict[str, Statistics] | None:
    """``document_statistics`` of two ``{doc_id: clusters}`` mappings, without
    making corpora, when ``score_plain_clusters`` applies to every document, the
    two sides name the same documents (string ids, so that pairing has nothing
    to say) and all of them hold at most ``LIST_MENTIONS`` mentions, the bound
    under which the documents' path scores them on lists too. ``None``
    otherwise, for ``score`` to take that path (the same statistics, and the
    warnings and errors this one cannot give)."""
    if type(key) is not dict or type(response) is not dict or not key:
        return None
    if evaluation.scope.cross_document or not _plain_ready(evaluation):
        return None
    if key.keys() != response.keys():
        return None
    budget = LIST_MENTIONS
    out: dict[str, Statistics] = {}
    for doc_id, clusters in key.items():
        if type(doc_id) is not str:
            return None
        lists = clusters_list_table(clusters, response[doc_id], budget)
        if lists is None:
            return None
        budget -= lists.key_mentions + lists.response_mentions
        out[doc_id] = _list_statistics(lists, evaluation.metrics)
    return out


def _plain_ready(evaluation: Evaluation) -> bool:
    """Whether ``score_plain_clusters`` may score for ``evaluation``: what
    ``_prepared`` does to a pair without repeated spans, optional mentions or
    split antecedents is then nothing, and no list formula reads the documents."""

    def ready() -> bool:
        return (
            evaluation.compat != "corefud"
            and evaluation.regime.is_standard
            and evaluation.split_antecedents != "only"
            and _by_lists(evaluation)
            and not _requires(evaluation)
            and all(
                getattr(m.list_statistics, "__module__", "").startswith("corefscore.metrics.")
                for m in evaluation.metrics
            )
        )

    return evaluation.memo("plain entities", ready)


def plain_statistics(
    key: Document, response: Document, evaluation: Evaluation, names: Sequence[str]
) -> Statistics:
    """The statistics of the metrics ``names`` on a prepared pair, by their own formulas
    (on lists as ``score_pair`` chooses them: the mention identification of a
    document with split antecedents, say)."""
    chosen = [m for m in evaluation.metrics if m.name in names]
    by_lists = all(m.list_statistics is not None for m in chosen)
    return _statistics(key, response, chosen, by_lists=by_lists)


def score_lists(lists: ListTable, evaluation: Evaluation) -> Statistics:
    """The statistics of every metric on one table already made as lists, by the
    same choice as ``score_pair`` (lists when small and every metric has a list
    formula, arrays otherwise). No duplicates policy, regime or check is applied:
    for callers whose pairs need none (the error analysis' corrected responses)."""
    if _by_lists(evaluation) and lists.key_mentions + lists.response_mentions <= LIST_MENTIONS:
        return _list_statistics(lists, evaluation.metrics)
    table = table_of_lists(lists)
    return {metric.name: metric.statistics(table) for metric in evaluation.metrics}


def tabulate(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> ContingencyTable:
    """The contingency table of one prepared document pair."""
    return build_table(*_prepared(key, response, evaluation, warnings))


def _prepared(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> tuple[Document, Document]:
    """The pair after the duplicates policy, the regime and the matching, checked."""
    key, response = prepare(key, response, evaluation, warnings)
    if _requires(evaluation):
        check_requirements(evaluation, key, response)
    return key, response


def _by_lists(evaluation: Evaluation) -> bool:
    return evaluation.memo(
        "by lists", lambda: all(m.list_statistics is not None for m in evaluation.metrics)
    )


def _requires(evaluation: Evaluation) -> bool:
    return evaluation.memo("requires", lambda: any(m.requires for m in evaluation.metrics))


def _mentions(key: Document, response: Document) -> int:
    return sum(map(len, key.entities)) + sum(map(len, response.entities))


def _list_statistics(lists: ListTable, metrics: Sequence[Metric]) -> Statistics:
    out: Statistics = {}
    for metric in metrics:
        assert metric.list_statistics is not None
        out[metric.name] = metric.list_statistics(lists)
    return out


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
    prepared = []
    for done, (key_doc, response_doc) in enumerate(pairs, 1):
        if warned is not None and key_doc.doc_id == warned[0]:
            warnings.append(warned[1])
        prepared.append(_prepared(key_doc, response_doc, evaluation, warnings))
        if progress is not None:
            progress(done, total)
    with_splits = [
        (doc_id, pair)
        for doc_id, pair in zip(pairing.documents, prepared)
        if _with_splits(evaluation, *pair)
    ]
    if with_splits:
        from ..metrics.split_antecedents import split_statistics

        if evaluation.split_antecedents == "keep" and not any(
            any(r.split_antecedents) for _, (_, r) in with_splits
        ):
            # E.g. a CorefUD key against a CoNLL-2012 response, which cannot hold them.
            warnings.append(
                f"the key has split antecedents ({len(with_splits)} document(s)) and the "
                "response none: they are scored, so its plural entities lose credit; "
                "dropping them (--split-antecedents drop) scores as a CoNLL-2012 copy would"
            )
        split = {d: split_statistics(k, r, evaluation, warnings) for d, (k, r) in with_splits}
        rest = [(d, pair) for d, pair in zip(pairing.documents, prepared) if d not in split]
        found = _plain_documents([d for d, _ in rest], [pair for _, pair in rest], evaluation)
        return {d: split[d] if d in split else found[d] for d in pairing.documents}
    return _plain_documents(list(pairing.documents), prepared, evaluation)


def _plain_documents(
    doc_ids: list[str], prepared: list[tuple[Document, Document]], evaluation: Evaluation
) -> dict[str, Statistics]:
    if _by_lists(evaluation) and sum(_mentions(k, r) for k, r in prepared) <= LIST_MENTIONS:
        lists = [list_table(k, r) for k, r in prepared]
        if all(t is not None for t in lists):
            return {
                doc_id: _list_statistics(t, evaluation.metrics)
                for doc_id, t in zip(doc_ids, lists)
                if t is not None
            }
    tables = [build_table(k, r) for k, r in prepared]
    return dict(zip(doc_ids, table_statistics(tables, evaluation)))


def _with_splits(evaluation: Evaluation, key: Document, response: Document) -> bool:
    """Whether a prepared pair is scored with split antecedents (their own formulas)."""
    policy = evaluation.split_antecedents
    if policy == "only":
        return True
    return policy == "keep" and (any(key.split_antecedents) or any(response.split_antecedents))


__all__ = ["document_statistics", "score_pair", "table_statistics", "tabulate"]
