"""Properties every metric of the registry must have, checked with hypothesis.

The metric list is read from the registry, so a new metric is covered as
soon as it is registered. Metrics that need mention facts (ACE-value) get
generated entity types and mention levels. The stricter invariants (bit-identical
document order and merging, additivity, MUC/LEA without a correct link, CEAF
optimality) are in test_invariants.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.metrics import REGISTRY
from corefscore.metrics.anaphora import NAMES as ANAPHORA

from ..conftest import examples

# The CoNLL evaluation's metrics of the entities (MOR and zero: tests/test_corefud.py;
# non-referring and bridging: tests/metrics/test_anaphora.py).
NAMES = [n for n, m in REGISTRY.items() if "corefud" not in m.requires and n not in ANAPHORA]
TYPES = ("PER", "ORG", "GPE")
LEVELS = ("NAM", "NOM", "PRO")


@st.composite
def documents(draw: st.DrawFn, *, min_entities: int = 0) -> list[dict[str, Any]]:
    """Entities of distinct single- and multi-token spans, with types and levels."""
    n = draw(st.integers(min_entities, 6))
    starts = draw(st.lists(st.integers(0, 40), min_size=n, max_size=3 * n, unique=True))
    spans = [(s, s + draw(st.integers(0, 2))) for s in starts]
    spans = list(dict.fromkeys(spans))
    draw(st.randoms()).shuffle(spans)
    entities: list[list[tuple[int, int]]] = [[] for _ in range(max(n, 1))]
    for span in spans:
        entities[draw(st.integers(0, len(entities) - 1))].append(span)
    return [
        {
            "type": draw(st.sampled_from(TYPES)),
            "mentions": [{"span": s, "level": draw(st.sampled_from(LEVELS))} for s in e],
        }
        for e in entities
        if e
    ]


def _score(key: Any, response: Any, name: str) -> corefscore.MetricScore:
    return corefscore.score(key, response, metrics=[name])[name]


def _bounded(name: str) -> bool:
    # ACE-value can go below 0 (false alarms cost more than nothing); its
    # fields are documented in docs/metrics.md.
    return name != "ace-value"


@settings(max_examples=examples(60), deadline=None)
@given(documents(), documents())
@pytest.mark.parametrize("name", NAMES)
def test_recall_precision_f1_lie_in_0_1(name: str, key: Any, response: Any) -> None:
    if name == "blanc-gold":
        response = key  # only defined when the mention sets agree
    score = _score({"d": key}, {"d": response}, name)
    if _bounded(name):
        for value in (score.recall, score.precision, score.f1):
            assert 0 <= value <= 1 + 1e-12


@settings(max_examples=examples(60), deadline=None)
@given(documents(min_entities=2))
@pytest.mark.parametrize("name", NAMES)
def test_identical_key_and_response_score_1(name: str, key: Any) -> None:
    sizes = sorted(len(e["mentions"]) for e in key)
    if name == "muc" and sizes[-1] < 2:
        return  # MUC is 0/0 when there is no link: documented
    score = _score({"d": key}, {"d": key}, name)
    assert score.f1 == pytest.approx(1.0), (name, key)


@settings(max_examples=examples(60), deadline=None)
@given(documents(), documents())
@pytest.mark.parametrize("name", [n for n in NAMES if REGISTRY[n].symmetric])
def test_swapping_key_and_response_swaps_recall_and_precision(
    name: str, key: Any, response: Any
) -> None:
    if name == "blanc-gold":
        response = key
    forward = _score({"d": key}, {"d": response}, name)
    backward = _score({"d": response}, {"d": key}, name)
    assert backward.recall == pytest.approx(forward.precision, abs=1e-12)
    assert backward.precision == pytest.approx(forward.recall, abs=1e-12)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(documents(), documents()), min_size=2, max_size=4), st.randoms())
@pytest.mark.parametrize("name", NAMES)
def test_document_order_and_entity_ids_do_not_matter(
    name: str, pairs: list[tuple[Any, Any]], rnd: random.Random
) -> None:
    if name == "blanc-gold":
        pairs = [(k, k) for k, _ in pairs]
    key = {f"d{i}": k for i, (k, _) in enumerate(pairs)}
    response = {f"d{i}": r for i, (_, r) in enumerate(pairs)}
    base = corefscore.score(key, response, metrics=[name])[name]
    order = list(key)
    rnd.shuffle(order)
    relabelled = {
        d: [{**e, "id": f"e{rnd.randrange(10**6)}-{i}"} for i, e in enumerate(response[d])]
        for d in order
    }
    for d in relabelled:
        rnd.shuffle(relabelled[d])  # entity order (hence ids) changes too
    shuffled = corefscore.score({d: key[d] for d in order}, relabelled, metrics=[name])[name]
    for field in ("recall", "precision", "f1"):
        assert getattr(shuffled, field) == pytest.approx(getattr(base, field), abs=1e-12)
