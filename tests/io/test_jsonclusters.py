"""The plain ``{doc_id: clusters}`` JSON reader and writer."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corefscore import score_corpora
from corefscore.errors import InputError
from corefscore.io.conll import read_conll
from corefscore.io.jsonclusters import (
    read_json_clusters,
    read_json_clusters_text,
    write_json_clusters,
)
from corefscore.model import Corpus, Document, Span
from tests.conftest import shared_path

RICH = {
    "d1": [[[0, 1], [5, 5]], [], [[3, 3]]],
    "d2": [
        {
            "mentions": [{"span": [0, 2], "head": 1, "level": "NAM"}, [4, 4]],
            "type": "PER",
            "id": "7",
        },
        [{"span": [6, 9], "min": [7, 8]}],
    ],
    "d3": [],
}


def test_reads_exact_documents(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(RICH))
    corpus = read_json_clusters(path)
    assert list(corpus.documents) == ["d1", "d2", "d3"]
    assert corpus.source == str(path)
    # Empty clusters are not entities; labels are positions in the list.
    assert corpus["d1"] == Document(
        doc_id="d1", entities=(((0, 1), (5, 5)), ((3, 3),)), labels=("0", "2"), source=str(path)
    )
    assert corpus["d2"] == Document(
        doc_id="d2",
        entities=(((0, 2), (4, 4)), ((6, 9),)),
        labels=("7", "1"),
        source=str(path),
        heads=((1, None), (None,)),
        min_spans=((None, None), ((7, 8),)),
        mention_levels=(("NAM", None), (None,)),
        entity_types=("PER", None),
    )
    assert corpus["d3"].entities == ()


def test_gzip(tmp_path: Path) -> None:
    path = tmp_path / "c.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"x": [[[2, 3]]]}).encode()))
    assert read_json_clusters(path)["x"].entities == (((2, 3),),)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('{\n  "a": [[[0, 1]]],\n  "b": [[[0, 1]]\n}\n', 4,
         "invalid JSON: Expecting ',' delimiter (column 1)"),
        ("", 1, "empty file"),
        ('{"a": [[[0, 1]]]', 1, "invalid JSON: expected ',' or '}' after a document, "
         "found the end of the file"),
        ('{"a": [[[0, 1]]]} x', 1, "invalid JSON: extra data after the top-level object"),
    ],
)  # fmt: skip
def test_syntax_errors_give_the_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_json_clusters(path)
    assert str(err.value) == f"{path}:{line}: {message}"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([[[0, 1]]], "expected a JSON object mapping document ids to clusters, got list"),
        ({"a": "x"}, "JSON document 'a': clusters must be a list of lists of (start, end) spans"),
        ({"a": [[[2, 1]]]}, "JSON document 'a': cluster 0 has invalid span (2, 1); "
         "need 0 <= start <= end (ends are inclusive)"),
        ({"a": [[[0, 1.5]]]}, "JSON document 'a': cluster 0 has non-integer span [0, 1.5]"),
        ({"a": [[], [[0]]]}, "JSON document 'a': cluster 1 has [0], not a (start, end) pair"),
        ({"a": [[{"span": [0, 2], "head": 5}]]},
         "JSON document 'a': cluster 0: head 5 is not a token of mention (0, 2)"),
        ({"a": [{"mentions": [], "colour": "red"}]},
         "JSON document 'a': cluster 0 must be a list of spans or a mapping with 'mentions' "
         "(and optional 'type', 'id'), got keys ['colour', 'mentions']"),
    ],
)  # fmt: skip
def test_content_errors_name_the_file(tmp_path: Path, value: object, message: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(value))
    with pytest.raises(InputError) as err:
        read_json_clusters(path)
    assert (err.value.path, err.value.line, err.value.message) == (str(path), 1, message)


def test_duplicate_document_id_and_bad_bytes(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        read_json_clusters_text('{"a": [], "a": [[[0, 0]]]}', source="s.json")
    assert str(err.value) == "s.json:1: key 'a' appears twice in one JSON object (first at line 1)"
    path = tmp_path / "c.json"
    path.write_bytes(b'{\n"a":\n"\xff"}')
    with pytest.raises(InputError) as err:
        read_json_clusters(path)
    assert (err.value.line, err.value.message) == (
        3,
        "not valid UTF-8 (byte 0xff); convert the file to UTF-8",
    )


def test_write_exact_text() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 2), (4, 4)), ((6, 6),), ((8, 9),)),
        labels=("0", "x", "2"),
        heads=((1, None), (None,), (None,)),
        entity_types=(None, None, "ORG"),
    )
    out = io.StringIO()
    write_json_clusters(Corpus({"d": doc, "e": Document(doc_id="e", entities=())}), out)
    assert out.getvalue() == (
        "{\n"
        '  "d": [[{"span": [0, 2], "head": 1}, [4, 4]], {"mentions": [[6, 6]], "id": "x"}, '
        '{"mentions": [[8, 9]], "type": "ORG"}],\n'
        '  "e": []\n'
        "}\n"
    )
    out = io.StringIO()
    write_json_clusters(Corpus({}), out)
    assert json.loads(out.getvalue()) == {}


def test_round_trip_keeps_facts(tmp_path: Path) -> None:
    original = read_json_clusters_text(json.dumps(RICH))
    path = tmp_path / "out.json.gz"
    write_json_clusters(original, path)
    again = read_json_clusters(path)
    for doc in original:
        back = again[doc.doc_id]
        # d1's empty cluster is gone, so its "2" label is now written as an id.
        assert (back.entities, back.labels, back.heads, back.min_spans) == (
            doc.entities,
            doc.labels,
            doc.heads,
            doc.min_spans,
        )
        assert (back.mention_levels, back.entity_types) == (doc.mention_levels, doc.entity_types)


spans = st.tuples(st.integers(0, 50), st.integers(0, 5)).map(lambda p: (p[0], p[0] + p[1]))


@given(st.dictionaries(st.text(max_size=5), st.lists(st.lists(spans, max_size=4), max_size=4)))
def test_round_trip_property(data: dict[str, list[list[Span]]]) -> None:
    corpus = read_json_clusters_text(json.dumps(data))
    out = io.StringIO()
    write_json_clusters(corpus, out)
    again = read_json_clusters_text(out.getvalue())
    assert list(again.documents) == list(data)
    for doc_id, clusters in data.items():
        expected = tuple(tuple(c) for c in clusters if c)
        assert again[doc_id].entities == expected
        assert again[doc_id].labels == corpus[doc_id].labels


def test_real_pair_scores_identically_after_conversion(tmp_path: Path) -> None:
    key_file = shared_path("data", "real", "dutchcoref_knack", "key", "knack_file7.gold.conll")
    responses = sorted(shared_path("data", "real", "dutchcoref_knack", "response").glob("*"))
    key = read_conll(key_file)
    write_json_clusters(key, tmp_path / "key.json")
    key2 = read_json_clusters(tmp_path / "key.json")
    assert [d.entities for d in key2] == [d.entities for d in key]
    assert [d.labels for d in key2] == [d.labels for d in key]
    for n, response_file in enumerate(responses):
        response = read_conll(response_file)
        write_json_clusters(response, tmp_path / f"{n}.json")
        response2 = read_json_clusters(tmp_path / f"{n}.json")
        expected = score_corpora(key, response, duplicates="reference").to_dict()["metrics"]
        got = score_corpora(key2, response2, duplicates="reference").to_dict()["metrics"]
        assert got == expected, response_file


def test_corrupt_gzip_is_an_input_error(tmp_path: Path) -> None:
    data = gzip.compress(json.dumps({"a": [[[0, 0]]] * 300}).encode())
    path = tmp_path / "bad.json.gz"
    path.write_bytes(data[:20] + bytes(b ^ 0x55 for b in data[20:60]) + data[60:])
    with pytest.raises(InputError) as err:
        read_json_clusters(path)
    assert err.value.message.startswith("gzip data is corrupt (Error -3 while decompressing")
    assert err.value.path == str(path)


def test_reading_streams_one_document_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import corefscore.io.jsonclusters as module

    # Chunks far smaller than a document: values are completed across chunks.
    monkeypatch.setattr(module, "_CHUNK_BYTES", 7)
    data = {f"doc{i}": [[[i, i + 1], [i + 5, i + 5]], [[i + 3, i + 3]]] for i in range(50)}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data, indent=1))
    corpus = read_json_clusters(path)
    assert list(corpus.documents) == list(data)
    assert corpus["doc7"].entities == (((7, 8), (12, 12)), ((10, 10),))
    # A minified file is one line: chunks still split it anywhere.
    path.write_text(json.dumps(data))
    assert read_json_clusters(path)["doc49"].entities == (((49, 50), (54, 54)), ((52, 52),))
    path.write_text(json.dumps(data, indent=1).replace('"doc9":', '"doc9" '))
    with pytest.raises(InputError, match="expected ':' after a document id"):
        read_json_clusters(path)
