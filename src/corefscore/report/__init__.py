"""Output formats for score results (the CLI chooses one; the library returns data)."""

from .perl import format_perl
from .text import format_text

__all__ = ["format_perl", "format_text"]
