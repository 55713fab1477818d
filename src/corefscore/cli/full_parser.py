"""argparse's parser of the commands: their help, their usage errors, and every
command line that :mod:`.light_parser` leaves to it."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..errors import UsageError

if TYPE_CHECKING:
    from .parser import Command


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, by the same rules (``COLUMNS``,
    then the terminal of ``sys.__stdout__``, then 80): shutil and what it
    imports (bz2, lzma, fnmatch) were a few percent of the start-up of
    `corefscore score`, for a width that only --help uses."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """argparse's parser, with usage errors raised as :class:`~corefscore.errors.UsageError`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "formatter_class" not in kwargs:
            # argparse makes a formatter for every add_argument() (to check its
            # metavar), and the stock one imports shutil for the width: the
            # width is looked up once per parser instead.
            width = _terminal_columns() - 2
            kwargs["formatter_class"] = partial(argparse.HelpFormatter, width=width)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def new_parser(commands: Iterable[Command]) -> argparse.ArgumentParser:
    """The ``corefscore`` parser with a sub-parser for each of ``commands``, in order."""
    parser = Parser(
        prog="corefscore",
        description="Exact, fast coreference scoring (MUC, B3, CEAFm, CEAFe, BLANC, LEA, CoNLL, "
        "and the variants of the founding papers).",
    )
    parser.add_argument("--version", action="version", version=f"corefscore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in commands:
        command.add_parser(sub)
    return parser
