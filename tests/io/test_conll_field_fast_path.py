"""The one-item fast path of the CoNLL coreference-field parser.

A field with a trailing "|" always goes through the regular expression, and
the "|" adds no item, so ``field`` and ``field + "|"`` must parse alike.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corefscore.errors import InputError
from corefscore.io.conll import _parse_field


def parse_or_error(field: str) -> object:
    try:
        return _parse_field(field, "f.conll", 1)
    except InputError:
        return "error"


@given(st.text(alphabet="()|+-0123456789١²x", max_size=8))
def test_fast_path_agrees_with_the_regular_expression(field: str) -> None:
    assert parse_or_error(field) == parse_or_error(field + "|")


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("(7)", (("7",), (), (), ())),
        ("(007", ((), ("007",), (), ())),
        ("12)", ((), (), ("12",), ())),
        ("(١)", (("١",), (), (), ())),  # \d and isdecimal() both accept Unicode digits
        ("(²)", "error"),  # a superscript is a digit, but not a decimal one
        ("()", "error"),
        (")", "error"),
    ],
)
def test_one_item_fields(field: str, expected: object) -> None:
    assert parse_or_error(field) == expected
