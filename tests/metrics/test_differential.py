"""Differential testing: corefscore against ``tests/naive_metrics.py`` on seeded random cases.

:func:`generate_case` turns a seed into a small random corpus (1-3 documents, 0-7
entities a side, singletons, nested and overlapping spans, twinless mentions on
both sides, empty sides and documents missing from the response). Every metric
that ``naive_metrics`` implements from its paper is compared field by field, per
document and over the corpus, plus recall, precision and F1:

* a field corefscore keeps as an integer must equal the exact count;
* a floating-point field must be within 1e-12 (relative, at least absolute) of
  the exact :class:`~fractions.Fraction` (corefscore adds floats in the reference
  scorer's order; the naive side is exact).

500 cases run in CI and 10,000 with ``COREFSCORE_TEST_PROFILE=nightly``.
Not compared: ``blanc-gold`` (its source, Recasens & Hovy 2011, defines it for gold
mentions only; it equals ``blanc``'s counts, tested in test_blanc_variants.py) and
``ace-value`` (NIST's cost model, not a set definition).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from corefscore.scorer import CorefScorer

from .. import naive_metrics as naive
from ..conftest import NIGHTLY

Clusters = list[list[tuple[int, int]]]
METRICS = tuple(naive.STATISTICS)
CASES = 10_000 if NIGHTLY else 500
CHUNK = 100
TOLERANCE = 1e-12
MAX_ENTITIES = 7


@dataclass
class Case:
    seed: int
    key: dict[str, Clusters]
    response: dict[str, Clusters] = field(default_factory=dict)


def _partition(rnd: random.Random, spans: list[tuple[int, int]], entities: int) -> Clusters:
    out: Clusters = [[] for _ in range(entities)]
    for span in spans:
        out[rnd.randrange(entities)].append(span)
    return [e for e in out if e]


def _document(rnd: random.Random) -> tuple[Clusters, Clusters]:
    tokens = rnd.randint(3, 14)
    # Spans of 1-4 tokens from random starts: nested and crossing spans are common.
    pool = list({(s, min(s + rnd.choice((0, 0, 1, 2, 3)), tokens - 1)) for s in range(tokens)})
    pool += list(
        {(s, min(s + rnd.randint(1, 4), tokens - 1)) for s in rnd.sample(range(tokens), 2)}
    )
    pool = sorted(set(pool))
    rnd.shuffle(pool)
    key_spans = rnd.sample(pool, rnd.randint(0, min(len(pool), 12)))
    key = _partition(rnd, key_spans, rnd.randint(1, MAX_ENTITIES))
    style = rnd.random()
    if style < 0.1:
        return key, [list(e) for e in key]  # a perfect response
    if style < 0.3:
        spans = rnd.sample(pool, rnd.randint(0, min(len(pool), 12)))
        return key, _partition(rnd, spans, rnd.randint(1, MAX_ENTITIES))
    # A perturbed key: some mentions missed, some moved, some twinless ones added.
    response = [[s for s in e if rnd.random() > 0.2] for e in key]
    response = [e for e in response if e]
    for entity in response:
        for span in list(entity):
            if rnd.random() < 0.25 and len(entity) > 1:
                entity.remove(span)
                target = rnd.randrange(len(response) + 1)
                if target == len(response) and len(response) < MAX_ENTITIES:
                    response.append([span])
                else:
                    response[target % len(response)].append(span)
    response = [e for e in response if e]
    used = {s for e in response for s in e}
    spare = [s for s in pool if s not in used and s not in key_spans]
    for span in rnd.sample(spare, rnd.randint(0, min(len(spare), 4))):
        if response and (rnd.random() < 0.6 or len(response) >= MAX_ENTITIES):
            response[rnd.randrange(len(response))].append(span)
        else:
            response.append([span])
    for entity in response:
        rnd.shuffle(entity)
    rnd.shuffle(response)
    return key, response


def generate_case(seed: int) -> Case:
    """A random small corpus from ``seed``: the same seed gives the same case everywhere."""
    rnd = random.Random(seed)
    case = Case(seed, {})
    for d in range(rnd.choice((1, 1, 2, 3))):
        key, response = _document(rnd)
        doc_id = f"doc{d}"
        case.key[doc_id] = key
        if rnd.random() < 0.95:  # otherwise missing from the response: scored as empty
            case.response[doc_id] = response
    if rnd.random() < 0.05:
        case.response["response-only"] = [[(0, 0)]]  # ignored by both
    return case


def _mismatch(where: str, got: float, want: naive.Number) -> str | None:
    if isinstance(got, int):
        return None if got == want else f"{where}: corefscore {got!r} != exact {want}"
    if got == want:
        return None
    if abs(Fraction(got) - want) <= TOLERANCE * max(Fraction(1), abs(Fraction(want))):
        return None
    return f"{where}: corefscore {got!r} != exact {want} ({float(want)!r})"


def compare_case(case: Case) -> list[str]:
    """Every difference between corefscore and the naive metrics on ``case``."""
    scorer = CorefScorer(metrics=METRICS)
    pairs = {}
    for doc_id, key in case.key.items():
        response = case.response.get(doc_id, [])
        scorer.update(key, response, doc_id=doc_id)
        pairs[doc_id] = (naive.partition(key), naive.partition(response))
    problems: list[str] = []
    exact = {
        doc_id: {metric: naive.STATISTICS[metric](*pair) for metric in METRICS}
        for doc_id, pair in pairs.items()
    }
    for doc_id, stats in scorer.document_statistics.items():
        for metric in METRICS:
            want = exact[doc_id][metric]
            got = stats[metric]
            if len(got) != len(want):
                problems.append(f"{doc_id} {metric}: {len(got)} fields != {len(want)}")
                continue
            for i, (g, w) in enumerate(zip(got, want)):
                problem = _mismatch(f"seed {case.seed} {doc_id} {metric}[{i}]", g, w)
                if problem:
                    problems.append(problem)
    result = scorer.compute()
    totals = scorer.statistics
    for metric in METRICS:
        want = naive.corpus_statistics(e[metric] for e in exact.values())
        for i, (g, w) in enumerate(zip(totals[metric], want)):
            problem = _mismatch(f"seed {case.seed} corpus {metric}[{i}]", g, w)
            if problem:
                problems.append(problem)
        if metric == "blanc" and not (want[1] and want[5]):
            continue  # the reference's totals rules, not the paper's: test_against_oracle
        score = result[metric]
        for name, g, w in zip(
            ("recall", "precision", "f1"),
            (score.recall, score.precision, score.f1),
            naive.scores(metric, want),
        ):
            problem = _mismatch(f"seed {case.seed} corpus {metric}.{name}", g, w)
            if problem:
                problems.append(problem)
    return problems


@pytest.mark.parametrize("first", range(0, CASES, CHUNK))
def test_no_mismatch(first: int) -> None:
    problems = [
        p for seed in range(first, first + CHUNK) for p in compare_case(generate_case(seed))
    ]
    assert not problems, f"{len(problems)} mismatches, e.g.:\n" + "\n".join(problems[:10])


def test_generator_covers_the_hard_shapes() -> None:
    """The cases have what the comparison is meant to exercise, in quantity."""
    seen = dict.fromkeys(
        (
            "multi-document",
            "empty key",
            "empty response",
            "missing response document",
            "perfect",
            "key singleton",
            "response singleton",
            "nested spans",
            "missed key mention",
            "spurious response mention",
            "7 entities",
            "several optimal CEAF alignments",
        ),
        0,
    )
    for seed in range(300):
        case = generate_case(seed)
        seen["multi-document"] += len(case.key) > 1
        seen["missing response document"] += any(d not in case.response for d in case.key)
        for doc_id, key in case.key.items():
            response = case.response.get(doc_id, [])
            k, r = naive.partition(key), naive.partition(response)
            km, rm = naive.mention_set(k), naive.mention_set(r)
            seen["empty key"] += not k
            seen["empty response"] += not r
            seen["perfect"] += bool(k) and set(k) == set(r)
            seen["key singleton"] += any(len(e) == 1 for e in k)
            seen["response singleton"] += any(len(e) == 1 for e in r)
            seen["nested spans"] += any(
                a != b and a[0] <= b[0] and b[1] <= a[1] for a in km for b in km
            )
            seen["missed key mention"] += bool(km - rm)
            seen["spurious response mention"] += bool(rm - km)
            seen["7 entities"] += len(k) == MAX_ENTITIES or len(r) == MAX_ENTITIES
            seen["several optimal CEAF alignments"] += _optimal_alignments(k, r) > 1
    assert all(count >= 5 for count in seen.values()), seen


def _optimal_alignments(key: naive.Partition, response: naive.Partition) -> int:
    if not key or not response or len(key) > 5 or len(response) > 5:
        return 0
    from itertools import permutations

    small, large = (key, response) if len(key) <= len(response) else (response, key)
    totals = [
        sum(naive.phi4(a, large[j]) for a, j in zip(small, columns))
        for columns in permutations(range(len(large)), len(small))
    ]
    best = max(totals)
    return sum(1 for t in totals if t == best and best > 0)


def test_same_seed_same_case() -> None:
    assert generate_case(12345) == generate_case(12345)
    assert generate_case(12345) != generate_case(12346)


# ---------------------------------------------------------------------------------------------
# The naive implementation pinned to worked examples of the papers and docs


def _p(*entities: str) -> naive.Partition:
    """Entities of one-letter mentions: ``_p("abc", "d")``; letter i is span (i, i)."""
    return tuple(frozenset((ord(c) - 97, ord(c) - 97) for c in e) for e in entities)


def test_naive_blanc_luo2014_example_1() -> None:
    # Luo et al. 2014 §4.2 example 1: key {abc} {d}, response {bc} {de}.
    key, response = _p("abc", "d"), _p("bc", "de")
    assert naive.blanc(key, response) == (1, 3, 1, 2, 2, 3, 2, 4)
    recall, precision, f = naive.blanc_luo2014(key, response)
    assert (recall, precision) == ((Fraction(1, 3) + Fraction(2, 3)) / 2, Fraction(1, 2))
    assert f == (Fraction(2, 5) + Fraction(4, 7)) / 2


def test_naive_variants_on_pradhan_2014_system_mention_example() -> None:
    # docs/metrics.md worked example: key {a} {b,c} {d,e,f}; response {a} {b,c,x} {d,y} {z}.
    key, response = _p("a", "bc", "def"), _p("a", "bcx", "dy", "z")
    expected = {
        "bcub": (Fraction(5, 9), Fraction(17, 42)),
        "bcub-all": (Fraction(2, 3), Fraction(2, 3)),
        "bcub-0": (Fraction(2, 3), Fraction(17, 24)),
        "bcub-sys": (Fraction(2, 3), Fraction(17, 24)),
        "ceafm-sys": (Fraction(2, 3), Fraction(5, 8)),
        "ceafe-sys": (Fraction(5, 6), Fraction(89, 150)),
    }
    for metric, (recall, precision) in expected.items():
        got = naive.scores(metric, naive.STATISTICS[metric](key, response))
        assert got[:2] == (recall, precision), metric


def test_naive_muc_lea_and_ceaf_by_hand() -> None:
    key, response = _p("abc", "de"), _p("ab", "cde")
    # MUC: key abc split in 2 (1 of 2 links), de whole (1 of 1); response ab 1/1, cde 1/2.
    assert naive.muc(key, response) == (2, 3, 2, 3)
    # LEA recall: abc resolves ab of 3 links (3·1/3), de 1 of 1 (2·1): 3 of 5.
    assert naive.lea(key, response)[:2] == (Fraction(3), 5)
    # CEAFm: abc–ab 2 + de–cde 2 = 4; CEAFe: 2·2/5 + 2·2/5 = 8/5.
    assert naive.STATISTICS["ceafm"](key, response) == (4, 5, 4, 5)
    assert naive.STATISTICS["ceafe"](key, response)[0] == Fraction(8, 5)
    # Singletons: self-links resolved only by the same singleton.
    assert naive.lea(_p("a", "b"), _p("a", "bc")) == (1, 2, 1, 3)
