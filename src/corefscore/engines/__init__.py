"""The engines that turn paired documents into metric statistics, and what each can do.

Every engine runs the same pipeline (pair documents, prepare them, build the
contingency table, compute each metric's statistics) and the same metric
code; they differ in where the work happens:

``objects``
    document by document, on ``Document`` objects
    (``corefscore.engines.objects``): everything, every regime and metric;
``columnar``
    all documents at once, on numpy arrays of mentions
    (``corefscore.engines.columnar``): very large corpora, mention tables
    and cross-document scoring;
``dask``
    on a Dask cluster (``corefscore.engines.dask``): documents scored on
    the workers by the object engine, or, cross-document, the contingency
    table built by distributed joins and scored by the columnar code.

``CAPABILITIES`` is the one table of what each engine supports, and
``check`` the one place that refuses an evaluation an engine cannot run.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._record import NamedTuple
from ..errors import UsageError, option
from ..evaluation import Evaluation
from ..metrics import Metric

ENGINES = ("objects", "columnar", "dask")


# A named tuple, not a dataclass: generating a dataclass's methods was about
# 0.7 ms of the start-up of `corefscore score`, for a table of constants.
class Capability(NamedTuple):
    """What one engine can compute."""

    per_document: bool
    cross_document: bool
    duplicates: tuple[str, ...]
    matchings: tuple[str, ...]
    #: Regime steps beyond matching: singletons, gold_mentions, anaphoric_only, remove_nested.
    regimes: tuple[str, ...]
    #: Which metrics run: "any"; "table" (built-in metrics that read only the
    #: contingency table, on a table of one segment); "segmented" (metrics
    #: with segment statistics, on a table of many documents).
    metrics: str
    optional_mentions: bool
    #: The evaluations it reproduces (``Evaluation.compat``).
    compats: tuple[str, ...] = ("conll",)


_ALL_REGIMES = ("singletons", "gold_mentions", "anaphoric_only", "remove_nested")
_ALL_MATCHINGS = ("exact", "head", "min-span", "overlap")
_COLUMNAR = Capability(
    per_document=True,
    cross_document=True,
    # ``reference`` only for documents without repeated spans: the pipeline hands
    # the others to the object engine (see corefscore.pipeline.evaluate).
    duplicates=("reference", "first", "strict"),
    matchings=("exact",),
    regimes=("singletons",),
    metrics="segmented",
    optional_mentions=False,
)
# One cross-document partition is a table of one segment: every built-in
# metric that reads only the table runs on it.
_CROSS_DOCUMENT = _COLUMNAR._replace(metrics="table", duplicates=("first", "strict"))

#: Engine -> what it supports. The Dask engine scores documents with the object
#: engine on its workers and cross-document partitions with the columnar code.
CAPABILITIES: dict[str, Capability] = {
    "objects": Capability(
        per_document=True,
        cross_document=False,
        duplicates=("reference", "first", "strict"),
        matchings=_ALL_MATCHINGS,
        regimes=_ALL_REGIMES,
        metrics="any",
        optional_mentions=True,
        compats=("conll", "corefud", "ua"),
    ),
    "columnar": _COLUMNAR,
    "dask": Capability(
        per_document=True,
        cross_document=True,
        duplicates=("reference", "first", "strict"),
        matchings=_ALL_MATCHINGS,
        regimes=_ALL_REGIMES,
        metrics="any",
        optional_mentions=True,
        compats=("conll", "ua"),
    ),
}


def unsupported(evaluation: Evaluation, capability: Capability) -> list[str]:
    """The parts of ``evaluation`` that ``capability`` lacks, as option names."""
    regime = evaluation.regime
    missing: list[str] = []
    if evaluation.compat != "conll":
        # The CorefUD evaluation is a pipeline of its own (corefscore.corefud),
        # which validates its options itself.
        supported = evaluation.compat in capability.compats
        return [] if supported else [option("compat", evaluation.compat)]
    if evaluation.scope.cross_document and not capability.cross_document:
        missing.append(option("cross_document"))
    if evaluation.duplicates not in capability.duplicates:
        missing.append(option("duplicates", evaluation.duplicates))
    if regime.matching not in capability.matchings:
        missing.append(option("matching", regime.matching))
    used = {
        "singletons": regime.key_singletons == "drop" or regime.response_singletons == "drop",
        "gold_mentions": regime.gold_mentions,
        "anaphoric_only": regime.anaphoric_only,
        "remove_nested": regime.remove_nested,
    }
    for step, on in used.items():
        if on and step not in capability.regimes:
            missing.append(option(step, "drop") if step == "singletons" else option(step))
    missing += [f"metric {m.name}" for m in evaluation.metrics if not _runs(m, capability)]
    return missing


def _runs(metric: Metric, capability: Capability) -> bool:
    if capability.metrics == "any" or metric.segment_statistics is not None:
        return True
    from ..metrics import REGISTRY

    built_in = REGISTRY.get(metric.name) is metric
    return capability.metrics == "table" and built_in and not metric.requires


def check(evaluation: Evaluation, engine: str, *, what: str | None = None) -> None:
    """Refuse, in one message, an evaluation that ``engine`` cannot run.

    ``what`` names the reason the engine was chosen (e.g. "cross-document
    scoring", "mention tables") for the message.
    """
    checked: set[tuple[str, str | None]] = evaluation.memo("engines checked", set)
    if (engine, what) in checked:
        return  # asked once per scoring call: every small document in a training loop
    capability = CAPABILITIES[engine]
    if evaluation.scope.cross_document and capability.cross_document:
        capability = _CROSS_DOCUMENT
    missing = unsupported(evaluation, capability)
    if missing:
        reason = what or f"the {engine} engine"
        raise UsageError(
            f"{_join(missing)} cannot be used with {reason} (docs/engines.md lists what each "
            "engine computes)"
        )
    checked.add((engine, what))


def _join(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def choose(evaluation: Evaluation, *, arrays: bool = False) -> str:
    """The engine for an evaluation: columnar for cross-document scoring, and for
    mention arrays when it can run the evaluation; else the object engine."""
    if evaluation.compat != "conll":
        return "objects"
    if evaluation.scope.cross_document:
        return "columnar"
    if arrays and not unsupported(evaluation, _COLUMNAR):
        return "columnar"
    return "objects"


__all__ = ["CAPABILITIES", "ENGINES", "Capability", "check", "choose", "unsupported"]
