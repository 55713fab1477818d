"""corefscore: exact, fast coreference-resolution scoring.

```pycon
>>> import corefscore
>>> key = {"d": [[(0, 0), (2, 3)], [(5, 5)]]}
>>> response = {"d": [[(0, 0), (2, 3), (5, 5)]]}
>>> round(corefscore.score(key, response)["muc"].f1, 4)
0.8
```

Names are imported on first use, so that ``corefscore --help`` and
``import corefscore`` stay instant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_attributes
from ._version import __version__

if TYPE_CHECKING:
    from .errors import CorefScoreError, InputError, UsageError
    from .evaluation import Evaluation
    from .metrics import METRICS, REGISTRY, BlancScore, Metric, MetricScore
    from .model import Corpus, Document, Entity
    from .regimes import EvaluationSetup
    from .result import DocumentResult, ScoreResult
    from .scorer import CorefScorer, score, score_corpora, score_files, score_regimes

_EXPORTS = {
    "CorefScoreError": "errors",
    "InputError": "errors",
    "UsageError": "errors",
    "Evaluation": "evaluation",
    "METRICS": "metrics",
    "REGISTRY": "metrics",
    "BlancScore": "metrics",
    "Metric": "metrics",
    "MetricScore": "metrics",
    "Corpus": "model",
    "Document": "model",
    "Entity": "model",
    "EvaluationSetup": "regimes",
    "DocumentResult": "result",
    "ScoreResult": "result",
    "CorefScorer": "scorer",
    "score": "scorer",
    "score_corpora": "scorer",
    "score_files": "scorer",
    "score_regimes": "scorer",
}

__all__ = [
    "METRICS",
    "REGISTRY",
    "BlancScore",
    "CorefScoreError",
    "CorefScorer",
    "Corpus",
    "Document",
    "DocumentResult",
    "Entity",
    "Evaluation",
    "EvaluationSetup",
    "InputError",
    "Metric",
    "MetricScore",
    "ScoreResult",
    "UsageError",
    "__version__",
    "score",
    "score_corpora",
    "score_files",
    "score_regimes",
]


__getattr__ = lazy_attributes(globals(), {name: f".{module}" for name, module in _EXPORTS.items()})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
