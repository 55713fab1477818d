"""How percentages are printed: the digits of published tables.

Published CoNLL tables come from the reference scorer, which truncates each
percentage to two decimals (``int(x * 10000) / 100``): 0.706999 prints as
70.69, where rounding would print 70.70. corefscore prints the same digits by
default, and ``--digits N`` / ``--round half-even`` choose others. Only the
printed text changes; results keep full precision (JSON and CSV print them
whole).
"""

from __future__ import annotations

import math

from ..errors import UsageError, option

ROUNDINGS = ("truncate", "half-even")


# A plain class, not a dataclass: generating a dataclass's methods costs about
# half a millisecond of the start-up of `corefscore score`.
class Percent:
    """Fractions as percentages with ``digits`` decimals, truncated or rounded half to even.

    ``printed_by`` is the official scorer that prints these digits, for the
    note (``None``: say none).
    """

    __slots__ = ("digits", "printed_by", "rounding")
    digits: int
    rounding: str
    printed_by: str | None

    def __init__(
        self, digits: int = 2, rounding: str = "truncate", printed_by: str | None = "scorer.pl"
    ) -> None:
        if not 0 <= digits <= 12:
            raise UsageError(f"{option('digits', digits)} must be between 0 and 12")
        if rounding not in ROUNDINGS:
            raise UsageError(
                f"{option('round', rounding)} is not a rounding; choose {' or '.join(ROUNDINGS)}"
            )
        set_field = object.__setattr__
        set_field(self, "digits", digits)
        set_field(self, "rounding", rounding)
        set_field(self, "printed_by", printed_by)

    # Immutable and compared by value, as the dataclass it replaced: PERCENT is the
    # default of every formatter, which must not change under them.
    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Percent is immutable; make another (cannot set {name!r})")

    def _fields(self) -> tuple[int, str, str | None]:
        return (self.digits, self.rounding, self.printed_by)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Percent) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        digits, rounding, printed_by = self._fields()
        return f"Percent({digits=!r}, {rounding=!r}, {printed_by=!r})"

    def __call__(self, fraction: float) -> str:
        if self.rounding == "truncate":
            # The reference's operation order (for 2 digits, int(x * 10000) / 100),
            # so that the printed digits are its digits.
            scale = 10 ** (self.digits + 2)
            value = math.trunc(fraction * scale) / 10**self.digits
            return f"{value:.{self.digits}f}"
        return f"{100 * fraction:.{self.digits}f}"

    @property
    def note(self) -> str:
        """What the printed percentages are, for the foot of a table."""
        by = f", as {self.printed_by} prints them" if self.printed_by else ""
        if self.rounding == "truncate":
            return f"percentages truncated to {self.digits} decimals{by}"
        return f"percentages rounded half to even to {self.digits} decimals{by}"


#: The default: two decimals, truncated, as the reference scorer and published tables.
PERCENT = Percent()

__all__ = ["PERCENT", "ROUNDINGS", "Percent"]
