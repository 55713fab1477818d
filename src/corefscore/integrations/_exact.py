"""Exact sums of floats as vectors of integer limbs, for states that are added elementwise.

A finite double ``x`` is an integer multiple of 2**-1074, so ``x * 2**1074``
is an integer ``N`` below 2**2098; written in base 2**32, it is ``LIMBS``
limbs. A document's statistic touches at most three of them (a double has 53
significant bits). Limbs are kept as float64 holding integers: adding two
limb vectors elementwise is exact as long as every limb stays below 2**53,
which the owner of the vectors ensures by carrying each limb's excess over
2**32 (``BASE``) into the next after adding (``CorefMetric`` does after every
update).
Any number of vectors added in any order, on any number of processes, hence
hold the exact sum; ``decode`` rounds it once, correctly, to the double that
``math.fsum`` of the same values returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..errors import InputError

LIMB_BITS = 32
#: 2**-1074 is the smallest double: every finite double times 2**SHIFT is an integer.
SHIFT = 1074
#: Limbs per value: 1074 + 1024 bits, rounded up to whole limbs.
LIMBS = -(-(SHIFT + 1024) // LIMB_BITS)
BASE = float(1 << LIMB_BITS)
_MASK = (1 << LIMB_BITS) - 1


def encode(value: float) -> list[tuple[int, int]]:
    """The nonzero limbs of ``float(value)``: (index, integer limb), the limbs sharing its sign."""
    x = float(value)
    if not math.isfinite(x):
        raise InputError(f"a metric statistic is not finite: {x!r}")
    if x == 0:
        return []
    numerator, denominator = x.as_integer_ratio()
    sign = 1 if numerator > 0 else -1
    scaled = abs(numerator) << (SHIFT - (denominator.bit_length() - 1))
    index = ((scaled & -scaled).bit_length() - 1) // LIMB_BITS
    scaled >>= index * LIMB_BITS
    out: list[tuple[int, int]] = []
    while scaled:
        out.append((index, sign * (scaled & _MASK)))
        scaled >>= LIMB_BITS
        index += 1
    return out


def decode(limbs: Iterable[float]) -> float:
    """The correctly rounded value of limbs (integer-valued floats, any size below 2**53)."""
    total = 0
    for index, limb in enumerate(limbs):
        if limb:
            total += int(limb) << (index * LIMB_BITS)
    # int / int is correctly rounded in CPython, as math.fsum is.
    return total / (1 << SHIFT)


def add_into(row: list[float], value: float) -> None:
    """Add the limbs of ``value`` to ``row`` (a dense list of ``LIMBS`` limbs)."""
    for index, limb in encode(value):
        row[index] += limb


__all__ = ["BASE", "LIMBS", "LIMB_BITS", "SHIFT", "add_into", "decode", "encode"]
