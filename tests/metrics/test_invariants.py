"""Metric invariants, each a hypothesis property over random multi-document corpora.

The corpora have singletons, nested and crossing spans, twinless mentions on both
sides, documents missing from the response, and entity types and mention levels
(so that ACE-value is covered). Every property runs over every metric of the
registry to which it applies, all metrics of one example scored together.

Exemptions, each documented where the metric is (docs/metrics.md):

* ``ace-value``: its F1 field holds the value, which is below 0 when false alarms
  cost more than the mapped entities earn (recall and precision stay in [0, 1]);
* MUC: a key without any link (all singletons) gives 0/0, scored 0, even for a
  perfect response;
* ``blanc`` (the reference's totals rules): 0 when no document has two mentions;
  ``blanc-gold`` refuses differing mention sets, so it is checked only on corpora
  whose two sides have the same mentions; ``blanc-luo2014`` is 1 on a perfect
  response whatever the size (Luo et al. 2014 §4.1 case 1, I(M_k = M_r)).

"Bit-identical" properties compare floats with ``==``; properties under which the
floating-point addition order legitimately changes (entity order, swapping key and
response) compare to 1e-12, integers always exactly.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.metrics import REGISTRY
from corefscore.metrics.anaphora import NAMES as ANAPHORA
from corefscore.scorer import CorefScorer

from .. import naive_metrics as naive
from ..conftest import examples

Cluster = dict[str, Any]
Document = list[Cluster]
Corpus = dict[str, Document]

TYPES = ("PER", "ORG", "GPE")
LEVELS = ("NAM", "NOM", "PRO")
# The CoNLL evaluation's metrics (MOR and zero read the CorefUD evaluation's pairs).
# Non-referring and bridging read other facts than entities: tests/metrics/test_anaphora.py.
ALL = tuple(n for n, m in REGISTRY.items() if "corefud" not in m.requires and n not in ANAPHORA)
SETTINGS = settings(max_examples=examples(30), deadline=None)
CEAF = ("ceafm", "ceafe", "ceaf-phi1", "ceaf-phi2")


# ---------------------------------------------------------------------------------------------
# Strategies


@st.composite
def spans(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Up to 12 distinct spans of 1-4 tokens over a short text: nested and crossing."""
    tokens = draw(st.integers(1, 12))
    raw = draw(
        st.lists(st.tuples(st.integers(0, tokens - 1), st.integers(0, 3)), max_size=12, unique=True)
    )
    return list(dict.fromkeys((s, min(s + n, tokens - 1)) for s, n in raw))


@st.composite
def clusters(
    draw: st.DrawFn, assignment: list[int | None], pool: list[tuple[int, int]]
) -> Document:
    """Entities from ``assignment[i]`` = entity of ``pool[i]`` (None: not on this side)."""
    groups: dict[int, list[tuple[int, int]]] = {}
    for span, entity in zip(pool, assignment):
        if entity is not None:
            groups.setdefault(entity, []).append(span)
    return [
        {
            "type": draw(st.sampled_from(TYPES)),
            "mentions": [{"span": s, "level": draw(st.sampled_from(LEVELS))} for s in mentions],
        }
        for _, mentions in sorted(groups.items())
    ]


ENTITY = st.one_of(st.none(), st.integers(0, 5))


@st.composite
def document_pair(draw: st.DrawFn, same_mentions: bool = False) -> tuple[Document, Document]:
    pool = draw(spans())
    key_of = draw(st.lists(ENTITY, min_size=len(pool), max_size=len(pool)))
    if same_mentions:
        response_of = [None if k is None else draw(st.integers(0, 5)) for k in key_of]
    elif draw(st.integers(0, 5)) == 0:
        response_of = list(key_of)  # perfect, or nearly: levels and types are redrawn
    else:
        response_of = draw(st.lists(ENTITY, min_size=len(pool), max_size=len(pool)))
    return draw(clusters(key_of, pool)), draw(clusters(response_of, pool))


@st.composite
def corpora(draw: st.DrawFn, *, all_present: bool = False) -> tuple[Corpus, Corpus]:
    """1-4 documents; some missing from the response unless ``all_present``."""
    same = draw(st.booleans())
    key: Corpus = {}
    response: Corpus = {}
    for d in range(draw(st.integers(1, 4))):
        k, r = draw(document_pair(same_mentions=same))
        key[f"doc{d}"] = k
        if all_present or same or draw(st.integers(0, 5)):
            response[f"doc{d}"] = r
    return key, response


def bare(document: Document) -> naive.Partition:
    return naive.partition([[m["span"] for m in e["mentions"]] for e in document])


def same_mentions(key: Corpus, response: Corpus) -> bool:
    return all(
        naive.mention_set(bare(k)) == naive.mention_set(bare(response.get(d, [])))
        for d, k in key.items()
    )


def metrics_for(key: Corpus, response: Corpus) -> tuple[str, ...]:
    return ALL if same_mentions(key, response) else tuple(m for m in ALL if m != "blanc-gold")


def scorer(key: Corpus, response: Corpus, metrics: tuple[str, ...]) -> CorefScorer:
    out = CorefScorer(metrics=metrics)
    for doc_id, document in key.items():
        out.update(document, response.get(doc_id, []), doc_id=doc_id)
    return out


def close(a: float, b: float) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


# ---------------------------------------------------------------------------------------------
# Bounds and perfect responses


@SETTINGS
@given(corpora())
def test_scores_lie_in_0_1(pair: tuple[Corpus, Corpus]) -> None:
    key, response = pair
    metrics = metrics_for(key, response)
    result = scorer(key, response, metrics).compute(per_document=True)
    assert result.documents is not None
    for where, scores in [("corpus", result.metrics)] + [
        (d, r.metrics) for d, r in result.documents.items()
    ]:
        for name in metrics:
            s = scores[name]
            assert 0 <= s.recall <= 1 and 0 <= s.precision <= 1, (where, name, s)
            if name == "ace-value":
                assert s.f1 <= 1, (where, s)  # the ACE value can be negative
            else:
                assert 0 <= s.f1 <= 1, (where, name, s)
            assert s.recall_num >= 0 and s.precision_num >= 0, (where, name, s)


@SETTINGS
@given(corpora(all_present=True))
def test_perfect_response_scores_1(pair: tuple[Corpus, Corpus]) -> None:
    key, _ = pair
    result = scorer(key, key, ALL).compute()
    parts = [bare(k) for k in key.values()]
    any_mention = any(parts)
    any_link = any(len(e) > 1 for p in parts for e in p)
    two_mentions = any(len(naive.mention_set(p)) > 1 for p in parts)
    for name in ALL:
        s = result[name]
        if name == "blanc-luo2014":
            expected = 1.0  # I(M_k = M_r) = 1 even without mentions
        elif not any_mention:
            expected = 0.0  # 0/0 everywhere
        elif name == "muc" and not any_link:
            expected = 0.0  # MUC's all-singleton key: 0/0
        elif name == "blanc" and not two_mentions:
            expected = 0.0  # no link of either kind: the reference's totals give 0
        else:
            expected = 1.0
        assert (s.recall, s.precision, s.f1) == (expected,) * 3, (name, s)


# ---------------------------------------------------------------------------------------------
# Relabelling, entity order, document order


def _relabel(corpus: Corpus, rnd: random.Random) -> Corpus:
    return {
        d: [{**e, "id": f"x{rnd.randrange(10**6)}-{i}"} for i, e in enumerate(doc)]
        for d, doc in corpus.items()
    }


@SETTINGS
@given(corpora(), st.randoms(use_true_random=False))
def test_entity_ids_do_not_change_a_bit(pair: tuple[Corpus, Corpus], rnd: random.Random) -> None:
    key, response = pair
    metrics = metrics_for(key, response)
    base = scorer(key, response, metrics)
    other = scorer(_relabel(key, rnd), _relabel(response, rnd), metrics)
    assert other.document_statistics == base.document_statistics
    assert other.compute().metrics == base.compute().metrics


@SETTINGS
@given(corpora(), st.randoms(use_true_random=False))
def test_entity_and_mention_order_do_not_matter(
    pair: tuple[Corpus, Corpus], rnd: random.Random
) -> None:
    key, response = pair
    metrics = metrics_for(key, response)

    def shuffled(corpus: Corpus) -> Corpus:
        out: Corpus = {}
        for d, doc in corpus.items():
            entities = [
                {**e, "mentions": rnd.sample(e["mentions"], len(e["mentions"]))} for e in doc
            ]
            out[d] = rnd.sample(entities, len(entities))
        return out

    base = scorer(key, response, metrics).statistics
    other = scorer(shuffled(key), shuffled(response), metrics).statistics
    for name in metrics:
        assert all(close(a, b) for a, b in zip(other[name], base[name])), (name, base, other)


@SETTINGS
@given(corpora(), st.randoms(use_true_random=False))
def test_document_order_does_not_change_a_bit(
    pair: tuple[Corpus, Corpus], rnd: random.Random
) -> None:
    key, response = pair
    metrics = metrics_for(key, response)
    order = rnd.sample(list(key), len(key))
    base = scorer(key, response, metrics)
    other = scorer({d: key[d] for d in order}, response, metrics)
    assert other.statistics == base.statistics
    assert other.compute().metrics == base.compute().metrics


# ---------------------------------------------------------------------------------------------
# Additivity


@SETTINGS
@given(corpora())
def test_corpus_statistics_are_the_sum_of_documents(pair: tuple[Corpus, Corpus]) -> None:
    key, response = pair
    metrics = metrics_for(key, response)
    whole = scorer(key, response, metrics).statistics
    alone = [scorer({d: k}, {d: response.get(d, [])}, metrics).statistics for d, k in key.items()]
    for name in metrics:
        columns = list(zip(*(s[name] for s in alone)))
        assert whole[name] == tuple(math.fsum(c) for c in columns), name
        for total, column in zip(whole[name], columns):
            if all(isinstance(v, int) for v in column):
                assert total == sum(column), name  # counts: exact integer sums


@SETTINGS
@given(corpora(), st.randoms(use_true_random=False))
def test_merging_two_halves_is_bit_identical_to_the_whole(
    pair: tuple[Corpus, Corpus], rnd: random.Random
) -> None:
    key, response = pair
    metrics = metrics_for(key, response)
    whole = scorer(key, response, metrics)
    ids = list(key)
    first = set(rnd.sample(ids, rnd.randint(0, len(ids))))

    def half(chosen: bool) -> CorefScorer:
        return scorer({d: key[d] for d in ids if (d in first) == chosen}, response, metrics)

    for merged in (half(True).merge(half(False)), half(False).merge(half(True))):
        assert merged.statistics == whole.statistics
        assert merged.compute().metrics == whole.compute().metrics
        assert sorted(merged.document_statistics.items()) == sorted(
            whole.document_statistics.items()
        )


# ---------------------------------------------------------------------------------------------
# Symmetry


@SETTINGS
@given(corpora(all_present=True))
def test_swapping_key_and_response_swaps_recall_and_precision(
    pair: tuple[Corpus, Corpus],
) -> None:
    key, response = pair
    metrics = tuple(m for m in metrics_for(key, response) if REGISTRY[m].symmetric)
    forward = scorer(key, response, metrics).compute().metrics
    backward = scorer(response, key, metrics).compute().metrics
    for name in metrics:
        f, b = forward[name], backward[name]
        assert close(b.recall, f.precision) and close(b.precision, f.recall), (name, f, b)
        assert close(b.recall_num, f.precision_num) and close(b.recall_den, f.precision_den)
        assert close(b.f1, f.f1), (name, f, b)


def test_the_symmetric_flags_are_not_too_generous() -> None:
    """Every metric not flagged symmetric has a case where swapping is not a swap."""
    key = [[(0, 0)], [(1, 1)], [(2, 2), (3, 3)]]
    response = [[(0, 0), (1, 1), (5, 5)], [(2, 2)], [(6, 6)]]
    typed_key = [{"type": "PER", "mentions": [{"span": s, "level": "NAM"} for s in e]} for e in key]
    typed_response = [
        {"type": "ORG", "mentions": [{"span": s, "level": "PRO"} for s in e]} for e in response
    ]
    for name in ALL:
        if REGISTRY[name].symmetric:
            continue
        if name.startswith("blanc"):
            # An all-singleton key is scored on non-coreference links alone.
            k: Document = [{"mentions": [(0, 0)]}, {"mentions": [(1, 1)]}, {"mentions": [(2, 2)]}]
            r: Document = [{"mentions": [(0, 0), (1, 1)]}, {"mentions": [(2, 2)]}]
            pairs = ({"d": k}, {"d": r})
        else:
            pairs = ({"d": typed_key}, {"d": typed_response})  # types and levels: ACE-value
        f = scorer(*pairs, (name,)).compute()[name]
        b = scorer(pairs[1], pairs[0], (name,)).compute()[name]
        assert (b.recall, b.precision, b.f1) != (f.precision, f.recall, f.f1), name


# ---------------------------------------------------------------------------------------------
# MUC and LEA without a correct link


def correct_links(key: naive.Partition, response: naive.Partition) -> int:
    """Response links (two distinct mentions of one response entity) inside one key entity."""
    return len(naive.blanc_links(key)[0] & naive.blanc_links(response)[0])


def shared_singletons(key: naive.Partition, response: naive.Partition) -> int:
    return len({e for e in key if len(e) == 1} & {e for e in response if len(e) == 1})


@st.composite
def scattered(draw: st.DrawFn) -> tuple[Corpus, Corpus]:
    """Corpora in which no response entity holds two mentions of one key entity."""
    key, response = draw(corpora(all_present=True))
    out: Corpus = {}
    for d, doc in key.items():
        entity_of: dict[tuple[int, int], int] = {}
        for e in doc:
            shift = draw(st.integers(0, 3))
            for rank, m in enumerate(e["mentions"]):
                entity_of[m["span"]] = shift + rank  # one response entity per mention rank
        twinless = [m for e in response[d] for m in e["mentions"] if m["span"] not in entity_of]
        for m in twinless:
            entity_of[m["span"]] = draw(st.integers(0, 8))
        pool = list(entity_of)
        out[d] = draw(clusters([entity_of[s] for s in pool], pool))
    return key, out


@SETTINGS
@given(st.one_of(corpora(), scattered()))
def test_muc_and_lea_are_zero_exactly_without_a_correct_link(pair: tuple[Corpus, Corpus]) -> None:
    key, response = pair
    stats = scorer(key, response, ("muc", "lea")).statistics
    docs = [(bare(k), bare(response.get(d, []))) for d, k in key.items()]
    links = sum(correct_links(k, r) for k, r in docs)
    selves = sum(shared_singletons(k, r) for k, r in docs)
    muc_num, lea_recall, lea_precision = stats["muc"][0], stats["lea"][0], stats["lea"][2]
    assert (muc_num == 0) == (links == 0), (muc_num, links)
    assert stats["muc"][2] == muc_num
    # LEA also counts a singleton's self-link, resolved by the same singleton.
    assert (lea_recall == 0) == (lea_precision == 0) == (links + selves == 0), stats["lea"]


# ---------------------------------------------------------------------------------------------
# CEAF: the optimum beats any one-to-one alignment


SIMILARITY = {
    "ceafm": naive.phi3,
    "ceafe": naive.phi4,
    "ceaf-phi1": naive.phi1,
    "ceaf-phi2": naive.phi2,
}


@SETTINGS
@given(corpora(), st.randoms(use_true_random=False))
def test_ceaf_is_at_least_any_one_to_one_alignment(
    pair: tuple[Corpus, Corpus], rnd: random.Random
) -> None:
    key, response = pair
    stats = scorer(key, response, CEAF).document_statistics
    for d, k in key.items():
        keys, responses = bare(k), bare(response.get(d, []))
        for _ in range(3):
            chosen = rnd.sample(range(len(responses)), min(len(keys), len(responses)))
            rows = rnd.sample(range(len(keys)), len(chosen))
            for name in CEAF:
                phi = SIMILARITY[name]
                some = sum((phi(keys[i], responses[j]) for i, j in zip(rows, chosen)), Fraction(0))
                assert stats[d][name][0] >= float(some) - 1e-12, (name, d, some, stats[d][name])
