"""Distributed scoring on a Dask cluster: the public face of ``corefscore.engines.dask``.

``corefscore.dask.score(key_ddf, response_ddf, **options)`` scores two Dask
DataFrames of mentions (``doc``, ``start``, ``end``, ``entity``), and
``corefscore.dask.score_corpora(key, response, **options)`` two corpora, on a
Dask cluster, with the numbers of the single-process engines. Options are
those of ``corefscore.score`` (or ``evaluation=``), plus where to run:
``client=``, ``scheduler=`` or ``workers=``. Needs ``pip install
'corefscore[dask]'``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .engines.dask import connect, is_mention_input, mention_table, read_mentions, require_dask
from .evaluation import Evaluation, EvaluationOptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .model import Corpus
    from .result import ScoreResult


def score(
    key: Any,
    response: Any,
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    npartitions: int | None = None,
    options: dict[str, Any] | None = None,
    client: Any = None,
    scheduler: str | None = None,
    workers: int | None = None,
    **evaluation_options: Unpack[EvaluationOptions],
) -> ScoreResult:
    """Score two Dask (or pandas) DataFrames of mentions (see
    ``corefscore.engines.dask.score``)."""
    from .engines import dask

    return dask.score(
        key,
        response,
        Evaluation.of(evaluation, evaluation_options),
        documents=documents,
        per_document=per_document,
        npartitions=npartitions,
        options=options,
        client=client,
        scheduler=scheduler,
        workers=workers,
    )


def score_corpora(
    key: Corpus,
    response: Corpus,
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    options: dict[str, Any] | None = None,
    client: Any = None,
    scheduler: str | None = None,
    workers: int | None = None,
    chunks: int | None = None,
    **evaluation_options: Unpack[EvaluationOptions],
) -> ScoreResult:
    """Score two corpora with the documents scored on a Dask cluster (see
    ``corefscore.engines.dask.score_corpora``)."""
    from .engines import dask

    return dask.score_corpora(
        key,
        response,
        Evaluation.of(evaluation, evaluation_options),
        documents=documents,
        per_document=per_document,
        options=options,
        client=client,
        scheduler=scheduler,
        workers=workers,
        chunks=chunks,
    )


__all__ = [
    "connect",
    "is_mention_input",
    "mention_table",
    "read_mentions",
    "require_dask",
    "score",
    "score_corpora",
]
