"""Result dataclasses and their JSON form."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._version import __version__
from .metrics import CONLL_PARTS, MetricScore

#: Version of the JSON layout produced by :meth:`ScoreResult.to_dict`.
SCHEMA_VERSION = 1


def conll_score(metrics: Mapping[str, MetricScore]) -> float | None:
    """Mean F1 of MUC, B³ and CEAFe, or ``None`` if one of them was not computed."""
    if not all(m in metrics for m in CONLL_PARTS):
        return None
    return sum(metrics[m].f1 for m in CONLL_PARTS) / len(CONLL_PARTS)


@dataclass(frozen=True)
class DocumentResult:
    """The scores of one document."""

    doc_id: str
    metrics: dict[str, MetricScore]
    conll: float | None

    def __getitem__(self, metric: str) -> MetricScore:
        return self.metrics[metric]

    def to_dict(self) -> dict[str, Any]:
        return _metrics_dict(self.metrics, self.conll)


@dataclass(frozen=True)
class ScoreResult:
    """Corpus-level scores (micro-averaged over key documents).

    ``result["muc"].f1``, ``result.conll``; ``documents`` holds per-document
    scores when they were asked for.
    """

    metrics: dict[str, MetricScore]
    conll: float | None
    signature: str
    options: dict[str, Any] = field(default_factory=dict)
    documents: dict[str, DocumentResult] | None = None
    warnings: tuple[str, ...] = ()

    def __getitem__(self, metric: str) -> MetricScore:
        return self.metrics[metric]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "corefscore_version": __version__,
            "signature": self.signature,
            "options": dict(self.options),
            "metrics": _metrics_dict(self.metrics, self.conll),
        }
        if self.documents is not None:
            out["documents"] = {d: r.to_dict() for d, r in self.documents.items()}
        out["warnings"] = list(self.warnings)
        return out

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _metrics_dict(metrics: Mapping[str, MetricScore], conll: float | None) -> dict[str, Any]:
    out: dict[str, Any] = {name: score.to_dict() for name, score in metrics.items()}
    if conll is not None:
        out["conll"] = {"f1": conll}
    return out
