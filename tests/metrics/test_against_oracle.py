"""Differential tests: corefscore's closed-form metrics against ``tests/oracle.py``.

The oracle follows the reference scorer v8.01 literally (mention ids, loops over
mentions and pairs, sets of links); corefscore works from a contingency table.
Random small documents (hypothesis) draw the spans of both sides from one small
pool, so there are many exact matches, twinless mentions and, when the policy
allows them, spans repeated within and across entities.

Integer statistics must be equal. B³ and LEA numerators must be bit-identical per
document (both add the same terms in the same order). A CEAF numerator is compared
to 1e-12 with the oracle's, and must be bit-identical to the sum ``Σ 1 - (1 - φ)`` in
key order of one of the optimal alignments (when several alignments are optimal,
their sums can differ in the last bits, and which one a solver returns is arbitrary).
Corpus totals (exactly rounded sums of the per-document values) are compared the same
way.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.scorer import CorefScorer

from .. import oracle
from ..conftest import SHARED, examples, shared_path

Clusters = list[list[tuple[int, int]]]
Corpus = dict[str, Clusters]

POLICIES = ("strict", "first", "reference")
BIT_IDENTICAL = ("bcub", "lea")  # per-document numerators, same additions in the same order
SETTINGS = settings(max_examples=examples(250), deadline=None)
CORPUS_SETTINGS = settings(max_examples=examples(80), deadline=None)

# ---------------------------------------------------------------------------------------------
# Strategies

SPAN = st.tuples(st.integers(0, 11), st.integers(0, 11)).map(lambda t: (min(t), max(t)))


@st.composite
def side(draw: st.DrawFn, pool: list[tuple[int, int]], repeats: bool) -> Clusters:
    """0-6 non-empty entities of 1-4 spans drawn from ``pool``."""
    entities = draw(st.lists(st.lists(st.sampled_from(pool), min_size=1, max_size=4), max_size=6))
    return entities if repeats else oracle.dedupe_first(entities)


@st.composite
def document_pair(draw: st.DrawFn, key_repeats: bool = True) -> tuple[Clusters, Clusters]:
    """(key clusters, response clusters) of one document.

    Each side independently either keeps the repeats the pool sampling produces or
    is de-duplicated, so documents without any repeated span are common too.
    """
    pool = draw(st.lists(SPAN, min_size=1, max_size=10, unique=True))
    key = draw(side(pool, key_repeats and draw(st.booleans())))
    response = draw(side(pool, draw(st.booleans())))
    return key, response


@st.composite
def corpus_pair(draw: st.DrawFn, key_repeats: bool = True) -> tuple[Corpus, Corpus]:
    """1-4 key documents; each is in the response or not (the first always: a
    response that pairs with no key document is an error); maybe a response-only
    document."""
    key: Corpus = {}
    response: Corpus = {}
    for d in range(draw(st.integers(1, 4))):
        k, r = draw(document_pair(key_repeats))
        key[f"doc{d}"] = k
        if d == 0 or draw(st.integers(0, 4)):  # present in the response 4 times out of 5
            response[f"doc{d}"] = r
    if draw(st.integers(0, 4)) == 0:
        response["response-only"] = draw(document_pair())[1]
    return key, response


def inputs(
    policy: str, key: Clusters, response: Clusters
) -> tuple[Clusters, Clusters, Clusters, Clusters]:
    """(key, response) given to corefscore and (key, response) given to the oracle.

    ``strict`` refuses repeated key spans, so its key is de-duplicated first; it and
    ``first`` promise to keep the first copy of every repeated span, which the test
    does itself before handing the documents to the oracle (which then sees no repeat).
    """
    if policy == "strict":
        key = oracle.dedupe_first(key)
    if policy == "reference":
        return key, response, key, response
    return key, response, oracle.dedupe_first(key), oracle.dedupe_first(response)


# ---------------------------------------------------------------------------------------------
# Comparison helpers


def assert_same(metric: str, got: tuple[float, ...], want: tuple[float, ...], bits: bool) -> None:
    assert len(got) == len(want), (metric, got, want)
    for index, (g, w) in enumerate(zip(got, want)):
        what = f"{metric}[{index}]: corefscore {g!r} != oracle {w!r}"
        if isinstance(w, int):
            assert float(g) == w and float(g).is_integer(), what
        elif bits:
            assert float(g) == w, what
        else:
            assert math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-12), what


def document_statistics(
    policy: str, key: Clusters, response: Clusters
) -> dict[str, tuple[float, ...]]:
    return CorefScorer(duplicates=policy).update(key, response)


def result_statistics(result: corefscore.ScoreResult) -> dict[str, tuple[float, ...]]:
    out = {}
    for name in oracle.METRICS:
        if name == "blanc":
            b = result["blanc"]
            out[name] = tuple(
                getattr(part, f)
                for part in (b.coref, b.noncoref)
                for f in ("recall_num", "recall_den", "precision_num", "precision_den")
            )
        else:
            s = result[name]
            out[name] = (s.recall_num, s.recall_den, s.precision_num, s.precision_den)
    return out


def check_document(policy: str, key: Clusters, response: Clusters) -> None:
    ours_key, ours_response, oracle_key, oracle_response = inputs(policy, key, response)
    got = document_statistics(policy, ours_key, ours_response)
    want = oracle.score_document(oracle_key, oracle_response)
    assert set(got) == set(want)
    for name in oracle.METRICS:
        assert_same(name, got[name], want[name], bits=name in BIT_IDENTICAL)
    # CEAF: bit-identical to the reference-order sum of *some* optimal alignment.
    chains = oracle.identify_mentions(oracle_key, oracle_response)
    for name, phi in (("ceafm", oracle.phi3), ("ceafe", oracle.phi4)):
        candidates = oracle.ceaf_numerators(chains, phi)
        assert got[name][0] in candidates, (name, got[name][0], candidates)
        assert got[name][2] == got[name][0]


# ---------------------------------------------------------------------------------------------
# 1. Every metric's statistics, one document and whole corpora


@pytest.mark.parametrize("policy", POLICIES)
@SETTINGS
@given(pair=document_pair())
def test_document_statistics(policy: str, pair: tuple[Clusters, Clusters]) -> None:
    check_document(policy, *pair)


@pytest.mark.parametrize("policy", POLICIES)
@CORPUS_SETTINGS
@given(corpora=corpus_pair())
def test_corpus_statistics(policy: str, corpora: tuple[Corpus, Corpus]) -> None:
    key, response = corpora
    ours_key: Corpus = {}
    ours_response: Corpus = {}
    oracle_key: Corpus = {}
    oracle_response: Corpus = {}
    for doc_id in key:
        k, r, ok, orr = inputs(policy, key[doc_id], response.get(doc_id, []))
        ours_key[doc_id], oracle_key[doc_id] = k, ok
        if doc_id in response:
            ours_response[doc_id], oracle_response[doc_id] = r, orr
    for doc_id in response:
        if doc_id not in key:  # ignored by both
            ours_response[doc_id] = oracle_response[doc_id] = response[doc_id]

    result = corefscore.score(ours_key, ours_response, duplicates=policy, per_document=True)
    got = result_statistics(result)
    want = oracle.score_corpus(oracle_key, oracle_response)
    for name in oracle.METRICS:
        # Per-document values bit-identical => correctly rounded sums identical too.
        assert_same(name, got[name], want[name], bits=name in BIT_IDENTICAL)

    assert result.documents is not None
    assert list(result.documents) == list(key)
    for doc_id, document in result.documents.items():
        per_doc = oracle.score_document(oracle_key[doc_id], oracle_response.get(doc_id, []))
        for name in oracle.METRICS:
            if name == "blanc":
                b = document["blanc"]
                values = tuple(
                    getattr(part, f)
                    for part in (b.coref, b.noncoref)
                    for f in ("recall_num", "recall_den", "precision_num", "precision_den")
                )
            else:
                s = document[name]
                values = (s.recall_num, s.recall_den, s.precision_num, s.precision_den)
            assert_same(f"{doc_id} {name}", values, per_doc[name], bits=name in BIT_IDENTICAL)


# ---------------------------------------------------------------------------------------------
# 2. BLANC's combined recall, precision and F1 (reference TOTALS boundary rules)


@pytest.mark.parametrize("policy", POLICIES)
@CORPUS_SETTINGS
@given(corpora=corpus_pair())
def test_blanc_totals(policy: str, corpora: tuple[Corpus, Corpus]) -> None:
    key, response = corpora
    if policy == "strict":
        key = {d: oracle.dedupe_first(k) for d, k in key.items()}
    if policy != "reference":
        oracle_key = {d: oracle.dedupe_first(k) for d, k in key.items()}
        oracle_response = {d: oracle.dedupe_first(r) for d, r in response.items()}
    else:
        oracle_key, oracle_response = key, response
    blanc = corefscore.score(key, response, metrics="blanc", duplicates=policy)["blanc"]
    counts = oracle.score_corpus(oracle_key, oracle_response)["blanc"]
    # The counts are integers, so the combined values must be the very same floats.
    assert (blanc.recall, blanc.precision, blanc.f1) == oracle.blanc_totals(counts)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ((0, 0, 0, 0, 0, 0, 0, 0), (0.0, 0.0, 0.0)),  # no link at all
        ((0, 0, 0, 3, 2, 4, 2, 5), (0.5, 0.4, 2 * 0.4 * 0.5 / 0.9)),  # key: no coref link
        ((1, 2, 1, 4, 0, 0, 0, 3), (0.5, 0.25, 2 * 0.25 * 0.5 / 0.75)),  # key: no non-coref
        ((0, 2, 0, 0, 0, 4, 0, 0), (0.0, 0.0, 0.0)),  # nothing right, empty response
        ((2, 2, 2, 2, 4, 4, 4, 4), (1.0, 1.0, 1.0)),
    ],
)
def test_blanc_totals_boundaries(counts: tuple[int, ...], expected: tuple[float, ...]) -> None:
    assert oracle.blanc_totals(counts) == expected
    got = corefscore.metrics.blanc.score(counts)
    assert (got.recall, got.precision, got.f1) == expected


# ---------------------------------------------------------------------------------------------
# Repeated key spans under the strict policy


@SETTINGS
@given(pair=document_pair(key_repeats=False), data=st.data())
def test_strict_refuses_repeated_key_span(
    pair: tuple[Clusters, Clusters], data: st.DataObject
) -> None:
    key, response = pair
    spans = [span for entity in key for span in entity]
    if not spans:
        key = [[(0, 0)]]
        spans = [(0, 0)]
    span = data.draw(st.sampled_from(spans))
    where = data.draw(st.integers(0, len(key)))
    if where == len(key):
        key = [*key, [span]]
    else:
        key = [list(e) for e in key]
        key[where].insert(data.draw(st.integers(0, len(key[where]))), span)
    with pytest.raises(corefscore.InputError):
        corefscore.score({"d": key}, {"d": response}, duplicates="strict")
    with pytest.raises(corefscore.InputError):
        CorefScorer(duplicates="strict").update(key, response)
    check_document("first", key, response)  # ...while "first" and "reference" score it
    check_document("reference", key, response)


# ---------------------------------------------------------------------------------------------
# 3. Hand-written edge cases


EDGE_CASES = {
    "empty key": ([], [[(0, 0), (1, 1)], [(2, 2)]]),
    "empty response": ([[(0, 0), (1, 1)], [(2, 2)]], []),
    "both empty": ([], []),
    "all-singleton key": ([[(0, 0)], [(1, 1)], [(2, 2)]], [[(0, 0), (1, 1)], [(2, 2)]]),
    "one key entity": ([[(0, 0), (1, 1), (2, 3)]], [[(0, 0), (1, 1)], [(2, 3), (5, 5)]]),
    "twinless response singleton": ([[(0, 0), (1, 1)]], [[(0, 0), (1, 1)], [(4, 4)]]),
    "identical": ([[(0, 0), (1, 1)], [(3, 3)]], [[(0, 0), (1, 1)], [(3, 3)]]),
}
# Only meaningful (and only allowed in the key) under the reference policy.
REFERENCE_CASES = {
    "span in two key entities": (
        [[(0, 0), (1, 1)], [(1, 1), (2, 2)]],
        [[(0, 0), (1, 1), (2, 2)]],
    ),
    "span twice in one key entity": ([[(0, 0), (0, 0), (1, 1)]], [[(0, 0), (1, 1)]]),
    "twinless span in two response entities": (
        [[(0, 0), (1, 1)]],
        [[(0, 0), (5, 5)], [(1, 1), (5, 5)]],
    ),
    "key span repeated in the response": (
        [[(0, 0), (1, 1)], [(2, 2)]],
        [[(0, 0), (2, 2)], [(2, 2), (1, 1)], [(0, 0)]],
    ),
    "identical, span in two entities": (
        [[(0, 0), (1, 1)], [(1, 1), (2, 2)]],
        [[(0, 0), (1, 1)], [(1, 1), (2, 2)]],
    ),
}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", sorted(EDGE_CASES))
def test_edge_case(case: str, policy: str) -> None:
    check_document(policy, *EDGE_CASES[case])


@pytest.mark.parametrize("case", sorted(REFERENCE_CASES))
def test_reference_edge_case(case: str) -> None:
    check_document("reference", *REFERENCE_CASES[case])
    key, response = REFERENCE_CASES[case]
    check_document("first", key, response)


def test_edge_values() -> None:
    """A few oracle values worked out by hand, so the oracle itself is pinned."""
    empty_key = oracle.score_document([], [[(0, 0), (1, 1)], [(2, 2)]])
    assert empty_key["muc"] == (0, 0, 0, 1)
    assert empty_key["bcub"] == (0.0, 0, 0.0, 3)
    assert empty_key["ceafe"] == (0.0, 0, 0.0, 2)
    assert empty_key["blanc"] == (0, 0, 0, 1, 0, 0, 0, 2)
    assert empty_key["lea"] == (0.0, 0, 0.0, 3)

    singletons = oracle.score_document([[(0, 0)], [(1, 1)]], [[(0, 0)], [(1, 1)]])
    assert singletons["muc"] == (0, 0, 0, 0)
    assert singletons["lea"] == (2.0, 2, 2.0, 2)
    assert singletons["blanc"] == (0, 0, 0, 0, 1, 1, 1, 1)

    # Twinless (5,5) repeated: one id, kept twice; P dens count both copies.
    twinless = oracle.score_document([[(0, 0), (1, 1)]], [[(0, 0), (5, 5)], [(1, 1), (5, 5)]])
    assert twinless["mentions"] == (2, 2, 2, 3)
    assert twinless["muc"] == (0, 1, 0, 2)
    assert twinless["bcub"][3] == 4
    # The shared id makes {5,5} a non-coreference link of the response.
    assert twinless["blanc"] == (0, 1, 0, 2, 0, 0, 0, 4)

    # Key span (0,0) twice in one entity: one id, both copies kept (spec §3).
    doubled = oracle.score_document([[(0, 0), (0, 0)]], [[(0, 0)]])
    assert doubled["mentions"] == (1, 1, 1, 1)
    assert doubled["ceafm"] == (2.0, 2, 2.0, 1)  # numerator above the precision den
    assert doubled["blanc"] == (0, 1, 0, 0, 0, 0, 0, 0)


def test_span_in_two_key_entities_values() -> None:
    key = [[(0, 0), (1, 1)], [(1, 1), (2, 2)]]
    response = [[(0, 0), (1, 1), (2, 2)]]
    want = oracle.score_document(key, response)
    # (1,1) belongs to the last key entity for MUC/B3/LEA; all key occurrences count.
    assert want["muc"] == (1, 2, 1, 2)
    assert want["bcub"] == (2 / 2 + 2 / 2 + 2 / 2, 4, 2 / 3 + 2 / 3 + 2 / 3, 3)
    assert want["lea"][1] == 4
    check_document("reference", key, response)


# ---------------------------------------------------------------------------------------------
# The oracle itself against the reference scorer's printed outputs on its own test cases

CASES_FILE = SHARED / "data" / "reference-tests" / "expected.json"
CASES = sorted(json.loads(CASES_FILE.read_text())["cases"]) if CASES_FILE.exists() else []


def _printed(value: str) -> float:
    return float(value)


@pytest.mark.skipif(not CASES, reason=f"shared data not available: {CASES_FILE}")
@pytest.mark.parametrize("case", CASES)
def test_oracle_on_reference_cases(case: str) -> None:
    """The oracle reproduces the reference's raw counts (printed with %.15g)."""
    folder = shared_path("data", "reference-tests")
    spec = json.loads(CASES_FILE.read_text())["cases"][case]
    key = oracle.read_conll_naive((folder / spec["key"]).read_text())
    response = oracle.read_conll_naive((folder / spec["response"]).read_text())
    got = oracle.score_corpus(key, response)
    for metric, ref in spec["reference"].items():
        if metric == "blanc":
            parts = [ref["coref_links"], ref["noncoref_links"]]
            want = tuple(_printed(p[f]) for p in parts for f in ("rn", "rd", "pn", "pd"))
            r, p, _ = oracle.blanc_totals(got["blanc"])
            assert math.isclose(r, _printed(ref["blanc"]["rn"]), rel_tol=1e-13, abs_tol=1e-15)
            assert math.isclose(p, _printed(ref["blanc"]["pn"]), rel_tol=1e-13, abs_tol=1e-15)
        else:
            want = tuple(_printed(ref[f]) for f in ("rn", "rd", "pn", "pd"))
        for g, w in zip(got[metric], want):
            assert math.isclose(g, w, rel_tol=1e-13, abs_tol=1e-15), (case, metric, got, want)
