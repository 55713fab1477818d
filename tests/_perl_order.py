"""The reference scorer sums documents in Perl hash order, which is random per
run. A printed percentage can therefore differ between two runs of the
reference itself. These helpers decide whether a printed string is one the
reference can produce from the per-document values."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice, permutations

from corefscore.metrics.base import f_measure, ratio
from corefscore.report.perl import perl_number, perl_percent


def _sequential(values: Sequence[float]) -> float:
    total = 0.0
    for v in values:
        total += v
    return total


def printed_under_some_order(
    per_document: Sequence[tuple[float, float, float, float]],
    expected: dict[str, str],
    limit: int = 50_000,
) -> bool:
    """True if summing the documents in some order prints ``expected``."""
    rd = _sequential([d[1] for d in per_document])
    pd = _sequential([d[3] for d in per_document])
    for order in islice(permutations(range(len(per_document))), limit):
        rn = _sequential([per_document[i][0] for i in order])
        pn = _sequential([per_document[i][2] for i in order])
        r, p = ratio(rn, rd), ratio(pn, pd)
        got = {
            "rn": perl_number(rn),
            "pn": perl_number(pn),
            "r_pct": perl_percent(r),
            "p_pct": perl_percent(p),
            "f1_pct": perl_percent(f_measure(r, p)),
        }
        if all(expected[k] == v for k, v in got.items()):
            return True
    return False
