"""The ``corefscore`` command line.

Exit codes: 0 success, 1 input error, 2 usage error. Results go to stdout,
warnings and errors to stderr, one line each.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import CorefScoreError, InputError, UsageError

if TYPE_CHECKING:
    from .model import Corpus
    from .regimes import EvaluationSetup
    from .result import ScoreResult

# Kept here, not imported, so that --help and --version load no numpy.
POLICIES = ("default", "first", "reference")
METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
MATCHINGS = ("exact", "head", "min-span", "overlap")
FORMATS = ("conll", "conllu", "jsonl", "json", "sgml")
CONVERT_TARGETS = ("conll", "conllu", "jsonl", "json")
CEAF_FAMILY = ("ceafe", "ceafm", "ceaf-phi1", "ceaf-phi2")

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _add_pair_options(p: argparse.ArgumentParser, *, responses: bool = False) -> None:
    """Options shared by every command that reads a key and a response (or several)."""
    p.add_argument("key", metavar="KEY", help="gold (key) file")
    if responses:
        p.add_argument("responses", metavar="RESPONSE", nargs="+", help="system (response) files")
    else:
        p.add_argument("response", metavar="RESPONSE", help="system (response) file")
    for side in ("key", "response"):
        p.add_argument(
            f"--{side}-format",
            choices=FORMATS,
            help=f"format of the {side} file (default: detected from its content and name)",
        )
    p.add_argument(
        "--empty-nodes",
        action="store_true",
        help="CoNLL-U: count empty nodes (zeros) as tokens, so mentions on them are scored",
    )
    p.add_argument(
        "--duplicates",
        choices=POLICIES,
        default="default",
        help="repeated spans: default = keep the first in the response (warn), error in the key; "
        "first = keep the first on both sides; reference = the reference scorer's own handling",
    )
    p.add_argument(
        "--match",
        choices=MATCHINGS,
        default="exact",
        help="how a response mention is paired with a key mention (its twin): exact span "
        "(default), same syntactic head, MUC-style MIN span, or token overlap; one-to-one",
    )
    p.add_argument(
        "--head-column",
        type=int,
        metavar="N",
        help="for --match head: read dependency heads from field N (0-based; token numbers "
        "within the sentence from 1, 0 = root); default: a SemEval-2010 HEAD column or the "
        "CoNLL-2012 parse column",
    )
    p.add_argument(
        "--singletons",
        choices=("keep", "drop"),
        default="keep",
        help="keep or drop one-mention entities, on both sides (default: keep)",
    )
    p.add_argument("--key-singletons", choices=("keep", "drop"), help="override for the key")
    p.add_argument(
        "--response-singletons", choices=("keep", "drop"), help="override for the response"
    )
    p.add_argument(
        "--remove-nested", action="store_true", help="keep only maximal spans on each side"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="corefscore",
        description="Exact, fast coreference scoring (MUC, B3, CEAFm, CEAFe, BLANC, LEA, CoNLL, "
        "and the variants of the founding papers).",
    )
    parser.add_argument("--version", action="version", version=f"corefscore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    p = sub.add_parser(
        "score",
        help="score a response file against a key file",
        description="Score RESPONSE against KEY (CoNLL-2011/2012 or SemEval-2010 files, .gz ok). "
        "Numbers equal the official CoNLL reference scorer v8.01 (LEA: its LEA branch) unless "
        "a regime option or a variant metric is chosen.",
    )
    _add_pair_options(p)
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
        choices=("text", "json", "perl", "csv", "markdown", "latex"),
        default="text",
        help="text: aligned table (default); json: stable schema; "
        "perl: the reference scorer's TOTALS blocks, byte for byte; csv (full precision, "
        "per document too with --per-document), markdown and latex: tables for papers",
    )
    p.add_argument(
        "--per-document", action="store_true", help="also report every document's scores"
    )
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
    _add_bootstrap_options(
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
    p.add_argument(
        "--cross-document",
        action="store_true",
        help="cross-document coreference: entity ids are corpus-wide, mentions are (document, "
        "start, end), and every metric is computed once over the global partition "
        "(docs/crossdoc.md); mention tables (.tsv: doc_id, start, end, entity_id) are read "
        "straight into arrays",
    )
    p.add_argument(
        "--engine",
        choices=("python", "dask"),
        default="python",
        help="python: this process (default); dask: a Dask cluster, the same numbers "
        "(pip install 'corefscore[dask]'; docs/distributed.md); KEY and RESPONSE may then be "
        "Parquet mention tables (doc, start, end, entity)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --engine dask: the scheduler of an existing cluster, e.g. tcp://host:8786 "
        "(default: a local cluster, started and stopped here)",
    )
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="with --engine dask and no --scheduler: local worker processes (default: one per "
        "core)",
    )
    for side in ("key", "response"):
        p.add_argument(
            f"--{side}-scope",
            choices=("global", "document"),
            help=f"with --cross-document: the {side}'s entity ids are corpus-wide (global, the "
            "default) or per document (e.g. a within-document key)",
        )
    sub.add_parser(
        "metrics",
        help="list every metric with its definition and citation",
        description="List every metric corefscore computes, with a one-line definition and "
        "its citation.",
    ).add_argument("--format", choices=("text", "json"), default="text")
    t = sub.add_parser(
        "twins",
        help="list missed key mentions and spurious response mentions",
        description="Pair response mentions with key mentions (twins) and list, per document, "
        "the key mentions without a twin (missed), the response mentions without one "
        "(spurious), and twins whose spans differ.",
    )
    _add_pair_options(t)
    t.add_argument("--format", choices=("text", "json"), default="text")
    c = sub.add_parser(
        "convert",
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
        help="drop what the target cannot hold (discontinuous or crossing mentions) and "
        "warn with a count, instead of refusing",
    )
    c.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    cmp = sub.add_parser(
        "compare",
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
    cmp.add_argument("--seed", type=int, help="random seed (reproducible)")
    cmp.add_argument("--duplicates", choices=POLICIES, default="default")
    cmp.add_argument(
        "--names",
        metavar="A,B,...",
        help="system names, comma-separated, in SYSTEM order (default: what tells the file "
        "names apart)",
    )
    _add_output_option(cmp, ("text", "json", "csv", "markdown", "latex"))
    _add_report_command(sub)
    _add_analysis_commands(sub)
    return parser


def _add_output_option(p: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    p.add_argument("--format", choices=formats, default=formats[0], help="output format")
    p.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE, not stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")


def _add_report_command(sub: Any) -> None:
    r = sub.add_parser(
        "report",
        help="write a self-contained HTML report of one or more systems",
        description="Score every RESPONSE against KEY and write one HTML file that needs no "
        "network or server: summary with bootstrap intervals, sortable per-document scores, "
        "plots, and a document viewer with missed and spurious mentions, split and merged "
        "entities and the CEAF-e alignment (see docs/report.md).",
    )
    _add_pair_options(r, responses=True)
    r.add_argument("-m", "--metric", action="append", metavar="NAME", help="metrics (all)")
    _add_bootstrap_options(
        r, 1000, "resamples of the documents for the intervals (1000; 0 = no intervals)"
    )
    r.add_argument(
        "--names",
        metavar="A,B,...",
        help="system names, comma-separated, in RESPONSE order (default: from the file names)",
    )
    r.add_argument("--title", help="title of the page")
    r.add_argument("-o", "--output", metavar="FILE", help="write the HTML to FILE, not stdout")


def _add_bootstrap_options(p: argparse.ArgumentParser, default: int | None, help: str) -> None:
    p.add_argument("--bootstrap", type=int, default=default, metavar="N", help=help)
    p.add_argument(
        "--ci", type=float, default=95.0, metavar="LEVEL", help="interval level in %% (95)"
    )
    p.add_argument("--seed", type=int, help="random seed of the resampling (reproducible)")


def _add_analysis_commands(sub: Any) -> None:
    a = sub.add_parser(
        "analyze",
        help="analyses of the founding papers: resolution classes, CPP, mention effect",
        description="Analyses that explain a score (see docs/analysis.md).",
    )
    kinds = a.add_subparsers(dest="analysis", metavar="ANALYSIS", parser_class=_Parser)
    classes = kinds.add_parser(
        "classes",
        help="resolution classes of the key's anaphors and per-class scores",
        description="Put every non-first key mention in one of the nine resolution classes of "
        "Stoyanov et al. (2009, §4.1) and score the response per class: the MUC-RC adaptation "
        "and CorefUD's anaphor-level score. The key needs words and POS tags (CoNLL-2012 or "
        "CoNLL-U). Save it with --format json -o FILE for 'analyze cpp'.",
    )
    classes.add_argument("key", metavar="KEY")
    classes.add_argument("response", metavar="RESPONSE")
    classes.add_argument(
        "--pronouns",
        metavar="FILE",
        help='pronoun lists of another language: JSON {"first_second": [...], '
        '"gendered_third": [...], "ungendered_third": [...]}',
    )
    classes.add_argument("--corpus", metavar="NAME", help="name of the corpus (for CPP)")
    classes.add_argument("--duplicates", choices=POLICIES, default="first")
    _add_output_option(classes, ("text", "json"))
    cpp = kinds.add_parser(
        "cpp",
        help="predict a corpus's score from per-class scores (CPP)",
        description="Coreference performance prediction (Stoyanov et al. 2009, §4.4): the "
        "share-weighted sum of per-class mean scores measured on other corpora (REPORTs saved "
        "by 'analyze classes --format json'), for the class distribution of a new corpus (its "
        "key alone, --key). With --leave-one-out, every REPORT is predicted from the others.",
    )
    cpp.add_argument("reports", metavar="REPORT", nargs="+", help="classes reports (JSON)")
    target = cpp.add_mutually_exclusive_group(required=True)
    target.add_argument("--key", metavar="KEY", help="key file of the corpus to predict")
    target.add_argument(
        "--distribution", metavar="FILE", help="its class distribution (JSON), instead of --key"
    )
    target.add_argument(
        "--leave-one-out", action="store_true", help="predict each REPORT from the others"
    )
    cpp.add_argument(
        "--score",
        default="muc_rc.f1",
        help="per-class score to predict from (default muc_rc.f1; or anaphor.f1, ...)",
    )
    cpp.add_argument(
        "--observed",
        default="overall.muc.f1",
        help="observed score compared with the prediction (default overall.muc.f1)",
    )
    cpp.add_argument("--pronouns", metavar="FILE", help="pronoun lists, as for 'classes'")
    _add_output_option(cpp, ("text", "json"))
    effect = kinds.add_parser(
        "mention-effect",
        help="does each metric reward a more precise response (Moosavi & Strube 2016 §2)?",
        description="Build three transformed responses (more precise: incorrectly resolved "
        "mentions removed; less precise a/b: missing key mentions linked into wrong pairs or "
        "larger wrong entities), score each with every metric, and flag the metrics that move "
        "in the wrong direction.",
    )
    effect.add_argument("key", metavar="KEY")
    effect.add_argument("response", metavar="RESPONSE")
    effect.add_argument("--seed", type=int, default=0, help="seed of the transformations")
    effect.add_argument("-m", "--metric", action="append", metavar="NAME")
    effect.add_argument("--duplicates", choices=POLICIES, default="first")
    _add_output_option(effect, ("text", "json"))
    lab = sub.add_parser(
        "lab",
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
    _add_output_option(lab, ("text", "json", "csv"))


def _render(result: ScoreResult, fmt: str, metrics: Sequence[str], per_document: bool) -> str:
    from .report import format_perl, format_text
    from .report.text import use_color
    from .result import ScoreResult

    color = use_color(sys.stdout)

    if fmt == "json":
        return result.to_json() + "\n"
    if fmt == "perl":
        return format_perl(result, metrics)
    if fmt in ("csv", "markdown", "latex"):
        from .report import tables

        render = {
            "csv": tables.format_csv,
            "markdown": tables.format_markdown,
            "latex": tables.format_latex,
        }
        return render[fmt](result)
    parts = []
    if per_document and result.documents:
        for doc_id, doc in result.documents.items():
            doc_result = ScoreResult(doc.metrics, doc.conll, result.signature)
            parts.append(format_text(doc_result, title=f"document {doc_id}", color=color))
        parts.append("")
        parts.append(_macro_text(result))
    title = "corpus (micro-average over key documents)"
    if result.options.get("cross_document"):
        title = "corpus (one cross-document partition)"
    parts.append(format_text(result, title=title, color=color))
    return "\n".join(parts)


def _macro_text(result: ScoreResult) -> str:
    from .report.text import LABELS

    lines = ["macro-average (mean of the documents' scores)"]
    for name, values in result.macro().items():
        cells = "  ".join(
            f"{field[0].upper()} {100 * values[field]:6.2f}"
            for field in ("recall", "precision", "f1")
            if field in values
        )
        lines.append(f"  {LABELS.get(name, name):<9}{cells}")
    ranked = result.ranked_documents()
    what = "CoNLL F1" if result.conll is not None else f"{next(iter(result.metrics))} F1"
    lines.append(f"documents by {what}, worst first")
    lines += [f"  {100 * f1:6.2f}  {doc_id}" for doc_id, f1 in ranked]
    return "\n".join(lines) + "\n"


def _setup_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "matching": args.match,
        "singletons": args.singletons,
        "key_singletons": args.key_singletons,
        "response_singletons": args.response_singletons,
        "remove_nested": args.remove_nested,
        "gold_mentions": getattr(args, "gold_mentions", False),
        "anaphoric_only": getattr(args, "anaphoric_only", False),
    }


def _reading_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "head_column": args.head_column,
        "key_format": args.key_format,
        "response_format": args.response_format,
        "empty_nodes": args.empty_nodes,
    }


def _warn(warnings: Sequence[str], quiet: bool) -> None:
    if not quiet:
        for warning in warnings:
            print(f"corefscore: warning: {warning}", file=sys.stderr)


def _score(args: argparse.Namespace) -> int:
    from .metrics import resolve_metrics
    from .regimes import EvaluationSetup
    from .scorer import read_pair, score_corpora

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
    setup = EvaluationSetup.create(**_setup_options(args))
    if args.engine == "dask":
        return _score_dask(args, metrics, computed, setup)
    if args.scheduler is not None or args.workers is not None:
        raise UsageError("--scheduler and --workers need --engine dask")
    if args.cross_document or args.key_scope or args.response_scope:
        return _score_cross_document(args, computed, setup)
    from .crossdoc import is_mention_table

    if is_mention_table(args.key) or is_mention_table(args.response):
        return _score_cross_document(args, computed, setup)
    key, response = read_pair(
        args.key, args.response, setup=setup, syntax=False, **_reading_options(args)
    )
    if args.regimes:
        return _score_regimes(args, key, response, computed, setup)
    from .report.progress import ProgressBar

    bar = ProgressBar("scoring documents")
    try:
        result = score_corpora(
            key,
            response,
            metrics=computed,
            duplicates=args.duplicates,
            documents=args.doc,
            per_document=args.per_document,
            setup=setup,
            options={"key": args.key, "response": args.response},
            progress=bar,
        )
    finally:
        bar.close()
    _warn(result.warnings, args.quiet)
    if args.bootstrap is not None:
        result = _with_bootstrap(result, args, setup)
    out = _render(result, args.format, metrics, args.per_document)
    if args.bootstrap is not None:
        out = _add_bootstrap(out, result, args)
    if args.show_alignment:
        from .report.alignment import format_alignment
        from .scorer import alignments

        found = alignments(
            key,
            response,
            metric=args.show_alignment,
            duplicates=args.duplicates,
            documents=args.doc,
            setup=setup,
        )
        if args.format == "json":
            import json

            data = json.loads(out)
            data["alignments"] = {d: a.to_dict() for d, a in found.items()}
            out = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        else:
            out += "\n" + format_alignment(found, fmt="text")
    sys.stdout.write(out)
    return EXIT_OK


def _score_dask(
    args: argparse.Namespace,
    metrics: Sequence[str],
    computed: Sequence[str],
    setup: EvaluationSetup,
) -> int:
    """--engine dask: documents scored on a Dask cluster (docs/distributed.md)."""
    import logging

    from . import dask as engine

    engine.require_dask()
    # The cluster's own log lines would mix with our one-line warnings on stderr.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if not args.cross_document and (args.key_scope or args.response_scope):
        raise UsageError("--key-scope and --response-scope need --cross-document")
    unavailable = [("--regimes", args.regimes), ("--show-alignment", args.show_alignment)]
    if args.cross_document:
        unavailable += [
            ("--per-document", args.per_document),
            ("--bootstrap", args.bootstrap is not None),
            ("--doc", args.doc),
            ("--format perl", args.format == "perl"),
        ]
    for option, used in unavailable:
        if used:
            raise UsageError(f"{option} is not available with --engine dask")
    cluster = {"scheduler": args.scheduler, "workers": args.workers}
    options = {"key": args.key, "response": args.response}
    if args.cross_document or engine.is_mention_input(args.key, args.response):
        result = engine.score(
            engine.read_mentions(args.key, format=args.key_format, side="key"),
            engine.read_mentions(args.response, format=args.response_format, side="response"),
            metrics=computed,
            duplicates=args.duplicates,
            documents=args.doc,
            per_document=args.per_document,
            setup=setup,
            cross_document=args.cross_document,
            key_scope=args.key_scope or "global",
            response_scope=args.response_scope or "global",
            options=options,
            **cluster,
        )
    else:
        from .scorer import read_pair

        key, response = read_pair(
            args.key, args.response, setup=setup, syntax=False, **_reading_options(args)
        )
        result = engine.score_corpora(
            key,
            response,
            metrics=computed,
            duplicates=args.duplicates,
            documents=args.doc,
            per_document=args.per_document,
            setup=setup,
            options=options,
            **cluster,
        )
    _warn(result.warnings, args.quiet)
    if args.bootstrap is not None:
        result = _with_bootstrap(result, args, setup)
    out = _render(result, args.format, metrics, args.per_document)
    if args.bootstrap is not None:
        out = _add_bootstrap(out, result, args)
    sys.stdout.write(out)
    return EXIT_OK


def _score_cross_document(
    args: argparse.Namespace, metrics: Sequence[str], setup: EvaluationSetup
) -> int:
    """--cross-document, or mention tables scored per document: the columnar engine."""
    from .crossdoc import read_mentions, score_cross_document, score_documents

    if not args.cross_document and (args.key_scope or args.response_scope):
        raise UsageError("--key-scope and --response-scope need --cross-document")
    what = "--cross-document" if args.cross_document else "mention tables"
    for option, used in (
        ("--per-document", args.per_document),
        ("--regimes", args.regimes),
        ("--bootstrap", args.bootstrap is not None),
        ("--show-alignment", args.show_alignment),
        ("--doc", args.doc),
        ("--format perl", args.format == "perl"),
    ):
        if used:
            raise UsageError(f"{option} is not available with {what}")
    key = read_mentions(args.key, format=args.key_format, side="key")
    response = read_mentions(args.response, format=args.response_format, side="response")
    options = {"key": args.key, "response": args.response}
    if args.cross_document:
        result = score_cross_document(
            key,
            response,
            metrics=metrics,
            key_scope=args.key_scope or "global",
            response_scope=args.response_scope or "global",
            duplicates=args.duplicates,
            setup=setup,
            options=options,
        )
    else:
        result = score_documents(
            key, response, metrics=metrics, duplicates=args.duplicates, setup=setup, options=options
        )
    _warn(result.warnings, args.quiet)
    sys.stdout.write(_render(result, args.format, metrics, False))
    return EXIT_OK


def _with_bootstrap(
    result: ScoreResult, args: argparse.Namespace, setup: EvaluationSetup
) -> ScoreResult:
    """The result, its signature stating the resampling."""
    from dataclasses import replace

    from .signature import make_signature

    if args.bootstrap < 1 or not 0 < args.ci < 100:
        raise UsageError("--bootstrap needs N >= 1 and --ci a level between 0 and 100")
    signature = make_signature(
        metrics=list(result.metrics),
        duplicates=args.duplicates,
        setup=setup,
        bootstrap=(args.bootstrap, args.seed, args.ci),
    )
    return replace(result, signature=signature)


def _add_bootstrap(out: str, result: ScoreResult, args: argparse.Namespace) -> str:
    from .report.stats import format_bootstrap
    from .stats import bootstrap

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
    if args.format == "json":
        import json

        data = json.loads(out)
        data["bootstrap"] = intervals.to_dict()
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    fmt = args.format if args.format in ("csv", "markdown", "latex") else "text"
    return out + "\n" + format_bootstrap(intervals, fmt)


def system_names(paths: Sequence[str]) -> list[str]:
    """Short, unique names for system files: what tells their file names apart.

    The dot-separated parts of the file names that every file shares (the
    split, the extension) are dropped, so ``test.resp_xrenner.conll`` and
    ``test.key_ontogum.conll`` become ``resp_xrenner`` and ``key_ontogum``;
    files with the same name are told apart by their folders.
    """
    parts = [os.path.basename(os.path.normpath(p)).split(".") for p in paths]
    shared = set(parts[0]).intersection(*parts[1:]) if len(parts) > 1 else set(parts[0][1:])
    names = [".".join(x for x in ps if x not in shared) or ps[0] for ps in parts]
    if len(set(names)) < len(names):
        folders = [os.path.basename(os.path.dirname(os.path.abspath(p))) for p in paths]
        names = [f"{folder}/{name}" for folder, name in zip(folders, names)]
    unique: list[str] = []
    for name in names:
        unique.append(name if name not in unique else f"{name}-{len(unique) + 1}")
    return unique


def _names_option(value: str | None, count: int) -> list[str] | None:
    if value is None:
        return None
    names = [n.strip() for n in value.split(",")]
    if len(names) != count or not all(names) or len(set(names)) != count:
        raise UsageError(f"--names needs {count} distinct comma-separated names, got {value!r}")
    return names


def _compare(args: argparse.Namespace) -> int:
    from .io import read_corpus
    from .report.stats import format_ranking
    from .scorer import score_corpora
    from .signature import make_signature
    from .stats import compare_systems

    if len(args.systems) < 2:
        raise UsageError("compare needs at least two systems")
    if args.trials < 1 or not 0 < args.alpha < 1:
        raise UsageError("--trials must be >= 1 and --alpha between 0 and 1")
    key = read_corpus(args.key, side="key")
    statistics: dict[str, Any] = {}
    # Every asked metric is tested and shown; the ranking metric is always among them.
    metrics = list(dict.fromkeys(args.metric or ["conll"]))
    if args.rank_by not in metrics:
        metrics.append(args.rank_by)
    names = _names_option(args.names, len(args.systems)) or system_names(args.systems)
    for name, path in zip(names, args.systems):
        response = read_corpus(path, side="response")
        result = score_corpora(key, response, metrics=metrics, duplicates=args.duplicates)
        _warn(result.warnings, args.quiet)
        statistics[name] = result.document_statistics
    ranking = compare_systems(
        statistics,
        metric=args.rank_by,
        alpha=args.alpha,
        trials=args.trials,
        seed=args.seed,
        test=args.test,
        metrics=metrics,
    )
    signature = make_signature(
        metrics=metrics,
        duplicates=args.duplicates,
        significance=(args.test, args.trials, args.seed, args.alpha),
    )
    ranking = dataclasses.replace(ranking, signature=signature)
    _emit(format_ranking(ranking, fmt=args.format), args)
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from .io import read_corpus
    from .metrics import resolve_metrics
    from .regimes import EvaluationSetup
    from .report.html import collect_report

    metrics = resolve_metrics(args.metric)
    if args.bootstrap < 0 or not 0 < args.ci < 100:
        raise UsageError("--bootstrap needs N >= 0 and --ci a level between 0 and 100")
    setup = EvaluationSetup.create(**_setup_options(args))
    names = _names_option(args.names, len(args.responses)) or system_names(args.responses)
    reading = _reading_options(args)
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
                syntax=setup.matching == "head",
                head_column=reading["head_column"],
                empty_nodes=reading["empty_nodes"],
            ),
        )
        for name, path in zip(names, args.responses)
    ]
    report = collect_report(
        key,
        responses,
        metrics=metrics,
        duplicates=args.duplicates,
        setup=setup,
        bootstrap=args.bootstrap,
        ci=args.ci,
        seed=args.seed,
        title=args.title,
    )
    _warn(report.warnings, args.quiet)
    _emit(report.to_html(), args)
    return EXIT_OK


def _score_regimes(
    args: argparse.Namespace,
    key: Corpus,
    response: Corpus,
    metrics: Sequence[str],
    setup: EvaluationSetup,
) -> int:
    from .report.regimes import format_regimes
    from .scorer import score_regimes

    results = score_regimes(
        key, response, metrics=metrics, duplicates=args.duplicates, documents=args.doc, setup=setup
    )
    warnings = dict.fromkeys(w for r in results.values() for w in r.warnings)
    _warn(list(warnings), args.quiet)
    sys.stdout.write(format_regimes(results, fmt=args.format))
    return EXIT_OK


def _list_metrics(args: argparse.Namespace) -> int:
    from .report.catalogue import format_metric_catalogue

    sys.stdout.write(format_metric_catalogue(fmt=args.format))
    return EXIT_OK


def _twins(args: argparse.Namespace) -> int:
    from .regimes import EvaluationSetup
    from .report.twins import format_twins
    from .scorer import find_twins, read_pair

    setup = EvaluationSetup.create(**_setup_options(args))
    key, response = read_pair(
        args.key, args.response, setup=setup, syntax=True, **_reading_options(args)
    )
    warnings: list[str] = [*key.warnings, *response.warnings]
    found = find_twins(key, response, duplicates=args.duplicates, setup=setup, warnings=warnings)
    _warn(warnings, args.quiet)
    sys.stdout.write(format_twins(found, fmt=args.format))
    return EXIT_OK


def _convert(args: argparse.Namespace) -> int:
    from .io.convert import convert

    warnings = convert(
        args.source,
        args.target,
        to=args.to,
        source_format=args.source_format,
        lossy=args.lossy,
    )
    _warn(warnings, args.quiet)
    return EXIT_OK


def _emit(text: str, args: argparse.Namespace) -> None:
    if getattr(args, "output", None):
        from .io.files import write_text

        write_text(args.output, text)
    else:
        sys.stdout.write(text)


def _pronouns(path: str | None) -> Any:
    if path is None:
        return None
    from .analysis.mention_types import PronounLists

    return PronounLists.from_json(path)


def _analyze(args: argparse.Namespace) -> int:
    if args.analysis is None:
        raise UsageError("choose an analysis: classes, cpp or mention-effect")
    from .io import read_corpus

    if args.analysis == "classes":
        from .analysis.classes import resolution_classes
        from .report.classes import format_classes

        key = read_corpus(args.key, side="key", syntax=True)
        response = read_corpus(args.response, side="response")
        report = resolution_classes(
            key,
            response,
            pronouns=_pronouns(args.pronouns),
            duplicates=args.duplicates,
            corpus=args.corpus,
        )
        _warn(report.warnings, args.quiet)
        _emit(format_classes(report, fmt=args.format), args)
        return EXIT_OK
    if args.analysis == "cpp":
        from .analysis import cpp
        from .io.files import read_text
        from .report.cpp import format_cpp

        reports: dict[str, dict[str, Any]] = {}
        for path in args.reports:
            loaded = cpp.load_report(read_text(path), path=path)
            name = str(loaded.get("corpus") or path)
            if name in reports:
                name = path
            reports[name] = loaded
        if args.leave_one_out:
            result: Any = cpp.leave_one_out(reports, score=args.score, observed=args.observed)
        else:
            if args.key is not None:
                key = read_corpus(args.key, side="key", syntax=True)
                distribution = cpp.class_distribution(key, pronouns=_pronouns(args.pronouns))
            else:
                try:
                    with open(args.distribution, encoding="utf-8") as handle:
                        text = handle.read()
                except OSError as exc:
                    raise InputError(
                        f"cannot read ({exc.strerror or exc})", path=args.distribution
                    ) from None
                distribution = cpp.class_distribution(cpp.load_report(text, path=args.distribution))
            result = cpp.predict(list(reports.values()), distribution, score=args.score)
        _emit(format_cpp(result, fmt=args.format), args)
        return EXIT_OK
    from .analysis.mention_effect import mention_effect
    from .report.mention_effect import format_mention_effect

    key = read_corpus(args.key, side="key")
    response = read_corpus(args.response, side="response")
    _warn([*key.warnings, *response.warnings], args.quiet)
    effect = mention_effect(
        key, response, seed=args.seed, metrics=args.metric, duplicates=args.duplicates
    )
    _emit(format_mention_effect(effect, fmt=args.format), args)
    return EXIT_OK


def _lab(args: argparse.Namespace) -> int:
    from .analysis.lab import EXPERIMENTS, format_experiments, format_lab, run_experiment

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
        from .report.plots import plot_lab

        plot_lab(result, args.plot)
    _emit(format_lab(result, fmt=args.format), args)
    return EXIT_OK


_COMMANDS = {
    "score": _score,
    "metrics": _list_metrics,
    "twins": _twins,
    "convert": _convert,
    "compare": _compare,
    "report": _report,
    "analyze": _analyze,
    "lab": _lab,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    if "numpy" not in sys.modules:
        _single_threaded_numerics()
    parser = build_parser()
    args: argparse.Namespace | None = None
    # Reading builds millions of small objects and nothing here makes reference
    # cycles that matter, so the cyclic collector only adds work (its passes
    # over a growing heap made the reader's cost per mention rise by a third
    # from 16k to 64k mentions); it is restored for callers of main().
    collecting = gc.isenabled()
    gc.disable()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        return _COMMANDS[args.command](args)
    except InputError as exc:
        print(f"corefscore: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except UsageError as exc:
        command = getattr(args, "command", None) or _command_of(argv)
        # A message that already points somewhere (e.g. 'corefscore metrics') needs no second hint.
        hint = "" if "(see '" in str(exc) else f" (see 'corefscore {command} --help')"
        print(f"corefscore: usage error: {exc}{hint}", file=sys.stderr)
        return EXIT_USAGE
    except CorefScoreError as exc:
        print(f"corefscore: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:
        # Output piped into e.g. `head`: not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except MemoryError:
        print("corefscore: error: out of memory", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:
        if os.environ.get("COREFSCORE_DEBUG"):
            raise
        print(
            f"corefscore: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set COREFSCORE_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    finally:
        if collecting:
            gc.enable()


def _command_of(argv: Sequence[str] | None) -> str:
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    return words[0] if words and words[0] in _COMMANDS else "score"


def entry_point() -> None:
    sys.exit(main())


def _single_threaded_numerics() -> None:
    """corefscore does no linear algebra; BLAS thread pools only cost start-up CPU."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
