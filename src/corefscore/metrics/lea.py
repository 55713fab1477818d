"""LEA, the link-based entity-aware metric (Moosavi & Strube 2016, P16-1060).

Recall = Σ_k |k|·resolved(k)/links(k) / Σ_k |k| with links(k) = |k|(|k|-1)/2
and resolved(k) = Σ_j C(n_kj, 2); a singleton has one self-link, resolved
when its mention is a singleton on the other side too. Precision swaps the
roles. Terms are added in entity order, as the LEA branch of the reference
scorer does.

The paper makes the entity size one choice of importance (§4): LEA is
Σ_e importance(e)·resolution(e) / Σ_e importance(e). ``with_importance``
builds LEA with another importance, e.g. every entity equal (``lea-uniform``)
or a weight by entity type.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..contingency import ContingencyTable, ListTable, segment_ordered_sums, segment_totals
from ..errors import UsageError
from ..model import Document
from .base import Metric, PerDocument

if TYPE_CHECKING:
    import numpy as np

    from ..model import Entity
else:
    from .._numpy import np

Importance = Callable[["Entity"], float]


def _resolution(
    sizes: np.ndarray,
    other_sizes: np.ndarray,
    owner: np.ndarray,
    partner: np.ndarray,
    counts: np.ndarray,
) -> np.ndarray:
    """resolved(e)/links(e) of every entity of one side, in entity order."""
    pairs = counts * (counts - 1) // 2
    resolved = np.bincount(owner, weights=pairs, minlength=len(sizes))
    # A singleton is resolved when its twin is alone in its entity too.
    alone = (counts == 1) & (sizes[owner] == 1) & (other_sizes[partner] == 1)
    resolved[owner[alone]] = 1
    links = np.where(sizes == 1, 1.0, sizes * (sizes - 1) / 2)
    out: np.ndarray = resolved / links
    return out


def segment_statistics(table: ContingencyTable) -> np.ndarray:
    """(Σ|K|·resolution, Σ|K|, Σ|R|·resolution, Σ|R|) per segment, added in entity order."""
    recall = _resolution(
        table.key_sizes, table.response_sizes, table.rows, table.cols, table.key_counts
    )
    precision = _resolution(
        table.response_sizes, table.key_sizes, table.cols, table.rows, table.counts
    )
    return np.column_stack(
        (
            segment_ordered_sums(table, recall * table.key_sizes, "key"),
            segment_totals(table, table.key_sizes, "key"),
            segment_ordered_sums(table, precision * table.response_sizes, "response"),
            segment_totals(table, table.response_sizes, "response"),
        )
    )


statistics = PerDocument(segment_statistics)


def list_statistics(table: ListTable) -> tuple[float, ...]:
    """``segment_statistics`` of a one-document ``ListTable``: the same terms added
    in the same order (both sides' resolved links in one pass over the cells)."""
    key_sizes, response_sizes = table.key_sizes, table.response_sizes
    key_resolved = [0] * len(key_sizes)
    response_resolved = [0] * len(response_sizes)
    for i, j, n in zip(table.rows, table.cols, table.counts):
        if n > 1:
            links = n * (n - 1) // 2
            key_resolved[i] += links
            response_resolved[j] += links
        elif key_sizes[i] == 1 and response_sizes[j] == 1:
            # Two singletons of one mention, twins: each one's self-link is resolved.
            key_resolved[i] = response_resolved[j] = 1
    # An entity with no resolved link adds 0.0, which leaves the sum's bits as
    # they are (the sum is never -0.0), and a singleton's resolved self-link
    # adds 1 / 1.0 * 1 = 1.0: both are skipped as arithmetic.
    recall = precision = 0.0
    for resolved, size in zip(key_resolved, key_sizes):
        if resolved:
            recall += resolved / (size * (size - 1) / 2) * size if size > 1 else 1.0
    for resolved, size in zip(response_resolved, response_sizes):
        if resolved:
            precision += resolved / (size * (size - 1) / 2) * size if size > 1 else 1.0
    return (recall, float(table.key_mentions), precision, float(table.response_mentions))


def _uniform(entity: Entity) -> float:
    return 1.0


def _weights(doc: Document | None, count: int, importance: Importance, side: str) -> list[float]:
    """importance(e) of every entity of one side, checked."""
    if importance is _uniform:
        return [1.0] * count
    if doc is None:
        raise UsageError("a custom LEA importance needs the documents in the contingency table")
    # Only a custom importance needs numbers (0.5 ms to import on a small run's path).
    import numbers

    out: list[float] = []
    for i in range(count):
        entity = doc.entity(i)
        value = importance(entity)
        number = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or value < 0:
            raise UsageError(
                f"LEA importance of {side} entity {entity.label!r} in document {doc.doc_id!r} "
                f"is {value!r}; it must be a finite number >= 0"
            )
        out.append(float(value))
    return out


def _importance_statistics(
    importance: Importance,
) -> Callable[[ContingencyTable], tuple[float, ...]]:
    def statistics_with_importance(table: ContingencyTable) -> tuple[float, ...]:
        n_keys, n_responses = table.shape
        key_weights = _weights(table.key, n_keys, importance, "key")
        response_weights = _weights(table.response, n_responses, importance, "response")
        # Same overlap arrays as ``lea``, so importance "size" gives its numbers.
        recall_res = _resolution(
            table.key_sizes, table.response_sizes, table.rows, table.cols, table.key_counts
        )
        precision_res = _resolution(
            table.response_sizes, table.key_sizes, table.cols, table.rows, table.counts
        )
        return (
            math.fsum(w * r for w, r in zip(key_weights, recall_res.tolist())),
            math.fsum(key_weights),
            math.fsum(w * r for w, r in zip(response_weights, precision_res.tolist())),
            math.fsum(response_weights),
        )

    return statistics_with_importance


_CITATION = "Moosavi & Strube 2016 (P16-1060), §4"


def with_importance(importance: Importance | str = "size", *, name: str) -> Metric:
    """LEA with entity importance ``importance`` instead of the entity size.

    ``importance`` is ``"size"`` (|e|, the standard LEA: same numbers as
    ``lea``), ``"uniform"`` (1 for every entity), or a callable receiving a
    ``corefscore.model.Entity`` (label, mentions, type, levels, heads) of
    either side and returning a finite number >= 0, e.g.
    ``lambda e: {"PER": 2.0}.get(e.type, 1.0)``. A side whose importances
    sum to 0 scores 0.
    """
    if isinstance(importance, str):
        if importance == "size":
            return Metric(
                name=name,
                statistics=statistics,
                segment_statistics=segment_statistics,
                summary="LEA with importance |e| (the standard LEA)",
                citation=_CITATION,
            )
        if importance == "uniform":
            return Metric(
                name=name,
                statistics=_importance_statistics(_uniform),
                summary="LEA with every entity equally important (importance 1)",
                citation=_CITATION,
            )
        raise UsageError(
            f"unknown LEA importance {importance!r}; use 'size', 'uniform' or a function "
            "of corefscore.model.Entity"
        )
    if not callable(importance):
        raise UsageError(
            f"LEA importance must be 'size', 'uniform' or a callable, got {importance!r}"
        )
    return Metric(
        name=name,
        statistics=_importance_statistics(importance),
        summary="LEA with a user-defined entity importance",
        citation=_CITATION,
    )


DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="lea",
        statistics=statistics,
        segment_statistics=segment_statistics,
        list_statistics=list_statistics,
        summary="link-based entity-aware: resolved links per entity, weighted by entity size",
        citation="Moosavi & Strube 2016 (P16-1060)",
    ),
    with_importance("uniform", name="lea-uniform"),
)
