"""A second, deliberately naive implementation of the metrics, from the papers' set definitions.

``tests/oracle.py`` re-implements the *reference scorer's behaviour* (mention ids,
its loops, its floating-point order). This module is independent of both it and
corefscore: it works on entities as ``frozenset``s of spans, enumerates links,
mention pairs and every one-to-one entity mapping, and counts in exact
:class:`~fractions.Fraction` arithmetic, the way the papers state the metrics:

* MUC (Vilain et al. 1995): Σ_S (|S| − |p(S)|) / Σ_S (|S| − 1), p(S) the partition of
  key entity S by the response (a mention with no response twin is its own part);
* B³ (Bagga & Baldwin 1998): per mention, |K(m) ∩ R(m)| / |K(m)| (recall) and
  / |R(m)| (precision), R(m) = ∅ for a mention the other side lacks;
* CEAF (Luo 2005): max over all one-to-one entity mappings g of Σ φ(K, g(K)),
  with φ1–φ4 of §2.2;
* BLANC (Luo, Pradhan, Recasens & Hovy 2014): explicit coreference and
  non-coreference mention-pair sets of each side over its own mentions, with
  the boundary cases of §4.1;
* LEA (Moosavi & Strube 2016): link sets with a self-link for every singleton;
* the twinless variants: B³_all (Stoyanov et al. 2009) and B³_0 as corefscore
  documents it (docs/metrics.md, after Reconcile), and Cai & Strube (2010)'s
  manipulated key and response for B³_sys and CEAF_sys.

Every function takes one document as two partitions (``Partition``, each mention
in at most one entity of a side) and returns the statistics in the layout of
the corefscore metric of the same name, so that the two can be compared field
by field. The generator draws no span twice on a side: these definitions are
for a mention *set*, and repeated spans are the reference scorer's business.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

Span = tuple[int, int]
Entity = frozenset[Span]
Partition = tuple[Entity, ...]
Link = frozenset[Span]  # two mentions, or one for a self-link
Number = int | Fraction
Stats = tuple[Number, ...]
Similarity = Callable[[Entity, Entity], Fraction]

#: Beyond this many entities on both sides, CEAF's mappings are enumerated with
#: memoisation (still every mapping, but shared tails are searched once).
BRUTE_FORCE_ENTITIES = 7


def partition(clusters: Iterable[Iterable[Sequence[int]]]) -> Partition:
    """Entities as frozensets; empty entities dropped. Raises on a span used twice."""
    out: list[Entity] = []
    seen: set[Span] = set()
    for cluster in clusters:
        entity = frozenset((int(s[0]), int(s[1])) for s in cluster)
        if seen & entity or len(entity) != len(list(cluster)):
            raise ValueError("naive metrics need each span at most once per side")
        seen |= entity
        if entity:
            out.append(entity)
    return tuple(out)


def mention_set(side: Partition) -> frozenset[Span]:
    return frozenset().union(*side) if side else frozenset()


def entity_of(side: Partition, mention: Span) -> Entity:
    """The entity of ``side`` holding ``mention``, or the empty set."""
    for entity in side:
        if mention in entity:
            return entity
    return frozenset()


def ratio(num: Number, den: Number) -> Fraction:
    return Fraction(num) / den if den else Fraction(0)


def f_measure(recall: Fraction, precision: Fraction) -> Fraction:
    return 2 * recall * precision / (recall + precision) if recall + precision else Fraction(0)


# ---------------------------------------------------------------------------------------------
# Mentions, MUC, B³


def mentions(key: Partition, response: Partition) -> Stats:
    matched = len(mention_set(key) & mention_set(response))
    return (matched, len(mention_set(key)), matched, len(mention_set(response)))


def _muc_side(side: Partition, other: Partition) -> tuple[int, int]:
    kept = 0
    links = 0
    covered = mention_set(other)
    for entity in side:
        parts = sum(1 for o in other if entity & o) + len(entity - covered)
        kept += len(entity) - parts
        links += len(entity) - 1
    return kept, links


def muc(key: Partition, response: Partition) -> Stats:
    recall_num, recall_den = _muc_side(key, response)
    precision_num, precision_den = _muc_side(response, key)
    return (recall_num, recall_den, precision_num, precision_den)


def _bcub_side(side: Partition, other: Partition) -> Fraction:
    return sum(
        (
            Fraction(len(entity & entity_of(other, m)), len(entity))
            for entity in side
            for m in entity
        ),
        Fraction(0),
    )


def bcub(key: Partition, response: Partition) -> Stats:
    return (
        _bcub_side(key, response),
        len(mention_set(key)),
        _bcub_side(response, key),
        len(mention_set(response)),
    )


# ---------------------------------------------------------------------------------------------
# CEAF


def phi1(k: Entity, r: Entity) -> Fraction:
    return Fraction(1 if k == r else 0)


def phi2(k: Entity, r: Entity) -> Fraction:
    return Fraction(1 if k & r else 0)


def phi3(k: Entity, r: Entity) -> Fraction:
    return Fraction(len(k & r))


def phi4(k: Entity, r: Entity) -> Fraction:
    return Fraction(2 * len(k & r), len(k) + len(r))


def best_mapping(key: Partition, response: Partition, phi: Similarity) -> Fraction:
    """Φ* = max over every one-to-one mapping of key to response entities of Σ φ(K, g(K)).

    Every injective map of the smaller side into the larger one is tried (φ >= 0,
    so leaving an entity unmapped never helps). The similarities are scaled to
    integers by the common denominator, which keeps the enumeration exact and fast.
    """
    if not key or not response:
        return Fraction(0)
    table = [[phi(k, r) for r in response] for k in key]
    if len(key) > len(response):
        table = [list(column) for column in zip(*table)]
    scale = math.lcm(*(value.denominator for row in table for value in row))
    weights = [[int(value * scale) for value in row] for row in table]
    n, m = len(weights), len(weights[0])
    if m <= BRUTE_FORCE_ENTITIES:
        best = max(
            sum(row[j] for row, j in zip(weights, columns)) for columns in permutations(range(m), n)
        )
    else:

        @cache
        def rest(i: int, used: int) -> int:
            if i == n:
                return 0
            return max(
                weights[i][j] + rest(i + 1, used | 1 << j) for j in range(m) if not used >> j & 1
            )

        best = rest(0, 0)
    return Fraction(best, scale)


def ceaf(key: Partition, response: Partition, phi: Similarity) -> Stats:
    """(Φ*, Σφ(K,K), Φ*, Σφ(R,R)); integral sums as ints."""
    total = best_mapping(key, response, phi)
    key_self = sum((phi(k, k) for k in key), Fraction(0))
    response_self = sum((phi(r, r) for r in response), Fraction(0))
    return (total, _int(key_self), total, _int(response_self))


def _int(value: Fraction) -> Number:
    return int(value) if value.denominator == 1 else value


# ---------------------------------------------------------------------------------------------
# BLANC


def blanc_links(side: Partition) -> tuple[set[Link], set[Link]]:
    """(coreference links, non-coreference links) over the side's own mentions."""
    coref = {frozenset(pair) for entity in side for pair in combinations(entity, 2)}
    non = {frozenset((a, b)) for e1, e2 in combinations(side, 2) for a in e1 for b in e2}
    return coref, non


def blanc(key: Partition, response: Partition) -> Stats:
    """(|C_k∩C_r|, |C_k|, |C_k∩C_r|, |C_r|, |N_k∩N_r|, |N_k|, |N_k∩N_r|, |N_r|)."""
    ck, nk = blanc_links(key)
    cr, nr = blanc_links(response)
    cc, nn = len(ck & cr), len(nk & nr)
    return (cc, len(ck), cc, len(cr), nn, len(nk), nn, len(nr))


def blanc_luo2014(key: Partition, response: Partition) -> tuple[Fraction, Fraction, Fraction]:
    """(recall, precision, BLANC) of one document, Luo et al. 2014 §4 with §4.1's cases.

    Recall and precision are the means of R_c, R_n and P_c, P_n; the paper leaves
    a 0/0 ratio (|C_k| = 0 < |C_r|) open, taken as 0 as corefscore documents.
    """
    cc, ck, _, cr, nn, nk, _, nr = blanc(key, response)
    coref_defined = ck + cr > 0
    non_defined = nk + nr > 0
    rc, pc, fc = ratio(cc, ck), ratio(cc, cr), ratio(2 * cc, ck + cr)
    rn, pn, fn = ratio(nn, nk), ratio(nn, nr), ratio(2 * nn, nk + nr)
    if coref_defined and non_defined:
        return (rc + rn) / 2, (pc + pn) / 2, (fc + fn) / 2
    if non_defined:
        return rn, pn, fn
    if coref_defined:
        return rc, pc, fc
    same = Fraction(1 if mention_set(key) == mention_set(response) else 0)
    return same, same, same


def blanc_luo2014_stats(key: Partition, response: Partition) -> Stats:
    """In the layout of corefscore's ``blanc-luo2014`` statistics."""
    recall, precision, f = blanc_luo2014(key, response)
    cc, ck, _, cr, nn, nk, _, nr = blanc(key, response)
    unequal = 0 if mention_set(key) == mention_set(response) else 1
    return (recall, precision, f, 1, cc, ck, cr, nn, nk, nr, unequal)


# ---------------------------------------------------------------------------------------------
# LEA


def lea_links(entity: Entity) -> set[Link]:
    """The entity's links; a singleton has its one self-link."""
    if len(entity) == 1:
        return {frozenset(entity)}
    return {frozenset(pair) for pair in combinations(entity, 2)}


def _resolutions(side: Partition, other: Partition) -> list[Fraction]:
    other_links = set().union(*(lea_links(e) for e in other)) if other else set()
    return [Fraction(len(lea_links(e) & other_links), len(lea_links(e))) for e in side]


def lea(key: Partition, response: Partition) -> Stats:
    recall = sum((len(k) * r for k, r in zip(key, _resolutions(key, response))), Fraction(0))
    precision = sum(
        (len(e) * p for e, p in zip(response, _resolutions(response, key))), Fraction(0)
    )
    return (recall, len(mention_set(key)), precision, len(mention_set(response)))


def lea_uniform(key: Partition, response: Partition) -> Stats:
    recall = sum(_resolutions(key, response), Fraction(0))
    precision = sum(_resolutions(response, key), Fraction(0))
    return (recall, len(key), precision, len(response))


# ---------------------------------------------------------------------------------------------
# Twinless mentions


def _bcub_credit_self(side: Partition, other: Partition) -> Fraction:
    """B³_all side: a mention the other side lacks is credited with itself."""
    covered = mention_set(other)
    total = Fraction(0)
    for entity in side:
        for m in entity:
            partner = entity_of(other, m) if m in covered else frozenset({m})
            total += Fraction(len(entity & partner), len(entity))
    return total


def bcub_all(key: Partition, response: Partition) -> Stats:
    return (
        _bcub_credit_self(key, response),
        len(mention_set(key)),
        _bcub_credit_self(response, key),
        len(mention_set(response)),
    )


def bcub_0(key: Partition, response: Partition) -> Stats:
    """Recall as B³_all; precision averaged over twinned response mentions only."""
    twinned = mention_set(key) & mention_set(response)
    precision = sum(
        (
            Fraction(len(entity & entity_of(key, m)), len(entity))
            for entity in response
            for m in entity
            if m in twinned
        ),
        Fraction(0),
    )
    return (_bcub_credit_self(key, response), len(mention_set(key)), precision, len(twinned))


def cai_strube(key: Partition, response: Partition) -> tuple[Partition, Partition, Partition]:
    """(K_p, R', R_r) of Cai & Strube (2010), built as partitions."""
    key_mentions, response_mentions = mention_set(key), mention_set(response)
    missed = key_mentions - response_mentions
    spurious = response_mentions - key_mentions
    kept = tuple(e for e in response if not (len(e) == 1 and e <= spurious))
    r_prime = kept + tuple(frozenset({m}) for m in sorted(missed))
    remaining = mention_set(kept) & spurious
    k_p = key + tuple(frozenset({m}) for m in sorted(remaining))
    r_r = tuple(e - spurious for e in r_prime if e - spurious)
    return k_p, r_prime, r_r


def bcub_sys(key: Partition, response: Partition) -> Stats:
    k_p, r_prime, r_r = cai_strube(key, response)
    return (
        _bcub_side(key, r_r),
        len(mention_set(key)),
        _bcub_side(r_prime, k_p),
        len(mention_set(r_prime)),
    )


def ceaf_sys(key: Partition, response: Partition, phi: Similarity) -> Stats:
    k_p, r_prime, r_r = cai_strube(key, response)
    recall_num, key_self, _, _ = ceaf(key, r_r, phi)
    precision_num, _, _, response_self = ceaf(k_p, r_prime, phi)
    return (recall_num, key_self, precision_num, response_self)


# ---------------------------------------------------------------------------------------------
# Registry and combination


def _with(phi: Similarity) -> Callable[[Partition, Partition], Stats]:
    return lambda key, response: ceaf(key, response, phi)


def _sys_with(phi: Similarity) -> Callable[[Partition, Partition], Stats]:
    return lambda key, response: ceaf_sys(key, response, phi)


#: corefscore metric name -> naive per-document statistics, same layout.
STATISTICS: dict[str, Callable[[Partition, Partition], Stats]] = {
    "mentions": mentions,
    "muc": muc,
    "bcub": bcub,
    "ceafm": _with(phi3),
    "ceafe": _with(phi4),
    "blanc": blanc,
    "lea": lea,
    "ceaf-phi1": _with(phi1),
    "ceaf-phi2": _with(phi2),
    "bcub-all": bcub_all,
    "bcub-0": bcub_0,
    "bcub-sys": bcub_sys,
    "ceafm-sys": _sys_with(phi3),
    "ceafe-sys": _sys_with(phi4),
    "blanc-luo2014": blanc_luo2014_stats,
    "lea-uniform": lea_uniform,
}


def corpus_statistics(per_document: Iterable[Stats]) -> tuple[Number, ...]:
    """One metric's per-document statistics summed over documents, exactly."""
    return tuple(sum(column, Fraction(0)) for column in zip(*per_document))


def scores(metric: str, stats: Sequence[Number]) -> tuple[Fraction, Fraction, Fraction]:
    """(recall, precision, F1) from summed statistics, as the papers combine them.

    BLANC here is Luo et al. 2014's formula applied to pooled link counts when both
    kinds of link exist in the key (the only case in which the reference's totals
    and the paper agree); callers check that. ``blanc-luo2014`` is the mean of the
    per-document values.
    """
    if metric == "blanc":
        cc, ck, _, cr, nn, nk, _, nr = stats
        return (
            (ratio(cc, ck) + ratio(nn, nk)) / 2,
            (ratio(cc, cr) + ratio(nn, nr)) / 2,
            (ratio(2 * cc, ck + cr) + ratio(2 * nn, nk + nr)) / 2,
        )
    if metric == "blanc-luo2014":
        sum_r, sum_p, sum_f, documents = stats[:4]
        return ratio(sum_r, documents), ratio(sum_p, documents), ratio(sum_f, documents)
    recall = ratio(stats[0], stats[1])
    precision = ratio(stats[2], stats[3])
    return recall, precision, f_measure(recall, precision)
