"""The Dask engine gives the single-process numbers, bit for bit.

One LocalCluster of two worker processes serves the whole module: processes,
not threads, so that every task's arguments and results really are pickled
(a built-in metric unpickled on a worker is a copy, not the registry's
object, which once broke the engine).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from corefscore.cli import main
from corefscore.io import read_corpus
from corefscore.model import Corpus
from corefscore.result import ScoreResult
from corefscore.scorer import score_corpora

from ..conftest import shared_path

pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

import corefscore.dask as engine  # noqa: E402

SEVEN = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=50,
        ) as cluster,
        Client(cluster) as active,
    ):
        yield active


def _frames(corpus: Corpus, parts: int) -> Any:
    import dask.dataframe as dd

    return dd.from_pandas(engine.mention_table(corpus), npartitions=parts)


def _golden(count: int) -> tuple[Corpus, Corpus]:
    """``count`` golden cases (every option rotation) as one corpus per side."""
    root = shared_path("data", "golden")
    cases = sorted(p for p in root.iterdir() if (p / "key.conll").exists())
    step = max(len(cases) // count, 1)
    key: dict[str, Any] = {}
    response: dict[str, Any] = {}
    for case in cases[::step][:count]:
        for side, into in (("key", key), ("response", response)):
            corpus = read_corpus(case / f"{side}.conll", side=side)
            for doc_id, doc in corpus.documents.items():
                name = f"{case.name}/{doc_id}"
                into[name] = replace(doc, doc_id=name)
    return Corpus(documents=key), Corpus(documents=response)


def _same_numbers(got: ScoreResult, expected: ScoreResult) -> None:
    assert list(got.metrics) == list(expected.metrics)
    for name, score in expected.metrics.items():
        assert got.metrics[name] == score, name  # exact: every float field
    assert got.conll == expected.conll
    assert got.signature == expected.signature


def test_golden_sample_equals_the_single_process_scorer(client: Any) -> None:
    key, response = _golden(20)
    expected = score_corpora(key, response, per_document=True)
    # Mention tables: shuffled by document across partitions, rebuilt on the workers.
    tables = engine.score(
        _frames(key, 3),
        _frames(response, 2),
        documents=list(key.documents),
        per_document=True,
        cluster=engine.Cluster(client, partitions=4),
    )
    _same_numbers(tables, expected)
    assert tables.document_statistics == expected.document_statistics
    assert list(tables.document_statistics or ()) == list(key.documents)
    assert tables.documents == expected.documents
    assert tables.options["engine"] == "dask"
    # Corpora: document pairs shipped whole, in several tasks.
    corpora = engine.score_corpora(
        key, response, per_document=True, cluster=engine.Cluster(client, partitions=5)
    )
    _same_numbers(corpora, expected)
    assert corpora.document_statistics == expected.document_statistics
    assert corpora.warnings == expected.warnings


def test_real_pair_with_repeated_spans(client: Any) -> None:
    """GUM test split against xrenner (PROVENANCE.md): 30 documents, repeated response spans."""
    pairs = shared_path("data", "real", "gum", "pairs")
    key = read_corpus(pairs / "test.key_gum.conll", side="key")
    response = read_corpus(pairs / "test.resp_xrenner.conll", side="response")
    # The reference scorer's own handling of repeats, to check its figures too.
    expected = score_corpora(key, response, duplicates="reference")
    assert any("repeated" in w for w in expected.warnings)
    corpora = engine.score_corpora(key, response, duplicates="reference", cluster=client)
    _same_numbers(corpora, expected)
    assert corpora.warnings == expected.warnings
    tables = engine.score(
        _frames(key, 2), _frames(response, 2), duplicates="reference", cluster=client
    )
    _same_numbers(tables, expected)
    assert tables.warnings == expected.warnings
    # The reference scorer's F1 on this pair, truncated as it prints them (PROVENANCE.md).
    f1 = [int(10000 * tables[m].f1) for m in ("muc", "bcub", "ceafe")]
    assert f1 == [5453, 2838, 1315]


def test_cross_document_equals_the_columnar_scorer(client: Any) -> None:
    key, response = _golden(6)
    options: dict[str, Any] = {"duplicates": "first", "response_singletons": "drop"}
    expected = score_corpora(key, response, cross_document=True, **options)
    got = engine.score(
        _frames(key, 2),
        _frames(response, 3),
        cross_document=True,
        documents=list(key.documents),  # a key document without mentions still counts
        cluster=engine.Cluster(client, partitions=3),
        **options,
    )
    _same_numbers(got, expected)
    # Documents without mentions have no row, so only their warnings may differ.
    assert [w for w in got.warnings if "not in the response" not in w] == [
        w for w in expected.warnings if "not in the response" not in w
    ]


def test_cross_document_by_hand(client: Any) -> None:
    """Entity 7 spans two documents; the response splits it and misses a mention.

    Key {a0, a1, b0} and {b5}; response {a0, a1}, {b0}, {b5} (b9 is twinless
    in the response). MUC recall 1/2 (3 mentions, 2 partitions); B³ recall
    (2·2/3 + 1/3 + 1) / 4 = 2/3, precision (2 + 1 + 1 + 0) / 5 = 4/5.
    """
    key = pd.DataFrame(
        {
            "doc": ["a", "a", "b", "b"],
            "start": [0, 3, 0, 5],
            "end": [1, 3, 2, 5],
            "entity": [7, 7, 7, 8],
        }
    )
    response = pd.DataFrame(
        {
            "doc": ["a", "a", "b", "b", "b"],
            "start": [0, 3, 0, 5, 9],
            "end": [1, 3, 2, 5, 9],
            "entity": ["x", "x", "y", "z", "w"],
        }
    )
    got = engine.score(key, response, cross_document=True, cluster=client)
    assert (got["muc"].recall_num, got["muc"].recall_den) == (1, 2)
    assert got["muc"].precision_den == 1
    assert got["bcub"].recall == pytest.approx(2 / 3, abs=1e-15)
    assert got["bcub"].precision == pytest.approx(4 / 5, abs=1e-15)
    assert (got["mentions"].recall_num, got["mentions"].precision_den) == (4, 5)
    assert "scope:cross-document" in got.signature


def test_bad_mention_tables_are_input_errors(client: Any) -> None:
    from corefscore.errors import InputError

    good = pd.DataFrame({"doc": ["d"], "start": [0], "end": [1], "entity": [1]})
    with pytest.raises(InputError, match="lacks column"):
        engine.score(good.drop(columns="entity"), good, cluster=client)
    backwards = good.assign(start=[4])
    with pytest.raises(InputError, match=r"invalid span \(4, 1\)"):
        engine.score(backwards, good, cluster=client)


def _fixture(tmp_path: Path) -> tuple[Path, Path]:
    key = {"d1": [[[0, 1], [5, 5], [9, 10]], [[3, 3]]], "d2": [[[0, 0], [2, 2]]], "d3": []}
    response = {"d1": [[[0, 1], [5, 5]], [[3, 3], [9, 10]]], "d2": [[[0, 0]], [[2, 2]]]}
    paths = tmp_path / "key.json", tmp_path / "response.json"
    for path, data in zip(paths, (key, response)):
        path.write_text(json.dumps(data))
    return paths


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_engine_dask_prints_what_python_prints(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = _fixture(tmp_path)
    base = ["score", str(key), str(response), "--per-document"]
    code, python_out, python_err = _run(base, capsys)
    assert code == 0
    # With no --scheduler the engine uses the current client (this module's cluster).
    code, dask_out, dask_err = _run([*base, "--engine", "dask"], capsys)
    assert (code, dask_out, dask_err) == (0, python_out, python_err)
    address = client.scheduler.address
    code, out, _ = _run(
        [*base, "--engine", "dask", "--scheduler", address, "--format", "json"], capsys
    )
    data = json.loads(out)
    assert code == 0 and data["options"]["engine"] == "dask"
    assert data["options"]["scheduler"] == address
    # Key links 2 + 0 + 1; the response keeps one of d1's two and splits d2's.
    assert data["metrics"]["muc"]["recall_num"] == 1
    assert data["metrics"]["muc"]["recall_den"] == 3


def test_cli_reads_parquet_mention_tables(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = _fixture(tmp_path)
    tables = []
    for path, side in ((key, "key"), (response, "response")):
        table = tmp_path / f"{side}.parquet"
        engine.mention_table(read_corpus(path, side=side)).to_parquet(table)
        tables.append(str(table))
    _, python_out, _ = _run(["score", str(key), str(response), "--format", "csv"], capsys)
    code, dask_out, _ = _run(["score", *tables, "--engine", "dask", "--format", "csv"], capsys)
    assert code == 0
    assert dask_out == python_out


def test_scheduler_needs_the_dask_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = _fixture(tmp_path)
    code, _, err = _run(["score", str(key), str(response), "--scheduler", "tcp://x:1"], capsys)
    assert code == 2 and "--scheduler and --workers need --engine dask" in err


def test_missing_dask_is_one_line_telling_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = _fixture(tmp_path)
    # A None entry in sys.modules makes the import raise ImportError.
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, out, err = _run(["score", str(key), str(response), "--engine", "dask"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "pip install 'corefscore[dask]'" in err


def test_corefscore_and_its_cli_do_not_import_dask(tmp_path: Path) -> None:
    key, response = _fixture(tmp_path)
    script = (
        "import sys, corefscore, corefscore.cli\n"
        f"assert corefscore.cli.main(['score', {str(key)!r}, {str(response)!r}, '-q']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "assert not loaded, loaded\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
