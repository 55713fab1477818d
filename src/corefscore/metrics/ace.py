"""ACE-value: the cost/value model of the NIST ACE entity evaluations, simplified.

Luo 2005 (H05-1004) contrasts CEAF with this value, the official measure of the
ACE entity detection and recognition task (EDR). Every entity has a value: its
type weight times the sum of its mentions' level weights (NAM 1, NOM 0.5, PRO
0.1 by default). A key entity mapped to a response entity earns the value of
the mentions they share, each valued at the lower level weight of its two
copies; a response entity mapped to no key entity is a false alarm and costs
a fraction of its own value. Key and response entities are mapped one-to-one
so as to maximise the total, and the total is normalised by the value of the
key:

    ACE-value = (Σ mapped value − Σ false-alarm cost) / Σ key value

which is 1 for a perfect response, 0 for an empty one, and below 0 when the
false alarms cost more than the mapped entities earn.

What comes from NIST and what is corefscore's (details in docs/metrics.md):
the weights, the false-alarm factors (0.75 for the entity, 0.75 for each of
its mentions), the attribute-error factors (0.5 for a wrong entity type, 0.9
for a wrong mention level), min() over the two copies and the value-maximising
one-to-one mapping follow the NIST scoring script that derives from
ace04-eval-v12i. corefscore simplifies: mentions correspond when their spans
are equal (twins) instead of by head overlap and text match, every entity has
class SPC (class weight 1), and the only attributes are the entity type and
the mention level.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ..contingency import ContingencyTable
from ..errors import InputError, UsageError
from ..model import Document
from .base import Metric, MetricScore, ratio
from .ceaf import align_weights

if TYPE_CHECKING:
    import numpy as np
else:
    from .._numpy import np

#: Entity type weights: every ACE 2004 type weighs 1.
ACE2004_TYPE_WEIGHTS: Mapping[str, float] = {
    "PER": 1.0,
    "ORG": 1.0,
    "GPE": 1.0,
    "LOC": 1.0,
    "FAC": 1.0,
    "VEH": 1.0,
    "WEA": 1.0,
}
#: Mention level weights: name, nominal, pronoun, premodifier.
ACE2004_LEVEL_WEIGHTS: Mapping[str, float] = {"NAM": 1.0, "NOM": 0.5, "PRO": 0.1, "PRE": 0.0}


def _check_weights(weights: Mapping[str, float], what: str) -> dict[str, float]:
    if not isinstance(weights, Mapping) or not weights:
        raise UsageError(f"{what} must be a non-empty mapping of names to weights")
    out: dict[str, float] = {}
    for label, weight in weights.items():
        _check_number(weight, f"{what}[{label!r}]")
        out[str(label).upper()] = float(weight)
    return out


def _check_number(value: object, what: str, *, at_most_1: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise UsageError(f"{what} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0 or (at_most_1 and number > 1):
        bound = "between 0 and 1" if at_most_1 else "finite and >= 0"
        raise UsageError(f"{what} must be {bound}, got {value!r}")
    return number


class _Side:
    """Type weights, types, level weights and levels of one document, checked."""

    def __init__(
        self,
        doc: Document | None,
        side: str,
        name: str,
        type_weights: Mapping[str, float],
        level_weights: Mapping[str, float],
    ) -> None:
        self.types: list[str] = []
        self.type_weights: list[float] = []
        self.levels: list[list[str]] = []
        self.level_weights: list[list[float]] = []
        if doc is None or not doc.entities:
            return
        where = f"{side} document {doc.doc_id!r}"
        if not doc.entity_types or not doc.mention_levels:
            facts = "entity types" if not doc.entity_types else "mention levels"
            raise InputError(
                f"metric {name} needs {facts} for every "
                f"{'entity' if facts == 'entity types' else 'mention'}, and {where} lacks them",
                path=doc.source,
            )
        for i, entity in enumerate(doc.entities):
            raw_type = doc.entity_types[i]
            if raw_type is None:
                raise InputError(
                    f"metric {name} needs entity types, and entity {doc.labels[i]!r} of "
                    f"{where} has none",
                    path=doc.source,
                )
            entity_type = raw_type.upper()
            if entity_type not in type_weights:
                raise InputError(
                    f"{where}: entity {doc.labels[i]!r} has type {raw_type!r}, which has no "
                    f"weight in {name} (known: {', '.join(type_weights)}); pass type_weights "
                    "to ace_value()",
                    path=doc.source,
                )
            levels: list[str] = []
            for k, raw_level in enumerate(doc.mention_levels[i]):
                if raw_level is None:
                    raise InputError(
                        f"metric {name} needs mention levels, and mention {entity[k]} of "
                        f"entity {doc.labels[i]!r} in {where} has none",
                        path=doc.source,
                        line=doc.line_of(i, k),
                    )
                level = raw_level.upper()
                if level not in level_weights:
                    raise InputError(
                        f"{where}: mention {entity[k]} has level {raw_level!r}, which has no "
                        f"weight in {name} (known: {', '.join(level_weights)}); pass "
                        "level_weights to ace_value()",
                        path=doc.source,
                        line=doc.line_of(i, k),
                    )
                levels.append(level)
            self.types.append(entity_type)
            self.type_weights.append(type_weights[entity_type])
            self.levels.append(levels)
            self.level_weights.append([level_weights[level] for level in levels])

    def values(self) -> list[float]:
        """The value of every entity on its own: type weight × Σ level weights."""
        return [t * math.fsum(w) for t, w in zip(self.type_weights, self.level_weights)]


def _statistics_factory(
    name: str,
    type_weights: Mapping[str, float],
    level_weights: Mapping[str, float],
    false_alarm_cost: float,
    type_error_weight: float,
    level_error_weight: float,
) -> Callable[[ContingencyTable], tuple[float, ...]]:
    def statistics(table: ContingencyTable) -> tuple[float, ...]:
        """(mapped value, key value, mapped value, response value, false-alarm cost)."""
        key = _Side(table.key, "key", name, type_weights, level_weights)
        response = _Side(table.response, "response", name, type_weights, level_weights)
        key_values = key.values()
        response_values = response.values()
        fa_costs = [false_alarm_cost * v for v in response_values]

        # Value of the shared mentions of every (key, response) entity pair:
        # each mention counts its lower level weight, less for a level error.
        shared: dict[tuple[int, int], list[float]] = {}
        if table.key is not None and table.response is not None and key.types:
            twin: dict[tuple[int, int], tuple[int, int]] = {}
            for i, entity in enumerate(table.key.entities):
                for k, span in enumerate(entity):
                    twin[span] = (i, k)
            used: set[tuple[int, int, int]] = set()
            for j, entity in enumerate(table.response.entities):
                for q, span in enumerate(entity):
                    found = twin.get(span)
                    if found is None or (*found, j) in used:
                        continue
                    used.add((*found, j))
                    i, k = found
                    value = min(key.level_weights[i][k], response.level_weights[j][q])
                    if key.levels[i][k] != response.levels[j][q]:
                        value *= level_error_weight
                    shared.setdefault((i, j), []).append(value)

        pair_value: dict[tuple[int, int], float] = {}
        for (i, j), values in shared.items():
            weight = min(key.type_weights[i], response.type_weights[j])
            if key.types[i] != response.types[j]:
                weight *= type_error_weight
            pair_value[(i, j)] = weight * math.fsum(values)

        # Mapping a response entity earns its pair value and saves its
        # false-alarm cost; the best one-to-one mapping maximises the sum.
        mapped_value = 0.0
        mapped: set[int] = set()
        if pair_value:
            cells = list(pair_value)
            rows = np.array([i for i, _ in cells], dtype=np.int64)
            cols = np.array([j for _, j in cells], dtype=np.int64)
            gains = np.array([pair_value[c] + fa_costs[c[1]] for c in cells], dtype=np.float64)
            positive = gains > 0
            if positive.any():
                best = align_weights(
                    (len(key_values), len(response_values)),
                    rows[positive],
                    cols[positive],
                    gains[positive],
                )
                chosen = list(zip(best.key_entities.tolist(), best.response_entities.tolist()))
                mapped_value = math.fsum(pair_value[c] for c in chosen)
                mapped = {j for _, j in chosen}
        fa_total = math.fsum(c for j, c in enumerate(fa_costs) if j not in mapped)
        return (
            mapped_value,
            math.fsum(key_values),
            mapped_value,
            math.fsum(response_values),
            fa_total,
        )

    return statistics


def combine(stats: tuple[float, ...]) -> MetricScore:
    """ACE-value in ``f1``; recall and precision are the mapped value's shares.

    ``recall`` = mapped value / key value, ``precision`` = mapped value /
    response value (both in [0, 1]); ``f1`` holds the ACE value (mapped value
    − false-alarm cost) / key value, which can be negative, and is 0 when the
    key has no value. The false-alarm cost is ``recall_num − f1·recall_den``.
    """
    mapped, key_value, _, response_value, fa_cost = stats
    return MetricScore(
        recall=ratio(mapped, key_value),
        precision=ratio(mapped, response_value),
        f1=ratio(mapped - fa_cost, key_value),
        recall_num=float(mapped),
        recall_den=float(key_value),
        precision_num=float(mapped),
        precision_den=float(response_value),
    )


def ace_value(
    *,
    type_weights: Mapping[str, float] = ACE2004_TYPE_WEIGHTS,
    level_weights: Mapping[str, float] = ACE2004_LEVEL_WEIGHTS,
    false_alarm_weight: float = 0.75,
    mention_false_alarm_weight: float = 0.75,
    type_error_weight: float = 0.5,
    level_error_weight: float = 0.9,
    name: str = "ace-value",
) -> Metric:
    """ACE-value with the given weights (defaults: the NIST ACE 2004 values).

    ``type_weights`` maps entity types and ``level_weights`` mention levels
    (``NAM``, ``NOM``, ``PRO``, ``PRE``; case-insensitive) to weights; a type
    or level of the data that is missing from them is an ``InputError``.
    An unmapped response entity costs ``false_alarm_weight ×
    mention_false_alarm_weight`` times its value. A mapped pair whose types
    differ is worth ``type_error_weight`` times as much, and a shared mention
    whose levels differ ``level_error_weight`` times as much.
    """
    types = _check_weights(type_weights, "type_weights")
    levels = _check_weights(level_weights, "level_weights")
    fa_entity = _check_number(false_alarm_weight, "false_alarm_weight")
    fa_mention = _check_number(mention_false_alarm_weight, "mention_false_alarm_weight")
    type_error = _check_number(type_error_weight, "type_error_weight", at_most_1=True)
    level_error = _check_number(level_error_weight, "level_error_weight", at_most_1=True)
    return Metric(
        name=name,
        statistics=_statistics_factory(
            name, types, levels, fa_entity * fa_mention, type_error, level_error
        ),
        summary="NIST ACE 2004 EDR value, simplified; f1 holds the value (can be < 0)",
        citation="NIST ACE 2004 EDR evaluation (ace04-eval scorer); Luo 2005 (H05-1004)",
        combine=combine,
        width=5,
        symmetric=False,
        requires=("entity_types", "mention_levels"),
        options="ace_value(type_weights=..., level_weights=..., false_alarm_weight=...)",
    )


DEFINITIONS: tuple[Metric, ...] = (ace_value(),)
