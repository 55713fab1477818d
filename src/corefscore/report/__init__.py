"""Output formats for score results (the CLI chooses one; the library returns data)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .perl import format_perl
    from .text import format_text


def __getattr__(name: str) -> Any:
    # Imported on first use: importing any module of the package (e.g. the
    # progress bar) runs this one, and a run prints one format only.
    value: Any
    if name == "format_perl":
        from .perl import format_perl as value
    elif name == "format_text":
        from .text import format_text as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = ["format_perl", "format_text"]
