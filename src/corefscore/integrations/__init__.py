"""Adapters for the frameworks coreference models are trained and evaluated with.

Each module imports its framework when it is imported itself (never on
``import corefscore``), and raises ``UsageError`` saying what to install when
the framework is missing:

``corefscore.integrations.torchmetrics``
    ``CorefMetric``, a torchmetrics ``Metric`` (extra ``corefscore[torch]``).
``corefscore.integrations.evaluate``
    A Hugging Face ``evaluate`` module, a drop-in for the hub's ``coval``
    (extra ``corefscore[evaluate]``).
``corefscore.integrations.e2e``
    ``CorefEvaluator``, a drop-in for the class of e2e-coref's ``metrics.py``
    (no extra dependency).

Every one of them computes the same numbers as ``corefscore.CorefScorer``,
i.e. those of the CoNLL reference scorer.
"""

from __future__ import annotations

from ..errors import UsageError


def missing(extra: str, needed_by: str, error: ImportError) -> UsageError:
    """The error for a framework that is not installed: what to install to get it."""
    package = error.name or str(error)
    return UsageError(
        f"{needed_by} needs the {package} package, which is not installed; "
        f"install it with: python -m pip install 'corefscore[{extra}]'"
    )


__all__ = ["missing"]
