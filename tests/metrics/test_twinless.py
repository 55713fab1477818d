"""The twinless-mention variants of B³ and CEAF (Stoyanov et al. 2009; Cai & Strube 2010).

The worked examples are the system-mention examples of paper-vectors.json (hand-derived
there and again in the comments here). The properties compare the closed forms with a
literal, mention-by-mention implementation of each definition (Reconcile's B³ loops, and Cai
& Strube's manipulation steps followed by the plain metrics).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction as Fr

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.contingency import build_table
from corefscore.metrics import REGISTRY, MetricScore, twinless
from corefscore.model import Document, Span

Labels = Sequence[str]
VARIANTS = ("bcub-all", "bcub-0", "bcub-sys", "ceafm-sys", "ceafe-sys")


def labelled(key: Sequence[Labels], response: Sequence[Labels]) -> tuple[Document, Document]:
    ids: dict[str, int] = {}

    def doc(clusters: Sequence[Labels]) -> Document:
        return Document(
            "d", tuple(tuple((ids.setdefault(m, len(ids)),) * 2 for m in c) for c in clusters)
        )

    key_doc = doc(key)
    return key_doc, doc(response)


def exact(x: float, want: Fr | int) -> bool:
    return abs(x - float(want)) <= 1e-12


# Stoyanov et al. 2009 / Pradhan et al. 2014 system-mention example (reference test TC-A-4):
# key {a} {b,c} {d,e,f}; response {a} {b,c,x} {d,y} {z}. Twinless: key e, f; response x, y, z.
EX1 = (["a", "bc", "def"], ["a", "bcx", "dy", "z"])
EX2 = (["abc"], ["ax", "by", "cz"])
EX3 = (["ab"], ["ab", "x", "y", "z"])
EX4 = (["abc", "de"], ["abx", "de", "y"])

# name -> metric -> (recall num, recall den, precision num, precision den)
EXAMPLES: dict[str, tuple[tuple[list[str], list[str]], dict[str, tuple[Fr, int, Fr, int]]]] = {
    "ex1": (
        EX1,
        {
            # R = (1 + 1 + 1 + 1/3 + 1/3[e] + 1/3[f]) / 6;
            # P = (1 + 2/3 + 2/3 + 1/3[x] + 1/2 + 1/2[y] + 1[z]) / 7.
            "bcub-all": (Fr(4), 6, Fr(14, 3), 7),
            # P over the 4 twinned response mentions; x and y still count in |R|:
            # (1 + 2/3 + 2/3 + 1/2) / 4 = 17/24.
            "bcub-0": (Fr(4), 6, Fr(17, 6), 4),
            # R' = {a} {b,c,x} {d,y} {e} {f} (z dropped), K_p = K + {x} + {y}:
            # P = (1 + 2/3 + 2/3 + 1/3 + 1/2 + 1/2 + 1 + 1) / 8 = 17/24.
            "bcub-sys": (Fr(4), 6, Fr(17, 3), 8),
            # Recall K vs R_r = {a} {b,c} {d} {e} {f}: 1 + 2 + 1 = 4 of 6 mentions;
            # precision K_p vs R': a-a 1, bc-bcx 2, def-e 1, y-dy 1 = 5 of 8 mentions.
            "ceafm-sys": (Fr(4), 6, Fr(5), 8),
            # Recall: a-a 1 + bc-bc 1 + def-d 1/2 = 5/2 of 3 entities; precision:
            # a-a 1 + bc-bcx 4/5 + y-dy 2/3 + def-e 1/2 = 89/30 of 5 entities.
            "ceafe-sys": (Fr(5, 2), 3, Fr(89, 30), 5),
        },
    ),
    "ex2": (
        EX2,
        {
            "bcub-all": (Fr(1), 3, Fr(3), 6),
            "bcub-0": (Fr(1), 3, Fr(3, 2), 3),
            "bcub-sys": (Fr(1), 3, Fr(3), 6),
            "ceafm-sys": (Fr(1), 3, Fr(3), 6),
            # The pathology of paper-vectors.json: in precision the key-side singletons {x}, {y},
            # {z} take {a,x}, {b,y}, {c,z} (3 × 2/3 = 2) and leave the real key entity unaligned.
            "ceafe-sys": (Fr(1, 2), 1, Fr(2), 3),
        },
    ),
    "ex3": (
        EX3,
        {
            # Twinless response singletons are free in all three B³ variants.
            "bcub-all": (Fr(2), 2, Fr(5), 5),
            "bcub-0": (Fr(2), 2, Fr(2), 2),
            "bcub-sys": (Fr(2), 2, Fr(2), 2),
            "ceafm-sys": (Fr(2), 2, Fr(2), 2),
            "ceafe-sys": (Fr(1), 1, Fr(1), 1),
        },
    ),
    "ex4": (
        EX4,
        {
            # R = (2/3 + 2/3 + 1/3[c] + 1 + 1) / 5; P = (2/3 + 2/3 + 1/3[x] + 1 + 1 + 1[y]) / 6.
            "bcub-all": (Fr(11, 3), 5, Fr(14, 3), 6),
            "bcub-0": (Fr(11, 3), 5, Fr(10, 3), 4),
            # R' = {a,b,x} {d,e} {c}: P = (2/3 + 2/3 + 1/3[x] + 1 + 1 + 1[c]) / 6.
            "bcub-sys": (Fr(11, 3), 5, Fr(14, 3), 6),
            # Recall: abc-ab 2 + de-de 2 = 4 of 5; precision K_p = K + {x} vs R': abc-abx 2 +
            # de-de 2 = 4 of 6 ({c} in R' could only go to abc, which is taken).
            "ceafm-sys": (Fr(4), 5, Fr(4), 6),
            # Recall: abc-ab 4/5 + de-de 1 = 9/5 of 2. Precision: abc-abx 2/3 + de-de 1 = 5/3
            # loses to abc-{c} 1/2 + {x}-abx 1/2 + de-de 1 = 2 (of 3 response entities).
            "ceafe-sys": (Fr(9, 5), 2, Fr(2), 3),
        },
    ),
}
CASES = [(name, metric) for name, (_, by_metric) in EXAMPLES.items() for metric in by_metric]


@pytest.mark.parametrize(("name", "metric"), CASES)
def test_system_mention_examples(name: str, metric: str) -> None:
    (key, response), by_metric = EXAMPLES[name]
    rn, rd, pn, pd = by_metric[metric]
    stats = REGISTRY[metric].statistics(build_table(*labelled(key, response)))
    assert exact(stats[0], rn) and stats[1] == rd, (name, metric, stats)
    assert exact(stats[2], pn) and stats[3] == pd, (name, metric, stats)


def test_examples_through_the_api() -> None:
    # paper-vectors.json: sysmention_ex1 B3_0 and B3_sys have F = 68/99, CEAF_sys phi3 20/31.
    ids: dict[str, int] = {}
    key = [[(ids.setdefault(m, len(ids)),) * 2 for m in c] for c in EX1[0]]
    response = [[(ids.setdefault(m, len(ids)),) * 2 for m in c] for c in EX1[1]]
    result = corefscore.score({"d": key}, {"d": response}, metrics=[*VARIANTS, "bcub"])
    assert exact(result["bcub-0"].f1, Fr(68, 99)) and exact(result["bcub-sys"].f1, Fr(68, 99))
    assert exact(result["bcub-all"].f1, Fr(2, 3))
    assert exact(result["ceafm-sys"].f1, Fr(20, 31))
    assert exact(result["ceafe-sys"].f1, Fr(445, 642))
    # The reference scorer gives twinless mentions nothing: B3 = (5/9, 17/42).
    assert exact(result["bcub"].recall, Fr(5, 9)) and exact(result["bcub"].precision, Fr(17, 42))
    # Names from the papers work as aliases.
    assert corefscore.score({"d": key}, {"d": response}, metrics="b3_0").metrics.keys() == {
        "bcub-0"
    }


def test_twinless_counts() -> None:
    table = build_table(*labelled(*EX1))
    key_twinless, response_twinless = twinless.twinless_counts(table)
    assert key_twinless.tolist() == [0, 0, 2]
    assert response_twinless.tolist() == [0, 1, 1, 1]


def test_registry_entries() -> None:
    for name in VARIANTS:
        metric = REGISTRY[name]
        assert metric.citation and metric.summary
    assert REGISTRY["bcub-all"].symmetric
    assert not any(REGISTRY[n].symmetric for n in VARIANTS[1:])
    assert "Stoyanov" in REGISTRY["bcub-0"].citation
    assert "Cai & Strube" in REGISTRY["ceafe-sys"].citation


# --------------------------------------------------------------------------------------------
# Literal implementations, mention by mention, for the properties below.


def _entity_of(doc: Sequence[Sequence[Span]]) -> dict[Span, frozenset[Span]]:
    return {m: frozenset(e) for e in doc for m in e}


def literal_bcub(
    key: Sequence[Sequence[Span]], response: Sequence[Sequence[Span]], variant: str
) -> tuple[Fr, int, Fr, int]:
    """Reconcile's loops: B3_all (BCubedScore) and B3_0 (BCubedTwinsOnly)."""
    k_of, r_of = _entity_of(key), _entity_of(response)
    recall = Fr(0)
    for m, k in k_of.items():
        # A twinless key mention "intersects" in itself only (numIntersect = 1).
        recall += Fr(len(k & r_of[m]) if m in r_of else 1, len(k))
    precision, counted = Fr(0), 0
    for m, r in r_of.items():
        if m in k_of:
            precision += Fr(len(r & k_of[m]), len(r))
            counted += 1
        elif variant == "all":
            precision += Fr(1, len(r))
            counted += 1
    return recall, len(k_of), precision, counted


def cai_strube(
    key: Sequence[Sequence[Span]], response: Sequence[Sequence[Span]]
) -> tuple[list[list[Span]], list[list[Span]], list[list[Span]]]:
    """The manipulation steps of Cai & Strube (2010): (K_p, R', R_r)."""
    key_mentions = {m for e in key for m in e}
    response_mentions = {m for e in response for m in e}
    # 1. the non-detected key mentions join the response as singletons;
    # 2. twinless response mentions in singleton entities are discarded.
    r_prime = [list(e) for e in response if not (len(e) == 1 and e[0] not in key_mentions)]
    r_prime += [[m] for e in key for m in e if m not in response_mentions]
    # 3a. precision: the remaining twinless response mentions join the key as singletons.
    k_p = [list(e) for e in key]
    k_p += [[m] for e in r_prime for m in e if m not in key_mentions]
    # 3b. recall: twinless response mentions are removed from the response.
    r_r = [[m for m in e if m in key_mentions] for e in r_prime]
    return k_p, r_prime, [e for e in r_r if e]


def _stats(
    metric: str, key: Sequence[Sequence[Span]], response: Sequence[Sequence[Span]]
) -> tuple[float, ...]:
    table = build_table(
        Document("d", tuple(map(tuple, key))), Document("d", tuple(map(tuple, response)))
    )
    return REGISTRY[metric].statistics(table)


def literal_sys(
    metric: str, key: Sequence[Sequence[Span]], response: Sequence[Sequence[Span]]
) -> tuple[float, float, float, float]:
    """B3_sys / CEAF_sys: the plain metric's precision on (K_p, R'), recall on (K, R_r)."""
    k_p, r_prime, r_r = cai_strube(key, response)
    plain = {"bcub-sys": "bcub", "ceafm-sys": "ceafm", "ceafe-sys": "ceafe"}[metric]
    precision = _stats(plain, k_p, r_prime)
    recall = _stats(plain, key, r_r)
    return recall[0], recall[1], precision[2], precision[3]


spans = st.integers(0, 11).map(lambda s: (s, s))
documents = st.lists(st.lists(spans, min_size=1, max_size=4, unique=True), max_size=6)


def _unique(doc: list[list[Span]]) -> list[list[Span]]:
    seen: set[Span] = set()
    out = []
    for entity in doc:
        kept = [s for s in entity if s not in seen]
        seen.update(kept)
        if kept:
            out.append(kept)
    return out


def _close(got: Sequence[float], want: Sequence[float | Fr]) -> bool:
    return all(
        math.isclose(g, float(w), rel_tol=1e-12, abs_tol=1e-12)
        for g, w in zip(got, want, strict=True)
    )


@settings(max_examples=300, deadline=None)
@given(documents, documents)
def test_variants_equal_their_literal_definitions(key: list, response: list) -> None:  # type: ignore[type-arg]
    k, r = _unique(key), _unique(response)
    assert _close(_stats("bcub-all", k, r), literal_bcub(k, r, "all"))
    assert _close(_stats("bcub-0", k, r), literal_bcub(k, r, "0"))
    for metric in ("bcub-sys", "ceafm-sys", "ceafe-sys"):
        assert _close(_stats(metric, k, r), literal_sys(metric, k, r)), metric


@settings(max_examples=200, deadline=None)
@given(documents, documents)
def test_bounds_and_symmetry(key: list, response: list) -> None:  # type: ignore[type-arg]
    k, r = _unique(key), _unique(response)
    for metric in VARIANTS:
        score = MetricScore.from_counts(*_stats(metric, k, r))
        for value in (score.recall, score.precision, score.f1):
            assert 0 <= value <= 1 + 1e-12, metric
    # B3_all gives both sides the same rule, so swapping key and response swaps R and P.
    forward = MetricScore.from_counts(*_stats("bcub-all", k, r))
    backward = MetricScore.from_counts(*_stats("bcub-all", r, k))
    assert math.isclose(forward.recall, backward.precision, abs_tol=1e-12)
    assert math.isclose(forward.precision, backward.recall, abs_tol=1e-12)
    # B3_0 and B3_sys change only precision: their recall is B3_all's.
    assert math.isclose(_stats("bcub-0", k, r)[0], _stats("bcub-all", k, r)[0], abs_tol=1e-12)
    assert math.isclose(_stats("bcub-sys", k, r)[0], _stats("bcub-all", k, r)[0], abs_tol=1e-12)


def test_the_sys_and_zero_variants_are_not_symmetric() -> None:
    key, response = labelled(*EX1)
    for metric in ("bcub-0", "bcub-sys", "ceafm-sys", "ceafe-sys"):
        forward = MetricScore.from_counts(*REGISTRY[metric].statistics(build_table(key, response)))
        backward = MetricScore.from_counts(*REGISTRY[metric].statistics(build_table(response, key)))
        swapped = (backward.precision, backward.recall)
        assert not _close((forward.recall, forward.precision), swapped), metric


@settings(max_examples=200, deadline=None)
@given(documents, st.randoms(use_true_random=False))
def test_without_twinless_mentions_the_variants_are_the_plain_metrics(
    key: list,  # type: ignore[type-arg]
    rng: random.Random,
) -> None:
    k = _unique(key)
    # The response re-partitions exactly the key mentions: every mention has a twin.
    mentions = [m for e in k for m in e]
    rng.shuffle(mentions)
    r: list[list[Span]] = []
    for m in mentions:
        if r and rng.random() < 0.6:
            rng.choice(r).append(m)
        else:
            r.append([m])
    bcub = _stats("bcub", k, r)
    for metric in ("bcub-all", "bcub-0", "bcub-sys"):
        assert _close(_stats(metric, k, r), bcub), metric
    assert _stats("ceafm-sys", k, r) == _stats("ceafm", k, r)
    assert _stats("ceafe-sys", k, r) == _stats("ceafe", k, r)
