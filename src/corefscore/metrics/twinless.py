"""B³ and CEAF variants for twinless mentions (Stoyanov et al. 2009; Cai & Strube 2010).

A key mention without a response twin was missed; a response mention without
a key twin is spurious. The reference scorer v8.01 scores both as 0 (they only
count in the denominators); these older variants treat them otherwise. Every
variant is computed from the contingency table alone: key entity K_i has
t_i = |K_i| − Σ_j n_ij twinless mentions and response entity R_j has
s_j = |R_j| − Σ_i n_ij.

* ``bcub-all`` (Stoyanov et al. 2009, B³_all; Reconcile ``BCubedScore``): a
  twinless key mention adds 1/|K_i| to recall and a twinless response mention
  1/|R_j| to precision (each is credited with itself).
* ``bcub-0`` (B³_0; Reconcile ``BCubedTwinsOnly``): recall as ``bcub-all``;
  precision averages over twinned response mentions only, whose |R_j| still
  counts their twinless chain-mates.
* ``bcub-sys``, ``ceafm-sys``, ``ceafe-sys`` (Cai & Strube 2010): the response
  R' gets every twinless key mention as a singleton and loses its twinless
  singletons; precision compares R' with K_p, the key plus every remaining
  twinless response mention as a singleton; recall compares K with R_r, R'
  without twinless response mentions.

Sums are closed forms over the table (B³) or alignments of small manipulated
tables (CEAF); no mention pair is enumerated.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .._record import replace
from ..contingency import ContingencyTable
from .base import Metric
from .ceaf import Similarity, align, phi3, phi4

if TYPE_CHECKING:
    import numpy as np
else:
    from .._numpy import np


def twinless_counts(table: ContingencyTable) -> tuple[np.ndarray, np.ndarray]:
    """Twinless mentions per key entity and per response entity.

    With a span repeated on one side (only under ``--duplicates reference``)
    twins are not one-to-one; the counts are then clipped at 0.
    """
    n_keys, n_responses = table.shape
    counts = table.counts
    row_sums = np.bincount(table.rows, weights=counts, minlength=n_keys).astype(np.int64)
    col_sums = np.bincount(table.cols, weights=counts, minlength=n_responses).astype(np.int64)
    key_twinless = np.maximum(table.key_sizes - row_sums, 0)
    response_twinless = np.maximum(table.response_sizes - col_sums, 0)
    return key_twinless, response_twinless


def _fsum(*parts: np.ndarray) -> float:
    return math.fsum(float(x) for part in parts for x in part.tolist())


def _recall_all(table: ContingencyTable, key_twinless: np.ndarray) -> float:
    """Σ over key mentions: n_ij/|K_i| for a twinned one, 1/|K_i| for a twinless one."""
    n = table.counts.astype(np.float64)
    return _fsum(n * n / table.key_sizes[table.rows], key_twinless / table.key_sizes)


def _twinned_precision(table: ContingencyTable) -> np.ndarray:
    """n_ij/|R_j| summed over the n_ij twinned mentions of each cell."""
    n = table.counts.astype(np.float64)
    out: np.ndarray = n * n / table.response_sizes[table.cols]
    return out


def statistics_all(table: ContingencyTable) -> tuple[float, ...]:
    """B³_all: (Σ recall terms, Σ|K|, Σ precision terms, Σ|R|)."""
    key_twinless, response_twinless = twinless_counts(table)
    precision = _fsum(_twinned_precision(table), response_twinless / table.response_sizes)
    return (
        _recall_all(table, key_twinless),
        int(table.key_sizes.sum()),
        precision,
        int(table.response_sizes.sum()),
    )


def statistics_0(table: ContingencyTable) -> tuple[float, ...]:
    """B³_0: recall as B³_all; precision over twinned response mentions only."""
    key_twinless, _ = twinless_counts(table)
    return (
        _recall_all(table, key_twinless),
        int(table.key_sizes.sum()),
        _fsum(_twinned_precision(table)),
        int(table.counts.sum()),
    )


def _spurious_singletons(table: ContingencyTable, response_twinless: np.ndarray) -> np.ndarray:
    """Response entities that are one twinless mention (step 2 of Cai & Strube discards them)."""
    out: np.ndarray = (table.response_sizes == 1) & (response_twinless == 1)
    return out


def statistics_sys(table: ContingencyTable) -> tuple[float, ...]:
    """B³_sys: precision B³(K_p, R'), recall B³(K, R_r) (= B³_all recall)."""
    key_twinless, response_twinless = twinless_counts(table)
    dropped = _spurious_singletons(table, response_twinless)
    # A twinless response mention of a kept entity is a singleton in K_p:
    # |{m} ∩ R_j| / |R_j| = 1/|R_j|. A twinless key mention is a singleton in
    # R' and still in K_i in K_p: |{k} ∩ K_i| / |{k}| = 1.
    kept_twinless = np.where(dropped, 0, response_twinless)
    missed = int(key_twinless.sum())
    precision = _fsum(_twinned_precision(table), kept_twinless / table.response_sizes) + missed
    return (
        _recall_all(table, key_twinless),
        int(table.key_sizes.sum()),
        precision,
        int(table.response_sizes.sum()) - int(dropped.sum()) + missed,
    )


def _with_cells(
    table: ContingencyTable,
    key_sizes: np.ndarray,
    response_sizes: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    counts: np.ndarray,
) -> ContingencyTable:
    """A manipulated table for ``align`` (sizes and cells only)."""
    return replace(
        table,
        key_sizes=key_sizes,
        response_sizes=response_sizes,
        rows=rows,
        cols=cols,
        counts=counts,
        key_counts=counts,
        response_overlap=counts,
        key_mentions=int(key_sizes.sum()),
        response_mentions=int(response_sizes.sum()),
        matched_mentions=int(counts.sum()),
        response_cells=np.zeros(0, dtype=np.int64),
        irregular=(),
        regular_counts=None,
        regular_key_sizes=None,
        regular_response_sizes=None,
    )


def _ceaf_sys(table: ContingencyTable, phi: Similarity) -> tuple[float, ...]:
    """(Φ*(K, R_r), Σφ(K,K), Φ*(K_p, R'), Σφ(R',R')) for a size-only similarity φ."""
    key_twinless, response_twinless = twinless_counts(table)
    if not key_twinless.any() and not response_twinless.any():
        # Nothing to manipulate: K_p = K and R' = R_r = R.
        total = align(table, phi).total
        ks, rs = table.key_sizes, table.response_sizes
        return (
            total,
            math.fsum(phi(ks, ks, ks).tolist()),
            total,
            math.fsum(phi(rs, rs, rs).tolist()),
        )
    n_keys, n_responses = table.shape
    ones = np.ones
    # The singletons {k} added for the t_i twinless key mentions of K_i (to R'
    # and to R_r) can each align only with K_i, so at most one of them is ever
    # aligned: one column per K_i with t_i > 0 gives the same Φ*. Likewise one
    # row per R_j stands for its twinless mentions added to K_p. The
    # denominators still count every added singleton.
    missed = np.flatnonzero(key_twinless > 0)
    missed_cols = np.arange(len(missed), dtype=np.int64)

    # Recall: K against R_r (response entities cut to their twinned mentions,
    # plus the missed key mentions as singletons).
    twinned = table.response_sizes - response_twinless
    recall_table = _with_cells(
        table,
        key_sizes=table.key_sizes,
        response_sizes=np.concatenate([twinned, ones(len(missed), dtype=np.int64)]),
        rows=np.concatenate([table.rows, missed]),
        cols=np.concatenate([table.cols, n_responses + missed_cols]),
        counts=np.concatenate([table.counts, ones(len(missed), dtype=np.int64)]),
    )
    recall_total = align(recall_table, phi).total
    ks = table.key_sizes
    key_self = math.fsum(phi(ks, ks, ks).tolist())

    # Precision: K_p against R' (twinless singletons of R dropped; they have no
    # cell, so they only leave the denominator).
    dropped = _spurious_singletons(table, response_twinless)
    spurious = np.flatnonzero((response_twinless > 0) & ~dropped)
    spurious_rows = n_keys + np.arange(len(spurious), dtype=np.int64)
    precision_table = _with_cells(
        table,
        key_sizes=np.concatenate([table.key_sizes, ones(len(spurious), dtype=np.int64)]),
        response_sizes=np.concatenate([table.response_sizes, ones(len(missed), dtype=np.int64)]),
        rows=np.concatenate([table.rows, missed, spurious_rows]),
        cols=np.concatenate([table.cols, n_responses + missed_cols, spurious]),
        counts=np.concatenate([table.counts, ones(len(missed) + len(spurious), dtype=np.int64)]),
    )
    precision_total = align(precision_table, phi).total
    kept = table.response_sizes[~dropped]
    one = np.ones(1, dtype=np.int64)
    response_self = math.fsum(phi(kept, kept, kept).tolist()) + int(key_twinless.sum()) * float(
        phi(one, one, one)[0]
    )
    return (recall_total, key_self, precision_total, response_self)


def statistics_ceafm_sys(table: ContingencyTable) -> tuple[float, ...]:
    """CEAFm_sys: φ3 on Cai & Strube's manipulated key and response."""
    return _ceaf_sys(table, phi3)


def statistics_ceafe_sys(table: ContingencyTable) -> tuple[float, ...]:
    """CEAFe_sys: φ4 on Cai & Strube's manipulated key and response."""
    return _ceaf_sys(table, phi4)


_STOYANOV = "Stoyanov et al. 2009 (P09-1074) §3; Reconcile"
_CAI = "Cai & Strube 2010 (W10-4305)"

DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="bcub-all",
        statistics=statistics_all,
        summary="B3_all: a twinless mention is credited with itself (1/|its entity|)",
        citation=_STOYANOV + " BCubedScore",
        aliases=("b3-all", "b3_all", "bcub_all"),
        # Swapping key and response swaps the two rules (and the two sums).
        symmetric=True,
    ),
    Metric(
        name="bcub-0",
        statistics=statistics_0,
        summary="B3_0: precision over twinned response mentions only; recall as B3_all",
        citation=_STOYANOV + " BCubedTwinsOnly",
        aliases=("b3-0", "b3_0", "bcub_0", "b3-none"),
        symmetric=False,
    ),
    Metric(
        name="bcub-sys",
        statistics=statistics_sys,
        summary="B3_sys: missed key mentions added to the response, spurious singletons dropped",
        citation=_CAI,
        aliases=("b3-sys", "b3_sys", "bcub_sys"),
        symmetric=False,
    ),
    Metric(
        name="ceafm-sys",
        statistics=statistics_ceafm_sys,
        summary="CEAFm (phi3) on the key and response manipulated as for B3_sys",
        citation=_CAI,
        aliases=("ceafm_sys", "ceaf-sys-phi3", "ceaf_sys_phi3"),
        symmetric=False,
    ),
    Metric(
        name="ceafe-sys",
        statistics=statistics_ceafe_sys,
        summary="CEAFe (phi4) on the key and response manipulated as for B3_sys",
        citation=_CAI,
        aliases=("ceafe_sys", "ceaf-sys-phi4", "ceaf_sys_phi4"),
        symmetric=False,
    ),
)
