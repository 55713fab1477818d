"""corefscore report: a self-contained HTML report of one or more systems."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UsageError
from .output import emit, warn
from .parser import (
    EXIT_OK,
    Subparsers,
    add_bootstrap_options,
    add_pair_options,
    evaluation_of,
    names_option,
    reading_options,
)

if TYPE_CHECKING:
    import argparse

NAME = "report"


def add_parser(subparsers: Subparsers) -> None:
    r = subparsers.add_parser(
        NAME,
        help="write a self-contained HTML report of one or more systems",
        description="Score every RESPONSE against KEY and write one HTML file that needs no "
        "network or server: summary with bootstrap intervals, sortable per-document scores, "
        "plots, a document viewer with missed and spurious mentions, split and merged "
        "entities and the CEAF-e alignment, each system's error categories, and for several "
        "systems the comparison and ranking of 'corefscore compare' (see docs/report.md).",
    )
    add_pair_options(r, responses=True)
    r.add_argument("-m", "--metric", action="append", metavar="NAME", help="metrics (all)")
    add_bootstrap_options(
        r, 1000, "resamples of the documents for the intervals (1000; 0 = no intervals)"
    )
    r.add_argument(
        "--names",
        metavar="A,B,...",
        help="system names, comma-separated, in RESPONSE order (default: from the file names)",
    )
    r.add_argument("--title", help="title of the page")
    r.add_argument(
        "--no-text",
        action="store_true",
        help="leave the corpus text out of the report (token positions only; licensed data)",
    )
    r.add_argument(
        "--no-errors", action="store_true", help="leave the error categories out (faster)"
    )
    r.add_argument(
        "--trials",
        type=int,
        default=10000,
        help="approximate randomization trials of the comparison of several systems (10000)",
    )
    r.add_argument("-o", "--output", metavar="FILE", help="write the HTML to FILE, not stdout")


def run(args: argparse.Namespace) -> int:
    from ..io import read_corpus
    from ..report.html import collect_report

    if args.bootstrap < 0 or not 0 < args.ci < 100:
        raise UsageError("--bootstrap needs N >= 0 and --ci a level between 0 and 100")
    if args.trials < 1:
        raise UsageError("--trials must be >= 1")
    evaluation = evaluation_of(args)
    names = names_option(args.names, args.responses)
    reading = reading_options(args)
    key = read_corpus(
        args.key,
        format=reading["key_format"],
        side="key",
        syntax=True,
        head_column=reading["head_column"],
        empty_nodes=reading["empty_nodes"],
    )
    responses = [
        (
            name,
            read_corpus(
                path,
                format=reading["response_format"],
                side="response",
                syntax=evaluation.regime.matching == "head",
                head_column=reading["head_column"],
                empty_nodes=reading["empty_nodes"],
            ),
        )
        for name, path in zip(names, args.responses)
    ]
    report = collect_report(
        key,
        responses,
        evaluation=evaluation,
        bootstrap=args.bootstrap,
        ci=args.ci,
        seed=args.seed,
        title=args.title,
        text=not args.no_text,
        errors=not args.no_errors,
        trials=args.trials,
    )
    warn(report.warnings, args.quiet)
    emit(report.to_html(), args)
    return EXIT_OK
