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

Besides the reference scorer's ``blanc``, two variants follow their papers
to the letter (see docs/metrics.md):

* ``blanc-luo2014``: Luo, Pradhan, Recasens & Hovy 2014 per document,
  with the paper's boundary cases (§4.1), macro-averaged over documents;
* ``blanc-gold``: Recasens & Hovy 2011, defined for gold mentions only.
"""

from __future__ import annotations

from itertools import combinations
from operator import mul
from typing import TYPE_CHECKING

from .._record import replace
from ..contingency import ContingencyTable, ListTable, choose2, segment_totals
from ..errors import InputError, UsageError
from .base import BlancScore, Metric, MetricScore, PerDocument, metric_score

if TYPE_CHECKING:
    import numpy as np

    from ..contingency import IrregularSpan
else:
    from .._numpy import np


def _pairs(values: np.ndarray) -> int:
    v = values.astype(np.int64)
    return int((v * (v - 1) // 2).sum())


def _choose2(n: int) -> int:
    return n * (n - 1) // 2


def segment_statistics(table: ContingencyTable) -> np.ndarray:
    """(|C_k∩C_r|, |C_k|, |C_k∩C_r|, |C_r|, |N_k∩N_r|, |N_k|, |N_k∩N_r|, |N_r|) per segment."""
    if table.irregular:
        return np.array([_statistics_with_repeats(table)], dtype=np.float64)
    n_keys, n_responses = table.shape
    key_links = segment_totals(table, choose2(table.key_sizes), "key")
    response_links = segment_totals(table, choose2(table.response_sizes), "response")
    common_links = segment_totals(table, choose2(table.counts), "cells")
    key_mentions = segment_totals(table, table.key_sizes, "key")
    response_mentions = segment_totals(table, table.response_sizes, "response")
    matched = segment_totals(table, table.counts, "cells")
    row_sums = np.bincount(table.rows, weights=table.counts, minlength=n_keys)
    col_sums = np.bincount(table.cols, weights=table.counts, minlength=n_responses)
    common_non = (
        choose2(matched)
        - segment_totals(table, choose2(row_sums), "key")
        - segment_totals(table, choose2(col_sums), "response")
        + common_links
    )
    return np.column_stack(
        (
            common_links,
            key_links,
            common_links,
            response_links,
            common_non,
            choose2(key_mentions) - key_links,
            common_non,
            choose2(response_mentions) - response_links,
        )
    ).astype(np.float64)


statistics = PerDocument(segment_statistics)


def list_statistics(table: ListTable) -> tuple[float, ...]:
    """``segment_statistics`` of a one-document ``ListTable`` (exact integers)."""
    key_sizes, response_sizes, counts = table.key_sizes, table.response_sizes, table.counts
    matched = table.matched_mentions
    # Σ C(n, 2) = (Σ n² - Σ n) / 2, where Σ n is a count the table holds: one
    # product per value, summed in C, instead of a product and a difference each.
    key_links = (sum(map(mul, key_sizes, key_sizes)) - table.key_mentions) // 2
    response_links = (sum(map(mul, response_sizes, response_sizes)) - table.response_mentions) // 2
    common_links = (sum(map(mul, counts, counts)) - matched) // 2
    row_sums = [0] * len(key_sizes)
    col_sums = [0] * len(response_sizes)
    for i, j, n in zip(table.rows, table.cols, counts):
        row_sums[i] += n
        col_sums[j] += n
    # Row sums and column sums each add up to the matched mentions.
    common_non = float(
        _choose2(matched)
        - (sum(map(mul, row_sums, row_sums)) - matched) // 2
        - (sum(map(mul, col_sums, col_sums)) - matched) // 2
        + common_links
    )
    common = float(common_links)
    return (
        common,
        float(key_links),
        common,
        float(response_links),
        common_non,
        float(_choose2(table.key_mentions) - key_links),
        common_non,
        float(_choose2(table.response_mentions) - response_links),
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
    coref = metric_score(nrc, drc, npc, dpc)
    noncoref = metric_score(nrn, drn, npn, dpn)
    if drc and drn:
        recall = (coref.recall + noncoref.recall) / 2
        precision = (coref.precision + noncoref.precision) / 2
        f1 = (coref.f1 + noncoref.f1) / 2  # each part's F1, made by metric_score
    elif drn:
        recall, precision, f1 = noncoref.recall, noncoref.precision, noncoref.f1
    elif drc:
        recall, precision, f1 = coref.recall, coref.precision, coref.f1
    else:
        recall = precision = f1 = 0.0
    return BlancScore.combined(recall, precision, f1, coref, noncoref)


def score_corefud(stats: tuple[float, ...]) -> BlancScore:
    """Combine the summed link counts as corefud-scorer v1.2 does.

    It averages recall, precision and F1 over the parts (coreference,
    non-coreference) that have links on *either* side, where the reference
    scorer looks at the key only: a part with key links and no response
    links is averaged in with precision 0 (and the reverse with recall 0).
    F1 is the mean of the parts' F1s; with no links at all, BLANC is 0.
    """
    _, drc, _, dpc, _, drn, _, dpn = stats
    return _averaged(stats, (bool(drc or dpc), bool(drn or dpn)))


def _averaged(stats: tuple[float, ...], present: tuple[bool, bool]) -> BlancScore:
    """Recall, precision and F1 averaged over the parts (coreference,
    non-coreference) that are ``present``, from the eight link counts; 0 with none."""
    nrc, drc, npc, dpc, nrn, drn, npn, dpn = stats[:8]
    coref = metric_score(nrc, drc, npc, dpc)
    noncoref = metric_score(nrn, drn, npn, dpn)
    parts = [s for s, counted in zip((coref, noncoref), present) if counted]
    if not parts:
        return BlancScore.combined(0.0, 0.0, 0.0, coref, noncoref)
    recall = sum(s.recall for s in parts) / len(parts)
    precision = sum(s.precision for s in parts) / len(parts)
    f1 = sum(s.f1 for s in parts) / len(parts)
    return BlancScore.combined(recall, precision, f1, coref, noncoref)


# --------------------------------------------------------------------------------------------
# Luo, Pradhan, Recasens & Hovy 2014 (P14-2005), applied to each document as the paper states it


def _links(table: ContingencyTable) -> tuple[int, int, int, int, int, int]:
    """(|C_k ∩ C_r|, |C_k|, |C_r|, |N_k ∩ N_r|, |N_k|, |N_r|) of one document."""
    cc, ck, _, cr, nn, nk, _, nr = statistics(table)
    return int(cc), int(ck), int(cr), int(nn), int(nk), int(nr)


def _same_mentions(table: ContingencyTable) -> bool:
    """M_k = M_r: every mention has a twin on the other side."""
    return table.matched_mentions == table.key_mentions == table.response_mentions


def luo2014_document(
    cc: float, ck: float, cr: float, nn: float, nk: float, nr: float, same_mentions: bool
) -> tuple[float, float, float]:
    """BLANC (recall, precision, F) of Luo et al. 2014 from one set of link counts.

    F_c = 2|C_k ∩ C_r| / (|C_k| + |C_r|) and F_n likewise (eq. 18) are defined
    as soon as either side has a link of that kind; BLANC is their mean, or the
    one that is defined (§4.1 cases 2 and 3), or I(M_k = M_r) when neither is
    (case 1). The paper defines recall and precision as the means of R_c, R_n
    and P_c, P_n (§1) but leaves |C_k| = 0 < |C_r| open; corefscore takes
    that 0/0 recall (and the mirror-image precision) as 0, which agrees with F_c = 0.
    """
    rc = cc / ck if ck else 0.0
    pc = cc / cr if cr else 0.0
    rn = nn / nk if nk else 0.0
    pn = nn / nr if nr else 0.0
    coref_defined = ck + cr > 0
    non_defined = nk + nr > 0
    fc = 2 * cc / (ck + cr) if coref_defined else 0.0
    fn = 2 * nn / (nk + nr) if non_defined else 0.0
    if coref_defined and non_defined:
        return (rc + rn) / 2, (pc + pn) / 2, (fc + fn) / 2
    if non_defined:  # case (2): no coreference link on either side
        return rn, pn, fn
    if coref_defined:  # case (3): no non-coreference link on either side
        return rc, pc, fc
    indicator = 1.0 if same_mentions else 0.0  # case (1): at most one mention
    return indicator, indicator, indicator


def statistics_luo2014(table: ContingencyTable) -> tuple[float, ...]:
    """(ΣR, ΣP, ΣF, documents, |C_k∩C_r|, |C_k|, |C_r|, |N_k∩N_r|, |N_k|, |N_r|, M_k≠M_r).

    The first four give the macro average; the link counts and the number of
    documents whose mention sets differ give the pooled (micro) variant.
    """
    cc, ck, cr, nn, nk, nr = _links(table)
    same = _same_mentions(table)
    recall, precision, f = luo2014_document(cc, ck, cr, nn, nk, nr, same)
    return (recall, precision, f, 1, cc, ck, cr, nn, nk, nr, 0 if same else 1)


def _parts(stats: tuple[float, ...]) -> tuple[MetricScore, MetricScore]:
    cc, ck, cr, nn, nk, nr = stats[4:10]
    return MetricScore.from_counts(cc, ck, cc, cr), MetricScore.from_counts(nn, nk, nn, nr)


def score_luo2014(stats: tuple[float, ...]) -> BlancScore:
    """Macro average over documents of the per-document BLANC of Luo et al. 2014.

    ``recall_num``/``precision_num`` are the sums of the per-document recalls
    and precisions and their denominators the number of documents; ``f1`` is
    the mean per-document BLANC, not the harmonic mean of the averaged recall
    and precision. ``coref``/``noncoref`` hold the corpus link counts.
    """
    sum_r, sum_p, sum_f, documents = stats[:4]
    coref, noncoref = _parts(stats)
    return BlancScore(
        recall=sum_r / documents if documents else 0.0,
        precision=sum_p / documents if documents else 0.0,
        f1=sum_f / documents if documents else 0.0,
        recall_num=sum_r,
        recall_den=documents,
        precision_num=sum_p,
        precision_den=documents,
        coref=coref,
        noncoref=noncoref,
    )


def score_luo2014_pooled(stats: tuple[float, ...]) -> BlancScore:
    """Luo et al. 2014 applied once to the corpus link counts (micro average).

    The corpus mention sets are equal when those of every document are.
    """
    documents, unequal = stats[3], stats[10]
    coref, noncoref = _parts(stats)
    if documents:
        cc, ck, cr, nn, nk, nr = stats[4:10]
        recall, precision, f = luo2014_document(cc, ck, cr, nn, nk, nr, not unequal)
    else:
        recall = precision = f = 0.0
    return BlancScore.combined(recall, precision, f, coref, noncoref)


_LUO2014_CITATION = "Luo, Pradhan, Recasens & Hovy 2014 (P14-2005), §4 and §4.1"

BLANC_LUO2014 = Metric(
    name="blanc-luo2014",
    statistics=statistics_luo2014,
    summary="BLANC of Luo et al. 2014 per document (all boundary cases), macro-averaged",
    citation=_LUO2014_CITATION,
    combine=score_luo2014,
    width=11,
    options="luo2014(aggregate='micro') pools the link counts over the corpus instead",
)


def luo2014(*, aggregate: str = "macro", name: str | None = None) -> Metric:
    """BLANC of Luo et al. 2014 with documents combined by ``aggregate``.

    ``"macro"`` (the registered ``blanc-luo2014``) averages the per-document
    scores; ``"micro"`` applies the paper's definition, boundary cases
    included, to the link counts summed over the corpus, as the reference
    scorer sums them.
    """
    if aggregate == "macro":
        if name is None or name == BLANC_LUO2014.name:
            return BLANC_LUO2014
        return Metric(
            name=name,
            statistics=statistics_luo2014,
            summary=BLANC_LUO2014.summary,
            citation=_LUO2014_CITATION,
            combine=score_luo2014,
            width=11,
        )
    if aggregate == "micro":
        return Metric(
            name=name or "blanc-luo2014-micro",
            statistics=statistics_luo2014,
            summary="BLANC of Luo et al. 2014 on the link counts summed over the corpus",
            citation=_LUO2014_CITATION,
            combine=score_luo2014_pooled,
            width=11,
        )
    raise UsageError(f"aggregate must be 'macro' or 'micro', got {aggregate!r}")


# --------------------------------------------------------------------------------------------
# Recasens & Hovy 2011: BLANC for gold mentions


def statistics_gold(table: ContingencyTable) -> tuple[float, ...]:
    """The eight link counts of ``blanc``, plus the number of mentions.

    Raises ``InputError`` when the key and response mention sets differ:
    the original BLANC is defined for gold mentions only.
    """
    if not _same_mentions(table):
        missing = table.key_mentions - table.matched_mentions
        extra = table.response_mentions - table.matched_mentions
        doc = table.key if table.key is not None else table.response
        doc_id = doc.doc_id if doc is not None else "?"
        raise InputError(
            f"blanc-gold is defined for gold mentions only (Recasens & Hovy 2011), but in "
            f"document {doc_id!r} {missing} key mention(s) have no response twin and {extra} "
            "response mention(s) have no key twin; use blanc or blanc-luo2014 for system "
            "mentions",
            path=table.key.source if table.key is not None else None,
        )
    return (*statistics(table), table.key_mentions)


def score_gold(stats: tuple[float, ...]) -> BlancScore:
    """Recasens & Hovy 2011 from summed link counts.

    A key without coreference links (all singletons) is scored on
    non-coreference links alone, a key without non-coreference links (one
    entity) on coreference links alone, and 0/0 ratios are 0, as in ``blanc``.
    With neither kind of link (a single mention, which both sides then share)
    the partitions are identical and BLANC is 1; with no mention at all it is 0.
    """
    drc, drn, mentions = stats[1], stats[5], stats[8]
    out = score(stats[:8])
    if drc or drn or not mentions:
        return out
    return BlancScore.combined(1.0, 1.0, 1.0, out.coref, out.noncoref)


DEFINITIONS: tuple[Metric, ...] = (
    Metric.segmented(
        name="blanc",
        segment_statistics=segment_statistics,
        list_statistics=list_statistics,
        summary="rand-index style: mean of coreference and non-coreference link F1",
        citation="Recasens & Hovy 2011; Luo, Pradhan, Recasens & Hovy 2014 (P14-2005)",
        combine=score,
        width=8,
        # The boundary rules look at the key only: a key of singletons with a
        # response that links some of them is not the mirror image of the swap.
        symmetric=False,
    ),
    BLANC_LUO2014,
    Metric(
        name="blanc-gold",
        statistics=statistics_gold,
        summary="original BLANC, gold mentions only: refuses differing key/response mentions",
        citation="Recasens & Hovy 2011 (Natural Language Engineering 17(4):485-510)",
        combine=score_gold,
        width=9,
        symmetric=False,
    ),
)

#: BLANC of the CorefUD evaluation: the same link counts, combined by ``score_corefud``.
BLANC_COREFUD = replace(
    DEFINITIONS[0],
    combine=score_corefud,
    citation=DEFINITIONS[0].citation + "; combined as corefud-scorer v1.2 (CRAC shared tasks)",
)

#: BLANC of the Universal Anaphora scorer's evaluation: combined as corefud-scorer
#: combines it (the UA scorer 2.0 is its engine, and the LREC 2022 scorer does the same).
BLANC_UA = replace(
    DEFINITIONS[0],
    combine=score_corefud,
    citation=DEFINITIONS[0].citation + "; combined as the Universal Anaphora scorer",
)


def score_ua_alignment(stats: tuple[float, ...]) -> BlancScore:
    """BLANC of the split-antecedent alignment alone, combined as the UA scorer
    combines it: ``stats`` are the alignment's eight link counts, then the whole
    documents' four denominators (key and response coreference links, key and
    response non-coreference links). A part is averaged in (as 0 when its
    alignment has no links) when the *documents* have links of that kind."""
    key_coref, response_coref, key_non, response_non = stats[8:]
    return _averaged(stats, (bool(key_coref or response_coref), bool(key_non or response_non)))


#: BLANC of the UA scorer's ``only_split_antecedent``: twelve statistics (above).
BLANC_UA_ALIGNMENT = replace(BLANC_UA, width=12, combine=score_ua_alignment)
