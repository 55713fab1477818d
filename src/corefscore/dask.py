"""Distributed scoring on a Dask cluster (``pip install 'corefscore[dask]'``).

``corefscore.dask.score(key_ddf, response_ddf, **options)`` scores two Dask
DataFrames of mentions (``doc``, ``start``, ``end``, ``entity``), and
``corefscore.dask.score_corpora(key, response, **options)`` two corpora, on a
Dask cluster, with the numbers of the single-process engines. Options are
those of ``corefscore.score`` (or ``evaluation=``), plus ``cluster=`` (a
``distributed.Client`` or a ``Cluster``). The engine itself is
``corefscore.engines.dask``.
"""

from __future__ import annotations

from .engines.dask import (
    Cluster,
    connect,
    is_mention_input,
    mention_table,
    read_mentions,
    require_dask,
    score,
    score_corpora,
)

__all__ = [
    "Cluster",
    "connect",
    "is_mention_input",
    "mention_table",
    "read_mentions",
    "require_dask",
    "score",
    "score_corpora",
]
