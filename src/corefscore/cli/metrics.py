"""corefscore metrics: every metric with its definition and citation."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from .parser import EXIT_OK, Subparsers

if TYPE_CHECKING:
    import argparse

NAME = "metrics"


def add_parser(subparsers: Subparsers) -> None:
    subparsers.add_parser(
        NAME,
        help="list every metric with its definition and citation",
        description="List every metric corefscore computes, with a one-line definition and "
        "its citation.",
    ).add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    from ..report.catalogue import format_metric_catalogue

    sys.stdout.write(format_metric_catalogue(fmt=args.format))
    return EXIT_OK
