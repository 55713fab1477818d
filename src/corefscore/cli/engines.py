"""The branches of ``corefscore score`` off its main path: the Dask engine, the
columnar engine (``--cross-document``, mention tables) and ``--regimes``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .output import warn
from .parser import EXIT_OK, reading_options

if TYPE_CHECKING:
    from ..model import Corpus
    from ..result import ScoreResult
    from .score import Options


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """--cross-document, --engine and the options of the two."""
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


def choose(args: argparse.Namespace) -> str:
    """The engine: dask (asked for), columnar (cross-document or mention tables) or python."""
    if args.engine == "dask":
        return "dask"
    if args.scheduler is not None or args.workers is not None:
        raise UsageError("--scheduler and --workers need --engine dask")
    if args.cross_document or args.key_scope or args.response_scope:
        return "columnar"
    from ..crossdoc import is_mention_table

    if is_mention_table(args.key) or is_mention_table(args.response):
        return "columnar"
    return "python"


def _refuse(unavailable: list[tuple[str, Any]], what: str) -> None:
    for option, used in unavailable:
        if used:
            raise UsageError(f"{option} is not available with {what}")


def score_dask(args: argparse.Namespace, options: Options) -> ScoreResult:
    """--engine dask: documents scored on a Dask cluster (docs/distributed.md)."""
    import logging

    from .. import dask as engine

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
    _refuse(unavailable, "--engine dask")
    cluster = {"scheduler": args.scheduler, "workers": args.workers}
    files = {"key": args.key, "response": args.response}
    if args.cross_document or engine.is_mention_input(args.key, args.response):
        return engine.score(
            engine.read_mentions(args.key, format=args.key_format, side="key"),
            engine.read_mentions(args.response, format=args.response_format, side="response"),
            metrics=options.computed,
            duplicates=args.duplicates,
            documents=args.doc,
            per_document=args.per_document,
            setup=options.setup,
            cross_document=args.cross_document,
            key_scope=args.key_scope or "global",
            response_scope=args.response_scope or "global",
            options=files,
            **cluster,
        )
    from ..scorer import read_pair

    key, response = read_pair(
        args.key, args.response, setup=options.setup, syntax=False, **reading_options(args)
    )
    return engine.score_corpora(
        key,
        response,
        metrics=options.computed,
        duplicates=args.duplicates,
        documents=args.doc,
        per_document=args.per_document,
        setup=options.setup,
        options=files,
        **cluster,
    )


def score_columnar(args: argparse.Namespace, options: Options) -> ScoreResult:
    """--cross-document, or mention tables scored per document: the columnar engine."""
    from ..crossdoc import read_mentions, score_cross_document, score_documents

    if not args.cross_document and (args.key_scope or args.response_scope):
        raise UsageError("--key-scope and --response-scope need --cross-document")
    what = "--cross-document" if args.cross_document else "mention tables"
    unavailable = [
        ("--per-document", args.per_document),
        ("--regimes", args.regimes),
        ("--bootstrap", args.bootstrap is not None),
        ("--show-alignment", args.show_alignment),
        ("--doc", args.doc),
        ("--format perl", args.format == "perl"),
    ]
    _refuse(unavailable, what)
    key = read_mentions(args.key, format=args.key_format, side="key")
    response = read_mentions(args.response, format=args.response_format, side="response")
    files = {"key": args.key, "response": args.response}
    if args.cross_document:
        return score_cross_document(
            key,
            response,
            metrics=options.computed,
            key_scope=args.key_scope or "global",
            response_scope=args.response_scope or "global",
            duplicates=args.duplicates,
            setup=options.setup,
            options=files,
        )
    return score_documents(
        key,
        response,
        metrics=options.computed,
        duplicates=args.duplicates,
        setup=options.setup,
        options=files,
    )


def score_regimes(args: argparse.Namespace, key: Corpus, response: Corpus, options: Options) -> int:
    """--regimes: the scores under every evaluation regime, in one table."""
    from ..report.regimes import format_regimes
    from ..scorer import score_regimes

    results = score_regimes(
        key,
        response,
        metrics=options.computed,
        duplicates=args.duplicates,
        documents=args.doc,
        setup=options.setup,
    )
    warnings = dict.fromkeys(w for r in results.values() for w in r.warnings)
    warn(list(warnings), args.quiet)
    sys.stdout.write(format_regimes(results, fmt=args.format))
    return EXIT_OK
