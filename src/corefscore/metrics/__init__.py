"""The metric families. Each is a pure function from a contingency table to
additive statistics (numerators and denominators), summed over documents.

Every metric module declares its metrics in ``DEFINITIONS``; this module
collects them into ``REGISTRY``, in report order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..contingency import ContingencyTable
from ..errors import UsageError
from . import bcub, blanc, ceaf, lea, mentions, muc
from .base import BlancScore, Metric, MetricScore

if TYPE_CHECKING:
    #: Every built-in metric by name, in report order.
    REGISTRY: dict[str, Metric]
    #: Name -> statistics function of every built-in metric.
    STATISTICS: dict[str, Statistics]

Statistics = Callable[[ContingencyTable], tuple[float, ...]]

# The families of the reference scorer's metrics. The others (twinless, ace,
# mor, zero, anaphora) are imported when a name or REGISTRY asks for them:
# importing them was about a millisecond of every `corefscore score`.
_CORE_MODULES = (mentions, muc, bcub, ceaf, blanc, lea)

#: Report order: the core metrics first, then the variants in the order of the docs.
ORDER: tuple[str, ...] = (
    "mentions",
    "muc",
    "bcub",
    "ceafm",
    "ceafe",
    "blanc",
    "lea",
    "ceaf-phi1",
    "ceaf-phi2",
    "bcub-all",
    "bcub-0",
    "bcub-sys",
    "ceafm-sys",
    "ceafe-sys",
    "blanc-luo2014",
    "blanc-gold",
    "lea-uniform",
    "ace-value",
    "mor",
    "zero",
    "non-referring",
    "bridging-anaphors",
    "bridging-markables",
    "bridging-entities",
)


def _collect(modules: Iterable[ModuleType]) -> dict[str, Metric]:
    found: dict[str, Metric] = {}
    for module in modules:
        for metric in getattr(module, "DEFINITIONS", ()):
            found[metric.name] = metric
    rank = {name: i for i, name in enumerate(ORDER)}
    return dict(sorted(found.items(), key=lambda item: rank.get(item[0], len(rank))))


def _aliases(registry: dict[str, Metric]) -> dict[str, str]:
    return {alias: metric.name for metric in registry.values() for alias in metric.aliases}


#: The metrics of the core families, in report order (that of ``REGISTRY``).
_CORE: dict[str, Metric] = _collect(_CORE_MODULES)
_CORE_ALIASES: dict[str, str] = _aliases(_CORE)
#: The metrics computed by default: the reference scorer's seven.
METRICS: tuple[str, ...] = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
#: The CoNLL score is the mean F1 of these.
CONLL_PARTS: tuple[str, ...] = ("muc", "bcub", "ceafe")


def _registry() -> dict[str, Metric]:
    """``REGISTRY``, every family imported on the first call."""
    global REGISTRY, STATISTICS
    if "REGISTRY" not in globals():
        from . import ace, anaphora, mor, twinless, zero

        REGISTRY = _collect((*_CORE_MODULES, twinless, ace, mor, zero, anaphora))
        STATISTICS = {name: m.statistics for name, m in REGISTRY.items()}
    return REGISTRY


def __getattr__(name: str) -> Any:
    if name in ("REGISTRY", "STATISTICS"):
        _registry()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MetricSpec = str | Metric

#: Built-in metrics that take a built-in metric's name in another evaluation
#: (``blanc`` as corefud-scorer combines it), reported in that metric's place.
ALTERNATIVES: dict[str, Metric] = {blanc.BLANC_COREFUD.name: blanc.BLANC_COREFUD}
#: The same in the Universal Anaphora scorer's evaluation (its BLANC is combined
#: as corefud-scorer's, whose engine it is).
UA_ALTERNATIVES: dict[str, Metric] = {blanc.BLANC_UA.name: blanc.BLANC_UA}
#: The UA scorer's metrics, its default selection.
UA_METRICS: tuple[str, ...] = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


def ua_metrics(
    spec: MetricSpec | Iterable[MetricSpec] | None, *, alignment: bool = False
) -> tuple[Metric, ...]:
    """A metric selection in the UA scorer's evaluation (default: its six), with
    BLANC combined as it combines it (``alignment``: its combination of the
    split-antecedent alignment alone, ``split_antecedents="only"``)."""
    chosen = resolve(UA_METRICS if spec is None else spec)
    swap = {**UA_ALTERNATIVES, "blanc": blanc.BLANC_UA_ALIGNMENT} if alignment else UA_ALTERNATIVES
    return tuple(swap.get(m.name, m) for m in chosen)


def resolve(metrics: MetricSpec | Iterable[MetricSpec] | None) -> tuple[Metric, ...]:
    """Normalise a metric selection to ``Metric`` objects, in report order.

    Accepts ``None`` (the seven default metrics), a name, a comma-separated
    list, ``Metric`` objects (custom metrics, reported after the
    built-in ones), or an iterable of these. ``conll`` selects its three
    parts, ``bridging`` the three bridging scores and ``all`` the seven defaults.
    """
    if metrics is None:
        return tuple(_CORE[m] for m in METRICS)
    items: list[MetricSpec] = [metrics] if isinstance(metrics, (str, Metric)) else list(metrics)
    chosen: set[str] = set()
    custom: dict[str, Metric] = {}
    replaced: dict[str, Metric] = {}
    for item in items:
        if isinstance(item, Metric):
            if item in (
                ALTERNATIVES.get(item.name),
                UA_ALTERNATIVES.get(item.name),
                blanc.BLANC_UA_ALIGNMENT,
            ):
                replaced[item.name] = item
                chosen.add(item.name)
                continue
            registry = _registry()
            if item.name in registry and registry[item.name] is not item:
                raise UsageError(
                    f"custom metric name {item.name!r} is taken by a built-in metric; rename it"
                )
            custom[item.name] = item
            continue
        if not isinstance(item, str):
            raise UsageError(f"metrics must be names or Metric objects, got {item!r}")
        for raw in item.split(","):
            name = raw.strip().lower()
            if not name:
                continue
            name = _CORE_ALIASES.get(name, name)
            if name == "all":
                chosen.update(METRICS)
            elif name == "conll":
                chosen.update(CONLL_PARTS)
            elif name in _CORE:
                chosen.add(name)
            else:
                chosen.update(_variant(name, raw))
    if not chosen and not custom:
        raise UsageError("no metric selected")
    # The core metrics are in the order of REGISTRY.
    listed = _CORE if chosen <= _CORE.keys() else _registry()
    builtin = tuple(replaced.get(name, m) for name, m in listed.items() if name in chosen)
    return builtin + tuple(m for name, m in custom.items() if name not in chosen)


def _variant(name: str, raw: str) -> tuple[str, ...]:
    """The metrics named ``name`` (``raw`` as given), outside the core families."""
    registry = _registry()
    name = _aliases(registry).get(name, name)
    if name == "bridging":
        from .anaphora import BRIDGING

        return BRIDGING
    if name not in registry:
        raise UsageError(
            f"unknown metric {raw.strip()!r}; choose from "
            f"{', '.join((*registry, 'conll', 'bridging', 'all'))} "
            "(see 'corefscore metrics')"
        )
    return (name,)


def resolve_metrics(metrics: MetricSpec | Iterable[MetricSpec] | None) -> tuple[str, ...]:
    """Like ``resolve``, but the metric names."""
    return tuple(m.name for m in resolve(metrics))


def to_score(name: str, stats: tuple[float, ...]) -> MetricScore:
    """Turn summed statistics of built-in metric ``name`` into recall, precision and F1."""
    metric = _CORE.get(name) or _registry()[name]
    return metric.combine(stats)


__all__ = [
    "ALTERNATIVES",
    "CONLL_PARTS",
    "METRICS",
    "ORDER",
    "REGISTRY",
    "STATISTICS",
    "BlancScore",
    "Metric",
    "MetricScore",
    "resolve",
    "resolve_metrics",
    "to_score",
]
