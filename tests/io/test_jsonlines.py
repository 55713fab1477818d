"""The jsonlines (e2e-coref / SpanBERT) reader and writer."""

from __future__ import annotations

import gzip
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from corefscore import score_corpora
from corefscore.errors import InputError, UsageError
from corefscore.io.conll import read_conll
from corefscore.io.jsonlines import (
    read_jsonlines,
    read_jsonlines_pair,
    read_jsonlines_text,
    write_jsonlines,
)
from corefscore.model import Corpus, Document, Syntax
from tests.conftest import SHARED, shared_path


def write(tmp_path: Path, *lines: Any, name: str = "f.jsonlines") -> Path:
    """A file of the given lines: strings as written, anything else as JSON."""
    path = tmp_path / name
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    path.write_text(text, encoding="utf-8")
    return path


DOC_A = {
    "doc_key": "a",
    "sentences": [["John", "saw", "Mary"], ["He", "waved", "."]],
    "clusters": [[[0, 0], [3, 3]], [], [[2, 2]]],
    "predicted_clusters": [[[0, 0]], [[2, 3], [5, 5]]],
    "speakers": [["s", "s", "s"], ["s", "s", "s"]],
}
DOC_B = {"doc_key": "b", "clusters": [[[4, 7], [1, 2], [4, 7]]]}


def test_reads_exact_documents(tmp_path: Path) -> None:
    path = write(tmp_path, DOC_A, "", "   ", DOC_B)
    corpus = read_jsonlines(path)
    assert list(corpus.documents) == ["a", "b"]
    assert corpus.source == str(path)
    syntax = Syntax(words=("John", "saw", "Mary", "He", "waved", "."), sentence_starts=(0, 3))
    # The empty cluster 1 is no entity, but cluster 2 keeps its label "2".
    assert corpus["a"] == Document(
        doc_id="a",
        entities=(((0, 0), (3, 3)), ((2, 2),)),
        labels=("0", "2"),
        lines=((1, 1), (1,)),
        source=str(path),
        syntax=syntax,
    )
    # Without sentences there is no syntax and no bound on spans; repeats are kept.
    assert corpus["b"] == Document(
        doc_id="b",
        entities=(((4, 7), (1, 2), (4, 7)),),
        labels=("0",),
        lines=((4, 4, 4),),
        source=str(path),
    )


def test_field_choice(tmp_path: Path) -> None:
    both = write(tmp_path, DOC_A, name="both.jsonlines")
    assert read_jsonlines(both)["a"].entities == (((0, 0), (3, 3)), ((2, 2),))
    response = read_jsonlines(both, field="predicted_clusters")["a"]
    assert response.entities == (((0, 0),), ((2, 3), (5, 5)))
    assert response.labels == ("0", "1")
    key, resp = read_jsonlines_pair(both)
    assert key["a"] == read_jsonlines(both)["a"]
    assert resp["a"] == response
    # Only predicted_clusters on the first line: that is what None picks.
    pred = {"doc_key": "p", "predicted_clusters": [[[1, 1]]]}
    only = write(tmp_path, pred, name="pred.jsonlines")
    assert read_jsonlines(only)["p"].entities == (((1, 1),),)
    with pytest.raises(InputError) as err:
        read_jsonlines(only, field="clusters")
    assert str(err.value) == f"{only}:1: document 'p' has no 'clusters' field"
    with pytest.raises(UsageError):
        read_jsonlines(only, field="gold")


def test_gzip_and_text(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonlines.gz"
    path.write_bytes(gzip.compress((json.dumps(DOC_B) + "\n").encode()))
    assert read_jsonlines(path)["b"].entities == (((4, 7), (1, 2), (4, 7)),)
    text = "\ufeff" + json.dumps(DOC_B)
    assert read_jsonlines_text(text)["b"].lines == ((1, 1, 1),)


OK = {"doc_key": "ok", "clusters": []}


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (
            [OK, '{"doc_key": "x", '],
            2,
            "invalid JSON: Expecting property name enclosed in double quotes (column 18)",
        ),
        ([OK, "", "[1, 2]"], 3, "expected a JSON object per line, got a list"),
        ([{"clusters": []}], 1, "'doc_key' missing"),
        ([{"doc_key": 3, "clusters": []}], 1, "'doc_key' 3 is not a non-empty string"),
        ([{"doc_key": "", "clusters": []}], 1, "'doc_key' '' is not a non-empty string"),
        ([OK, OK], 2, "duplicate doc_key 'ok' (first on line 1)"),
        ([OK, {"doc_key": "y"}], 2, "document 'y' has no 'clusters' field"),
        (
            [{"doc_key": "y", "clusters": {}}],
            1,
            "document 'y': clusters must be a list of clusters, got an object",
        ),
        (
            [{"doc_key": "y", "clusters": [[1, 2]]}],
            1,
            "document 'y': clusters: cluster 0 has 1, not a [start, end] pair of integers",
        ),
        (
            [{"doc_key": "y", "clusters": [[], "x"]}],
            1,
            "document 'y': clusters: cluster 1 must be a list of [start, end] spans, got a string",
        ),
        (
            [{"doc_key": "y", "clusters": [[[1, 2, 3]]]}],
            1,
            "document 'y': clusters: cluster 0 has [1, 2, 3], not a [start, end] pair of integers",
        ),
        (
            [{"doc_key": "y", "clusters": [[[1.0, 2]]]}],
            1,
            "document 'y': clusters: cluster 0 has [1.0, 2], not a [start, end] pair of integers",
        ),
        (
            [{"doc_key": "y", "clusters": [[[True, 2]]]}],
            1,
            "document 'y': clusters: cluster 0 has [true, 2], not a [start, end] pair of integers",
        ),
        (
            [{"doc_key": "y", "clusters": [[[-1, 2]]]}],
            1,
            "document 'y': clusters: cluster 0 has invalid span [-1, 2]; "
            "need 0 <= start <= end (ends are inclusive)",
        ),
        (
            [{"doc_key": "y", "clusters": [[[3, 2]]]}],
            1,
            "document 'y': clusters: cluster 0 has invalid span [3, 2]; "
            "need 0 <= start <= end (ends are inclusive)",
        ),
        (
            [{"doc_key": "y", "sentences": [["a", "b"], ["c"]], "clusters": [[[0, 0], [1, 3]]]}],
            1,
            "document 'y': clusters: cluster 0 has span [1, 3] beyond the document's 3 tokens",
        ),
        (
            [{"doc_key": "y", "sentences": "a b", "clusters": []}],
            1,
            "document 'y': 'sentences' must be a list of token lists, got a string",
        ),
        (
            [{"doc_key": "y", "sentences": [["a", 1]], "clusters": []}],
            1,
            "document 'y': sentence 0 must be a list of string tokens",
        ),
    ],
)
def test_errors_name_file_and_line(
    tmp_path: Path, lines: list[Any], line: int, message: str
) -> None:
    path = write(tmp_path, *lines)
    with pytest.raises(InputError) as err:
        read_jsonlines(path)
    assert (err.value.path, err.value.line, err.value.message) == (str(path), line, message)
    assert str(err.value) == f"{path}:{line}: {message}"


def test_predicted_field_errors_name_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, OK, {"doc_key": "y", "clusters": [], "predicted_clusters": [[[2]]]})
    with pytest.raises(InputError) as err:
        read_jsonlines(path, field="predicted_clusters")
    assert str(err.value) == f"{path}:1: document 'ok' has no 'predicted_clusters' field"
    assert read_jsonlines(path, field="clusters")["y"].entities == ()
    with pytest.raises(InputError) as err:
        read_jsonlines_pair(path)
    assert err.value.line == 1


def test_non_utf8_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonlines"
    path.write_bytes(json.dumps(OK).encode() + b"\n\xff\xfe\n")
    with pytest.raises(InputError) as err:
        read_jsonlines(path)
    assert (err.value.line, err.value.message) == (
        2,
        "not valid UTF-8 (byte 0xff, column 1); convert the file to UTF-8",
    )
    with pytest.raises(InputError) as err:
        read_jsonlines(tmp_path / "missing.jsonlines")
    assert err.value.message == "no such file"


def test_write_exact_lines() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 1), (4, 4)), ((2, 2),)),
        labels=("7", "9"),
        syntax=Syntax(words=("a", "b", "c", "d", "e"), sentence_starts=(0, 2)),
    )
    out = io.StringIO()
    write_jsonlines(Corpus({"d": doc}), out)
    assert out.getvalue() == (
        '{"doc_key": "d", "sentences": [["a", "b"], ["c", "d", "e"]], '
        '"clusters": [[[0, 1], [4, 4]], [[2, 2]]]}\n'
    )
    bare = Document(doc_id="e", entities=(((3, 5),),))
    out = io.StringIO()
    write_jsonlines(Corpus({"e": bare}), out, field="predicted_clusters")
    assert out.getvalue() == '{"doc_key": "e", "predicted_clusters": [[[3, 5]]]}\n'
    with pytest.raises(UsageError):
        write_jsonlines(Corpus({"e": bare}), out, field="gold")


def test_write_refuses_spans_beyond_the_words() -> None:
    doc = Document(doc_id="d", entities=(((0, 3),),), syntax=Syntax(words=("a", "b")))
    with pytest.raises(InputError) as err:
        write_jsonlines(Corpus({"d": doc}), io.StringIO())
    assert err.value.message == "document 'd' has a mention ending at token 3 but only 2 words"


def test_round_trip_one_side(tmp_path: Path) -> None:
    path = write(tmp_path, DOC_A, DOC_B)
    corpus = read_jsonlines(path)
    out = tmp_path / "out.jsonlines.gz"
    write_jsonlines(corpus, out)
    again = read_jsonlines(out)
    for doc_id in ("a", "b"):
        assert again[doc_id].entities == corpus[doc_id].entities
        assert again[doc_id].syntax == corpus[doc_id].syntax
    # Labels are cluster positions: the dropped empty cluster shifts them.
    assert again["a"].labels == ("0", "1")


def test_round_trip_both_sides(tmp_path: Path) -> None:
    key = read_jsonlines(write(tmp_path, DOC_A, DOC_B))
    response = read_jsonlines(
        write(tmp_path, DOC_A, name="r.jsonlines"), field="predicted_clusters"
    )
    out = io.StringIO()
    write_jsonlines(response, out, key_corpus=key)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert lines[0]["clusters"] == [[[0, 0], [3, 3]], [[2, 2]]]
    assert lines[0]["predicted_clusters"] == [[[0, 0]], [[2, 3], [5, 5]]]
    assert lines[0]["sentences"] == DOC_A["sentences"]
    # The response lacks "b": all missed, written as no predicted clusters.
    assert lines[1] == {
        "doc_key": "b",
        "clusters": [[[4, 7], [1, 2], [4, 7]]],
        "predicted_clusters": [],
    }
    path = tmp_path / "both.jsonlines"
    path.write_text(out.getvalue())
    key2, response2 = read_jsonlines_pair(path)
    assert [d.entities for d in key2] == [d.entities for d in key]
    assert response2["a"].entities == response["a"].entities
    assert response2["b"].entities == ()
    extra = Corpus({"z": Document(doc_id="z", entities=())})
    with pytest.raises(InputError) as err:
        write_jsonlines(extra, io.StringIO(), key_corpus=key)
    assert "1 response document(s) not in the key, e.g. 'z'" in err.value.message


def real_files() -> list[Path]:
    root = shared_path("data", "real")
    files = sorted(root.glob("*/key/*.conll")) + sorted(root.glob("gum/pairs/*.conll"))
    # Every small file, and a fixed sample of litbank's hundred books to stay fast.
    litbank = [f for f in files if f.parent.parent.name == "litbank"]
    keep = set(random.Random(4).sample(litbank, min(5, len(litbank))))
    return [f for f in files if f.parent.parent.name != "litbank" or f in keep]


def test_real_conll_round_trips_through_jsonlines(tmp_path: Path) -> None:
    files = real_files()
    assert files, f"no CoNLL files under {SHARED / 'data' / 'real'}"
    for n, path in enumerate(files):
        original = read_conll(path, syntax=True)
        out = tmp_path / f"{n}.jsonlines"
        write_jsonlines(original, out)
        again = read_jsonlines(out, field="clusters")
        assert list(again.documents) == list(original.documents), path
        for doc in original:
            back = again[doc.doc_id]
            assert back.entities == doc.entities, (path, doc.doc_id)
            assert doc.syntax is not None and back.syntax is not None
            assert back.syntax.words == doc.syntax.words, (path, doc.doc_id)
            assert back.syntax.sentence_starts == doc.syntax.sentence_starts
        # Scoring the converted file against the original (and vice versa)
        # gives the same statistics as scoring the original against itself.
        same = score_corpora(original, original, duplicates="reference").to_dict()["metrics"]
        assert (
            score_corpora(again, original, duplicates="reference").to_dict()["metrics"] == same
        ), path
        assert (
            score_corpora(original, again, duplicates="reference").to_dict()["metrics"] == same
        ), path


def test_real_pair_scores_identically_after_conversion(tmp_path: Path) -> None:
    pairs = shared_path("data", "real", "gum", "pairs")
    key = read_conll(pairs / "dev.key_gum.conll")
    response = read_conll(pairs / "dev.resp_xrenner.conll")
    out = tmp_path / "pair.jsonlines"
    write_jsonlines(response, out, key_corpus=key)
    key2, response2 = read_jsonlines_pair(out)
    expected = score_corpora(key, response, duplicates="reference").to_dict()["metrics"]
    assert score_corpora(key2, response2, duplicates="reference").to_dict()["metrics"] == expected
    assert expected["muc"]["recall_den"] > 0


def test_corrupt_gzip_is_an_input_error(tmp_path: Path) -> None:
    data = gzip.compress((json.dumps(OK) + "\n").encode() * 200)
    path = tmp_path / "bad.jsonlines.gz"
    path.write_bytes(data[:20] + bytes(b ^ 0x55 for b in data[20:60]) + data[60:])
    with pytest.raises(InputError) as err:
        read_jsonlines(path)
    assert err.value.message.startswith("gzip data is corrupt (Error -3 while decompressing")
    path.write_bytes(data[:40])
    with pytest.raises(InputError) as err:
        read_jsonlines(path)
    assert err.value.message.startswith("gzip data is truncated (Compressed file ended")
