"""corefud-scorer's output, line for line (``--format corefud``).

corefud-scorer v1.2 prints a header that states the setting, then each
metric's name and a line ``Recall: R  Precision: P  F1: F`` (two spaces
between the fields; ``'%.2f' % (x * 100)``, i.e. the binary value rounded
to two decimals), then ``CoNLL score: C`` when MUC, B³ and CEAFe were
evaluated. Metrics come in the scorer's order. Its warnings go to stderr, as
corefscore's do.
"""

from __future__ import annotations

from ..corefud import METRICS
from ..result import ScoreResult

#: How corefud-scorer names its matchings in the header.
_MATCH_NAMES = {"exact": "exact", "partial": "partial-corefud", "head": "head"}


def format_corefud(result: ScoreResult) -> str:
    """The result as corefud-scorer prints it (a CorefUD evaluation's result)."""
    options = result.options
    singletons = (options.get("key_singletons"), options.get("response_singletons"))
    setting = "coreferential mentions"
    if singletons == ("keep", "keep"):
        setting += ", singletons"
    setting += f", zeros (using {options.get('zeros', 'dependent')} match method)"
    match = _MATCH_NAMES.get(str(options.get("matching")), str(options.get("matching")))
    names = [m for m in METRICS if m in result.metrics]
    lines = [
        f"The scorer is evaluating {setting} using {match} match evaluation setting.",
        f"The following metrics will be evaluated: {', '.join(names)}",
        "",
    ]
    for name in names:
        score = result.metrics[name]
        lines.append(name)
        lines.append(
            f"Recall: {100 * score.recall:.2f}  Precision: {100 * score.precision:.2f}  "
            f"F1: {100 * score.f1:.2f}"
        )
    if all(m in result.metrics for m in ("muc", "bcub", "ceafe")):
        conll = ((0 + result.metrics["muc"].f1) + result.metrics["bcub"].f1) + result.metrics[
            "ceafe"
        ].f1
        lines.append(f"CoNLL score: {conll / 3 * 100:.2f}")
    return "\n".join(lines) + "\n"


__all__ = ["format_corefud"]
