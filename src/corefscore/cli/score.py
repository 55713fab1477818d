"""corefscore score: a response against a key.

:func:`run` is the whole command: (1) the options, (2) the inputs, (3) the
scores, (4) the output. The other engines (Dask, the columnar engine of
cross-document scoring and mention tables) and the regimes table are
branches of their own, in :mod:`.engines`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import UsageError
from . import engines
from .output import render, render_json, warn
from .parser import (
    CEAF_FAMILY,
    EXIT_OK,
    METRICS,
    Subparsers,
    add_bootstrap_options,
    add_pair_options,
    reading_options,
    setup_options,
)

if TYPE_CHECKING:
    from ..metrics.ceaf import EntityAlignment
    from ..model import Corpus
    from ..regimes import EvaluationSetup
    from ..result import ScoreResult
    from ..stats import BootstrapResult

NAME = "score"
FORMATS = ("text", "json", "perl", "csv", "markdown", "latex")


class Options(NamedTuple):
    """What the command line asks of the scorer."""

    #: The metrics shown.
    metrics: tuple[str, ...]
    #: The metrics computed: those shown, and the mention line of ``--format perl``.
    computed: tuple[str, ...]
    setup: EvaluationSetup


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
        "perl: the reference scorer's TOTALS blocks, byte for byte; csv (full precision, "
        "per document too with --per-document), markdown and latex: tables for papers",
    )
    p.add_argument(
        "--per-document", action="store_true", help="also report every document's scores"
    )
    _add_selection_options(p)
    add_bootstrap_options(
        p, None, "percentile confidence intervals from N resamples of the documents"
    )
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

    (1) the options; (2) the inputs, read; (3) the scores; (4) the output:
    warnings, bootstrap intervals, alignments, rendering. The Dask and
    columnar engines read and score in their own branch (2 and 3); --regimes
    writes its own table (3 and 4).
    """
    options = _options(args)  # (1)
    inputs: tuple[Corpus, Corpus] | None = None
    engine = engines.choose(args)
    if engine == "dask":
        result = engines.score_dask(args, options)  # (2, 3) on a Dask cluster
    elif engine == "columnar":
        result = engines.score_columnar(args, options)  # (2, 3) into arrays
    else:
        inputs = _read(args, options)  # (2)
        if args.regimes:
            return engines.score_regimes(args, *inputs, options)  # (3, 4)
        result = _score(args, *inputs, options)  # (3)
    warn(result.warnings, args.quiet)  # (4)
    intervals = None
    if args.bootstrap is not None:
        result, intervals = _bootstrap(args, options, result)
    alignments = _alignments(args, inputs, options) if args.show_alignment else None
    sys.stdout.write(_render(args, options, result, intervals, alignments))
    return EXIT_OK


def _options(args: argparse.Namespace) -> Options:
    """The metrics and the evaluation setup; combinations of options that cannot go together."""
    from ..metrics import resolve_metrics
    from ..regimes import EvaluationSetup

    metrics = resolve_metrics(args.metric)
    if args.format == "perl" and args.per_document:
        raise UsageError("--per-document is not available with --format perl")
    if args.regimes and (args.format == "perl" or args.per_document or args.show_alignment):
        raise UsageError(
            "--regimes prints one table; it cannot be combined with --format perl, "
            "--per-document or --show-alignment"
        )
    if args.show_alignment and args.format == "perl":
        raise UsageError("--show-alignment is not available with --format perl")
    computed = metrics
    if args.format == "perl" and "mentions" not in metrics:
        # Every block of the reference output has the mention identification line.
        computed = ("mentions", *metrics)
    return Options(metrics, computed, EvaluationSetup.create(**setup_options(args)))


def _read(args: argparse.Namespace, options: Options) -> tuple[Corpus, Corpus]:
    from ..scorer import read_pair

    return read_pair(
        args.key, args.response, setup=options.setup, syntax=False, **reading_options(args)
    )


def _score(
    args: argparse.Namespace, key: Corpus, response: Corpus, options: Options
) -> ScoreResult:
    from ..report.progress import ProgressBar
    from ..scorer import score_corpora

    bar = ProgressBar("scoring documents")
    try:
        return score_corpora(
            key,
            response,
            metrics=options.computed,
            duplicates=args.duplicates,
            documents=args.doc,
            per_document=args.per_document,
            setup=options.setup,
            options={"key": args.key, "response": args.response},
            progress=bar,
        )
    finally:
        bar.close()


def _bootstrap(
    args: argparse.Namespace, options: Options, result: ScoreResult
) -> tuple[ScoreResult, BootstrapResult]:
    """The result, its signature stating the resampling, and the intervals."""
    from dataclasses import replace

    from ..signature import make_signature
    from ..stats import bootstrap

    if args.bootstrap < 1 or not 0 < args.ci < 100:
        raise UsageError("--bootstrap needs N >= 1 and --ci a level between 0 and 100")
    signature = make_signature(
        metrics=list(result.metrics),
        duplicates=args.duplicates,
        setup=options.setup,
        bootstrap=(args.bootstrap, args.seed, args.ci),
    )
    result = replace(result, signature=signature)
    if args.format == "perl":
        raise UsageError("--bootstrap is not available with --format perl")
    assert result.document_statistics is not None
    intervals = bootstrap(
        result.document_statistics,
        metrics=list(result.metrics),
        n=args.bootstrap,
        ci=args.ci,
        seed=args.seed,
    )
    return result, intervals


def _alignments(
    args: argparse.Namespace, inputs: tuple[Corpus, Corpus] | None, options: Options
) -> dict[str, EntityAlignment]:
    """--show-alignment: each document's optimal CEAF entity alignment."""
    from ..scorer import alignments

    assert inputs is not None, "the other engines refuse --show-alignment"
    return alignments(
        *inputs,
        metric=args.show_alignment,
        duplicates=args.duplicates,
        documents=args.doc,
        setup=options.setup,
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
    out = render(result, args.format, options.metrics, args.per_document)
    if intervals is not None:
        from ..report.stats import format_bootstrap

        fmt = args.format if args.format in ("csv", "markdown", "latex") else "text"
        out += "\n" + format_bootstrap(intervals, fmt)
    if alignments is not None:
        from ..report.alignment import format_alignment

        out += "\n" + format_alignment(alignments, fmt="text")
    return out
