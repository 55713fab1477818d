"""Twin matching: exact, head, MUC MIN-span and overlap, one to one; the twins report."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.contingency import build_table
from corefscore.errors import InputError, UsageError
from corefscore.matching import (
    MATCHINGS,
    Twins,
    _min_span_candidates,
    _overlap_candidates,
    match,
)
from corefscore.model import Document, Span, Syntax, document_from_clusters
from corefscore.report.twins import format_twins, twins_summary

Cluster = list[object]


def doc(*clusters: Cluster, syntax: Syntax | None = None, side: str = "key") -> Document:
    built = document_from_clusters("d", list(clusters), side=side)
    return replace(built, syntax=syntax) if syntax is not None else built


def m(start: int, end: int, *, head: int | None = None, least: Span | None = None) -> object:
    mention: dict[str, object] = {"span": (start, end)}
    if head is not None:
        mention["head"] = head
    if least is not None:
        mention["min"] = least
    return mention


def spans(d: Document) -> list[list[Span]]:
    return [list(e) for e in d.entities]


# -- exact ------------------------------------------------------------------


def test_exact_pairs_equal_spans_and_keeps_the_response() -> None:
    key = doc([(0, 1), (5, 5)], [(3, 3)])
    response = doc([(0, 1), (3, 3)], [(4, 5)], side="response")
    twins = match(key, response)
    assert twins.response is response and twins.key is key
    assert twins.pairs == (((0, 1), (0, 1)), ((3, 3), (3, 3)))
    assert twins.missed == ((5, 5),)
    assert twins.spurious == ((4, 5),)


def test_unknown_method_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="choose one of exact, head, min-span, overlap"):
        match(doc([(0, 0)]), doc([(0, 0)]), method="fuzzy")


# -- head -------------------------------------------------------------------

# 0 the 1 president 2 of 3 the 4 company 5 said 6 it
PARSE = Syntax(
    words=("the", "president", "of", "the", "company", "said", "it"),
    pos=("DT", "NN", "IN", "DT", "NN", "VBD", "PRP"),
    parse=("(TOP(S(NP(NP*", "*)", "(PP*", "(NP*", "*)))", "(VP*", "(NP*))))"),
    sentence_starts=(0,),
)


def test_head_matching_with_heads_from_the_key_parse() -> None:
    key = doc([(0, 4), (6, 6)], [(3, 4)], syntax=PARSE)
    # the response has no syntax: its heads come from the key's parse
    response = doc([(0, 1), (6, 6)], [(4, 4)], side="response")
    twins = match(key, response, method="head")
    assert twins.pairs == (((0, 4), (0, 1)), ((3, 4), (4, 4)), ((6, 6), (6, 6)))
    assert twins.missed == () and twins.spurious == ()
    # moved onto the key spans, entity by entity
    assert spans(twins.response) == [[(0, 4), (6, 6)], [(3, 4)]]
    assert twins.response.labels == response.labels


def test_head_matching_with_given_heads() -> None:
    key = doc([m(0, 4, head=1)], [m(3, 4, head=4)])
    response = doc([m(1, 4, head=1), m(2, 4, head=4)], side="response")
    twins = match(key, response, method="head")
    assert twins.pairs == (((0, 4), (1, 4)), ((3, 4), (2, 4)))


def test_nested_key_mentions_with_one_head_get_the_closest_responses() -> None:
    # "the president" (0, 1) and "the president of the company" (0, 4): both headed by 1
    key = doc([m(0, 1, head=1)], [m(0, 4, head=1)])
    # "president of the company" (1, 4) and "president" (1, 1): both headed by 1
    response = doc([m(1, 4, head=1)], [m(1, 1, head=1)], side="response")
    twins = match(key, response, method="head")
    # overlaps: (0,1)-(1,1) 1/2 + (0,4)-(1,4) 4/5 beats (0,1)-(1,4) 1/5 + (0,4)-(1,1) 1/5
    assert twins.pairs == (((0, 1), (1, 1)), ((0, 4), (1, 4)))
    assert spans(twins.response) == [[(0, 4)], [(0, 1)]]


def test_two_responses_compete_for_one_key_mention() -> None:
    key = doc([m(0, 4, head=1)])
    response = doc([m(0, 1, head=1)], [m(1, 4, head=1)], side="response")
    twins = match(key, response, method="head")
    assert twins.pairs == (((0, 4), (1, 4)),)  # overlap 4/5 beats 2/5
    assert twins.spurious == ((0, 1),)
    # equal overlap (2/3 each): the earlier response mention wins
    key = doc([m(1, 3, head=2)])
    response = doc([m(2, 3, head=2)], [m(1, 2, head=2)], side="response")
    twins = match(key, response, method="head")
    assert twins.pairs == (((1, 3), (1, 2)),)
    assert twins.spurious == ((2, 3),)


def test_ties_keep_document_order() -> None:
    # keys (0, 3) and (1, 2), responses (0, 2) and (1, 3), all headed by token 1: both
    # pairings have overlap 3/4 + 2/3. The one pairing earlier with earlier wins, whatever
    # the entity order.
    key = doc([m(1, 2, head=1)], [m(0, 3, head=1)])
    response = doc([m(1, 3, head=1)], [m(0, 2, head=1)], side="response")
    twins = match(key, response, method="head")
    assert twins.pairs == (((0, 3), (0, 2)), ((1, 2), (1, 3)))


def test_head_matching_without_heads_is_an_input_error() -> None:
    key = doc([(0, 1)], [(3, 4)])
    response = doc([(0, 1)], side="response")
    with pytest.raises(InputError) as err:
        match(key, response, method="head")
    message = str(err.value)
    assert "key document 'd'" in message
    assert "a dependency head column, a CoNLL-2012 parse column, or heads in the input" in message
    # a key with a parse but a response whose heads are neither given nor findable
    words_only = Syntax(words=("a",) * 5)
    with pytest.raises(InputError, match="response document 'd' has no usable syntax nor does"):
        match(doc([m(0, 1, head=1)]), doc([(0, 1)], syntax=words_only), method="head")
    # heads given on both sides need no syntax at all
    twins = match(doc([m(0, 1, head=1)]), doc([m(1, 1, head=1)]), method="head")
    assert twins.pairs == (((0, 1), (1, 1)),)


# -- MUC MIN spans ----------------------------------------------------------

# 0 The 1 chairman 2 of 3 Acme 4 Corp. 5 , 6 Mr. 7 Smith 8 , 9 resigned
# Key: "The chairman of Acme Corp." with MIN "chairman"; "Acme Corp." with no
# MIN (the name is its own minimal string); "Mr. Smith" with MIN "Smith".


def muc_key() -> Document:
    return doc([m(0, 4, least=(1, 1)), m(6, 7, least=(7, 7))], [m(3, 4)])


@pytest.mark.parametrize(
    ("response_span", "twin"),
    [
        ((0, 1), (0, 4)),  # "The chairman": has the MIN, inside the maximal NP
        ((1, 1), (0, 4)),  # "chairman": the MIN itself
        ((1, 4), (0, 4)),  # "chairman of Acme Corp."
        ((7, 7), (6, 7)),  # "Smith"
        ((0, 5), None),  # runs past the maximal NP
        ((2, 4), None),  # "of Acme Corp." lacks the MIN
        ((4, 4), None),  # "Corp.": "Acme Corp." has no MIN, so only an exact match counts
        ((3, 4), (3, 4)),  # exact
    ],
)
def test_min_span_rule(response_span: Span, twin: Span | None) -> None:
    twins = match(muc_key(), doc([response_span], side="response"), method="min-span")
    assert twins.pairs == (((twin, response_span),) if twin else ())


def test_min_span_competition_and_exact_priority() -> None:
    # "The chairman" and "chairman of Acme Corp." both qualify: 4/5 beats 2/5.
    twins = match(muc_key(), doc([(0, 1), (1, 4)], side="response"), method="min-span")
    assert twins.pairs == (((0, 4), (1, 4)),)
    assert twins.spurious == ((0, 1),)
    # "Acme Corp." exactly matches its key, although it also lies inside (0, 4).
    twins = match(muc_key(), doc([(3, 4), (1, 1)], side="response"), method="min-span")
    assert twins.pairs == (((0, 4), (1, 1)), ((3, 4), (3, 4)))


# -- overlap ----------------------------------------------------------------


def test_overlap_and_exact_first() -> None:
    key = doc([(0, 2)], [(2, 4)])
    # (0, 2) is exact; (1, 1) overlaps only (0, 2), which is taken. Without the
    # exact-first rule, (0, 2)->(2, 4) and (1, 1)->(0, 2) would make two twins.
    response = doc([(0, 2), (1, 1)], side="response")
    twins = match(key, response, method="overlap")
    assert twins.pairs == (((0, 2), (0, 2)),)
    assert twins.missed == ((2, 4),)
    assert twins.spurious == ((1, 1),)


def test_overlap_prefers_more_twins_then_more_overlap() -> None:
    # A response R (3, 6) overlaps keys (0, 3) and (4, 6); another response (0, 1) overlaps only
    # (0, 3). Most twins: (0, 3)-(0, 1) and (4, 6)-(3, 6).
    key = doc([(0, 3)], [(4, 6)])
    response = doc([(3, 6)], [(0, 1)], side="response")
    twins = match(key, response, method="overlap")
    assert twins.pairs == (((0, 3), (0, 1)), ((4, 6), (3, 6)))
    # Crossing spans
    twins = match(doc([(2, 5)]), doc([(4, 8)], side="response"), method="overlap")
    assert twins.pairs == (((2, 5), (4, 8)),)
    assert spans(twins.response) == [[(2, 5)]]


def test_repeated_key_span_is_never_doubled_in_the_response() -> None:
    # The key holds (0, 1) in two entities (as under --duplicates reference).
    key = doc([(0, 1)], [(0, 1)], [(5, 6)])
    response = doc([(0, 1)], [(0, 0)], side="response")
    twins = match(key, response, method="overlap")
    # (0, 0) may not move onto (0, 1): the response already has that span.
    assert twins.pairs == (((0, 1), (0, 1)),)
    assert twins.missed == ((0, 1), (5, 6))
    assert twins.spurious == ((0, 0),)


# -- properties ---------------------------------------------------------------


def criterion(method: str, key: Document, response: Document) -> Callable[..., bool]:
    key_heads = {s: h for e, hs in zip(key.entities, key.heads) for s, h in zip(e, hs)}
    key_mins = {s: n for e, ns in zip(key.entities, key.min_spans) for s, n in zip(e, ns)}
    resp_heads = {s: h for e, hs in zip(response.entities, response.heads) for s, h in zip(e, hs)}

    def ok(k: Span, r: Span) -> bool:
        if k == r:
            return True
        if method == "head":
            return key_heads[k] == resp_heads[r]
        if method == "min-span":
            least = key_mins[k] or k
            return k[0] <= r[0] <= least[0] and least[1] <= r[1] <= k[1]
        if method == "overlap":
            return max(k[0], r[0]) <= min(k[1], r[1])
        return False

    return ok


@st.composite
def documents(draw: st.DrawFn, side: str) -> Document:
    n = draw(st.integers(0, 12))
    raw = draw(
        st.lists(
            st.tuples(st.integers(0, 14), st.integers(0, 3)), min_size=n, max_size=n, unique=True
        )
    )
    unique = sorted({(s, s + w) for s, w in raw})
    clusters: list[list[object]] = []
    for start, end in unique:
        head = draw(st.integers(start, end))
        least_start = draw(st.integers(start, end))
        least = (least_start, draw(st.integers(least_start, end)))
        mention = m(start, end, head=head, least=least if draw(st.booleans()) else None)
        if clusters and draw(st.booleans()):
            clusters[draw(st.integers(0, len(clusters) - 1))].append(mention)
        else:
            clusters.append([mention])
    built = document_from_clusters("d", clusters, side=side)
    if not built.min_spans and built.entities:
        # keep per-mention MIN tuples present so the criterion can read them
        built = replace(built, min_spans=tuple((None,) * len(e) for e in built.entities))
    return built


def maximum_matching(left: Sequence[Span], right: Sequence[Span], ok: Callable[..., bool]) -> int:
    """Size of a maximum bipartite matching (Kuhn's augmenting paths), for checking."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j, r in enumerate(right):
            if j not in seen and ok(left[i], r):
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(left)))


@settings(max_examples=300, deadline=None)
@given(key=documents("key"), response=documents("response"), method=st.sampled_from(MATCHINGS))
def test_matching_properties(key: Document, response: Document, method: str) -> None:
    twins = match(key, response, method=method)
    key_spans = [s for e in key.entities for s in e]
    response_spans = [s for e in response.entities for s in e]
    # one to one, and every mention is either twinned or left over
    assert Counter(k for k, _ in twins.pairs) + Counter(twins.missed) == Counter(key_spans)
    assert Counter(r for _, r in twins.pairs) + Counter(twins.spurious) == Counter(response_spans)
    assert list(twins.pairs) == sorted(twins.pairs)
    # every exact match is a twin
    common = set(key_spans) & set(response_spans)
    assert {(s, s) for s in common} <= set(twins.pairs)
    if method == "exact":
        assert twins.response is response
        assert set(twins.pairs) == {(s, s) for s in common}
    # each pair meets the criterion, and no missed/spurious pair does (maximal)
    ok = criterion(method, key, response)
    assert all(ok(k, r) for k, r in twins.pairs)
    assert not any(ok(k, r) for k in twins.missed for r in twins.spurious)
    # the most twins possible among the mentions exact matching left over
    left = [k for k in key_spans if k not in common]
    right = [r for r in response_spans if r not in common]
    assert len(twins.pairs) - len(common) == maximum_matching(left, right, ok)
    # the moved response repeats no span, and scoring sees exactly the twins
    moved = [s for e in twins.response.entities for s in e]
    assert len(set(moved)) == len(moved)
    assert [len(e) for e in twins.response.entities] == [len(e) for e in response.entities]
    table = build_table(twins.key, twins.response)
    assert table.irregular == ()
    assert table.matched_mentions == len(twins.pairs)
    summary = twins_summary(twins)
    assert summary["twins"] == len(twins.pairs)
    assert summary["missed"] + summary["twins"] == len(key_spans)


# -- long documents -----------------------------------------------------------


def synthetic(n_mentions: int, seed: int) -> tuple[list[Span], list[Span]]:
    """Key mentions, nested two deep, and responses with boundaries moved by one token."""
    rng = random.Random(seed)
    keys: list[Span] = []
    start = 0
    while len(keys) < n_mentions:
        length = rng.randint(1, 6)
        keys.append((start, start + length - 1))
        if length > 2 and len(keys) < n_mentions:
            keys.append((start + 1, start + length - 1))  # a nested mention
        start += length + rng.randint(0, 3)
    responses = sorted(
        {(max(0, s + rng.choice((-1, 0, 0, 1))), e + rng.choice((-1, 0, 0, 1))) for s, e in keys}
    )
    return sorted(keys), [(s, e) for s, e in responses if s <= e]


def as_mentions(spans_: list[Span]) -> list[tuple[Span, int, int]]:
    return [(s, i, 0) for i, s in enumerate(spans_)]


def brute_force(
    keys: list[Span], responses: list[Span], ok: Callable[[Span, Span], bool]
) -> list[tuple[int, int]]:
    return [(i, j) for i, k in enumerate(keys) for j, r in enumerate(responses) if ok(k, r)]


def test_candidate_generation_equals_brute_force() -> None:
    keys, responses = synthetic(600, seed=1)
    overlap = _overlap_candidates(as_mentions(keys), as_mentions(responses))
    assert overlap == brute_force(keys, responses, lambda k, r: max(k[0], r[0]) <= min(k[1], r[1]))
    mins = [(k, (k[1], k[1])) for k in keys]  # MIN: the last token
    found = _min_span_candidates(mins, as_mentions(responses))
    assert found == brute_force(
        keys, responses, lambda k, r: k[0] <= r[0] <= k[1] and k[1] <= r[1] <= k[1]
    )


def test_a_20k_mention_document() -> None:
    # Candidate generation sweeps sorted spans: the number of candidates, not
    # all key x response pairs, bounds the work (400 million pairs here).
    keys, responses = synthetic(20_000, seed=2)
    key = Document("d", tuple((s,) for s in keys), heads=tuple((s[1],) for s in keys))
    response = Document(
        "d", tuple((s,) for s in responses), heads=tuple((s[1],) for s in responses)
    )
    exact = len(set(keys) & set(responses))
    for method in ("overlap", "head", "min-span"):
        twins = match(key, response, method=method)
        assert len(twins.pairs) >= exact
        moved = [e[0] for e in twins.response.entities]
        assert len(set(moved)) == len(moved)
    edges = _overlap_candidates(as_mentions(keys), as_mentions(responses))
    assert len(edges) < 5 * len(keys)


# -- the twins report ---------------------------------------------------------


def report_example() -> dict[str, Twins]:
    key = doc([(0, 4), (6, 6)], [(3, 4)], syntax=PARSE)
    response = doc([(0, 1), (6, 6)], [(5, 5)], side="response")
    return {"d": match(key, response, method="head")}


def test_twins_summary_counts() -> None:
    assert twins_summary(report_example()["d"]) == {
        "key_mentions": 3,
        "response_mentions": 3,
        "twins": 2,
        "exact": 1,
        "inexact": 1,
        "missed": 1,
        "spurious": 1,
    }


def test_format_twins_text() -> None:
    text = format_twins(report_example(), fmt="text")
    assert text.splitlines() == [
        "document d: 3 key and 3 response mentions; 2 twins (1 with different spans), "
        "1 missed, 1 spurious",
        '  missed    (3, 4) entity 1 "the company"',
        '  spurious  (5, 5) entity 1 "said"',
        '  twin      key (0, 4) entity 0 "the president of the company"',
        '            <- response (0, 1) entity 0 "the president"',
        "total: 3 key and 3 response mentions; 2 twins (1 with different spans), "
        "1 missed, 1 spurious",
    ]


def test_format_twins_json() -> None:
    data = json.loads(format_twins(report_example(), fmt="json"))
    d = data["documents"]["d"]
    assert d["missed"] == [{"span": [3, 4], "entity": "1", "words": "the company"}]
    assert d["spurious"] == [{"span": [5, 5], "entity": "1", "words": "said"}]
    assert d["inexact"] == [
        {
            "key": {"span": [0, 4], "entity": "0", "words": "the president of the company"},
            "response": {"span": [0, 1], "entity": "0", "words": "the president"},
        }
    ]
    assert data["total"]["twins"] == 2 and data["total"]["spurious"] == 1
    with pytest.raises(UsageError):
        format_twins(report_example(), fmt="xml")


def test_the_worked_example_of_the_documentation() -> None:
    from corefscore import score

    key = {
        "d": [
            [{"span": (0, 4), "head": 1, "min": (1, 1)}, {"span": (8, 8), "head": 8}],
            [{"span": (3, 4), "head": 4, "min": (4, 4)}, {"span": (6, 6), "head": 6}],
        ]
    }
    response = {
        "d": [
            [{"span": (0, 1), "head": 1}, {"span": (8, 8), "head": 8}],
            [{"span": (4, 4), "head": 4}, {"span": (6, 6), "head": 6}],
        ]
    }
    exact = score(key, response, metrics=["mentions", "muc", "bcub"])
    assert (exact["mentions"].recall, exact["muc"].recall, exact["bcub"].recall) == (0.5, 0, 0.25)
    assert exact["bcub"].precision == 0.25
    for method in ("head", "min-span", "overlap"):
        result = score(key, response, metrics=["mentions", "muc", "bcub"], matching=method)
        assert [result[m].f1 for m in ("mentions", "muc", "bcub")] == [1, 1, 1]
