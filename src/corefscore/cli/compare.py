"""corefscore compare: paired significance tests and a ranking of several systems."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .output import emit, percent_of, warn
from .parser import (
    EXIT_OK,
    MATCHINGS,
    POLICIES,
    Subparsers,
    add_compat_options,
    add_number_options,
    add_output_options,
    evaluation_of,
    names_option,
)

if TYPE_CHECKING:
    import argparse

NAME = "compare"


def add_parser(subparsers: Subparsers) -> None:
    cmp = subparsers.add_parser(
        NAME,
        help="paired significance tests and a ranking of several systems",
        description="Score every SYSTEM against KEY and test each pair per document: "
        "approximate randomization (Noreen 1989; default) or a paired bootstrap, with a "
        "Holm correction across pairs. Systems are ranked by the chosen metric, sharing a "
        "rank where differences are not significant (as Moosavi & Strube 2016, Table 5).",
    )
    cmp.add_argument("key", metavar="KEY")
    cmp.add_argument("systems", metavar="SYSTEM", nargs="+", help="system outputs (2 or more)")
    cmp.add_argument("-m", "--metric", action="append", metavar="NAME", help="metrics tested")
    cmp.add_argument(
        "--rank-by", default="conll", metavar="NAME", help="metric of the ranking (conll)"
    )
    cmp.add_argument("--test", choices=("ar", "bootstrap"), default="ar")
    cmp.add_argument("--trials", type=int, default=10000, help="resamples or swaps (10000)")
    cmp.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    cmp.add_argument(
        "--seed", type=int, default=0, help="random seed (default 0: the same p-values every run)"
    )
    cmp.add_argument("--duplicates", choices=POLICIES, help="repeated spans (default: reference)")
    add_compat_options(cmp)
    cmp.add_argument(
        "--match",
        choices=MATCHINGS,
        help="how response mentions meet key mentions (default exact; corefud: head)",
    )
    cmp.add_argument(
        "--singletons",
        choices=("keep", "drop"),
        help="keep or drop one-mention entities (default keep; corefud: drop)",
    )
    cmp.add_argument(
        "--names",
        metavar="A,B,...",
        help="system names, comma-separated, in SYSTEM order (default: what tells the file "
        "names apart)",
    )
    add_output_options(cmp, ("text", "json", "csv", "markdown", "latex"))
    add_number_options(cmp)


def run(args: argparse.Namespace) -> int:
    from .._record import replace
    from ..io import read_corefud, read_corpus
    from ..report.stats import format_ranking
    from ..scorer import score_corpora
    from ..stats import compare_systems

    if len(args.systems) < 2:
        raise UsageError("compare needs at least two systems")
    if args.trials < 1 or not 0 < args.alpha < 1:
        raise UsageError("--trials must be >= 1 and --alpha between 0 and 1")
    statistics: dict[str, Any] = {}
    # Every asked metric is tested and shown; the ranking metric is always among them.
    metrics = list(dict.fromkeys(args.metric or ["conll"]))
    if args.rank_by not in metrics:
        metrics.append(args.rank_by)
    names = names_option(args.names, args.systems)
    evaluation = evaluation_of(args, metrics=metrics, corefud=True)
    read = read_corefud if evaluation.compat == "corefud" else read_corpus
    key = read(args.key, side="key")
    for name, path in zip(names, args.systems):
        response = read(path, side="response")
        result = score_corpora(key, response, evaluation=evaluation)
        warn(result.warnings, args.quiet)
        statistics[name] = result.document_statistics
    ranking = compare_systems(
        statistics,
        metric=args.rank_by,
        alpha=args.alpha,
        trials=args.trials,
        seed=args.seed,
        test=args.test,
        metrics=evaluation.metrics,
    )
    signature = evaluation.signature(significance=(args.test, args.trials, args.seed, args.alpha))
    ranking = replace(ranking, signature=signature)
    percent = percent_of(args, evaluation.compat)
    emit(format_ranking(ranking, fmt=args.format, percent=percent), args)
    return EXIT_OK
