"""numpy, imported on first use.

Importing numpy costs about four times as much as importing corefscore, and a
command on a small file, or a training loop scoring small documents, never
needs it: they run on Python lists. Modules that use numpy only in some
functions write::

    if TYPE_CHECKING:
        import numpy as np
    else:
        from ._numpy import np

Type checkers see numpy itself. At run time ``np`` imports numpy when one of
its attributes is first read, and then keeps that attribute, so later reads
cost what a module attribute costs. Module-level code must not read ``np``
(that would import numpy with the module).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_first_use: list[Callable[[], None]] = []


def on_first_use(hook: Callable[[], None]) -> None:
    """Run ``hook`` once, when ``np`` is first read (the command line tunes its
    process for array work there; the library itself adds no hook)."""
    _first_use.append(hook)


class _Numpy:
    """Stands for the numpy module until an attribute is read."""

    def __getattr__(self, name: str) -> Any:
        while _first_use:
            _first_use.pop()()
        import numpy

        value = getattr(numpy, name)
        # Only a missing attribute reaches __getattr__: the next read finds it here.
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return "<numpy, imported on first use>"


np: Any = _Numpy()
