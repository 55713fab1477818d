"""corefscore score: a response against a key.

:func:`run` is the whole command: (1) the options, (2) the inputs, (3) the
scores, (4) the output. The other engines (Dask, the columnar engine of
cross-document scoring and mention tables) and the regimes table are
branches of their own, in :mod:`.engines`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._record import NamedTuple
from ..errors import UsageError
from . import engines
from .output import percent_of, render, render_json, warn
from .parser import (
    CEAF_FAMILY,
    EXIT_OK,
    METRICS,
    Subparsers,
    add_bootstrap_options,
    add_number_options,
    add_pair_options,
    evaluation_of,
    reading_options,
    with_anaphora_metrics,
)

if TYPE_CHECKING:
    import argparse

    from ..evaluation import Evaluation
    from ..metrics.ceaf import EntityAlignment
    from ..pipeline import Side
    from ..report.progress import ProgressBar
    from ..result import ScoreResult
    from ..stats import BootstrapResult

NAME = "score"
FORMATS = ("text", "json", "perl", "corefud", "csv", "markdown", "latex")


class Options(NamedTuple):
    """What the command line asks of the scorer."""

    #: The metrics shown (the evaluation also computes the mention line of ``--format perl``).
    metrics: tuple[str, ...]
    evaluation: Evaluation


def add_parser(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        NAME,
        help="score a response file against a key file",
        description="Score RESPONSE against KEY (CoNLL-2011/2012 or SemEval-2010 files, .gz ok). "
        "Numbers equal the official CoNLL reference scorer v8.01 (LEA: its LEA branch) unless "
        "a regime option or a variant metric is chosen.",
    )
    add_pair_options(p)
    p.add_argument(
        "-m",
        "--metric",
        action="append",
        metavar="NAME",
        help=f"metric(s) to compute, repeatable or comma-separated: {', '.join(METRICS)}, "
        "conll, all (default: all), or a variant listed by 'corefscore metrics'",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: aligned table (default); json: stable schema; "
        "perl: the reference scorer's TOTALS blocks, byte for byte; corefud: corefud-scorer's "
        "lines (CorefUD evaluation); csv (full precision, "
        "per document too with --per-document), markdown and latex: tables for papers",
    )
    p.add_argument(
        "--per-document", action="store_true", help="also report every document's scores"
    )
    _add_selection_options(p)
    add_bootstrap_options(
        p, None, "percentile confidence intervals from N resamples of the documents"
    )
    add_number_options(p)
    p.add_argument(
        "--show-alignment",
        nargs="?",
        const="ceafe",
        choices=CEAF_FAMILY,
        metavar="CEAF",
        help="also print each document's optimal CEAF entity alignment "
        f"({', '.join(CEAF_FAMILY)}; default ceafe)",
    )
    engines.add_engine_options(p)


def _add_selection_options(p: argparse.ArgumentParser) -> None:
    """What is scored: some documents, some mentions, every regime."""
    p.add_argument(
        "--doc",
        action="append",
        metavar="NAME",
        help="score only this document (repeatable); NAME as on its '#begin document' line",
    )
    p.add_argument(
        "--gold-mentions",
        action="store_true",
        help="score only response mentions that have a key twin (Stoyanov et al. 2009's "
        "'perfect CEs')",
    )
    p.add_argument(
        "--anaphoric-only",
        action="store_true",
        help="score only mentions of non-singleton key entities and their response twins",
    )
    p.add_argument(
        "--regimes",
        action="store_true",
        help="score under every evaluation regime side by side (as given, singletons dropped, "
        "gold mentions, anaphoric only, nested removed)",
    )


def run(args: argparse.Namespace) -> int:
    """Score RESPONSE against KEY and write the scores to stdout.

    (1) the options, as one evaluation; (2) the inputs, read; (3) the scores,
    by the engine the pipeline chooses (or the Dask cluster); (4) the output:
    warnings, bootstrap intervals, alignments, rendering.
    """
    options = _options(args)  # (1)
    inputs: tuple[Side, Side] | None = None
    if args.engine == "dask":
        result = engines.score_dask(args, options.evaluation)  # (2, 3) on a Dask cluster
    else:
        inputs = _read(args, options)  # (2)
        if args.regimes:
            return engines.score_regimes(args, *inputs, options.evaluation)  # (3, 4)
        result = _score(args, *inputs, options)  # (3)
    warn(result.warnings, args.quiet)  # (4)
    intervals = None
    if args.bootstrap is not None:
        result, intervals = _bootstrap(args, options, result)
    alignments = _alignments(args, inputs, options) if args.show_alignment else None
    sys.stdout.write(_render(args, options, result, intervals, alignments))
    return EXIT_OK


#: Formats that print an official scorer's own lines, and nothing else.
_SCORER_OUTPUTS = ("perl", "corefud")

# Combinations that have no meaning: (is it asked for, why not).
_CONFLICTS: tuple[tuple[Callable[[argparse.Namespace], Any], str], ...] = (
    (
        lambda a: a.format in _SCORER_OUTPUTS and a.per_document,
        "--per-document is not available with --format perl or corefud",
    ),
    (
        lambda a: a.regimes and (a.format in _SCORER_OUTPUTS or a.per_document or a.show_alignment),
        "--regimes prints one table; it cannot be combined with --format perl or corefud, "
        "--per-document or --show-alignment",
    ),
    (
        lambda a: a.show_alignment and a.format in _SCORER_OUTPUTS,
        "--show-alignment is not available with --format perl or corefud",
    ),
    (
        lambda a: a.bootstrap is not None and a.format in _SCORER_OUTPUTS,
        "--bootstrap is not available with --format perl or corefud",
    ),
    (
        lambda a: a.engine != "dask" and (a.scheduler is not None or a.workers is not None),
        "--scheduler and --workers need --engine dask",
    ),
    (
        lambda a: a.cross_document and (a.bootstrap is not None or a.regimes or a.show_alignment),
        "--bootstrap, --regimes and --show-alignment need per-document scoring; "
        "--cross-document scores one partition of the whole corpus",
    ),
    (
        lambda a: a.engine == "dask" and (a.regimes or a.show_alignment),
        "--regimes and --show-alignment are not available with --engine dask",
    ),
)


def _options(args: argparse.Namespace) -> Options:
    """The metrics shown and the one evaluation; options that cannot go together."""
    from ..metrics import resolve_metrics

    for asked, why in _CONFLICTS:
        if asked(args):
            raise UsageError(why)
    evaluation = evaluation_of(args, corefud=True)
    if evaluation.compat == "corefud":
        if args.regimes or args.show_alignment:
            raise UsageError(
                "--regimes and --show-alignment work on the CoNLL evaluation; add --compat conll"
            )
        if args.format == "perl":
            raise UsageError(
                "--format perl prints the CoNLL reference scorer's output; the CorefUD "
                "evaluation prints as corefud-scorer with --format corefud"
            )
        return Options(evaluation.metric_names, evaluation)
    if args.format == "corefud":
        raise UsageError(
            "--format corefud prints the CorefUD evaluation's output: two CoNLL-U files, or "
            "--compat corefud"
        )
    if evaluation.compat == "ua":
        if args.format == "perl":
            raise UsageError(
                "--format perl prints the CoNLL reference scorer's output; choose --compat "
                "conll for it"
            )
        return Options(evaluation.metric_names, evaluation)
    metrics = resolve_metrics(with_anaphora_metrics(args, args.metric))
    computed = metrics
    if args.format == "perl" and "mentions" not in metrics:
        # Every block of the reference output has the mention identification line.
        computed = ("mentions", *metrics)
    return Options(metrics, evaluation_of(args, metrics=computed))


def _read(args: argparse.Namespace, options: Options) -> tuple[Side, Side]:
    from ..scorer import read_pair

    return read_pair(
        args.key, args.response, evaluation=options.evaluation, **reading_options(args)
    )


def _score(args: argparse.Namespace, key: Side, response: Side, options: Options) -> ScoreResult:
    from ..scorer import score_corpora

    bar = _progress_bar()
    try:
        return score_corpora(
            key,
            response,
            evaluation=options.evaluation,
            documents=args.doc,
            per_document=args.per_document,
            engine=None if args.engine in ("auto", "python") else args.engine,
            options={"key": args.key, "response": args.response},
            progress=bar,
        )
    finally:
        if bar is not None:
            bar.close()


def _progress_bar() -> ProgressBar | None:
    """The bar of a run on a terminal. Elsewhere it would draw nothing, and its
    module is one less to load (a module costs a small run about 0.15 ms)."""
    if not getattr(sys.stderr, "isatty", lambda: False)():
        return None
    from ..report.progress import ProgressBar

    return ProgressBar("scoring documents")


def _bootstrap(
    args: argparse.Namespace, options: Options, result: ScoreResult
) -> tuple[ScoreResult, BootstrapResult]:
    """The result, its signature stating the resampling, and the intervals."""
    from .._record import replace
    from ..stats import bootstrap

    if args.bootstrap < 1 or not 0 < args.ci < 100:
        raise UsageError("--bootstrap needs N >= 1 and --ci a level between 0 and 100")
    signature = options.evaluation.signature(bootstrap=(args.bootstrap, args.seed, args.ci))
    result = replace(result, signature=signature)
    assert result.document_statistics is not None
    intervals = bootstrap(
        result.document_statistics,
        metrics=options.evaluation.metrics,
        n=args.bootstrap,
        ci=args.ci,
        seed=args.seed,
    )
    return result, intervals


def _alignments(
    args: argparse.Namespace, inputs: tuple[Side, Side] | None, options: Options
) -> dict[str, EntityAlignment]:
    """--show-alignment: each document's optimal CEAF entity alignment."""
    from ..scorer import alignments

    assert inputs is not None, "the Dask engine refuses --show-alignment"
    return alignments(
        *inputs, metric=args.show_alignment, evaluation=options.evaluation, documents=args.doc
    )


def _render(
    args: argparse.Namespace,
    options: Options,
    result: ScoreResult,
    intervals: BootstrapResult | None,
    alignments: dict[str, EntityAlignment] | None,
) -> str:
    """The scores in ``--format``, then the intervals and the alignments if asked for."""
    if args.format == "json":
        extra: dict[str, Any] = {}
        if intervals is not None:
            extra["bootstrap"] = intervals.to_dict()
        if alignments is not None:
            extra["alignments"] = {d: a.to_dict() for d, a in alignments.items()}
        return render_json(result, extra)
    percent = percent_of(args, options.evaluation.compat)
    out = render(result, args.format, options.metrics, args.per_document, percent)
    if intervals is not None:
        from ..report.stats import format_bootstrap

        fmt = args.format if args.format in ("csv", "markdown", "latex") else "text"
        out += "\n" + format_bootstrap(intervals, fmt, percent=percent)
    if alignments is not None:
        from ..report.alignment import format_alignment

        out += "\n" + format_alignment(alignments, fmt="text")
    return out
