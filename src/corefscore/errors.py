"""Typed errors raised by corefscore.

The library never prints or exits: it raises these, and the command line maps
them to exit codes (1 for ``InputError``, 2 for ``UsageError``).

A message names options the way its reader sets them: ``str(error)`` speaks
of the library's keyword options (``duplicates="first"``), and
``CorefScoreError.cli_message`` of the command line's flags
(``--duplicates first``). Messages mark an option with ``option``.
"""

from __future__ import annotations

import re

# An option named in a message, between two private-use characters that no
# input text is expected to hold: \ue000name\ue001 or \ue000name=value\ue001. Compiled
# on first use (by re's cache): a run without an error message never needs it.
_OPTION = "\ue000([a-z_]+)(?:=([^\ue001]*))?\ue001"
# Library options whose command-line flag has another name.
_FLAGS = {"matching": "match", "per_document": "per-document"}


# The value of an option named without one (``key_format``, ``--key-format``).
_BARE = "\ue002"


def option(name: str, value: object = None) -> str:
    """Mark option ``name`` set to ``value`` in an error message; with no value, a
    switch that is on (``gold_mentions=True``, ``--gold-mentions``)."""
    return f"\ue000{name}\ue001" if value is None else f"\ue000{name}={value}\ue001"


def option_name(name: str) -> str:
    """Mark the name of option ``name`` alone (``key_format``, ``--key-format``)."""
    return option(name, _BARE)


def render_options(text: str, *, cli: bool) -> str:
    """``text`` with its marked options as keywords, or as flags when ``cli``."""

    def replace(match: re.Match[str]) -> str:
        name, value = match.group(1), match.group(2)
        if cli:
            flag = "--" + _FLAGS.get(name, name.replace("_", "-"))
            return flag if value is None or value == _BARE else f"{flag} {value}"
        if value == _BARE:
            return name
        if value is None:
            return f"{name}=True"
        return f"{name}={value if value.lstrip('-').isdigit() else repr(value)}"

    return re.sub(_OPTION, replace, text)


class CorefScoreError(Exception):
    """Base class of every error corefscore raises on purpose."""

    def __str__(self) -> str:
        return render_options(super().__str__(), cli=False)

    def cli_message(self) -> str:
        """The message with options named as command-line flags."""
        return render_options(super().__str__(), cli=True)


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
    """``text`` itself (e.g. JSON) for an error message, cut like ``shown``."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


class UsageError(CorefScoreError):
    """An option or argument that makes no sense (unknown metric, bad policy name...)."""
