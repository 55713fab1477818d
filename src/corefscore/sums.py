"""Order-independent exact summation of per-document statistics.

The reference scorer adds documents in Perl hash order, which changes from
run to run, so its corpus totals can differ from run to run in the last bit.
corefscore keeps Shewchuk's exact partial sums instead (the algorithm behind
``math.fsum``): the total is the correctly rounded sum of the per-document
values, whatever the order in which documents, workers or merged scorers
arrive.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


class ExactSum:
    """A float accumulator whose result is the correctly rounded exact sum."""

    __slots__ = ("_partials",)

    def __init__(self, values: Iterable[float] = ()) -> None:
        self._partials: list[float] = []
        for v in values:
            self.add(v)

    def add(self, value: float) -> None:
        x = float(value)
        partials = self._partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def merge(self, other: ExactSum) -> None:
        for v in other._partials:
            self.add(v)

    @property
    def value(self) -> float:
        return math.fsum(self._partials)

    def copy(self) -> ExactSum:
        out = ExactSum()
        out._partials = list(self._partials)
        return out
