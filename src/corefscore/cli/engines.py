"""The branches of ``corefscore score`` off its main path: the Dask cluster and
``--regimes``, and the options that choose where the scoring runs."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from .output import percent_of, warn
from .parser import EXIT_OK, reading_options

if TYPE_CHECKING:
    import argparse

    from ..evaluation import Evaluation
    from ..pipeline import Side
    from ..result import ScoreResult


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
        # "python" is the name this option's default had before engines were named.
        choices=("auto", "objects", "columnar", "dask", "python"),
        default="auto",
        metavar="{auto,objects,columnar,dask}",
        help="where the scoring runs, always with the same numbers (docs/engines.md): auto "
        "(default: columnar for --cross-document and mention tables, objects otherwise), "
        "objects (document by document), columnar (all documents as numpy arrays), dask (a "
        "Dask cluster: pip install 'corefscore[dask]'; KEY and RESPONSE may then be Parquet "
        "mention tables with the columns doc, start, end, entity)",
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


def score_dask(args: argparse.Namespace, evaluation: Evaluation) -> ScoreResult:
    """--engine dask: the documents scored on a Dask cluster (docs/distributed.md)."""
    import logging

    from .. import dask as engine

    engine.require_dask()
    # The cluster's own log lines would mix with our one-line warnings on stderr.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = engine.Cluster(scheduler=args.scheduler, workers=args.workers)
    files = {"key": args.key, "response": args.response}
    common: dict[str, Any] = {
        "documents": args.doc,
        "per_document": args.per_document,
        "options": files,
        "cluster": cluster,
    }
    if evaluation.scope.cross_document or engine.is_mention_input(args.key, args.response):
        return engine.score(
            engine.read_mentions(args.key, format=args.key_format, side="key"),
            engine.read_mentions(args.response, format=args.response_format, side="response"),
            evaluation=evaluation,
            **common,
        )
    from ..pipeline import as_corpus
    from ..scorer import read_pair

    key, response = read_pair(
        args.key, args.response, evaluation=evaluation, **reading_options(args)
    )
    return engine.score_corpora(
        as_corpus(key), as_corpus(response), evaluation=evaluation, **common
    )


def score_regimes(
    args: argparse.Namespace, key: Side, response: Side, evaluation: Evaluation
) -> int:
    """--regimes: the scores under every evaluation regime, in one table."""
    from ..report.regimes import format_regimes
    from ..scorer import score_regimes

    results = score_regimes(key, response, evaluation=evaluation, documents=args.doc)
    warnings = dict.fromkeys(w for r in results.values() for w in r.warnings)
    warn(list(warnings), args.quiet)
    sys.stdout.write(format_regimes(results, fmt=args.format, percent=percent_of(args)))
    return EXIT_OK
