"""The exact limb sums behind CorefMetric's state (no torch needed)."""

from __future__ import annotations

import math
import random
import struct
import sys

import pytest

from corefscore.errors import InputError
from corefscore.integrations import _exact


def _random_float(rnd: random.Random) -> float:
    kind = rnd.random()
    if kind < 0.1:  # subnormal
        value: float = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(52)))[0]
        return value
    if kind < 0.2:  # anywhere in the range, either sign
        return rnd.uniform(-1, 1) * 2.0 ** rnd.randint(-1074, 1000)
    return rnd.random() * 10 ** rnd.randint(-5, 12)  # what statistics look like


def test_limb_sums_round_as_fsum() -> None:
    rnd = random.Random(11)
    for _ in range(500):
        values = [_random_float(rnd) for _ in range(rnd.randint(0, 40))]
        row = [0.0] * _exact.LIMBS
        for value in values:
            _exact.add_into(row, value)
        assert _exact.decode(row) == math.fsum(values)


def test_split_sums_and_carries_stay_exact() -> None:
    # Three "processes" each add their share; adding their limb rows elementwise
    # (what a sum all-reduce does) gives the same bits as fsum of everything.
    values = [0.1] * 1000 + [1 / 3] * 777 + [1e-300, 2.5e12, sys.float_info.max / 1e6]
    rows = [[0.0] * _exact.LIMBS for _ in range(3)]
    for i, value in enumerate(values):
        _exact.add_into(rows[i % 3], value)
    summed = [sum(column) for column in zip(*rows)]
    assert _exact.decode(summed) == math.fsum(values)
    tenths = [0.1] * 1000
    row = [0.0] * _exact.LIMBS
    for value in tenths:
        _exact.add_into(row, value)
    assert _exact.decode(row) == math.fsum(tenths) == 100.0
    assert math.fsum(tenths) != sum(tenths) or sys.version_info >= (3, 12)  # naive: 99.99...
    assert all(limb == int(limb) and abs(limb) < 2**53 for limb in summed)


def test_encoding() -> None:
    assert _exact.LIMBS == 66
    assert _exact.encode(0.0) == []
    # 1.0 = 2**1074 * 2**-1074: bit 1074 is bit 18 of limb 33.
    assert _exact.encode(1.0) == [(33, 1 << 18)]
    assert _exact.encode(-1.5) == [(33, -(3 << 17))]
    assert _exact.encode(5e-324) == [(0, 1)]
    assert _exact.decode([0.0] * 33 + [float(1 << 18)]) == 1.0
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(InputError, match="not finite"):
            _exact.encode(bad)
