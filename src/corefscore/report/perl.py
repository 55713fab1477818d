"""The reference scorer's TOTALS blocks, byte for byte.

Numbers are printed like Perl's default number stringification (``%.15g``)
and percentages are truncated, not rounded, to two decimals, computed in IEEE
double precision as ``int(x * 10000) / 100`` — artefacts such as ``55.99`` for
14/25 included, since wrappers compare these strings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..metrics import BlancScore, MetricScore
from ..result import ScoreResult

DASHES = "-" * 74


def perl_number(value: float) -> str:
    return format(value, ".15g")


def perl_percent(fraction: float) -> str:
    return format(math.trunc(fraction * 10000) / 100, ".15g")


def rpf_line(score: MetricScore) -> str:
    return (
        f"Recall: ({perl_number(score.recall_num)} / {perl_number(score.recall_den)}) "
        f"{perl_percent(score.recall)}%\t"
        f"Precision: ({perl_number(score.precision_num)} / {perl_number(score.precision_den)}) "
        f"{perl_percent(score.precision)}%\t"
        f"F1: {perl_percent(score.f1)}%\n{DASHES}\n"
    )


def totals_block(metric: str, result: ScoreResult) -> str:
    """One metric's ``====== TOTALS =======`` block, as ``scorer.pl METRIC KEY RESPONSE none``."""
    out = ["\n====== TOTALS =======\n"]
    mentions = result.metrics.get("mentions")
    if mentions is not None:
        out.append("Identification of Mentions: " + rpf_line(mentions))
    score = result.metrics[metric]
    if isinstance(score, BlancScore):
        out.append("\nCoreference:\n")
        out.append("Coreference links: " + rpf_line(score.coref))
        out.append("Non-coreference links: " + rpf_line(score.noncoref))
        out.append("BLANC: " + rpf_line(score))
    elif metric != "mentions":
        out.append("Coreference: " + rpf_line(score))
    return "".join(out)


def format_perl(result: ScoreResult, metrics: Iterable[str] | None = None) -> str:
    """The TOTALS output of the reference scorer for the chosen metrics.

    One metric gives that metric's block; several give ``METRIC name:``
    headed blocks, as ``scorer.pl all``. The ``version:`` line is not printed.
    """
    names = [m for m in (metrics or result.metrics) if m in result.metrics]
    coref = [m for m in names if m != "mentions"] or names[:1]
    if len(coref) == 1:
        return totals_block(coref[0], result)
    return "".join(f"\nMETRIC {m}:\n" + totals_block(m, result) for m in coref)
