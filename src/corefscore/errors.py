"""Typed errors raised by corefscore.

The library never prints or exits: it raises these, and the command line maps
them to exit codes (1 for :class:`InputError`, 2 for :class:`UsageError`).
"""

from __future__ import annotations


class CorefScoreError(Exception):
    """Base class of every error corefscore raises on purpose."""


class InputError(CorefScoreError):
    """Malformed or unreadable input, located at ``path:line`` when known.

    ``str(error)`` is one line: ``FILE:LINE: what is wrong``.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        return where + self.message


def shown(text: str, limit: int = 60) -> str:
    """``repr(text)`` for an error message, cut to about ``limit`` characters.

    A message echoes the offending text so that the user can find it, but a
    malformed field can be a whole 100 MB line: the message must stay one
    readable line.
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def clip(text: str, limit: int = 60) -> str:
    """``text`` itself (e.g. JSON) for an error message, cut like :func:`shown`."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


class UsageError(CorefScoreError):
    """An option or argument that makes no sense (unknown metric, bad policy name...)."""
