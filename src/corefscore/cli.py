"""The ``corefscore`` command line.

Exit codes: 0 success, 1 input error, 2 usage error. Results go to stdout,
warnings and errors to stderr, one line each.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._version import __version__
from .errors import CorefScoreError, InputError, UsageError

if TYPE_CHECKING:
    from .result import ScoreResult

# Kept here, not imported, so that --help and --version load no numpy.
POLICIES = ("default", "first", "reference")
METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="corefscore",
        description="Exact, fast coreference scoring (MUC, B3, CEAFm, CEAFe, BLANC, LEA, CoNLL).",
    )
    parser.add_argument("--version", action="version", version=f"corefscore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    p = sub.add_parser(
        "score",
        help="score a response file against a key file",
        description="Score RESPONSE against KEY (CoNLL-2011/2012 or SemEval-2010 files, .gz ok). "
        "Numbers equal the official CoNLL reference scorer v8.01 (LEA: its LEA branch).",
    )
    p.add_argument("key", metavar="KEY", help="gold (key) file")
    p.add_argument("response", metavar="RESPONSE", help="system (response) file")
    p.add_argument(
        "-m",
        "--metric",
        action="append",
        metavar="NAME",
        help=f"metric(s) to compute, repeatable or comma-separated: {', '.join(METRICS)}, "
        "conll, all (default: all)",
    )
    p.add_argument(
        "--format",
        choices=("text", "json", "perl"),
        default="text",
        help="text: aligned table (default); json: stable schema; "
        "perl: the reference scorer's TOTALS blocks, byte for byte",
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
        "--duplicates",
        choices=POLICIES,
        default="default",
        help="repeated spans: default = keep the first in the response (warn), error in the key; "
        "first = keep the first on both sides; reference = the reference scorer's own handling",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    return parser


def _render(result: ScoreResult, fmt: str, metrics: Sequence[str], per_document: bool) -> str:
    from .report import format_perl, format_text
    from .result import ScoreResult

    if fmt == "json":
        return result.to_json() + "\n"
    if fmt == "perl":
        return format_perl(result, metrics)
    parts = []
    if per_document and result.documents:
        for doc_id, doc in result.documents.items():
            doc_result = ScoreResult(doc.metrics, doc.conll, result.signature)
            parts.append(format_text(doc_result, title=f"document {doc_id}"))
        parts.append("")
    parts.append(format_text(result, title="corpus (micro-average over key documents)"))
    return "\n".join(parts)


def _score(args: argparse.Namespace) -> int:
    from .metrics import resolve_metrics
    from .scorer import score_files

    metrics = resolve_metrics(args.metric)
    if args.format == "perl" and args.per_document:
        raise UsageError("--per-document is not available with --format perl")
    computed = metrics
    if args.format == "perl" and "mentions" not in metrics:
        # Every block of the reference output has the mention identification line.
        computed = ("mentions", *metrics)
    result = score_files(
        args.key,
        args.response,
        metrics=computed,
        duplicates=args.duplicates,
        documents=args.doc,
        per_document=args.per_document,
    )
    if not args.quiet:
        for warning in result.warnings:
            print(f"corefscore: warning: {warning}", file=sys.stderr)
    sys.stdout.write(_render(result, args.format, metrics, args.per_document))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    if "numpy" not in sys.modules:
        _single_threaded_numerics()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        return _score(args)
    except InputError as exc:
        print(f"corefscore: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except UsageError as exc:
        print(f"corefscore: usage error: {exc} (see 'corefscore score --help')", file=sys.stderr)
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


def entry_point() -> None:
    sys.exit(main())


def _single_threaded_numerics() -> None:
    """corefscore does no linear algebra; BLAS thread pools only cost start-up CPU."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
