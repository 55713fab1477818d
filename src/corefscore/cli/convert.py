"""corefscore convert: a coreference file to another format."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .output import warn
from .parser import CONVERT_TARGETS, EXIT_OK, FORMATS, Subparsers

if TYPE_CHECKING:
    import argparse

NAME = "convert"


def add_parser(subparsers: Subparsers) -> None:
    c = subparsers.add_parser(
        NAME,
        help="convert a coreference file to another format",
        description="Read IN (any supported format, detected unless --from is given) and write "
        "OUT in the format --to. What the target cannot hold is refused with an error naming "
        "the first case, unless --lossy.",
    )
    c.add_argument("source", metavar="IN", help="file to convert")
    c.add_argument("target", metavar="OUT", help="file to write")
    c.add_argument("--to", required=True, choices=CONVERT_TARGETS, help="target format")
    c.add_argument("--from", dest="source_format", choices=FORMATS, help="format of IN")
    c.add_argument(
        "--lossy",
        action="store_true",
        help="drop what the target cannot hold (discontinuous or crossing mentions; split "
        "antecedents, non-referring markables and bridging) and warn with a count, instead "
        "of refusing",
    )
    c.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")


def run(args: argparse.Namespace) -> int:
    from ..io.convert import convert

    warnings = convert(
        args.source,
        args.target,
        to=args.to,
        source_format=args.source_format,
        lossy=args.lossy,
    )
    warn(warnings, args.quiet)
    return EXIT_OK
