"""The Dask engine (the optional extra ``corefscore[dask]``): the pipeline on a cluster.

Two kinds of input, two ways to split the work, the same numbers, warnings
and signature as the single-process engines (tested for exact equality):

* ``score_corpora`` takes two ``Corpus`` objects
  (what the command line reads) and ships document pairs, whole, to the
  workers, which score them with the object engine
  (``corefscore.engines.objects.score_pair``): every option works.
* ``score`` takes two Dask DataFrames of mentions, one row per mention
  with the columns ``doc``, ``start``, ``end`` (inclusive token span) and
  ``entity`` (any hashable id, compared as a string), e.g. from
  ``dask.dataframe.read_parquet``. Per document, the rows are shuffled by
  document and each partition rebuilds and scores its documents with the
  object engine. Cross-document, the workers check and encode the rows
  (document and entity ids hashed to 64-bit integers, checked for
  collisions) and the client scores the integer arrays with the columnar
  engine (32 bytes a mention).

The engine changes where the work runs, never a number, so it is recorded in
``options["engine"]`` and left out of the signature. Dask is imported only
inside these functions.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .._record import record
from ..errors import InputError, UsageError, option
from ..evaluation import Evaluation, EvaluationOptions
from ..model import Document, Span
from ..pipeline import Pairing, Statistics, min_span_warning, pair_documents

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]
    from distributed import Client
    from typing_extensions import Unpack

    from ..model import Corpus
    from ..result import ScoreResult

#: The columns of a mention table.
MENTION_COLUMNS = ("doc", "start", "end", "entity")

_INSTALL = "pip install 'corefscore[dask]'"
# Sides of a row once key and response are in one frame; a declaration row
# names a key document to score (it may have no mention).
_KEY, _RESPONSE, _DECLARED = 0, 1, 2
# A row's position is (partition << _ROW_BITS) + row number within the partition.
_ROW_BITS = 40


def _dask_dataframe() -> Any:
    """``dask.dataframe``, typed loosely: Dask's own annotations are partial."""
    import dask.dataframe

    return dask.dataframe


def require_dask() -> None:
    """Raise ``UsageError`` saying how to install Dask when it is missing."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as error:
        raise UsageError(
            f"the dask engine needs Dask and pandas ({error.name or error}): {_INSTALL}"
        ) from None


@record(frozen=True)
class _Scored:
    """One key document's statistics and warnings, as a task returns them."""

    doc_id: str
    statistics: Statistics
    warnings: tuple[str, ...]


def _score_pair(key: Document, response: Document, evaluation: Evaluation) -> _Scored:
    from .objects import score_pair

    warnings: list[str] = []
    stats = score_pair(key, response, evaluation, warnings)
    return _Scored(key.doc_id, stats, tuple(warnings))


def _result(
    evaluation: Evaluation,
    pairing: Pairing,
    scored: Sequence[_Scored],
    warnings: list[str],
    per_document: bool,
    options: Mapping[str, Any],
    documents: Sequence[str] | None,
) -> ScoreResult:
    """The result the single-process engines build from the same documents.

    Corpus sums are correctly rounded (``math.fsum``), so the order in which
    the tasks finished cannot change a bit.
    """
    from ..result import build_result

    by_id = {item.doc_id: item for item in scored}
    statistics: dict[str, Statistics] = {}
    for doc_id in pairing.documents:
        item = by_id[doc_id]
        warnings.extend(item.warnings)
        statistics[doc_id] = item.statistics
    record: dict[str, Any] = {"documents": list(documents) if documents is not None else None}
    record.update(options)
    return build_result(
        evaluation, statistics, warnings=warnings, per_document=per_document, options=record
    )


# --------------------------------------------------------------------------------------------
# Clients


@record(frozen=True)
class Cluster:
    """Where and how finely the work runs.

    ``client``: a ``distributed.Client`` to use; else one connected to
    ``scheduler`` (e.g. ``tcp://host:8786``); else the current default
    client; else a temporary ``LocalCluster`` of ``workers`` processes (one
    per core by default). ``partitions``: the partitions after the shuffle by
    document, or the tasks of document pairs (default: as many as the inputs
    have, or four per worker thread).
    """

    client: Any = None
    scheduler: str | None = None
    workers: int | None = None
    partitions: int | None = None

    @classmethod
    def of(cls, cluster: Cluster | Client | None) -> Cluster:
        """A ``Cluster`` from itself, a client, or nothing (the defaults)."""
        if cluster is None:
            return cls()
        return cluster if isinstance(cluster, Cluster) else cls(client=cluster)


@contextmanager
def connect(cluster: Cluster | Client | None = None, *, processes: bool = True) -> Iterator[Any]:
    """The Dask client of ``cluster`` (see ``Cluster``); a temporary one is closed on exit."""
    spec = Cluster.of(cluster)
    client, scheduler, workers = spec.client, spec.scheduler, spec.workers
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
        raise UsageError(f"{option('workers', workers)} must be >= 1")
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


def _threads(client: Any) -> int:
    return max(int(sum(client.nthreads().values())), 1)


# --------------------------------------------------------------------------------------------
# Corpora (the command line): document pairs shipped to the workers as they are


def score_corpora(
    key: Corpus,
    response: Corpus,
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    options: Mapping[str, Any] | None = None,
    cluster: Cluster | Client | None = None,
    **evaluation_options: Unpack[EvaluationOptions],
) -> ScoreResult:
    """``corefscore.score_corpora`` with the documents scored on a Dask cluster.

    Document pairs travel whole (with every fact the readers kept), so every
    option of the object engine works. ``cluster`` says where (see ``Cluster``;
    its ``partitions`` is the number of tasks).
    """
    from ..engines import check
    from ..pipeline import document_pairs

    evaluation = Evaluation.of(evaluation, evaluation_options)
    spec = Cluster.of(cluster)
    check(evaluation, "objects")
    pairing = pair_documents(
        tuple(key.documents), tuple(response.documents), documents=documents, key_source=key.source
    )
    warnings = [*key.warnings, *response.warnings, *pairing.warnings]
    pairs = list(document_pairs(key, response, pairing, warnings))
    warned = min_span_warning(evaluation, (k for k, _ in pairs))
    with connect(spec) as active:
        count = max(1, min(len(pairs), spec.partitions or 4 * _threads(active)))
        size = -(-len(pairs) // count) if pairs else 1
        batches = [pairs[i : i + size] for i in range(0, len(pairs), size)]
        scattered = active.scatter(batches) if batches else []
        futures = active.map(_score_batch, scattered, evaluation=evaluation, pure=False)
        scored = [s for batch in active.gather(futures) for s in batch]
        address = active.scheduler.address if active.scheduler is not None else None
    if warned is not None:
        scored = [
            _Scored(s.doc_id, s.statistics, (warned[1], *s.warnings))
            if s.doc_id == warned[0]
            else s
            for s in scored
        ]
    extra = {**(options or {}), "engine": "dask"}
    extra["scheduler"] = address if spec.scheduler is not None else None
    return _result(evaluation, pairing, scored, warnings, per_document, extra, documents)


def _score_batch(
    pairs: list[tuple[Document, Document]], *, evaluation: Evaluation
) -> list[_Scored]:
    return [_score_pair(key, response, evaluation) for key, response in pairs]


# --------------------------------------------------------------------------------------------
# Mention tables


def score(
    key: Any,
    response: Any,
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    options: Mapping[str, Any] | None = None,
    cluster: Cluster | Client | None = None,
    **evaluation_options: Unpack[EvaluationOptions],
) -> ScoreResult:
    """Score two Dask (or pandas) DataFrames of mentions on a Dask cluster.

    Each row is one mention: ``doc``, ``start``, ``end`` (inclusive token
    positions, integers) and ``entity``. Within a document, entities are
    ordered by their first row and mentions by row, as the readers order them.
    Key documents are those with key rows, in order of their first row, unless
    ``documents`` lists them (then in that order, and a listed document
    without key rows is scored as having no key mention). Matching is
    ``exact`` or ``overlap``: a mention table has no heads or MIN spans.
    With a cross-document evaluation, entity ids are read as its scope says.

    Options are those of ``corefscore.score`` (or ``evaluation=``);
    ``cluster`` says where to run (see ``Cluster``: its ``partitions`` is the
    number of partitions after the shuffle by document, by default as many as
    the larger input has).
    """
    from ..engines import check

    evaluation = Evaluation.of(evaluation, evaluation_options)
    spec = Cluster.of(cluster)
    require_dask()
    check(evaluation, "dask")
    if evaluation.regime.matching not in ("exact", "overlap"):
        what = "heads" if evaluation.regime.matching == "head" else "MIN spans"
        raise UsageError(
            f"{option('matching', evaluation.regime.matching)} needs {what}, which a mention "
            "table does not have; score the files instead"
        )
    key_frame = _mention_frame(key, "key", _KEY)
    response_frame = _mention_frame(response, "response", _RESPONSE)
    with connect(spec) as active:
        frame = _combined(key_frame, response_frame, documents)
        parts = spec.partitions or max(key_frame.npartitions, response_frame.npartitions)
        shuffled = frame.shuffle(on="doc", npartitions=parts, shuffle_method="tasks")
        if evaluation.scope.cross_document:
            result = _score_cross(active, shuffled, evaluation, documents, options)
        else:
            found = shuffled.map_partitions(
                _score_partition,
                evaluation=evaluation,
                selected=documents is not None,
                meta=_partition_meta(evaluation),
            )
            table = active.compute(found).result()
            result = None
        address = active.scheduler.address if active.scheduler is not None else None
    extra = {**(options or {}), "engine": "dask", "scheduler": None}
    extra["scheduler"] = address if spec.scheduler is not None else None
    if result is not None:
        from .._record import replace

        return replace(result, options={**result.options, **extra})
    pairing, scored = _collect(table, evaluation, documents)
    return _result(
        evaluation, pairing, scored, list(pairing.warnings), per_document, extra, documents
    )


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


def _checked(part: pd.DataFrame) -> pd.DataFrame:
    """The partition's rows in source order, refused when an id or a span is bad."""
    ordered = part.sort_values("pos", kind="stable")
    if ordered["doc"].isna().any():
        raise InputError("a mention row has no document id")
    mentions = ordered[ordered["side"] != _DECLARED]
    if mentions["entity"].isna().any():
        doc = mentions.loc[mentions["entity"].isna(), "doc"].iloc[0]
        raise InputError(f"document {doc!r}: a mention row has no entity id")
    bad = (mentions["start"] < 0) | (mentions["end"] < mentions["start"])
    if bad.any():
        row = mentions[bad].iloc[0]
        raise InputError(
            f"document {row['doc']!r}: invalid span ({row['start']}, {row['end']}) of entity "
            f"{row['entity']}; need 0 <= start <= end (ends are inclusive)"
        )
    return ordered


def _partition_meta(evaluation: Evaluation) -> pd.DataFrame:
    import pandas as pd

    columns: dict[str, Any] = {
        "doc": pd.Series([], dtype=object),
        "key": pd.Series([], dtype=bool),
        "response": pd.Series([], dtype=bool),
        "key_pos": pd.Series([], dtype="int64"),
        "response_pos": pd.Series([], dtype="int64"),
        "warnings": pd.Series([], dtype=object),
    }
    for name in _columns(evaluation):
        columns[name] = pd.Series([], dtype="float64")
    return pd.DataFrame(columns)


def _columns(evaluation: Evaluation) -> list[str]:
    return [f"{m.name}\t{i}" for m in evaluation.metrics for i in range(m.width)]


_NEVER = 1 << 62


def _score_partition(part: pd.DataFrame, *, evaluation: Evaluation, selected: bool) -> pd.DataFrame:
    """Score every document of one partition (each document is whole in one).

    A document is a key document when it has key rows (or, with a list of
    documents, when it is listed); its place is its first such row.
    """
    records: list[dict[str, Any]] = []
    for doc_id, rows in _checked(part).groupby("doc", sort=False):
        sides = rows["side"].to_numpy()
        key_rows = rows[sides == _KEY]
        response_rows = rows[sides == _RESPONSE]
        claim = rows[sides == _DECLARED] if selected else key_rows
        record: dict[str, Any] = {
            "doc": str(doc_id),
            "key": len(claim) > 0,
            "response": len(response_rows) > 0,
            "key_pos": int(claim["pos"].iloc[0]) if len(claim) else _NEVER,
            "response_pos": int(response_rows["pos"].iloc[0]) if len(response_rows) else _NEVER,
            "warnings": "",
        }
        if len(claim):
            item = _score_pair(
                _document(str(doc_id), key_rows, "key"),
                _document(str(doc_id), response_rows, "response"),
                evaluation,
            )
            record["warnings"] = "\n".join(item.warnings)
            for name, values in item.statistics.items():
                for i, value in enumerate(values):
                    record[f"{name}\t{i}"] = float(value)
        records.append(record)
    meta = _partition_meta(evaluation)
    if not records:
        return meta
    frame = pd_frame(records, meta)
    return frame


def pd_frame(records: list[dict[str, Any]], meta: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame.from_records(records, columns=list(meta.columns))
    return frame.astype(meta.dtypes.to_dict())


def _document(doc_id: str, rows: pd.DataFrame, side: str) -> Document:
    """A document from its mention rows, in source order."""
    entities: dict[str, list[Span]] = {}
    for entity, start, end in zip(
        rows["entity"].tolist(), rows["start"].tolist(), rows["end"].tolist()
    ):
        entities.setdefault(entity, []).append((start, end))
    return Document(
        doc_id=doc_id,
        entities=tuple(tuple(spans) for spans in entities.values()),
        labels=tuple(entities),
    )


def _collect(
    table: pd.DataFrame, evaluation: Evaluation, documents: Sequence[str] | None
) -> tuple[Pairing, list[_Scored]]:
    """The pairing of the documents the partitions saw, and their statistics."""
    key_rows = table[table["key"]].sort_values("key_pos", kind="stable")
    response_rows = table[table["response"]].sort_values("response_pos", kind="stable")
    pairing = pair_documents(
        [str(d) for d in key_rows["doc"]],
        [str(d) for d in response_rows["doc"]],
        documents=documents,
    )
    if pairing.response_ids:
        first_key, first_response = next(iter(pairing.response_ids.items()))
        raise UsageError(
            f"document ids differ between key and response (e.g. {first_key!r} and "
            f"{first_response!r}); mention tables are paired by their doc column as it is, "
            "so give both sides the same ids"
        )
    columns = [(m.name, [f"{m.name}\t{i}" for i in range(m.width)]) for m in evaluation.metrics]
    scored = [
        _Scored(
            str(record["doc"]),
            {name: tuple(record[c] for c in names) for name, names in columns},
            tuple(w for w in str(record["warnings"]).split("\n") if w),
        )
        for record in key_rows.to_dict("records")
    ]
    return pairing, scored


def mention_table(corpus: Corpus) -> pd.DataFrame:
    """A corpus as a pandas mention table (``doc``, ``start``, ``end``, ``entity``), in order.

    Entity ids are the labels of the source; documents without mentions have
    no row (pass their ids as ``documents`` to ``score`` to keep them).
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
# Cross-document scoring: rows encoded on the cluster, one table scored in the client


def _encoded_meta() -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(
        {
            "side": pd.Series([], dtype="int8"),
            "doc": pd.Series([], dtype="uint64"),
            "start": pd.Series([], dtype="int64"),
            "end": pd.Series([], dtype="int64"),
            "entity": pd.Series([], dtype="uint64"),
            "pos": pd.Series([], dtype="int64"),
        }
    )


def _encoded(part: pd.DataFrame, *, scopes: tuple[str, str]) -> pd.DataFrame:
    """The partition's rows with document and entity ids hashed to 64-bit integers.

    Key and response entity ids are separate namespaces (hashed with their
    side), and an id read per document (``document`` scope) is hashed with
    its document. Declaration rows get entity 0.
    """
    import numpy as np
    import pandas as pd

    ordered = _checked(part)
    is_mention = (ordered["side"] != _DECLARED).to_numpy()
    mentions = ordered[is_mention]
    entity = mentions["side"].astype(str) + "\x1f" + mentions["entity"]
    for code, scope in zip((_KEY, _RESPONSE), scopes):
        if scope == "document":
            local = mentions["side"] == code
            entity = entity.where(~local, entity + "\x1f" + mentions["doc"])
    entities = np.zeros(len(ordered), dtype=np.uint64)
    entities[is_mention] = pd.util.hash_pandas_object(entity, index=False).to_numpy()
    return pd.DataFrame(
        {
            "side": ordered["side"].to_numpy(),
            "doc": pd.util.hash_pandas_object(ordered["doc"], index=False).to_numpy(),
            "start": ordered["start"].to_numpy(),
            "end": ordered["end"].to_numpy(),
            "entity": entities,
            "pos": ordered["pos"].to_numpy(),
        }
    )


def _score_cross(
    active: Any,
    shuffled: Any,
    evaluation: Evaluation,
    documents: Sequence[str] | None,
    options: Mapping[str, Any] | None,
) -> ScoreResult:
    """Encode the rows on the cluster; score the integer arrays with the columnar engine."""
    import numpy as np
    import pandas as pd

    from ..model import MentionTable, first_appearance_codes
    from ..pipeline import evaluate
    from .columnar import on_documents

    scope = evaluation.scope
    encoded = shuffled.map_partitions(
        _encoded, scopes=(scope.key, scope.response), meta=_encoded_meta()
    )
    names = shuffled[["doc", "side", "pos"]].groupby(["doc", "side"])["pos"].min().reset_index()
    rows, doc_names = active.gather(active.compute([encoded, names]))
    rows = rows.sort_values("pos", kind="stable")
    doc_hash: dict[int, str] = {}
    doc_names = doc_names.assign(
        hash=pd.util.hash_pandas_object(doc_names["doc"].astype(object), index=False).to_numpy()
    )
    for doc, value in zip(doc_names["doc"].tolist(), doc_names["hash"].tolist()):
        if doc_hash.setdefault(value, doc) != doc:
            raise InputError(f"document ids {doc!r} and {doc_hash[value]!r} hash alike")

    def side(code: int) -> MentionTable:
        chosen = rows[rows["side"] == code]
        first = doc_names[doc_names["side"] == code].sort_values("pos", kind="stable")
        doc_ids = tuple(str(d) for d in first["doc"])
        position = {h: i for i, h in enumerate(first["hash"].tolist())}
        doc = np.array([position[h] for h in chosen["doc"].tolist()], dtype=np.int64)
        entity_hashes = chosen["entity"].to_numpy()
        labels = first_appearance_codes(entity_hashes.view(np.int64))
        return MentionTable(
            doc,
            chosen["start"].to_numpy(np.int64),
            chosen["end"].to_numpy(np.int64),
            labels,
            doc_ids,
            _Labels(int(labels.max()) + 1 if len(labels) else 0),
            dense_labels=True,
        )

    key, response = side(_KEY), side(_RESPONSE)
    declared = doc_names[doc_names["side"] == _DECLARED]
    if documents is not None and len(declared):
        listed = tuple(dict.fromkeys(str(d) for d in documents))
        key = on_documents(key, listed)
    result: ScoreResult = evaluate(key, response, evaluation, documents=None, options=options)
    return result


class _Labels(Sequence[str]):
    """Entity ids of encoded rows: only their numbers survive the encoding."""

    def __init__(self, count: int) -> None:
        self._count = count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [str(i) for i in range(self._count)[index]]
        if not -self._count <= index < self._count:
            raise IndexError(index)
        return str(index % self._count)


# --------------------------------------------------------------------------------------------
# Reading


def is_mention_input(*paths: str) -> bool:
    """Whether any of ``paths`` is a mention table (Parquet, or a ``.tsv`` mention table)."""
    from ..io import is_mention_table

    return any(_is_parquet(p) or is_mention_table(p) for p in paths)


def _is_parquet(path: str) -> bool:
    return path.lower().rstrip("/").endswith((".parquet", ".pq"))


def read_mentions(path: str, *, format: str | None = None, side: str = "key") -> Any:
    """One side as a Dask DataFrame of mentions.

    Parquet (a file or a folder of files ending in ``.parquet``) is read by
    the workers, partition by partition, and needs the columns ``doc``,
    ``start``, ``end`` and ``entity``; any other file is read here with
    ``corefscore.io.read_mentions`` (mention tables, CoNLL, ...).
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
    from ..io import read_mentions as read_table

    table = read_table(path, format=format, side=side)
    if not table.corpus_wide_labels:
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


__all__ = [
    "MENTION_COLUMNS",
    "Cluster",
    "connect",
    "is_mention_input",
    "mention_table",
    "read_mentions",
    "require_dask",
    "score",
    "score_corpora",
]
