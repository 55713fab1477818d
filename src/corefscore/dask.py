"""Distributed scoring on a Dask cluster (the optional extra ``corefscore[dask]``).

:func:`score` takes two Dask DataFrames of mentions, one row per mention with
the columns ``doc``, ``start``, ``end`` (inclusive token span) and ``entity``
(any hashable id, compared as a string), e.g. read with
``dask.dataframe.read_parquet``. :func:`score_corpora` takes two in-memory
:class:`~corefscore.model.Corpus` objects (what the command line reads).

Both return the :class:`~corefscore.result.ScoreResult` that the single-process
scorer returns for the same input, with the same numbers (tested for exact
float equality) and the same signature: the engine changes where the work
runs, never a number, so it is recorded in ``options["engine"]`` and left out
of the signature, which states what can change a number.

How the work is split: mentions are shuffled by document so that each
document lands whole in one partition; each partition scores its documents
with the single-process code (duplicates policy, regime, contingency table,
metric statistics) and returns their additive statistics; the client adds
them up. Row order within a document is kept (it decides entity order, and so
the reference scorer's floating-point sums). With ``cross_document=True``
the mention tables are joined on ``(doc, start, end)`` instead and the
contingency table is built by a distributed group-by (see
:func:`score` and ``docs/distributed.md``).

Dask is imported only inside these functions.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import InputError, UsageError
from .metrics import Metric, MetricSpec
from .model import Document, Span
from .regimes import EvaluationSetup

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]
    from distributed import Client

    from .model import Corpus
    from .result import ScoreResult

#: The columns of a mention table.
MENTION_COLUMNS = ("doc", "start", "end", "entity")

_INSTALL = "pip install 'corefscore[dask]'"
# Sides of a row once key and response are in one frame; a declaration row
# names a key document to score (it may have no mention).
_KEY, _RESPONSE, _DECLARED = 0, 1, 2
# A row's position is (partition << _ROW_BITS) + row number within the partition.
_ROW_BITS = 40
# After every position.
_NEVER = 1 << 62


def _dask_dataframe() -> Any:
    """``dask.dataframe``, typed loosely: Dask's own annotations are partial."""
    import dask.dataframe

    return dask.dataframe


def require_dask() -> None:
    """Raise :class:`UsageError` saying how to install Dask when it is missing."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as error:
        raise UsageError(
            f"the dask engine needs Dask and pandas ({error.name or error}): {_INSTALL}"
        ) from None


@dataclass(frozen=True)
class _Plan:
    """What every task needs to score a document as the single-process scorer does."""

    #: Built-in metrics by name (an unpickled copy of a registry entry would
    #: pass for a custom metric with a taken name), custom ones as objects.
    metrics: tuple[str | Metric, ...]
    widths: tuple[tuple[str, int], ...]
    duplicates: str
    setup: EvaluationSetup

    @classmethod
    def create(cls, metrics: Iterable[Metric], duplicates: str, setup: EvaluationSetup) -> _Plan:
        from .metrics import REGISTRY

        chosen = tuple(metrics)
        specs = tuple(m.name if REGISTRY.get(m.name) is m else m for m in chosen)
        return cls(specs, tuple((m.name, m.width) for m in chosen), duplicates, setup)

    def scorer(self) -> Any:
        from .scorer import CorefScorer

        scorer = CorefScorer(metrics=self.metrics, duplicates=self.duplicates, setup=self.setup)
        # The min-span warning names the first key document without MIN spans
        # in corpus order, which only the client knows.
        scorer._no_min_warned = True
        return scorer

    def columns(self) -> list[str]:
        return [f"{name}\t{i}" for name, width in self.widths for i in range(width)]


@dataclass(frozen=True)
class _Scored:
    """One key document's statistics and warnings, as a task returns them."""

    doc_id: str
    statistics: dict[str, tuple[float, ...]]
    warnings: tuple[str, ...]


def _score_pair(scorer: Any, key: Document, response: Document) -> _Scored:
    before = len(scorer._warnings)
    stats = scorer.update_document(key, response)
    return _Scored(key.doc_id, stats, tuple(scorer._warnings[before:]))


# --------------------------------------------------------------------------------------------
# Clients


@contextmanager
def connect(
    client: Client | None = None,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    processes: bool = True,
) -> Iterator[Any]:
    """A Dask client: ``client`` itself, one connected to ``scheduler``, the current
    default client, or else a temporary ``LocalCluster`` of ``workers`` workers
    (one thread each; all cores by default), closed on exit.
    """
    require_dask()
    import distributed as distributed_module

    # Typed loosely: distributed's own annotations are partial.
    distributed: Any = distributed_module
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    if client is not None:
        yield client
        return
    if scheduler is not None:
        try:
            remote = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as error:
            raise UsageError(f"cannot connect to the Dask scheduler {scheduler}: {error}") from None
        with remote:
            yield remote
        return
    try:
        yield distributed.default_client()
        return
    except ValueError:
        pass
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be >= 1, got {workers}")
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as local,
    ):
        yield local


@contextmanager
def _shuffle_config() -> Iterator[None]:
    """Task-based shuffles for merges and group-bys too.

    The peer-to-peer shuffle pays off on tables of many gigabytes; on the
    tables of a corpus (a few million rows) its set-up costs more than the
    whole computation, and it logs warnings for each shuffle.
    """
    import dask

    with dask.config.set({"dataframe.shuffle.method": "tasks"}):
        yield


def _threads(client: Any) -> int:
    return max(int(sum(client.nthreads().values())), 1)


# --------------------------------------------------------------------------------------------
# Corpora (the command line): document pairs shipped to the workers as they are


def score_corpora(
    key: Corpus,
    response: Corpus,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    setup: EvaluationSetup | None = None,
    options: Mapping[str, Any] | None = None,
    client: Client | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    chunks: int | None = None,
) -> ScoreResult:
    """:func:`corefscore.scorer.score_corpora` with the documents scored on a Dask cluster.

    Document pairs travel whole (with every fact the readers kept), so every
    option of the single-process scorer works. ``chunks`` is the number of
    tasks (default: four per worker thread). Client choice as in :func:`connect`.
    """
    from .contingency import empty_document
    from .scorer import CorefScorer, check_shared_tokens

    setup = setup or EvaluationSetup()
    totals = CorefScorer(metrics=metrics, duplicates=duplicates, setup=setup)
    plan = _Plan.create(totals._metrics.values(), totals.duplicates, setup)
    warnings = [*key.warnings, *response.warnings]
    if documents is not None:
        missing = [d for d in documents if d not in key.documents]
        if missing:
            raise InputError(
                f"document {missing[0]!r} is not in the key "
                f"({len(key.documents)} documents, e.g. {next(iter(key.documents))!r})",
                path=key.source,
            )
        selected = list(dict.fromkeys(documents))
    else:
        selected = list(key.documents)
        extra = [d for d in response.documents if d not in key.documents]
        warnings += _extra_warnings(extra, len(response.documents))
    pairs: list[tuple[Document, Document]] = []
    missing_in_response = 0
    for doc_id in selected:
        key_doc = key.documents[doc_id]
        response_doc = response.documents.get(doc_id)
        if response_doc is None:
            missing_in_response += 1
            response_doc = empty_document(doc_id)
        else:
            check_shared_tokens(key_doc, response_doc)
        pairs.append((key_doc, response_doc))
    no_min = _min_span_warning(setup, (k for k, _ in pairs))
    with connect(client, scheduler=scheduler, workers=workers) as active:
        count = max(1, min(len(pairs), chunks or 4 * _threads(active)))
        size = -(-len(pairs) // count) if pairs else 1
        batches = [pairs[i : i + size] for i in range(0, len(pairs), size)]
        scattered = active.scatter(batches) if batches else []
        futures = active.map(_score_batch, scattered, plan=plan, pure=False)
        scored = [s for batch in active.gather(futures) for s in batch]
        address = active.scheduler.address if active.scheduler is not None else None
    for item in scored:
        if no_min is not None and item.doc_id == no_min[0]:
            warnings.append(no_min[1])
        warnings.extend(item.warnings)
    if missing_in_response and len(response.documents):
        warnings.append(
            f"{missing_in_response} key document(s) not in the response, scored as all missed"
        )
    opts: dict[str, Any] = {"documents": list(documents) if documents is not None else None}
    opts.update(options or {})
    opts["engine"] = "dask"
    opts["scheduler"] = address if scheduler is not None else None
    return _result(totals, scored, warnings, per_document, opts)


def _score_batch(pairs: list[tuple[Document, Document]], *, plan: _Plan) -> list[_Scored]:
    scorer = plan.scorer()
    return [_score_pair(scorer, key, response) for key, response in pairs]


def _min_span_warning(setup: EvaluationSetup, keys: Iterable[Document]) -> tuple[str, str] | None:
    """The single-process scorer's once-per-corpus warning: (document, text)."""
    if setup.matching != "min-span":
        return None
    for key in keys:
        if not key.min_spans:
            return key.doc_id, (
                f"min-span matching: key document {key.doc_id!r} has no MIN spans (neither may "
                "others); a key mention without MIN needs an exact match"
            )
    return None


def _extra_warnings(extra: Sequence[str], response_count: int) -> list[str]:
    if not extra:
        return []
    shown = ", ".join(repr(d) for d in extra[:3]) + (" ..." if len(extra) > 3 else "")
    if len(extra) == response_count:
        return [
            f"no response document id matches a key document id ({shown}); "
            "every key document is scored as all missed"
        ]
    return [f"{len(extra)} response document(s) not in the key, ignored: {shown}"]


def _result(
    totals: Any,
    scored: Sequence[_Scored],
    warnings: Sequence[str],
    per_document: bool,
    options: Mapping[str, Any],
) -> ScoreResult:
    """The result the single-process scorer computes from the same documents.

    Its corpus sums are correctly rounded (``math.fsum``), so the order in
    which the tasks finished cannot change a bit.
    """
    for item in scored:
        totals._documents[item.doc_id] = item.statistics
    totals._warnings.extend(warnings)
    result: ScoreResult = totals.compute(per_document=per_document, options=options)
    return result


# --------------------------------------------------------------------------------------------
# Mention tables


def score(
    key: Any,
    response: Any,
    *,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    duplicates: str = "default",
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    singletons: str = "keep",
    key_singletons: str | None = None,
    response_singletons: str | None = None,
    gold_mentions: bool = False,
    anaphoric_only: bool = False,
    remove_nested: bool = False,
    matching: str = "exact",
    setup: EvaluationSetup | None = None,
    cross_document: bool = False,
    key_scope: str = "global",
    response_scope: str = "global",
    npartitions: int | None = None,
    options: Mapping[str, Any] | None = None,
    client: Client | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
) -> ScoreResult:
    """Score two Dask (or pandas) DataFrames of mentions on a Dask cluster.

    Each row is one mention: ``doc``, ``start``, ``end`` (inclusive token
    positions, integers) and ``entity``. Within a document, entities are
    ordered by their first row and mentions by row, as the readers order them.
    The result equals :func:`corefscore.scorer.score_corpora` on the same
    documents. Key documents are those with key rows, in order of their first
    row, unless ``documents`` lists them (then in that order, and a listed
    document without key rows is scored as having no key mention). Matching
    is ``exact`` or ``overlap``: a mention table has no heads or MIN spans.

    ``cross_document=True`` scores one global partition per side, as
    :func:`corefscore.crossdoc.score_cross_document` does (same numbers,
    warnings and signature): an entity id names one entity of the whole
    corpus (``key_scope``/``response_scope="document"``: of its document),
    mentions are still ``(doc, start, end)``, and the documents are the key's.

    The client is ``client``, one connected to ``scheduler``, the current
    default client, or a temporary ``LocalCluster`` of ``workers`` workers.
    ``npartitions`` is the number of partitions after the shuffle by
    document (default: as many as the larger input has).
    """
    require_dask()
    setup = setup or EvaluationSetup.create(
        matching=matching,
        singletons=singletons,
        key_singletons=key_singletons,
        response_singletons=response_singletons,
        gold_mentions=gold_mentions,
        anaphoric_only=anaphoric_only,
        remove_nested=remove_nested,
    )
    if setup.matching not in ("exact", "overlap"):
        raise UsageError(
            f"{setup.matching} matching needs "
            f"{'heads' if setup.matching == 'head' else 'MIN spans'}, which a mention table "
            "does not have; score the files instead"
        )
    from .scorer import CorefScorer

    totals = CorefScorer(metrics=metrics, duplicates=duplicates, setup=setup)
    plan = _Plan.create(totals._metrics.values(), totals.duplicates, setup)
    key_frame = _mention_frame(key, "key", _KEY)
    response_frame = _mention_frame(response, "response", _RESPONSE)
    if cross_document:
        _check_cross(plan, key_scope, response_scope)
        scopes = (key_scope, response_scope)
        with connect(client, scheduler=scheduler, workers=workers) as active:
            parts = npartitions or max(key_frame.npartitions, response_frame.npartitions)
            with _shuffle_config():
                frame = _combined(key_frame, response_frame, documents)
                stats, warnings = _score_cross(active, frame, plan, parts, scopes)
            address = active.scheduler.address if active.scheduler is not None else None
        extra = {**(options or {}), "engine": "dask"}
        extra["scheduler"] = address if scheduler is not None else None
        return _cross_result(stats, plan, scopes, warnings, extra)
    with connect(client, scheduler=scheduler, workers=workers) as active:
        frame = _combined(key_frame, response_frame, documents)
        parts = npartitions or max(key_frame.npartitions, response_frame.npartitions)
        shuffled = frame.shuffle(on="doc", npartitions=parts, shuffle_method="tasks")
        meta = _partition_meta(plan)
        found = shuffled.map_partitions(
            _score_partition, plan=plan, selected=documents is not None, meta=meta
        )
        table = active.compute(found).result()
        address = active.scheduler.address if active.scheduler is not None else None
    scored, warnings = _collect(table, plan, selected=documents is not None)
    opts: dict[str, Any] = {"documents": list(documents) if documents is not None else None}
    opts.update(options or {})
    opts["engine"] = "dask"
    opts["scheduler"] = address if scheduler is not None else None
    return _result(totals, scored, warnings, per_document, opts)


def _mention_frame(data: Any, side: str, code: int) -> Any:
    """The mention table as a Dask DataFrame with its side and source position."""
    dd = _dask_dataframe()
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        data = dd.from_pandas(data, npartitions=1)
    if not isinstance(data, dd.DataFrame):
        raise UsageError(f"{side} must be a Dask or pandas DataFrame, got {type(data).__name__}")
    absent = [c for c in MENTION_COLUMNS if c not in data.columns]
    if absent:
        raise InputError(
            f"{side} mention table lacks column(s) {', '.join(absent)}; "
            f"it needs {', '.join(MENTION_COLUMNS)}"
        )
    for column in ("start", "end"):
        if not pd.api.types.is_integer_dtype(data[column].dtype):
            raise InputError(
                f"{side} mention table: column {column!r} must hold integers, "
                f"not {data[column].dtype}"
            )
    data = data[list(MENTION_COLUMNS)]
    meta = _positioned(data._meta, code, None)
    return data.map_partitions(_positioned, code, meta=meta)


def _positioned(
    part: pd.DataFrame, code: int, partition_info: Mapping[str, Any] | None
) -> pd.DataFrame:
    """Rows with ``doc`` and ``entity`` as strings, their side and their position.

    ``pos`` (partition number, then row number) is the row's place in the
    source: the shuffle by document does not keep row order, and entity order,
    hence the floating-point sums, depends on it.
    """
    import numpy as np
    import pandas as pd

    number = partition_info["number"] if partition_info else 0
    return pd.DataFrame(
        {
            "doc": part["doc"].astype(object).map(_text),
            "start": part["start"].astype(np.int64),
            "end": part["end"].astype(np.int64),
            "entity": part["entity"].astype(object).map(_text),
            "side": np.full(len(part), code, dtype=np.int8),
            "pos": (number << _ROW_BITS) + np.arange(len(part), dtype=np.int64),
        },
        index=part.index,
    )


def _text(value: Any) -> Any:
    """Ids as strings (``12`` and ``"12"`` are one id); missing ids stay missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return str(value)


def _combined(key: Any, response: Any, documents: Sequence[str] | None) -> Any:
    dd = _dask_dataframe()
    import numpy as np
    import pandas as pd

    frames = [key, response]
    if documents is not None:
        declared = list(dict.fromkeys(str(d) for d in documents))
        n = len(declared)
        frames.append(
            dd.from_pandas(
                pd.DataFrame(
                    {
                        "doc": pd.Series(declared, dtype=object),
                        "start": np.zeros(n, dtype=np.int64),
                        "end": np.zeros(n, dtype=np.int64),
                        "entity": pd.Series([""] * n, dtype=object),
                        "side": np.full(n, _DECLARED, dtype=np.int8),
                        # Before every row: the listed order is the documents' order.
                        "pos": np.arange(n, dtype=np.int64) - n,
                    }
                ),
                npartitions=1,
            )
        )
    return dd.concat(frames, ignore_index=True)


def _partition_meta(plan: _Plan) -> pd.DataFrame:
    import pandas as pd

    columns: dict[str, Any] = {
        "doc": pd.Series([], dtype=object),
        "scored": pd.Series([], dtype=bool),
        "has_response": pd.Series([], dtype=bool),
        "pos": pd.Series([], dtype="int64"),
        "warnings": pd.Series([], dtype=object),
    }
    for name in plan.columns():
        columns[name] = pd.Series([], dtype="float64")
    return pd.DataFrame(columns)


def _score_partition(part: pd.DataFrame, *, plan: _Plan, selected: bool) -> pd.DataFrame:
    """Score every key document of one partition (each document is whole in one)."""
    scorer = plan.scorer()
    records: list[dict[str, Any]] = []
    ordered = part.sort_values("pos", kind="stable")
    for doc_id, rows in ordered.groupby("doc", sort=False):
        sides = rows["side"].to_numpy()
        key_rows = rows[sides == _KEY]
        response_rows = rows[sides == _RESPONSE]
        declared = rows[sides == _DECLARED]
        scored = len(declared) > 0 if selected else len(key_rows) > 0
        # A scored document's place is its first key row (or its place in the
        # list); another one's (warned about as extra) its first response row.
        first = (declared if selected else key_rows) if scored else response_rows
        if not len(first):
            first = rows
        record: dict[str, Any] = {
            "doc": doc_id,
            "scored": scored,
            "has_response": len(response_rows) > 0,
            "pos": int(first["pos"].iloc[0]),
            "warnings": "",
        }
        if scored:
            doc = str(doc_id)
            item = _score_pair(
                scorer,
                _document(doc, key_rows, "key"),
                _document(doc, response_rows, "response"),
            )
            record["warnings"] = "\n".join(item.warnings)
            for name, values in item.statistics.items():
                for i, value in enumerate(values):
                    record[f"{name}\t{i}"] = float(value)
        records.append(record)
    meta = _partition_meta(plan)
    if not records:
        return meta
    return _frame_of(records, meta)


def _frame_of(records: list[dict[str, Any]], meta: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame.from_records(records, columns=list(meta.columns))
    return frame.astype(meta.dtypes.to_dict())


def _document(doc_id: str, rows: pd.DataFrame, side: str) -> Document:
    """A document from its mention rows, in source order."""
    entities: dict[str, list[Span]] = {}
    for entity, start, end in zip(
        rows["entity"].tolist(), rows["start"].tolist(), rows["end"].tolist()
    ):
        if entity is None:
            raise InputError(f"{side} document {doc_id!r}: a mention row has no entity id")
        if start < 0 or end < start:
            raise InputError(
                f"{side} document {doc_id!r}: invalid span ({start}, {end}) of entity "
                f"{entity}; need 0 <= start <= end (ends are inclusive)"
            )
        entities.setdefault(entity, []).append((start, end))
    return Document(
        doc_id=doc_id,
        entities=tuple(tuple(spans) for spans in entities.values()),
        labels=tuple(entities),
    )


def _collect(
    table: pd.DataFrame, plan: _Plan, *, selected: bool
) -> tuple[list[_Scored], list[str]]:
    """Per-document results in key order, and every warning the single-process scorer gives."""
    if table["doc"].isna().any():
        raise InputError("a mention row has no document id")
    table = table.sort_values("pos", kind="stable")
    scored_rows = table[table["scored"]]
    extra_rows = table[~table["scored"]]
    names = [(name, [f"{name}\t{i}" for i in range(width)]) for name, width in plan.widths]
    scored: list[_Scored] = []
    warnings: list[str] = []
    for record in scored_rows.to_dict("records"):
        stats = {name: tuple(record[c] for c in columns) for name, columns in names}
        found = tuple(w for w in str(record["warnings"]).split("\n") if w)
        scored.append(_Scored(str(record["doc"]), stats, found))
    response_count = int(table["has_response"].sum())
    if not selected:
        warnings += _extra_warnings([str(d) for d in extra_rows["doc"]], response_count)
    warnings += [w for item in scored for w in item.warnings]
    missing = int((~scored_rows["has_response"]).sum())
    if missing and response_count:
        warnings.append(f"{missing} key document(s) not in the response, scored as all missed")
    return scored, warnings


def mention_table(corpus: Corpus) -> pd.DataFrame:
    """A corpus as a pandas mention table (``doc``, ``start``, ``end``, ``entity``), in order.

    Entity ids are the labels of the source; documents without mentions have
    no row (pass their ids as ``documents`` to :func:`score` to keep them).
    Write it with ``to_parquet`` to score it later without the readers.
    """
    try:
        import pandas as pd
    except ImportError:
        raise UsageError(f"mention tables need pandas: {_INSTALL}") from None

    docs: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    entities: list[str] = []
    for doc in corpus:
        for label, entity in zip(doc.labels, doc.entities):
            for start, end in entity:
                docs.append(doc.doc_id)
                starts.append(start)
                ends.append(end)
                entities.append(label)
    return pd.DataFrame(
        {
            "doc": pd.Series(docs, dtype=object),
            "start": pd.Series(starts, dtype="int64"),
            "end": pd.Series(ends, dtype="int64"),
            "entity": pd.Series(entities, dtype=object),
        }
    )


# --------------------------------------------------------------------------------------------
# Cross-document scoring: one global partition of the mentions of every document

#: The metrics the cross-document mode computes (those of :mod:`corefscore.columnar`).
CROSS_DOCUMENT_METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
#: The document id under which a cross-document result keeps its statistics
#: (that of :func:`corefscore.crossdoc.score_cross_document`).
CROSS_DOCUMENT_ID = "(corpus)"


def _check_cross(plan: _Plan, key_scope: str, response_scope: str) -> None:
    from .columnar import SCOPES

    for side, scope in (("key", key_scope), ("response", response_scope)):
        if scope not in SCOPES:
            raise UsageError(f"{side} scope must be one of {', '.join(SCOPES)}, got {scope!r}")
    setup = plan.setup
    unsupported = [n for n, _ in plan.widths if n not in CROSS_DOCUMENT_METRICS]
    if unsupported:
        raise UsageError(
            f"cross-document scoring computes {', '.join(CROSS_DOCUMENT_METRICS)}; "
            f"not {', '.join(unsupported)}"
        )
    if plan.duplicates not in ("default", "first"):
        raise UsageError(
            f"--duplicates {plan.duplicates} is not available with cross-document scoring "
            "(only default and first)"
        )
    if setup.matching != "exact" or setup.gold_mentions or setup.anaphoric_only:
        raise UsageError(
            "cross-document scoring matches mentions exactly; --match, --gold-mentions and "
            "--anaphoric-only are not available with it"
        )
    if setup.remove_nested:
        raise UsageError("--remove-nested is not available with cross-document scoring")


def _cross_meta() -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(
        {
            "side": pd.Series([], dtype="int8"),
            "doc": pd.Series([], dtype=object),
            "start": pd.Series([], dtype="int64"),
            "end": pd.Series([], dtype="int64"),
            "entity": pd.Series([], dtype=object),
            "pos": pd.Series([], dtype="int64"),
            "twin": pd.Series([], dtype=object),
            "repeat": pd.Series([], dtype=bool),
            "extra": pd.Series([], dtype=bool),
        }
    )


def _cross_mentions(part: pd.DataFrame, *, scopes: tuple[str, str]) -> pd.DataFrame:
    """Every mention of the partition's documents: repeats and extras marked, twins found.

    A document is whole in its partition, so a span's repeats and its twin
    on the other side are here too. ``extra`` marks response rows of a
    document the key does not have (ignored); ``twin`` is the key entity of a
    response mention's twin (first copies only). With ``document`` scope an
    entity id is made unique by its document.
    """
    import pandas as pd

    meta = _cross_meta()
    if not len(part):
        return meta
    ordered = part.sort_values("pos", kind="stable")
    if ordered["doc"].isna().any():
        raise InputError("a mention row has no document id")
    if ordered["entity"].isna().any():
        doc = ordered.loc[ordered["entity"].isna(), "doc"].iloc[0]
        raise InputError(f"document {doc!r}: a mention row has no entity id")
    bad = (ordered["start"] < 0) | (ordered["end"] < ordered["start"])
    if bad.any():
        row = ordered[bad].iloc[0]
        raise InputError(
            f"document {row['doc']!r}: invalid span ({row['start']}, {row['end']}) of entity "
            f"{row['entity']}; need 0 <= start <= end (ends are inclusive)"
        )
    key_docs = ordered.loc[ordered["side"] != _RESPONSE, "doc"].unique()
    sides = {}
    for code, scope in zip((_KEY, _RESPONSE), scopes):
        rows = ordered[ordered["side"] == code].copy()
        if scope == "document":
            # A unit separator cannot occur in a document id read from a file.
            rows["entity"] = rows["doc"] + "\x1f" + rows["entity"]
        rows["extra"] = ~rows["doc"].isin(key_docs)
        rows["repeat"] = rows[~rows["extra"]].duplicated(["doc", "start", "end"], keep="first")
        rows["repeat"] = rows["repeat"].fillna(False).astype(bool)
        rows["twin"] = pd.Series(None, index=rows.index, dtype=object)
        sides[code] = rows
    key = sides[_KEY]
    key_firsts = key[~key["repeat"]][["doc", "start", "end", "entity"]]
    response = sides[_RESPONSE]
    firsts = ~response["repeat"] & ~response["extra"]
    found = response.loc[firsts, ["doc", "start", "end"]].merge(
        key_firsts.rename(columns={"entity": "found"}), on=["doc", "start", "end"], how="left"
    )
    response.loc[firsts, "twin"] = found["found"].to_numpy()
    # A declaration says that the key has the document; it is no mention.
    declared = ordered[ordered["side"] == _DECLARED].assign(repeat=False, extra=False, twin=None)
    out = pd.concat([key, response, declared], ignore_index=True)[list(meta.columns)]
    return out.astype(meta.dtypes.to_dict())


def _document_warnings(documents: pd.DataFrame) -> list[str]:
    """What :func:`corefscore.crossdoc.score_cross_document` says of unpaired documents."""
    response_docs = documents[documents["response"]].sort_values("response_first", kind="stable")
    extra = [str(d) for d in response_docs.loc[~response_docs["key"], "doc"]]
    warnings = []
    shown = ", ".join(repr(d) for d in extra[:3]) + (" ..." if len(extra) > 3 else "")
    if extra and len(extra) == len(response_docs):
        warnings.append(
            f"no response document id matches a key document id ({shown}); "
            "every key document is scored as all missed"
        )
    elif extra:
        dropped = int(response_docs.loc[~response_docs["key"], "response_rows"].sum())
        warnings.append(
            f"{len(extra)} response document(s) not in the key, ignored with their "
            f"{dropped} mention(s): {shown}"
        )
    missing = int((documents["key"] & ~documents["response"]).sum())
    if missing and len(response_docs):
        warnings.append(f"{missing} key document(s) not in the response, scored as all missed")
    return warnings


def _cross_result(
    stats: dict[str, tuple[float, ...]],
    plan: _Plan,
    scopes: tuple[str, str],
    warnings: Sequence[str],
    options: Mapping[str, Any],
) -> ScoreResult:
    """The result :func:`corefscore.crossdoc.score_cross_document` builds from ``stats``;
    the statistics are also kept under :data:`CROSS_DOCUMENT_ID`."""
    from .crossdoc import columnar_result

    scope = "cross-document"
    if scopes != ("global", "global"):
        scope += f"(key={scopes[0]},response={scopes[1]})"
    cross = {"cross_document": True, "key_scope": scopes[0], "response_scope": scopes[1]}
    return columnar_result(
        stats,
        names=[name for name, _ in plan.widths],
        duplicates=plan.duplicates,
        setup=plan.setup,
        scope=scope,
        options={**cross, **options},
        warnings=warnings,
        document_statistics={CROSS_DOCUMENT_ID: stats},
    )


def _repeat_warnings(repeats: pd.DataFrame, duplicates: str) -> list[str]:
    """The duplicates policy over (document, start, end), as the columnar scorer words it."""
    warnings: list[str] = []
    for code, name in ((_KEY, "key"), (_RESPONSE, "response")):
        rows = repeats[repeats["side"] == code].sort_values("pos", kind="stable")
        if not len(rows):
            continue
        first = rows.iloc[0]
        where = f"document {first['doc']!r} span ({first['start']}, {first['end']})"
        docs = rows["doc"].nunique()
        if name == "key" and duplicates == "default":
            raise InputError(
                f"{len(rows)} repeated key span(s) in {docs} document(s), first {where}; "
                "use --duplicates first to score anyway"
            )
        warnings.append(
            f"{name}: {len(rows)} repeated span(s) in {docs} document(s) (first {where}); "
            "kept the copy in the first entity"
        )
    return warnings


def _entities(mentions: Any) -> Any:
    """Per entity: its size, its first mention's position and that mention's document."""
    agg = mentions.groupby("entity").agg(size=("pos", "count"), first=("pos", "min"))
    agg = agg.reset_index()
    located = mentions[["pos", "doc"]].rename(columns={"pos": "first"})
    return agg.merge(located, on="first", how="inner")


def _segment_meta(columns: Sequence[str]) -> pd.DataFrame:
    import pandas as pd

    frame = {"doc": pd.Series([], dtype=object)}
    frame.update({c: pd.Series([], dtype="float64") for c in columns})
    return pd.DataFrame(frame)


def _segment_partition(part: pd.DataFrame, *, columns: Sequence[str]) -> pd.DataFrame:
    """Per document, each column added left to right in ``order`` (as ``sequential_sum``)."""
    import numpy as np
    import pandas as pd

    records = []
    for doc, rows in part.sort_values("order", kind="stable").groupby("doc", sort=False):
        record: dict[str, Any] = {"doc": doc}
        for column in columns:
            values = rows[column].to_numpy(dtype=np.float64)
            record[column] = float(np.add.accumulate(values)[-1]) if len(values) else 0.0
        records.append(record)
    if not records:
        return _segment_meta(columns)
    return pd.DataFrame.from_records(records, columns=["doc", *columns])


def _per_document(terms: Any, columns: Sequence[str], parts: int) -> Any:
    """Per document, the sums of ``columns`` in ``order`` (lazy; see :func:`_fsums`)."""
    shuffled = terms[["doc", "order", *columns]].shuffle(
        on="doc", npartitions=parts, shuffle_method="tasks"
    )
    return shuffled.map_partitions(
        _segment_partition, columns=list(columns), meta=_segment_meta(columns)
    )


def _fsums(per_document: pd.DataFrame, columns: Sequence[str]) -> list[float]:
    """The columnar scorer's totals: sums per document in order, then ``math.fsum``."""
    return [math.fsum(per_document[c].tolist()) for c in columns]


def _components(active: Any, edges: Any) -> Any:
    """The connected component of every key entity of the overlap graph, found distributedly.

    Min-label propagation (each key entity takes the least key entity id
    two steps away) with pointer jumping (then the label of its label), to a
    fixed point: about log(diameter) rounds. Nodes are entities' first
    positions (integers, unique per side): ``edges`` has columns k and r.
    Returns (k, label).
    """
    labels = edges[["k"]].drop_duplicates()
    labels = active.persist(labels.map_partitions(_own_label, meta=_own_label(labels._meta)))
    total = int(active.compute(labels["label"].sum()).result())
    while True:
        via = edges.merge(labels, on="k").groupby("r")["label"].min().reset_index()
        nearest = edges.merge(via, on="r").groupby("k")["label"].min().reset_index()
        nearest = active.persist(nearest)
        jumped = nearest.merge(
            nearest.rename(columns={"k": "label", "label": "jump"}), on="label", how="left"
        )
        labels = active.persist(jumped.map_partitions(_jump, meta=_own_label(labels._meta)))
        # Labels only ever decrease, so an unchanged sum means no label changed.
        now = int(active.compute(labels["label"].sum()).result())
        if now == total:
            return labels
        total = now


def _own_label(part: pd.DataFrame) -> pd.DataFrame:
    return part.assign(label=part["k"].astype("int64"))[["k", "label"]]


def _align_meta() -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(
        {
            "metric": pd.Series([], dtype=object),
            "k": pd.Series([], dtype=object),
            "sim": pd.Series([], dtype="float64"),
        }
    )


def _align_partition(part: pd.DataFrame, *, metrics: Sequence[str]) -> pd.DataFrame:
    """CEAF's optimal alignment of the components whole in this partition."""
    import numpy as np
    import pandas as pd

    from .columnar import ceaf_alignment

    if not len(part):
        return _align_meta()
    # Cells in (key entity, response entity) order of first appearance, as the
    # single-process table lists them: ties then break the same way.
    cells = part.sort_values(["k_first", "r_first"], kind="stable")
    rows = pd.factorize(cells["k_first"], sort=True)[0].astype(np.int64)
    cols = pd.factorize(cells["r_first"], sort=True)[0].astype(np.int64)
    shape = (int(rows.max()) + 1, int(cols.max()) + 1)
    shared = cells["n"].to_numpy(dtype=np.int64)
    sizes = cells["k_size"].to_numpy(dtype=np.int64) + cells["r_size"].to_numpy(dtype=np.int64)
    keys = cells["k"].to_numpy(dtype=object)
    frames = []
    for metric in metrics:
        weights = shared.astype(np.float64) if metric == "ceafm" else 2 * shared / sizes
        chosen_rows, _, sims = ceaf_alignment(shape, rows, cols, weights)
        first_cell = np.zeros(shape[0], dtype=np.int64)
        first_cell[rows[::-1]] = np.arange(len(rows))[::-1]
        frames.append(
            pd.DataFrame(
                {
                    "metric": pd.Series([metric] * len(sims), dtype=object),
                    "k": pd.Series(keys[first_cell[chosen_rows]], dtype=object),
                    "sim": sims.astype(np.float64),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def _jump(part: pd.DataFrame) -> pd.DataFrame:
    return part.assign(label=part["jump"].fillna(part["label"]).astype("int64"))[["k", "label"]]


# Terms as pandas functions of one partition: built as Dask expressions, their
# shared sub-expressions make the query optimiser take minutes.
def _bcub_terms(part: pd.DataFrame) -> pd.DataFrame:
    return part.assign(
        order=part["pos"],
        recall=part["n"] / part["k_size"],
        precision=part["n"] / part["r_size"],
    )


def _lea_terms(part: pd.DataFrame) -> pd.DataFrame:
    """LEA's resolution × importance (the size) of each entity, as ``lea._resolution``."""
    size = part["size"]
    links = (size * (size - 1) / 2).where(size != 1, 1.0)
    found = part["resolved"].fillna(0.0).where(part["alone"].fillna(0) == 0, 1.0)
    return part.assign(term=found / links * size, order=part["first"])


def _ceaf_terms(part: pd.DataFrame) -> pd.DataFrame:
    # The reference adds 1 - (1 - phi) per key entity, in key order.
    return part.assign(value=1 - (1 - part["sim"]), order=part["first"])


def _choose2(values: Any) -> Any:
    return values * (values - 1) // 2


def _score_cross(
    active: Any, combined: Any, plan: _Plan, parts: int, scopes: tuple[str, str]
) -> tuple[dict[str, tuple[float, ...]], list[str]]:
    """The statistics of one global partition of all mentions, and the warnings.

    Everything but the component search is one computation, so that the
    cluster makes one round trip for it.
    """
    wanted = [name for name, _ in plan.widths]
    by_doc = combined.shuffle(on="doc", npartitions=parts, shuffle_method="tasks")
    records = active.persist(
        by_doc.map_partitions(_cross_mentions, scopes=scopes, meta=_cross_meta())
    )

    mentions = records[~records["repeat"] & ~records["extra"]]
    key_mentions = mentions[mentions["side"] == _KEY]
    response_mentions = mentions[mentions["side"] == _RESPONSE]
    key_entities = _entities(key_mentions)
    response_entities = _entities(response_mentions)
    if plan.setup.key_singletons == "drop":
        key_entities = key_entities[key_entities["size"] > 1]
    if plan.setup.response_singletons == "drop":
        response_entities = response_entities[response_entities["size"] > 1]
    key_entities, response_entities = active.persist([key_entities, response_entities])

    pairs = response_mentions[response_mentions["twin"].notnull()]
    pairs = pairs[["entity", "twin", "doc", "pos"]].rename(columns={"entity": "r", "twin": "k"})
    # Dropped singletons take their mentions with them, and with them their twins.
    pairs = pairs.merge(
        key_entities[["entity", "size", "first"]].rename(
            columns={"entity": "k", "size": "k_size", "first": "k_first"}
        ),
        on="k",
    )
    pairs = pairs.merge(
        response_entities[["entity", "size", "first"]].rename(
            columns={"entity": "r", "size": "r_size", "first": "r_first"}
        ),
        on="r",
    )
    pairs = active.persist(pairs)
    cells = pairs.groupby(["k", "r"]).agg(
        n=("pos", "count"),
        k_size=("k_size", "first"),
        r_size=("r_size", "first"),
        k_first=("k_first", "first"),
        r_first=("r_first", "first"),
    )
    cells = active.persist(cells.reset_index())

    is_key = records["side"] != _RESPONSE
    is_response = records["side"] == _RESPONSE
    documents = (
        records.assign(
            key=is_key,
            response=is_response,
            response_rows=is_response.astype("int64"),
            response_first=records["pos"].where(is_response, _NEVER),
        )
        .groupby("doc")
        .agg(
            key=("key", "max"),
            response=("response", "max"),
            response_rows=("response_rows", "sum"),
            response_first=("response_first", "min"),
        )
        .reset_index()
    )
    lazy: dict[str, Any] = {"repeats": records[records["repeat"]], "documents": documents}
    counts = {
        "key_total": key_entities["size"].sum(),
        "key_count": key_entities["size"].count(),
        "key_links": _choose2(key_entities["size"]).sum(),
        "response_total": response_entities["size"].sum(),
        "response_count": response_entities["size"].count(),
        "response_links": _choose2(response_entities["size"]).sum(),
        "matched": cells["n"].sum(),
        "cells": cells["n"].count(),
        "common_links": _choose2(cells["n"]).sum(),
        "row_links": _choose2(cells.groupby("k")["n"].sum()).sum(),
        "col_links": _choose2(cells.groupby("r")["n"].sum()).sum(),
    }
    lazy.update(counts)
    if "bcub" in wanted:
        terms = pairs.merge(cells[["k", "r", "n"]], on=["k", "r"])
        terms = active.persist(terms.map_partitions(_bcub_terms, meta=_bcub_terms(terms._meta)))
        lazy["bcub"] = _per_document(terms, ["recall", "precision"], parts)
    if "lea" in wanted:
        # A singleton is resolved when its twin is alone in its entity too.
        alone = (cells["n"] == 1) & (cells["k_size"] == 1) & (cells["r_size"] == 1)
        weighted = cells.assign(
            pairs=_choose2(cells["n"]).astype("float64"), alone=alone.astype("int64")
        )
        for own, entities in (("k", key_entities), ("r", response_entities)):
            resolved = (
                weighted.groupby(own)
                .agg(resolved=("pairs", "sum"), alone=("alone", "max"))
                .reset_index()
                .rename(columns={own: "entity"})
            )
            side = active.persist(entities.merge(resolved, on="entity", how="left"))
            side = side.map_partitions(_lea_terms, meta=_lea_terms(side._meta))
            lazy[f"lea-{own}"] = _per_document(side, ["term"], parts)
    ceafs = [m for m in ("ceafm", "ceafe") if m in wanted]
    if ceafs:
        edges = cells[["k_first", "r_first"]].rename(columns={"k_first": "k", "r_first": "r"})
        components = _components(active, edges).rename(columns={"k": "k_first"})
        located = cells.merge(components, on="k_first")
        by_component = located.shuffle(on="label", npartitions=parts, shuffle_method="tasks")
        aligned = by_component.map_partitions(_align_partition, metrics=ceafs, meta=_align_meta())
        aligned = aligned.merge(
            key_entities[["entity", "first", "doc"]].rename(columns={"entity": "k"}), on="k"
        )
        aligned = active.persist(aligned)
        for metric in ceafs:
            chosen = aligned[aligned["metric"] == metric]
            chosen = chosen.map_partitions(_ceaf_terms, meta=_ceaf_terms(chosen._meta))
            lazy[metric] = _per_document(chosen, ["value"], parts)

    names = list(lazy)
    # Submitted together, optimised one by one: one expression of them all
    # takes the optimiser minutes.
    done = dict(zip(names, active.gather([active.compute(lazy[n]) for n in names])))
    warnings = _document_warnings(done["documents"])
    warnings += _repeat_warnings(done["repeats"], plan.duplicates)
    c = {name: int(done[name]) for name in counts}
    stats: dict[str, tuple[float, ...]] = {}
    key_total, response_total = c["key_total"], c["response_total"]
    if "mentions" in wanted:
        stats["mentions"] = (c["matched"], key_total, c["matched"], response_total)
    if "muc" in wanted:
        correct = c["matched"] - c["cells"]
        stats["muc"] = (
            correct,
            key_total - c["key_count"],
            correct,
            response_total - c["response_count"],
        )
    if "blanc" in wanted:
        common_non = _choose2(c["matched"]) - c["row_links"] - c["col_links"] + c["common_links"]
        stats["blanc"] = (
            c["common_links"],
            c["key_links"],
            c["common_links"],
            c["response_links"],
            common_non,
            _choose2(key_total) - c["key_links"],
            common_non,
            _choose2(response_total) - c["response_links"],
        )
    if "bcub" in wanted:
        recall, precision = _fsums(done["bcub"], ["recall", "precision"])
        stats["bcub"] = (recall, key_total, precision, response_total)
    if "lea" in wanted:
        recall, precision = _fsums(done["lea-k"], ["term"])[0], _fsums(done["lea-r"], ["term"])[0]
        stats["lea"] = (recall, key_total, precision, response_total)
    for metric in ceafs:
        total = _fsums(done[metric], ["value"])[0]
        if metric == "ceafm":
            stats[metric] = (total, key_total, total, response_total)
        else:
            stats[metric] = (total, c["key_count"], total, c["response_count"])
    return {name: stats[name] for name in wanted}, warnings


def is_mention_input(*paths: str) -> bool:
    """Whether any of ``paths`` is a mention table (Parquet, or the ``.tsv`` of crossdoc)."""
    from .crossdoc import is_mention_table

    return any(_is_parquet(p) or is_mention_table(p) for p in paths)


def _is_parquet(path: str) -> bool:
    return path.lower().rstrip("/").endswith((".parquet", ".pq"))


def read_mentions(path: str, *, format: str | None = None, side: str = "key") -> Any:
    """One side as a Dask DataFrame of mentions.

    Parquet (a file or a folder of files ending in ``.parquet``) is read by
    the workers, partition by partition, and needs the columns ``doc``,
    ``start``, ``end`` and ``entity``; any other file is read here with
    :func:`corefscore.crossdoc.read_mentions` (mention tables, CoNLL, ...).
    """
    require_dask()
    dd = _dask_dataframe()
    import numpy as np
    import pandas as pd

    if _is_parquet(path):
        try:
            return dd.read_parquet(path, columns=list(MENTION_COLUMNS))
        except (OSError, ValueError, KeyError) as error:
            raise InputError(f"cannot read Parquet mention table ({error})", path=path) from None
    from .crossdoc import read_mentions as read_table

    table = read_table(path, format=format, side=side)
    if not getattr(table, "corpus_wide_labels", True):
        raise UsageError(
            f"the {side} is jsonlines, whose clusters have no ids beyond their document; "
            "convert it to a format with entity ids first"
        )
    doc_ids = np.array(list(table.doc_ids), dtype=object)
    labels = np.array(list(table.labels), dtype=object)
    frame = pd.DataFrame(
        {
            "doc": doc_ids[table.doc] if len(table) else np.zeros(0, dtype=object),
            "start": table.start.astype(np.int64),
            "end": table.end.astype(np.int64),
            "entity": labels[table.label] if len(table) else np.zeros(0, dtype=object),
        }
    )
    return dd.from_pandas(frame, npartitions=1)
