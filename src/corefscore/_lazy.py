"""Module attributes imported on first use (PEP 562).

A module whose names would cost start-up to create (dataclasses, submodules)
lists them with the module each comes from::

    __getattr__ = lazy_attributes(globals(), {"Entity": "._entity"})

The first read imports the source and keeps the value in the module, so later
reads cost what a module attribute costs. Type checkers see the names through
imports under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(namespace: dict[str, Any], sources: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for the names of ``sources`` (name -> module,
    relative to the module's package), kept in ``namespace`` once read."""
    module, package = namespace["__name__"], namespace["__package__"]

    def __getattr__(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source, package), name)
        namespace[name] = value
        return value

    return __getattr__
