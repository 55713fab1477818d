"""corefscore: exact, fast coreference-resolution scoring.

>>> import corefscore
>>> key = {"d": [[(0, 0), (2, 3)], [(5, 5)]]}
>>> response = {"d": [[(0, 0), (2, 3), (5, 5)]]}
>>> round(corefscore.score(key, response)["muc"].f1, 4)
0.8
"""

from ._version import __version__
from .errors import CorefScoreError, InputError, UsageError
from .metrics import METRICS, BlancScore, MetricScore
from .model import Corpus, Document
from .result import DocumentResult, ScoreResult
from .scorer import CorefScorer, score, score_corpora, score_files

__all__ = [
    "METRICS",
    "BlancScore",
    "CorefScoreError",
    "CorefScorer",
    "Corpus",
    "Document",
    "DocumentResult",
    "InputError",
    "MetricScore",
    "ScoreResult",
    "UsageError",
    "__version__",
    "score",
    "score_corpora",
    "score_files",
]
