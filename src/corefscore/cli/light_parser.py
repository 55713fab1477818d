"""The command lines argparse would read one way, read without argparse.

Importing argparse (and gettext, which it imports) and building a command's
parser were about a fifth of the CPU of `corefscore score` on a small file,
for command lines that are nearly always a command, its files and a few
exact options. Each command still declares its options in one place, its
``add_parser()``: :func:`parse_light` runs that declaration against a
recorder and reads the line by the recorded options when every word has one
plain meaning:

* the command's positionals, each one word (``nargs`` unset), none ``-``;
* options by their exact flags: ``--format json``, ``--format=json``, ``-o
  FILE``, switches (``store_true``/``store_false``), repeated ``append``
  options, ``dest``, ``type``, ``choices``, ``default`` and ``required``.

Anything else gives ``None`` and argparse reads the line, with its errors
and help: ``-h``, abbreviations, joined short flags, ``--``, a value that
starts with ``-`` or fails its ``type`` or ``choices``, a missing or extra
word, a command with sub-commands, ``nargs`` or another action. So a
namespace from here is the one argparse would return
(tests/test_cli_light_parser.py checks that on random command lines).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence

    from .parser import Command

#: argparse.SUPPRESS, whose value is part of argparse's interface.
SUPPRESS = "==SUPPRESS=="
#: The actions read here; an option with another (or with nargs or const) is
#: argparse's to read when it is given.
_PLAIN = frozenset({None, "store", "store_true", "store_false", "append"})
#: The defaults of argparse's actions when none is given (an Action class has its own).
_DEFAULTS: dict[str | None, Any] = {None: None, "store": None, "append": None}
_DEFAULTS |= {"store_true": False, "store_false": True, "store_const": None}
_DEFAULTS |= {"append_const": None, "count": None, "extend": None}
_DEFAULTS |= {"help": SUPPRESS, "version": SUPPRESS}


class _Unsupported(Exception):
    """The command line (or the declaration) needs argparse."""


class _Option:
    __slots__ = ("action", "choices", "default", "dest", "plain", "required", "type")

    def __init__(self, dest: str, kwargs: dict[str, Any]) -> None:
        action = kwargs.get("action")
        try:
            self.default = kwargs.get("default", _DEFAULTS[action])
        except (KeyError, TypeError):
            raise _Unsupported from None  # an Action class: its default is its own
        self.dest = dest
        self.action = action
        self.type: Callable[[str], Any] | None = kwargs.get("type")
        self.choices = kwargs.get("choices")
        self.required = bool(kwargs.get("required", False))
        self.plain = (
            action in _PLAIN and kwargs.get("nargs") is None and kwargs.get("const") is None
        )

    @property
    def switch(self) -> bool:
        return self.action in ("store_true", "store_false")

    def convert(self, word: str) -> Any:
        """``word`` by the option's ``type``; _Unsupported where argparse would
        report an error."""
        try:
            return word if self.type is None else self.type(word)
        except Exception as exc:
            raise _Unsupported from exc

    def value(self, word: str) -> Any:
        """``word`` converted and checked against the choices, as argparse does."""
        value = self.convert(word)
        if self.choices is not None and value not in self.choices:
            raise _Unsupported
        return value


class _Recorder:
    """Takes a command's ``add_parser()`` calls in place of argparse's parser."""

    def __init__(self) -> None:
        self.positionals: list[_Option] = []
        self.flags: dict[str, _Option] = {}
        self.options: list[_Option] = []

    def add_argument(self, *names: str, **kwargs: Any) -> None:
        if not names[0].startswith("-"):
            positional = _Option(names[0], kwargs)
            if len(names) != 1 or not positional.plain or positional.action is not None:
                raise _Unsupported
            if {"dest", "required", "default"} & set(kwargs):
                raise _Unsupported
            self.positionals.append(positional)
            return
        dest = kwargs.get("dest")
        if dest is None:
            # argparse's rule: the first long flag, else the first flag.
            dest = next((n for n in names if n.startswith("--")), names[0])
            dest = dest.lstrip("-").replace("-", "_")
        option = _Option(dest, kwargs)
        for name in names:
            if not name.startswith("-") or name in self.flags or name == "--":
                raise _Unsupported
            self.flags[name] = option
        self.options.append(option)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> _Recorder:
        return self

    def __getattr__(self, name: str) -> Any:
        # add_subparsers, add_mutually_exclusive_group, set_defaults: argparse's.
        raise _Unsupported


class _Subparsers:
    def __init__(self, name: str) -> None:
        self.name = name
        self.recorder: _Recorder | None = None

    def add_parser(self, name: str, **kwargs: Any) -> _Recorder:
        if name != self.name or self.recorder is not None or "aliases" in kwargs:
            raise _Unsupported
        self.recorder = _Recorder()
        return self.recorder

    def __getattr__(self, name: str) -> Any:
        raise _Unsupported


def parse_light(command: Command, words: Sequence[str]) -> argparse.Namespace | None:
    """``words`` (the command's name, then its arguments) as argparse would read them
    with ``command``'s parser, or ``None`` where argparse is needed."""
    if not words or words[0] != command.NAME:
        return None
    subparsers = _Subparsers(command.NAME)
    try:
        command.add_parser(subparsers)  # type: ignore[arg-type]
    except Exception:
        # Whatever the recorder cannot stand in for is argparse's to read.
        return None
    if subparsers.recorder is None:
        return None
    try:
        values = _read(subparsers.recorder, words[1:])
    except _Unsupported:
        return None
    return SimpleNamespace(command=command.NAME, **values)  # type: ignore[return-value]


def _read(recorder: _Recorder, words: Sequence[str]) -> dict[str, Any]:
    given: dict[str, Any] = {}
    seen: set[str] = set()
    positionals: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("-"):
            positionals.append(word)
            continue
        name, equals, attached = word.partition("=")
        option = recorder.flags.get(name if equals and word.startswith("--") else word)
        if option is None or not option.plain:
            raise _Unsupported
        seen.add(option.dest)
        if option.switch:
            if equals:
                raise _Unsupported
            given[option.dest] = option.action == "store_true"
            continue
        if not equals:
            if i == len(words) or words[i].startswith("-"):
                raise _Unsupported
            attached = words[i]
            i += 1
        value = option.value(attached)
        if option.action == "append":
            previous = given.get(option.dest)
            if previous is None:
                default = option.default
                previous = [] if default is None else list(default)
            given[option.dest] = [*previous, value]
        else:
            given[option.dest] = value
    if len(positionals) != len(recorder.positionals):
        raise _Unsupported
    values: dict[str, Any] = {}
    for option in recorder.options:
        # Options that share a dest: argparse keeps the first one's default.
        if option.dest in seen or option.dest in values:
            continue
        if option.required:
            raise _Unsupported
        default = option.default
        if isinstance(default, str) and default == SUPPRESS:
            continue
        # argparse converts a default given as a string, unchecked.
        values[option.dest] = option.convert(default) if isinstance(default, str) else default
    for positional, word in zip(recorder.positionals, positionals):
        values[positional.dest] = positional.value(word)
    values.update(given)
    return values
