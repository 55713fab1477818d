"""Output formats for score results (the CLI chooses one; the library returns data)."""

from .alignment import format_alignment
from .perl import format_perl
from .text import format_text

__all__ = ["format_alignment", "format_perl", "format_text"]
