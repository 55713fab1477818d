"""BLANC (Recasens & Hovy 2011) for system mentions (Luo, Pradhan, Recasens & Hovy 2014).

C_k and C_r are the coreference links (mention pairs in one entity) of key and
response, N_k and N_r the non-coreference links (pairs across entities), each
over that side's own mentions. The eight counts are closed forms over the
contingency table; no pair is enumerated:

* |C_k| = Σ_i C(|K_i|, 2),  |N_k| = C(Σ_i |K_i|, 2) - |C_k| (same for the response);
* |C_k ∩ C_r| = Σ_ij C(n_ij, 2);
* |N_k ∩ N_r| = C(m, 2) - Σ_i C(a_i, 2) - Σ_j C(b_j, 2) + Σ_ij C(n_ij, 2), with
  m the matched mentions and a_i, b_j the row and column sums of the table.

Spans repeated on a side (``--duplicates reference``) are counted with the
reference scorer's set semantics: a repeated span is one mention id, and a
link is a pair of ids.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..contingency import ContingencyTable, IrregularSpan
from .base import BlancScore, MetricScore, f_measure


def _pairs(values: np.ndarray) -> int:
    v = values.astype(np.int64)
    return int((v * (v - 1) // 2).sum())


def _choose2(n: int) -> int:
    return n * (n - 1) // 2


def statistics(table: ContingencyTable) -> tuple[float, ...]:
    """(|C_k∩C_r|, |C_k|, |C_k∩C_r|, |C_r|, |N_k∩N_r|, |N_k|, |N_k∩N_r|, |N_r|)."""
    if table.irregular:
        return _statistics_with_repeats(table)
    n_keys, n_responses = table.shape
    key_links = _pairs(table.key_sizes)
    response_links = _pairs(table.response_sizes)
    common_links = _pairs(table.counts)
    key_non = _choose2(int(table.key_sizes.sum())) - key_links
    response_non = _choose2(int(table.response_sizes.sum())) - response_links
    matched = int(table.counts.sum())
    row_sums = np.bincount(table.rows, weights=table.counts, minlength=n_keys)
    col_sums = np.bincount(table.cols, weights=table.counts, minlength=n_responses)
    common_non = _choose2(matched) - _pairs(row_sums) - _pairs(col_sums) + common_links
    return (
        common_links,
        key_links,
        common_links,
        response_links,
        common_non,
        key_non,
        common_non,
        response_non,
    )


def _side_links(regular_sizes: np.ndarray, spans: list[tuple[int, ...]]) -> tuple[int, int]:
    """(|C|, |N|) of one side whose repeated spans are ``spans`` (entity lists)."""
    distinct = regular_sizes.copy()
    alone = regular_sizes.copy()  # ids whose entities are exactly {e}
    doubled = 0  # ids twice in one entity: the reference's "x-x" coreference link
    multi = 0  # ids in two or more entities: an "x-x" non-coreference link
    present = [entities for entities in spans if entities]
    sets = [frozenset(entities) for entities in present]
    for s, entities in zip(sets, present):
        for e in s:
            distinct[e] += 1
        if len(s) == 1:
            alone[next(iter(s))] += 1
        else:
            multi += 1
        if len(s) < len(entities):
            doubled += 1
    # A pair of ids that share two or more entities is one link, not several.
    overcount = sum(
        max(len(a & b) - 1, 0) for a, b in combinations([s for s in sets if len(s) > 1], 2)
    )
    coref = _pairs(distinct) - overcount + doubled
    ids = int(regular_sizes.sum()) + len(sets)
    non = multi + _choose2(ids) - _pairs(alone)
    return coref, non


def _statistics_with_repeats(table: ContingencyTable) -> tuple[float, ...]:
    assert table.regular_counts is not None
    assert table.regular_key_sizes is not None
    assert table.regular_response_sizes is not None
    irregular: tuple[IrregularSpan, ...] = table.irregular
    key_links, key_non = _side_links(table.regular_key_sizes, [s.key_entities for s in irregular])
    response_links, response_non = _side_links(
        table.regular_response_sizes, [s.response_entities for s in irregular]
    )

    regular = table.regular_counts
    cell_of = {(int(r), int(c)): int(v) for r, c, v in zip(table.rows, table.cols, regular) if v}
    both = [s for s in irregular if s.key_entities and s.response_entities]
    key_sets = [frozenset(s.key_entities) for s in both]
    response_sets = [frozenset(s.response_entities) for s in both]

    # Coreference links present on both sides.
    common = _pairs(regular)
    for s, ks, rs in zip(both, key_sets, response_sets):
        common += sum(cell_of.get((i, j), 0) for i in ks for j in rs)
        if len(ks) < len(s.key_entities) and len(rs) < len(s.response_entities):
            common += 1  # "x-x" on both sides
    for (ka, ra), (kb, rb) in combinations(zip(key_sets, response_sets), 2):
        if ka & kb and ra & rb:
            common += 1

    # Non-coreference links present on both sides, among ids on both sides.
    n_keys, n_responses = table.shape
    row_alone = np.bincount(table.rows, weights=regular, minlength=n_keys)
    col_alone = np.bincount(table.cols, weights=regular, minlength=n_responses)
    cell_alone = dict(cell_of)
    common_non = 0
    for ks, rs in zip(key_sets, response_sets):
        if len(ks) == 1:
            row_alone[next(iter(ks))] += 1
        if len(rs) == 1:
            col_alone[next(iter(rs))] += 1
        if len(ks) == 1 and len(rs) == 1:
            cell = (next(iter(ks)), next(iter(rs)))
            cell_alone[cell] = cell_alone.get(cell, 0) + 1
        if len(ks) > 1 and len(rs) > 1:
            common_non += 1  # "x-x" on both sides
    shared_ids = int(regular.sum()) + len(both)
    common_non += (
        _choose2(shared_ids)
        - _pairs(row_alone)
        - _pairs(col_alone)
        + sum(_choose2(v) for v in cell_alone.values())
    )
    return (
        common,
        key_links,
        common,
        response_links,
        common_non,
        key_non,
        common_non,
        response_non,
    )


def score(stats: tuple[float, ...]) -> BlancScore:
    """Combine the summed link counts as the reference scorer's totals do.

    When the key has no coreference link, only the non-coreference part
    counts (and vice versa); when it has neither, BLANC is 0.
    """
    nrc, drc, npc, dpc, nrn, drn, npn, dpn = stats
    coref = MetricScore.from_counts(nrc, drc, npc, dpc)
    noncoref = MetricScore.from_counts(nrn, drn, npn, dpn)
    if drc and drn:
        recall = (coref.recall + noncoref.recall) / 2
        precision = (coref.precision + noncoref.precision) / 2
        f1 = (
            f_measure(coref.recall, coref.precision)
            + f_measure(noncoref.recall, noncoref.precision)
        ) / 2
    elif drn:
        recall, precision, f1 = noncoref.recall, noncoref.precision, noncoref.f1
    elif drc:
        recall, precision, f1 = coref.recall, coref.precision, coref.f1
    else:
        recall = precision = f1 = 0.0
    return BlancScore(
        recall=recall,
        precision=precision,
        f1=f1,
        recall_num=recall,
        recall_den=1,
        precision_num=precision,
        precision_den=1,
        coref=coref,
        noncoref=noncoref,
    )
