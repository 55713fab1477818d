"""The metric-behaviour lab: the founding papers' controlled experiments.

Luo (2005, §3.1, Figure 1, Tables 1-2) and Moosavi & Strube (2016, §7,
Figures 2-8) compare metrics on artificial responses built from a known key.
Each ``Experiment`` here regenerates one of them: a key, a sequence of
responses (the x axis), and every applicable metric scored on each.

The responses are built by fixed rules (no randomness), so a run is
reproducible; where the LEA authors' own inputs follow a rule, the rule is
theirs (see ``docs/analysis.md`` for the few experiments whose wrong-link
layout is corefscore's own).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from math import comb
from typing import Any

from .._record import field, record
from ..errors import UsageError
from ..metrics import METRICS, REGISTRY, MetricSpec, resolve
from ..metrics.base import MetricScore
from ..model import Span

Entities = tuple[tuple[Span, ...], ...]

#: Moosavi & Strube (2016, §7): "one entity of size 20, two entities of size
#: 10, three entities of size 5, one entity of size 4, and ten entities of size 2".
PAPER_KEY_SIZES: tuple[int, ...] = (20, 10, 10, 5, 5, 5, 4) + (2,) * 10

_DOC = "lab"


@record(frozen=True)
class LabCase:
    """One point of an experiment's x axis: a key and a response."""

    x: str
    value: float | None
    key: Entities
    response: Entities
    detail: str = ""


@record(frozen=True)
class Experiment:
    """A controlled experiment from a founding paper."""

    name: str
    title: str
    source: str
    x_label: str
    description: str
    build: Callable[[], tuple[LabCase, ...]]
    #: True when the x values are numbers on a linear axis (percentages).
    numeric: bool = True

    def cases(self) -> tuple[LabCase, ...]:
        return self.build()


@record(frozen=True)
class LabRow:
    """The scores of one response; ``None`` where a metric does not apply."""

    x: str
    value: float | None
    detail: str
    scores: dict[str, MetricScore | None]


@record(frozen=True)
class LabResult:
    """The numbers of one experiment: x value -> metric -> recall, precision, F1."""

    experiment: str
    title: str
    source: str
    x_label: str
    numeric: bool
    metrics: tuple[str, ...]
    rows: tuple[LabRow, ...]
    #: Metrics that were asked for but cannot be computed here, with the reason.
    skipped: dict[str, str] = field(default_factory=dict)

    def f1(self, metric: str) -> list[float | None]:
        """The F1 series of ``metric`` along the x axis."""
        return [_part(row.scores.get(metric), "f1") for row in self.rows]

    def score(self, x: str, metric: str) -> MetricScore:
        """The score of ``metric`` at x label ``x``."""
        for row in self.rows:
            if row.x == x:
                found = row.scores.get(metric)
                if found is None:
                    raise KeyError(f"{metric} was not computed at {x}")
                return found
        raise KeyError(f"no x value {x!r} in {self.experiment}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "experiment": self.experiment,
            "title": self.title,
            "source": self.source,
            "x_label": self.x_label,
            "metrics": list(self.metrics),
            "skipped": dict(self.skipped),
            "rows": [
                {
                    "x": row.x,
                    "x_value": row.value,
                    "detail": row.detail,
                    "scores": {
                        name: None
                        if s is None
                        else {"recall": s.recall, "precision": s.precision, "f1": s.f1}
                        for name, s in row.scores.items()
                    },
                }
                for row in self.rows
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_csv(self) -> str:
        """Long format, one line per (x, metric): easy to pivot or plot elsewhere."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["experiment", "x", "x_value", "metric", "recall", "precision", "f1"])
        for row in self.rows:
            for name in self.metrics:
                s = row.scores.get(name)
                writer.writerow(
                    [
                        self.experiment,
                        row.x,
                        "" if row.value is None else repr(row.value),
                        name,
                        *(("", "", "") if s is None else (s.recall, s.precision, s.f1)),
                    ]
                )
        return out.getvalue()


def _part(score: MetricScore | None, attr: str) -> float | None:
    return None if score is None else float(getattr(score, attr))


# --- building keys and responses --------------------------------------------


def paper_key(sizes: Sequence[int] = PAPER_KEY_SIZES) -> Entities:
    """One single-token mention per token, entities laid out one after another."""
    entities: list[tuple[Span, ...]] = []
    start = 0
    for size in sizes:
        entities.append(tuple((t, t) for t in range(start, start + size)))
        start += size
    return tuple(entities)


def _token_count(key: Entities) -> int:
    return sum(len(e) for e in key)


def coreference_links(entities: Iterable[Sequence[Span]]) -> int:
    """Mention pairs in the same entity (the links whose ratio §7.1 plots)."""
    return sum(comb(len(e), 2) for e in entities)


def _spread(groups: Sequence[Sequence[Span]]) -> list[tuple[Span, ...]]:
    """Link mentions so that no two of one group (key entity) share an entity.

    The mentions, group after group, go round-robin over as many entities as
    the largest group has mentions: consecutive mentions of a group land in
    different entities, and entity sizes differ by at most one, so every
    entity holds two mentions or more whenever there are at least twice as
    many mentions as entities.
    """
    width = max((len(g) for g in groups), default=0)
    if width == 0:
        return []
    columns: list[list[Span]] = [[] for _ in range(width)]
    position = 0
    for group in sorted(groups, key=len, reverse=True):
        for mention in group:
            columns[position % width].append(mention)
            position += 1
    return [tuple(sorted(c)) for c in columns if c]


def _case(
    x: str, value: float | None, key: Entities, response: Sequence[Sequence[Span]], detail: str = ""
) -> LabCase:
    resp = tuple(tuple(sorted(e)) for e in response if e)
    return LabCase(x=x, value=value, key=key, response=resp, detail=detail)


# --- Luo 2005 ------------------------------------------------------------------


def _luo2005() -> tuple[LabCase, ...]:
    # Mentions 1..9, A, B, C of Figure 1 are tokens 0..11.
    key = paper_key((5, 2, 5))
    a, b, c = (list(e) for e in key)
    responses = {
        "a": [a, b + c],
        "b": [a + c, b],
        "c": [a + b + c],
        "d": [[m] for m in a + b + c],
    }
    return tuple(_case(x, None, key, r, f"system response ({x})") for x, r in responses.items())


# --- Moosavi & Strube 2016, §7.1: correct links --------------------------------

#: For each nominal ratio, the key-entity fragments resolved correctly, as
#: (index into PAPER_KEY_SIZES, number of mentions). These are the fragments of
#: the LEA authors' inputs; the ratio counts coreferent mention pairs (BLANC's
#: links), e.g. 20% = C(12, 2) = 66 of the key's 326 pairs.
_CORRECT_LINK_RECIPES: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    20: ((0, 12),),
    40: ((0, 17),),
    60: ((0, 20), (6, 4)),
    80: ((0, 20), (1, 10), (2, 7), (6, 4)),
    100: tuple((i, n) for i, n in enumerate(PAPER_KEY_SIZES)),
}


def _correct_links(with_wrong: bool) -> tuple[LabCase, ...]:
    key = paper_key()
    total = coreference_links(key)
    cases: list[LabCase] = []
    for pct, recipe in _CORRECT_LINK_RECIPES.items():
        response: list[Sequence[Span]] = []
        used: dict[int, int] = {}
        for index, count in recipe:
            response.append(key[index][:count])
            used[index] = count
        if with_wrong:
            leftovers = [e[used.get(i, 0) :] for i, e in enumerate(key)]
            response.extend(_spread([g for g in leftovers if g]))
        case = _case(f"{pct}%", float(pct), key, response)
        links = round(correct_link_ratio(case) * total)
        detail = f"{links}/{total} key links resolved ({100 * links / total:.1f}%)"
        cases.append(_case(f"{pct}%", float(pct), key, response, detail))
    return tuple(cases)


# --- §7.2: correct entities ------------------------------------------------------


def _resolve_entities(decreasing: bool) -> tuple[LabCase, ...]:
    key = paper_key()
    order = sorted(range(len(key)), key=lambda i: len(key[i]), reverse=decreasing)
    total = coreference_links(key)
    cases = []
    for pct in (0, 20, 40, 60, 80, 100):
        # The authors resolve round(pct% of the 17 entities): 3, 7, 10, 14.
        chosen = sorted(order[: round(pct * len(key) / 100)])
        response = [key[i] for i in chosen]
        links = coreference_links(response)
        detail = (
            f"{len(chosen)} of {len(key)} entities; {links}/{total} key links "
            f"({100 * links / total:.1f}%)"
        )
        cases.append(_case(f"{pct}%", float(pct), key, response, detail))
    return tuple(cases)


def correct_link_ratio(case: LabCase) -> float:
    """The share of key coreference links a response resolves (Figures 4-5's dashed line)."""
    where = {m: i for i, e in enumerate(case.key) for m in e}
    correct = 0
    for entity in case.response:
        counts: dict[int, int] = {}
        for m in entity:
            if m in where:
                counts[where[m]] = counts.get(where[m], 0) + 1
        correct += sum(comb(n, 2) for n in counts.values())
    return correct / coreference_links(case.key)


# --- §7.3: splitting entities ----------------------------------------------------

#: Figure 6's x axis, in its order.
SPLITS: tuple[str, ...] = ("18-2", "3-2", "2-2", "16-4", "10-10", "5-3-2", "9-9-2", "9-5-6")


def _parts(label: str) -> list[int]:
    try:
        parts = [int(p) for p in label.split("-")]
    except ValueError:
        raise UsageError(f"bad lab label {label!r}: expected numbers joined by '-'") from None
    if any(p < 0 for p in parts):
        raise UsageError(f"bad lab label {label!r}: negative number")
    return parts


def split_response(label: str, key: Entities | None = None) -> Entities:
    """The key with its first entity of size sum(parts) split into ``parts`` (e.g. "18-2")."""
    key = paper_key() if key is None else key
    parts = _parts(label)
    size = sum(parts)
    target = next((i for i, e in enumerate(key) if len(e) == size), None)
    if target is None or len(parts) < 2 or 0 in parts:
        raise UsageError(f"cannot split as {label!r}: no key entity of size {size}")
    response: list[tuple[Span, ...]] = []
    for i, entity in enumerate(key):
        if i != target:
            response.append(entity)
            continue
        start = 0
        for p in parts:
            response.append(entity[start : start + p])
            start += p
    return tuple(response)


def _split_entities() -> tuple[LabCase, ...]:
    key = paper_key()
    return tuple(
        _case(
            label,
            None,
            key,
            split_response(label, key),
            f"one entity of {sum(_parts(label))} split into {' + '.join(label.split('-'))}",
        )
        for label in SPLITS
    )


# --- §7.4: extra mentions --------------------------------------------------------

#: Figure 7's x axis: "extra mentions - size of the entity they join" (0: linked together).
EXTRAS: tuple[str, ...] = ("1-2", "1-10", "2-0", "2-2", "2-10", "3-0", "3-2", "3-10")


def extra_mention_response(label: str, key: Entities | None = None) -> Entities:
    """The key plus ``k`` mentions outside it, joined to the first entity of size ``n``.

    ``label`` is "k-n"; ``n`` = 0 puts the ``k`` extra mentions in an entity of their own.
    """
    key = paper_key() if key is None else key
    parts = _parts(label)
    if len(parts) != 2 or parts[0] < 1:
        raise UsageError(f"bad extra-mention label {label!r}: expected 'k-n' with k >= 1")
    k, n = parts
    first = max((t for e in key for s in e for t in s), default=-1) + 1
    extra = tuple((t, t) for t in range(first, first + k))
    if n == 0:
        return (*key, extra)
    target = next((i for i, e in enumerate(key) if len(e) == n), None)
    if target is None:
        raise UsageError(f"bad extra-mention label {label!r}: no key entity of size {n}")
    return tuple(e + extra if i == target else e for i, e in enumerate(key))


def _extra_mentions() -> tuple[LabCase, ...]:
    key = paper_key()
    cases = []
    for label in EXTRAS:
        k, n = _parts(label)
        where = "linked together" if n == 0 else f"added to an entity of {n}"
        cases.append(
            _case(
                label,
                None,
                key,
                extra_mention_response(label, key),
                f"{k} extra mention(s) {where}",
            )
        )
    return tuple(cases)


# --- §7.5: mention identification -----------------------------------------------


def _mention_identification() -> tuple[LabCase, ...]:
    key = paper_key()
    n = _token_count(key)
    # Key mentions taken "column by column" (first mention of every entity,
    # then the second, ...), so that they come from as many entities as possible.
    depth = max(len(e) for e in key)
    ordered = [e[j] for j in range(depth) for e in key if j < len(e)]
    where = {m: i for i, e in enumerate(key) for m in e}
    cases = []
    for pct in (0, 20, 40, 60, 80, 100):
        chosen = ordered[: round(pct * n / 100)]
        groups: dict[int, list[Span]] = {}
        for m in chosen:
            groups.setdefault(where[m], []).append(m)
        response = _spread(list(groups.values()))
        cases.append(
            _case(
                f"{pct}%",
                float(pct),
                key,
                response,
                f"{len(chosen)}/{n} key mentions, no two coreferent ones linked",
            )
        )
    return tuple(cases)


_M_S = "Moosavi & Strube 2016"

EXPERIMENTS: dict[str, Experiment] = {
    e.name: e
    for e in (
        Experiment(
            "luo2005-figure1",
            "Luo 2005, Figure 1: four responses to a 12-mention key",
            "Luo 2005, §3.1, Figure 1, Tables 1-2",
            "system response",
            "Key {1-5}, {6,7}, {8-C}. (a) merges {6,7} into {8-C}; (b) merges the two big "
            "entities; (c) puts everything in one entity; (d) links nothing. Intuitively "
            "a > b > c > d; MUC ties (a) and (b), and B3 gives (c) full recall and (d) full "
            "precision.",
            _luo2005,
            numeric=False,
        ),
        Experiment(
            "correct-links",
            "Resolved coreference links, without wrong links",
            f"{_M_S}, §7.1, Figure 2",
            "key coreference links resolved",
            "Only correctly resolved mentions are in the response; the others are absent.",
            lambda: _correct_links(with_wrong=False),
        ),
        Experiment(
            "correct-links-with-wrong",
            "Resolved coreference links, with wrong links",
            f"{_M_S}, §7.1, Figure 3",
            "key coreference links resolved",
            "As correct-links, but every other key mention is linked to non-coreferent "
            "mentions only, so mention identification is always perfect.",
            lambda: _correct_links(with_wrong=True),
        ),
        Experiment(
            "resolve-decreasing",
            "Resolving entities in decreasing order of size",
            f"{_M_S}, §7.2, Figure 4",
            "key entities resolved",
            "Whole key entities are added, largest first; the rest are absent.",
            lambda: _resolve_entities(decreasing=True),
        ),
        Experiment(
            "resolve-increasing",
            "Resolving entities in increasing order of size",
            f"{_M_S}, §7.2, Figure 5",
            "key entities resolved",
            "Whole key entities are added, smallest first; the rest are absent.",
            lambda: _resolve_entities(decreasing=False),
        ),
        Experiment(
            "split-entities",
            "Splitting one key entity",
            f"{_M_S}, §7.3, Figure 6",
            "split (sizes of the parts)",
            "One key entity is split into parts without singletons, e.g. 18-2 splits "
            "the entity of 20 into 18 + 2; everything else is correct.",
            _split_entities,
            numeric=False,
        ),
        Experiment(
            "extra-mentions",
            "Extra mentions",
            f"{_M_S}, §7.4, Figure 7",
            "extra mentions - size of the entity they join",
            "k-n adds k mentions that are in no key entity to an entity of size n "
            "(n = 0: the extra mentions are linked only to each other).",
            _extra_mentions,
            numeric=False,
        ),
        Experiment(
            "mention-identification",
            "Mention identification without any correct link",
            f"{_M_S}, §7.5, Figure 8",
            "key mentions identified",
            "x% of the key mentions are in the response, all linked, but never two "
            "coreferent ones together: no coreference relation is resolved.",
            _mention_identification,
        ),
    )
}


# --- running -----------------------------------------------------------------


def _metric_selection(
    metrics: MetricSpec | Iterable[MetricSpec] | None,
) -> tuple[tuple[str, ...], dict[str, str]]:
    if metrics is None:
        return METRICS, {}
    names: list[str] = []
    skipped: dict[str, str] = {}
    for metric in resolve(metrics):
        if metric.requires:
            # The lab's keys carry no entity types or mention levels.
            skipped[metric.name] = f"needs {', '.join(metric.requires)}, which the lab has not"
        else:
            names.append(metric.name)
    return tuple(names), skipped


def applicable_metrics() -> tuple[str, ...]:
    """Every built-in metric the lab can compute (those needing no extra facts)."""
    return tuple(name for name, m in REGISTRY.items() if not m.requires)


def _mentions(entities: Entities) -> set[Span]:
    return {m for e in entities for m in e}


def score_case(case: LabCase, metrics: Sequence[str]) -> dict[str, MetricScore | None]:
    """Score one response with each metric; ``None`` where the metric refuses it."""
    from ..scorer import score

    same_mentions = _mentions(case.key) == _mentions(case.response)
    # blanc-gold is defined only when both sides have the same mentions.
    usable = [m for m in metrics if same_mentions or m != "blanc-gold"]
    result = score({_DOC: case.key}, {_DOC: case.response}, metrics=usable) if usable else None
    return {m: (result[m] if result is not None and m in usable else None) for m in metrics}


def run_experiment(
    name: str, *, metrics: MetricSpec | Iterable[MetricSpec] | None = None
) -> LabResult:
    """Regenerate experiment ``name`` (see ``EXPERIMENTS``) and score every response.

    ``metrics`` defaults to the reference scorer's seven; ``"all"`` means the
    same, and any other selection is filtered to what the lab can compute
    (see ``applicable_metrics``); the rest is listed in ``skipped``.
    """
    experiment = EXPERIMENTS.get(name)
    if experiment is None:
        raise UsageError(f"unknown lab experiment {name!r}; choose from {', '.join(EXPERIMENTS)}")
    chosen, skipped = _metric_selection(metrics)
    rows = tuple(
        LabRow(case.x, case.value, case.detail, score_case(case, chosen))
        for case in experiment.cases()
    )
    return LabResult(
        experiment=experiment.name,
        title=experiment.title,
        source=experiment.source,
        x_label=experiment.x_label,
        numeric=experiment.numeric,
        metrics=chosen,
        rows=rows,
        skipped=skipped,
    )


def format_lab(result: LabResult, fmt: str = "text") -> str:
    """The output of ``corefscore lab``: ``text`` (F1 table, %), ``json`` or ``csv``."""
    if fmt == "json":
        return result.to_json()
    if fmt == "csv":
        return result.to_csv()
    if fmt != "text":
        raise UsageError(f"unknown lab output format {fmt!r}; choose text, json or csv")
    width = max([len(result.x_label), *(len(r.x) for r in result.rows)])
    cols = [max(len(m), 6) for m in result.metrics]
    lines = [f"{result.title} ({result.source})", "F1 (%)"]
    lines.append(
        "  ".join(
            [
                result.x_label.ljust(width),
                *(m.rjust(c) for m, c in zip(result.metrics, cols, strict=True)),
            ]
        )
    )
    for row in result.rows:
        cells = []
        for m, c in zip(result.metrics, cols, strict=True):
            s = row.scores.get(m)
            cells.append(("-" if s is None else f"{100 * s.f1:.2f}").rjust(c))
        lines.append("  ".join([row.x.ljust(width), *cells]))
    for m, why in result.skipped.items():
        lines.append(f"skipped {m}: {why}")
    return "\n".join(lines) + "\n"


def format_experiments() -> str:
    """The list shown by ``corefscore lab --list``."""
    width = max(len(n) for n in EXPERIMENTS)
    return "".join(f"{n.ljust(width)}  {e.source}: {e.title}\n" for n, e in EXPERIMENTS.items())


__all__ = [
    "EXPERIMENTS",
    "EXTRAS",
    "PAPER_KEY_SIZES",
    "SPLITS",
    "Experiment",
    "LabCase",
    "LabResult",
    "LabRow",
    "applicable_metrics",
    "coreference_links",
    "correct_link_ratio",
    "extra_mention_response",
    "format_experiments",
    "format_lab",
    "paper_key",
    "run_experiment",
    "score_case",
    "split_response",
]
