"""corefscore lab: the papers' controlled experiments, with every metric."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..errors import UsageError
from .output import emit
from .parser import EXIT_OK, Subparsers, add_output_options

if TYPE_CHECKING:
    import argparse

NAME = "lab"


def add_parser(subparsers: Subparsers) -> None:
    lab = subparsers.add_parser(
        NAME,
        help="regenerate the papers' controlled experiments with every metric",
        description="Run a controlled experiment of Luo 2005 or Moosavi & Strube 2016 on "
        "artificial responses, with every metric; print or save the numbers and plot them. "
        "'corefscore lab --list' lists the experiments.",
    )
    lab.add_argument("experiment", metavar="EXPERIMENT", nargs="?")
    lab.add_argument("--list", action="store_true", help="list the experiments")
    lab.add_argument("-m", "--metric", action="append", metavar="NAME")
    lab.add_argument(
        "--plot", metavar="FILE", help="also plot F1 against the experiment's x (.png or .svg)"
    )
    add_output_options(lab, ("text", "json", "csv"))


def run(args: argparse.Namespace) -> int:
    from ..analysis.lab import EXPERIMENTS, format_experiments, format_lab, run_experiment

    if args.list:
        sys.stdout.write(format_experiments())
        return EXIT_OK
    if args.experiment is None:
        raise UsageError("name an experiment (see 'corefscore lab --list')")
    if args.experiment not in EXPERIMENTS:
        raise UsageError(
            f"unknown experiment {args.experiment!r}; choose one of {', '.join(EXPERIMENTS)}"
        )
    result = run_experiment(args.experiment, metrics=args.metric)
    if args.plot:
        from ..report.plots import plot_lab

        plot_lab(result, args.plot)
    emit(format_lab(result, fmt=args.format), args)
    return EXIT_OK
