"""Percentages as the reference scorer prints them, and the formatter's value semantics."""

from __future__ import annotations

import pytest

from corefscore.errors import UsageError
from corefscore.report.numbers import PERCENT, Percent


def test_truncates_as_the_reference_scorer_prints() -> None:
    # scorer.pl prints int(x * 10000) / 100: 2/3 is 66.66, not 66.67.
    assert PERCENT(2 / 3) == "66.66"
    assert PERCENT(1 / 3) == "33.33"
    assert PERCENT(1.0) == "100.00"
    assert Percent(digits=4)(2 / 3) == "66.6666"


def test_half_even_rounds() -> None:
    assert Percent(rounding="half-even")(2 / 3) == "66.67"
    assert Percent(digits=0, rounding="half-even")(0.125) == "12"


def test_notes_say_what_was_printed() -> None:
    assert PERCENT.note == "percentages truncated to 2 decimals, as scorer.pl prints them"
    note = Percent(digits=3, rounding="half-even", printed_by=None).note
    assert note == "percentages rounded half to even to 3 decimals"


@pytest.mark.parametrize(("digits", "rounding"), [(-1, "truncate"), (13, "truncate"), (2, "up")])
def test_bad_settings_are_usage_errors(digits: int, rounding: str) -> None:
    with pytest.raises(UsageError):
        Percent(digits=digits, rounding=rounding)


def test_the_shared_default_cannot_change() -> None:
    with pytest.raises(AttributeError, match="immutable"):
        PERCENT.digits = 4  # type: ignore[misc]
    assert PERCENT.digits == 2


def test_compared_and_hashed_by_value() -> None:
    assert Percent() == PERCENT
    assert hash(Percent()) == hash(PERCENT)
    assert Percent(digits=3) != PERCENT
    assert PERCENT != (2, "truncate", "scorer.pl")
    assert repr(PERCENT) == "Percent(digits=2, rounding='truncate', printed_by='scorer.pl')"
