"""ACE-value (NIST ACE 2004 EDR value, as simplified by corefscore): hand-computed examples,
errors, and a brute-force check of the value-maximising entity mapping.

Default weights: every type 1; levels NAM 1, NOM 0.5, PRO 0.1, PRE 0; an unmapped response
entity costs 0.75 × 0.75 = 0.5625 of its value; a type error halves a pair's value and a level
error multiplies a shared mention's value by 0.9. ``f1`` holds the ACE value.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as Fr
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore import InputError, MetricScore, UsageError
from corefscore.contingency import build_table
from corefscore.metrics import REGISTRY
from corefscore.metrics.ace import ace_value
from corefscore.model import document_from_clusters

FA = Fr(9, 16)  # 0.75 × 0.75


def entity(entity_type: str | None, *mentions: tuple[int, str | None]) -> dict[str, Any]:
    """A cluster dict of single-token mentions (token, level)."""
    return {
        "type": entity_type,
        "mentions": [{"span": (t, t), "level": level} for t, level in mentions],
    }


def ace(key: list[Any], response: list[Any], metric: Any = "ace-value") -> MetricScore:
    name = metric if isinstance(metric, str) else metric.name
    return corefscore.score({"d": key}, {"d": response}, metrics=[metric])[name]


def same(x: float, want: Fr | int) -> bool:
    want = Fr(want)
    return x == 0 if want == 0 else math.isclose(x, float(want), rel_tol=1e-12)


def check(score: MetricScore, recall: Fr | int, precision: Fr | int, value: Fr | int) -> None:
    got = (score.recall, score.precision, score.f1)
    assert same(got[0], recall) and same(got[1], precision) and same(got[2], value), (
        f"got R, P, value = {got}, want {recall}, {precision}, {value}"
    )


# Key: PER {0 NAM, 1 PRO} worth 1 + 0.1 = 1.1; ORG {2 NOM} worth 0.5; total 1.6.
KEY = [entity("PER", (0, "NAM"), (1, "PRO")), entity("ORG", (2, "NOM"))]


def test_perfect_response_is_1() -> None:
    score = ace(KEY, KEY)
    check(score, 1, 1, 1)
    assert score.recall_num == pytest.approx(1.6) and score.recall_den == pytest.approx(1.6)


def test_empty_response_is_0() -> None:
    score = ace(KEY, [])
    check(score, 0, 0, 0)
    assert score.recall_den == pytest.approx(1.6) and score.precision_den == 0


def test_over_producing_response_goes_negative() -> None:
    # The key's entities plus two false alarms, PER {5 NAM, 6 NAM} (value 2) and GPE {7 NAM}
    # (value 1): cost 9/16 × 3 = 27/16. Value = (8/5 − 27/16)/(8/5) = −7/128.
    response = [*KEY, entity("PER", (5, "NAM"), (6, "NAM")), entity("GPE", (7, "NAM"))]
    score = ace(KEY, response)
    check(score, 1, Fr(8, 5) / Fr(23, 5), Fr(-7, 128))
    # The false-alarm cost is recoverable from the fields.
    fa = score.recall_num - score.f1 * score.recall_den
    assert fa == pytest.approx(float(FA * 3))


def test_type_weights_change_the_value() -> None:
    # Key PER {0 NAM, 1 NOM} (1.5), ORG {2 NAM, 3 PRO} (1.1); the response misses mention 3.
    key = [entity("PER", (0, "NAM"), (1, "NOM")), entity("ORG", (2, "NAM"), (3, "PRO"))]
    response = [entity("PER", (0, "NAM"), (1, "NOM")), entity("ORG", (2, "NAM"))]
    # Default weights: (1.5 + 1)/(1.5 + 1.1) = 25/26.
    check(ace(key, response), Fr(25, 26), 1, Fr(25, 26))
    # ORG weighs 3: key 1.5 + 3·1.1 = 4.8, mapped 1.5 + 3·1 = 4.5: 15/16.
    heavy_org = ace_value(type_weights={"PER": 1, "ORG": 3}, name="ace-org3")
    check(ace(key, response, heavy_org), Fr(15, 16), 1, Fr(15, 16))
    # Wrong type on the response's second entity: min(1, 1) × 0.5 × 1 = 0.5 for that pair.
    response[1]["type"] = "GPE"
    check(ace(key, response), Fr(2, 1) / Fr(13, 5), Fr(2, 1) / Fr(5, 2), Fr(10, 13))
    # A level error: mention 1 as PRO: min(0.5, 0.1) × 0.9 = 0.09 instead of 0.5.
    response = [entity("PER", (0, "NAM"), (1, "PRO")), entity("ORG", (2, "NAM"), (3, "PRO"))]
    mapped = Fr(1) + Fr(9, 100) + Fr(11, 10)
    check(ace(key, response), mapped / Fr(26, 10), mapped / Fr(22, 10), mapped / Fr(26, 10))


def test_level_weights_and_false_alarm_weight_are_options() -> None:
    response = [*KEY, entity("PER", (5, "PRO"))]
    # A false alarm of one pronoun: 9/16 × 0.1; value = (1.6 − 0.05625)/1.6.
    check(ace(KEY, response), 1, Fr(16, 17), 1 - FA * Fr(1, 10) / Fr(8, 5))
    flat = ace_value(level_weights={"NAM": 1, "NOM": 1, "PRO": 1}, false_alarm_weight=1,
                     name="ace-flat")  # fmt: skip
    # Key worth 3, one false alarm worth 1 at cost 1 × 0.75: value (3 − 0.75)/3 = 3/4.
    check(ace(KEY, response, flat), 1, Fr(3, 4), Fr(3, 4))


def test_mapping_maximises_the_total_value() -> None:
    # K1 PER {0, 1}, K2 PER {2}; R1 PER {0, 2}, R2 PER {1}; all NAM. Mapping K1–R1 (worth 1)
    # leaves R2 a false alarm (−9/16) and K2 missed: 7/16. Mapping K1–R2 and K2–R1 earns 2.
    key = [entity("PER", (0, "NAM"), (1, "NAM")), entity("PER", (2, "NAM"))]
    response = [entity("PER", (0, "NAM"), (2, "NAM")), entity("PER", (1, "NAM"))]
    check(ace(key, response), Fr(2, 3), Fr(2, 3), Fr(2, 3))


def test_spurious_mentions_of_a_mapped_entity_cost_nothing() -> None:
    # As in the NIST scorer, only unmapped response entities are false alarms: mapping
    # K {0 PRO} to R {0 PRO, 5 NAM, 6 NAM} earns 0.1 and saves R's false-alarm cost.
    key = [entity("PER", (0, "PRO"))]
    response = [entity("PER", (0, "PRO"), (5, "NAM"), (6, "NAM"))]
    check(ace(key, response), 1, Fr(1, 21), 1)


def test_levels_and_types_are_case_insensitive() -> None:
    lower = [entity("per", (0, "nam"), (1, "pro")), entity("Org", (2, "Nom"))]
    check(ace(KEY, lower), 1, 1, 1)


def test_definition() -> None:
    metric = REGISTRY["ace-value"]
    assert not metric.symmetric
    assert metric.requires == ("entity_types", "mention_levels")
    assert metric.width == 5 and metric.summary and "ACE" in metric.citation


# --------------------------------------------------------------------------------------------
# Errors


def test_missing_entity_types_name_document_and_side() -> None:
    key = [[(0, 0), (1, 1)]]
    with pytest.raises(InputError, match=r"entity types.*key document 'd'"):
        ace(key, KEY)
    with pytest.raises(InputError, match=r"entity types.*response document 'd'"):
        ace(KEY, [{"mentions": [{"span": (0, 0), "level": "NAM"}]}])


def test_missing_mention_levels_name_document_and_side() -> None:
    response = [entity("PER", (0, "NAM"), (1, None))]
    with pytest.raises(InputError, match=r"mention levels.*response document 'd'"):
        ace(KEY, response)


def test_statistics_check_the_facts_themselves() -> None:
    # Without the scorer's requirement check (a table built by hand).
    key = document_from_clusters("d", [[(0, 0)]], side="key")
    response = document_from_clusters("d", [entity("PER", (0, "NAM"))], side="response")
    with pytest.raises(InputError, match=r"ace-value needs entity types.*key document 'd'"):
        REGISTRY["ace-value"].statistics(build_table(key, response))
    # An empty side needs no facts.
    empty = document_from_clusters("d", [], side="response")
    typed_key = document_from_clusters("d", [entity("PER", (0, "NAM"))], side="key")
    assert REGISTRY["ace-value"].statistics(build_table(typed_key, empty)) == (0, 1, 0, 0, 0)


def test_types_and_levels_without_a_weight() -> None:
    with pytest.raises(InputError, match=r"type 'PERSON'.*type_weights"):
        ace([entity("PERSON", (0, "NAM"))], [])
    with pytest.raises(InputError, match=r"level 'DEM'.*level_weights"):
        ace([entity("PER", (0, "DEM"))], [])


@pytest.mark.parametrize(
    "options",
    [
        {"type_weights": {"PER": -1}},
        {"type_weights": {}},
        {"level_weights": {"NAM": math.nan}},
        {"false_alarm_weight": -0.5},
        {"type_error_weight": 1.5},
        {"level_error_weight": "0.9"},
    ],
)
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        ace_value(**options)


# --------------------------------------------------------------------------------------------
# Properties, and a brute-force oracle for the mapping

TYPES = ("PER", "ORG")
LEVELS = {"NAM": Fr(1), "NOM": Fr(1, 2), "PRO": Fr(1, 10)}


@st.composite
def documents(draw: st.DrawFn, universe: int = 7) -> list[dict[str, Any]]:
    mentions = draw(st.lists(st.integers(0, universe - 1), unique=True, max_size=universe))
    labels = draw(st.lists(st.integers(0, 3), min_size=len(mentions), max_size=len(mentions)))
    groups: dict[int, list[tuple[int, str]]] = {}
    for m, label in zip(mentions, labels):
        groups.setdefault(label, []).append((m, draw(st.sampled_from(list(LEVELS)))))
    return [entity(draw(st.sampled_from(TYPES)), *g) for g in groups.values()]


def _value(e: dict[str, Any]) -> Fr:
    return sum((LEVELS[m["level"]] for m in e["mentions"]), Fr(0))


def _pair(k: dict[str, Any], r: dict[str, Any]) -> Fr:
    levels = {m["span"]: m["level"] for m in k["mentions"]}
    total = Fr(0)
    for m in r["mentions"]:
        if m["span"] in levels:
            a, b = levels[m["span"]], m["level"]
            total += min(LEVELS[a], LEVELS[b]) * (1 if a == b else Fr(9, 10))
    return total * (1 if k["type"] == r["type"] else Fr(1, 2))


def _share(k: dict[str, Any], r: dict[str, Any]) -> bool:
    return bool({m["span"] for m in k["mentions"]} & {m["span"] for m in r["mentions"]})


def oracle(key: list[Any], response: list[Any]) -> Fr:
    """The best total over every one-to-one partial mapping of entities that share a mention."""
    best = None
    slots = list(range(len(response))) + [None] * len(key)
    for choice in itertools.permutations(slots, len(key)):
        if any(j is not None and not _share(key[i], response[j]) for i, j in enumerate(choice)):
            continue
        mapped = {j for j in choice if j is not None}
        total = sum((_pair(key[i], response[j]) for i, j in enumerate(choice) if j is not None),
                    Fr(0))  # fmt: skip
        total -= sum((FA * _value(r) for j, r in enumerate(response) if j not in mapped), Fr(0))
        best = total if best is None else max(best, total)
    return best if best is not None else -sum((FA * _value(r) for r in response), Fr(0))


@settings(max_examples=150, deadline=None)
@given(documents(), documents())
def test_value_matches_the_brute_force_optimum(key: Any, response: Any) -> None:
    score = ace(key, response)
    key_value = sum((_value(k) for k in key), Fr(0))
    total = oracle(key, response)
    assert score.f1 == pytest.approx(float(total / key_value) if key_value else 0.0, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(documents(), documents())
def test_bounds(key: Any, response: Any) -> None:
    score = ace(key, response)
    assert 0 <= score.recall <= 1 + 1e-12 and 0 <= score.precision <= 1 + 1e-12
    assert score.f1 <= score.recall + 1e-12  # false alarms only ever cost
    # The value can fall below 0, but not below the cost of every response entity.
    assert score.f1 * score.recall_den >= -float(FA) * score.precision_den - 1e-9


@settings(max_examples=100, deadline=None)
@given(documents())
def test_identical_is_1(key: Any) -> None:
    score = ace(key, key)
    if key:
        assert (score.recall, score.precision, score.f1) == pytest.approx((1, 1, 1))
