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

from .engines import dask as _engine
from .engines.dask import *  # noqa: F403  (the engine's public names are this module's)

__all__ = list(_engine.__all__)
