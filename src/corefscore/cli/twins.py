"""corefscore twins: missed key mentions and spurious response mentions."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from .output import warn
from .parser import EXIT_OK, Subparsers, add_pair_options, evaluation_of, reading_options

if TYPE_CHECKING:
    import argparse

NAME = "twins"


def add_parser(subparsers: Subparsers) -> None:
    t = subparsers.add_parser(
        NAME,
        help="list missed key mentions and spurious response mentions",
        description="Pair response mentions with key mentions (twins) and list, per document, "
        "the key mentions without a twin (missed), the response mentions without one "
        "(spurious), and twins whose spans differ.",
    )
    add_pair_options(t)
    t.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    from ..report.twins import format_twins
    from ..scorer import find_twins, read_pair

    evaluation = evaluation_of(args)
    key, response = read_pair(
        args.key, args.response, evaluation=evaluation, syntax=True, **reading_options(args)
    )
    warnings: list[str] = [*key.warnings, *response.warnings]
    found = find_twins(key, response, evaluation=evaluation, warnings=warnings)
    warn(warnings, args.quiet)
    sys.stdout.write(format_twins(found, fmt=args.format))
    return EXIT_OK
