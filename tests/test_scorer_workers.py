"""CorefScorer on several workers (anonymous documents, merge) and array inputs."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import corefscore
from corefscore import CorefScorer, InputError, UsageError
from corefscore.model import document_from_clusters

KEY = {"d1": [[(0, 0), (2, 3)], [(5, 5)]], "d2": [[(0, 1), (4, 4), (6, 6)]]}
RESPONSE = {"d1": [[(0, 0), (2, 3), (5, 5)]], "d2": [[(0, 1), (4, 4)], [(6, 6), (8, 8)]]}


def _counts(score: corefscore.MetricScore) -> tuple[float, float, float, float]:
    return (score.recall_num, score.recall_den, score.precision_num, score.precision_den)


# --- merge without doc ids ---------------------------------------------------------------


def test_scorers_that_never_named_documents_merge() -> None:
    left, right = CorefScorer(), CorefScorer()
    left.update(KEY["d1"], RESPONSE["d1"])  # both call their first document doc0
    right.update(KEY["d2"], RESPONSE["d2"])
    merged = left.merge(right)
    assert sorted(merged.document_statistics) == ["doc0", "doc1"]
    assert merged.document_statistics["doc0"]["muc"] == (1, 1, 1, 2)  # d1, kept its name
    assert merged.document_statistics["doc1"]["muc"] == (1, 2, 1, 2)  # d2, renamed
    result = merged.compute()
    # d1: 1 of 1 key link found, 1 of 2 response links right; d2: 1 of 2, 1 of 2.
    assert _counts(result["muc"]) == (2, 3, 2, 4)
    assert result.metrics == corefscore.score(KEY, RESPONSE).metrics
    # Merging goes on: the merged scorer still names its next document freely.
    merged.update(KEY["d1"], RESPONSE["d1"])
    assert sorted(merged.document_statistics) == ["doc0", "doc1", "doc2"]
    assert _counts(merged.compute()["muc"]) == (3, 4, 3, 6)


def test_named_documents_still_collide() -> None:
    left, right = CorefScorer(), CorefScorer()
    left.update(KEY["d1"], RESPONSE["d1"], doc_id="x")
    right.update(KEY["d2"], RESPONSE["d2"], doc_id="x")
    with pytest.raises(InputError, match="document 'x' was scored by both scorers"):
        left.merge(right)
    # The failed merge changed nothing.
    assert list(left.document_statistics) == ["x"]


def test_a_named_document_takes_its_name_from_an_anonymous_one() -> None:
    left, right = CorefScorer(metrics="muc"), CorefScorer(metrics="muc")
    left.update(KEY["d1"], RESPONSE["d1"])  # anonymous doc0
    right.update(KEY["d2"], RESPONSE["d2"], doc_id="doc0")  # named doc0
    left.merge(right)
    assert left.document_statistics == {
        "doc0": {"muc": (1, 2, 1, 2)},
        "doc1": {"muc": (1, 1, 1, 2)},
    }
    # The other way round: the named document keeps its name, the anonymous one moves.
    left, right = CorefScorer(metrics="muc"), CorefScorer(metrics="muc")
    left.update(KEY["d2"], RESPONSE["d2"], doc_id="doc0")
    right.update(KEY["d1"], RESPONSE["d1"])
    left.merge(right)
    assert left.document_statistics == {
        "doc0": {"muc": (1, 2, 1, 2)},
        "doc1": {"muc": (1, 1, 1, 2)},
    }
    # Within one scorer too.
    scorer = CorefScorer(metrics="muc")
    scorer.update(KEY["d1"], RESPONSE["d1"])
    scorer.update(KEY["d2"], RESPONSE["d2"], doc_id="doc0")
    assert scorer.document_statistics == {
        "doc1": {"muc": (1, 1, 1, 2)},
        "doc0": {"muc": (1, 2, 1, 2)},
    }
    with pytest.raises(InputError, match="already scored"):
        scorer.update(KEY["d2"], RESPONSE["d2"], doc_id="doc0")


def test_anonymous_names_skip_named_ones() -> None:
    scorer = CorefScorer(metrics="muc")
    scorer.update(KEY["d1"], RESPONSE["d1"], doc_id="doc1")
    scorer.update(KEY["d2"], RESPONSE["d2"])  # doc1 is taken
    scorer.update(KEY["d2"], RESPONSE["d2"])
    assert list(scorer.document_statistics) == ["doc1", "doc2", "doc3"]
    assert _counts(scorer.compute()["muc"]) == (3, 5, 3, 6)


def test_merge_refuses_itself_and_other_evaluations() -> None:
    scorer = CorefScorer()
    scorer.update(KEY["d1"], RESPONSE["d1"])
    with pytest.raises(UsageError, match="itself"):
        scorer.merge(scorer)
    with pytest.raises(UsageError, match="different metrics"):
        scorer.merge(CorefScorer(metrics="muc"))


def _random_document(rnd: random.Random) -> list[list[tuple[int, int]]]:
    starts = rnd.sample(range(40), rnd.randint(1, 12))
    spans = [(s, s + rnd.randint(0, 2)) for s in starts]
    clusters: dict[int, list[tuple[int, int]]] = {}
    for span in spans:
        clusters.setdefault(rnd.randint(0, 4), []).append(span)
    return list(clusters.values())


def test_merge_order_does_not_change_a_bit() -> None:
    rnd = random.Random(7)
    docs = [(_random_document(rnd), _random_document(rnd)) for _ in range(9)]
    whole = CorefScorer()
    for key, response in docs:
        whole.update(key, response)
    expected = whole.compute()
    for order in itertools.permutations(range(3)):
        parts = [CorefScorer() for _ in range(3)]
        for i, (key, response) in enumerate(docs):
            parts[i % 3].update(key, response)  # every worker names its documents doc0...
        merged = parts[order[0]].merge(parts[order[1]]).merge(parts[order[2]])
        assert len(merged.document_statistics) == 9
        assert merged.statistics == whole.statistics
        assert merged.compute().metrics == expected.metrics
        assert merged.compute().conll == expected.conll


# --- arrays as clusters ------------------------------------------------------------------


def test_numpy_clusters_score_as_lists() -> None:
    lists = corefscore.score(KEY, RESPONSE)
    arrays = {
        # a list of (n, 2) arrays per document
        "d1": [np.array([[0, 0], [2, 3], [5, 5]])],
        # one 3-D array when the clusters have the same size
        "d2": np.array([[[0, 1], [4, 4]], [[6, 6], [8, 8]]], dtype=np.int32),
    }
    key = {
        # integer scalars, and a 1-D array as a span
        "d1": [[[np.int64(0), np.int64(0)], (np.int16(2), np.uint8(3))], [np.array([5, 5])]],
        "d2": [np.array([[0, 1], [4, 4], [6, 6]], dtype=np.uint32)],
    }
    result = corefscore.score(key, arrays)
    assert result.metrics == lists.metrics
    assert _counts(result["muc"]) == (2, 3, 2, 4)
    scorer = CorefScorer(metrics="muc")
    assert scorer.update(np.array([[[0, 0], [2, 3]]]), np.array([[[0, 0], [2, 3]]])) == {
        "muc": (1, 1, 1, 1)
    }


def test_numpy_mentions_in_mappings() -> None:
    doc = document_from_clusters(
        "d",
        [
            {
                "mentions": np.array([[0, 2], [5, 5]]),
                "type": "PER",
            },
            [{"span": np.array([7, 8]), "head": np.int64(8), "min": np.array([8, 8])}],
        ],
        side="key",
    )
    assert doc.entities == (((0, 2), (5, 5)), ((7, 8),))
    assert doc.heads == ((None, None), (8,))
    assert doc.min_spans == ((None, None), ((8, 8),))
    assert all(type(i) is int for e in doc.entities for span in e for i in span)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (np.array([[-1, 0]]), r"invalid span \(-1, 0\); need 0 <= start <= end"),
        (np.array([[3, 2]]), r"invalid span \(3, 2\)"),
        (np.array([[0.0, 1.0]]), "non-integer span"),
        (np.array([[True, True]]), "non-integer span"),
        ([(np.float64(0), np.float64(1))], "non-integer span"),
        ([(np.bool_(False), np.int64(1))], "non-integer span"),
        (np.array([["0", "1"]]), "non-integer span"),
        (np.array([[0, 1, 2]]), r"not a \(start, end\) pair"),
        (np.array([0, 1]), r"cluster 0 has 0, not a \(start, end\) pair"),
        ([{"span": np.array([0, 3]), "head": np.int64(5)}], "head 5 is not a token"),
        ([{"span": np.array([0, 3]), "head": np.float64(1)}], "is not a token"),
    ],
)
def test_bad_arrays_are_refused_as_lists_are(bad: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        document_from_clusters("d", [bad], side="key")


def test_a_scalar_is_not_a_document() -> None:
    with pytest.raises(InputError, match="clusters must be a list"):
        document_from_clusters("d", np.int64(3), side="key")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="cluster 0 is not a list of spans"):
        document_from_clusters("d", np.array([1, 2]), side="key")


def test_model_does_not_import_numpy() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import corefscore.model as m; "
        "d = m.document_from_clusters('d', [[(0, 1)]], side='key'); "
        "print('numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
