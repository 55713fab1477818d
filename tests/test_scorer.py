"""The Python API: score(), score_files() and the stateful CorefScorer."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore import CorefScorer, InputError, UsageError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

KEY = {"d1": [[(0, 0), (2, 3)], [(5, 5)]], "d2": [[(0, 1), (4, 4), (6, 6)]]}
RESPONSE = {"d1": [[(0, 0), (2, 3), (5, 5)]], "d2": [[(0, 1), (4, 4)], [(6, 6), (8, 8)]]}


def test_score_in_memory() -> None:
    result = corefscore.score(KEY, RESPONSE)
    muc = result["muc"]
    # d1: 1 of 1 key link found, 1 of 2 response links right; d2: 1 of 2, 1 of 2.
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (2, 3, 2, 4)
    assert result.conll == pytest.approx(
        (result["muc"].f1 + result["bcub"].f1 + result["ceafe"].f1) / 3
    )
    assert result.documents is None
    assert "dups:reference" in result.signature


def test_spans_may_be_lists_as_decoded_from_json() -> None:
    decoded = json.loads(json.dumps(KEY))
    assert corefscore.score(decoded, RESPONSE)["bcub"] == corefscore.score(KEY, RESPONSE)["bcub"]


def test_metric_selection_and_aliases() -> None:
    result = corefscore.score(KEY, RESPONSE, metrics="conll")
    assert list(result.metrics) == ["muc", "bcub", "ceafe"]
    assert result.conll is not None
    result = corefscore.score(KEY, RESPONSE, metrics=["b3", "LEA"])
    assert list(result.metrics) == ["bcub", "lea"] and result.conll is None
    with pytest.raises(UsageError, match="unknown metric 'f1'"):
        corefscore.score(KEY, RESPONSE, metrics="f1")
    with pytest.raises(UsageError, match="duplicates policy"):
        corefscore.score(KEY, RESPONSE, duplicates="keep")


@pytest.mark.parametrize(
    ("clusters", "message"),
    [
        ([[(0, 0), (3, 1)]], r"invalid span \(3, 1\)"),
        ([[(0, 0), (-1, 0)]], r"invalid span \(-1, 0\)"),
        ([[(0, 0.5)]], "non-integer span"),
        ([[(0, 1, 2)]], "not a \\(start, end\\) pair"),
        ([(0, 1)], "cluster 0 is not a list of spans|not a \\(start, end\\) pair"),
        ("(0, 1)", "clusters must be a list"),
    ],
)
def test_bad_in_memory_input(clusters: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        corefscore.score({"d": clusters}, {"d": []})  # type: ignore[dict-item]


def test_missing_and_extra_documents() -> None:
    result = corefscore.score(KEY, {"d1": RESPONSE["d1"], "zz": [[(0, 0)]]})
    assert result["mentions"].recall_den == 6  # d2 counts as all missed
    assert result["mentions"].precision_den == 3  # zz is ignored
    assert any("not in the key, ignored: 'zz'" in w for w in result.warnings)
    assert any("1 key document(s) not in the response" in w for w in result.warnings)


def test_per_document_results_add_up() -> None:
    result = corefscore.score(KEY, RESPONSE, per_document=True)
    assert result.documents is not None and list(result.documents) == ["d1", "d2"]
    for metric in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        total = result[metric]
        for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
            parts = [getattr(d[metric], field) for d in result.documents.values()]
            assert math.fsum(parts) == getattr(total, field)


def test_result_to_json_round_trips() -> None:
    result = corefscore.score(KEY, RESPONSE, per_document=True)
    data = json.loads(result.to_json())
    assert data["metrics"]["lea"]["f1"] == result["lea"].f1
    assert data["documents"]["d2"]["muc"]["recall_den"] == 2


def test_scorer_update_compute_reset() -> None:
    scorer = CorefScorer(metrics=("muc", "bcub"))
    stats = scorer.update(KEY["d1"], RESPONSE["d1"])
    assert stats["muc"] == (1, 1, 1, 2)
    scorer.update(KEY["d2"], RESPONSE["d2"], doc_id="second")
    assert scorer.compute()["muc"] == corefscore.score(KEY, RESPONSE)["muc"]
    with pytest.raises(InputError, match="already scored"):
        scorer.update(KEY["d2"], RESPONSE["d2"], doc_id="second")
    scorer.reset()
    assert scorer.compute()["muc"].recall_den == 0


def test_merge_equals_scoring_everything() -> None:
    whole = CorefScorer()
    left, right = CorefScorer(), CorefScorer()
    for i, doc in enumerate(KEY):
        whole.update(KEY[doc], RESPONSE[doc], doc_id=doc)
        (left if i == 0 else right).update(KEY[doc], RESPONSE[doc], doc_id=doc)
    assert left.merge(right).compute().metrics == whole.compute().metrics
    with pytest.raises(UsageError):
        CorefScorer(metrics="muc").merge(CorefScorer())


def test_score_files_matches_score_corpora_and_records_options() -> None:
    result = corefscore.score_files(EXAMPLES / "key.conll", EXAMPLES / "response.conll")
    assert result.options["key"].endswith("key.conll")
    assert result.options["duplicates"] == "reference"
    assert result["muc"].recall_num == 2


spans = st.tuples(st.integers(0, 15), st.integers(0, 3)).map(lambda t: (t[0], t[0] + t[1]))
documents = st.lists(st.lists(spans, min_size=1, max_size=4), max_size=5)
corpora = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), documents, min_size=1)


@settings(max_examples=60, deadline=None)
@given(corpora, corpora, st.randoms())
def test_merge_in_any_split_and_order_equals_the_whole(key, response, rnd) -> None:  # type: ignore[no-untyped-def]
    """Corpus totals are exact sums: independent of document order and of merging."""
    response = {**response, next(iter(key)): response.get(next(iter(key)), [])}  # one pairs
    whole = corefscore.score(key, response, duplicates="first")
    docs = list(key)
    rnd.shuffle(docs)
    parts = [CorefScorer(duplicates="first") for _ in range(3)]
    for doc in docs:
        rnd.choice(parts).update(key[doc], response.get(doc, []), doc_id=doc)
    merged = parts[0].merge(parts[1]).merge(parts[2]).compute()
    assert merged.metrics == whole.metrics


def test_mention_and_cluster_dicts_carry_facts() -> None:
    from corefscore.model import document_from_clusters

    doc = document_from_clusters(
        "d",
        [
            {"id": "7", "type": "PER", "mentions": [{"span": [0, 2], "head": 2, "min": [2, 2]}]},
            [{"start": 4, "end": 4, "level": "PRO"}, (6, 7)],
        ],
        side="key",
    )
    assert doc.entities == (((0, 2),), ((4, 4), (6, 7)))
    assert doc.labels == ("7", "1")
    assert doc.heads == ((2,), (None, None)) and doc.min_spans == (((2, 2),), (None, None))
    assert doc.mention_levels == ((None,), ("PRO", None))
    assert doc.entity_types == ("PER", None)
    entity = doc.entity(0)
    assert (entity.label, entity.type, entity.heads, len(entity)) == ("7", "PER", (2,), 1)
    plain = document_from_clusters("d", [[(0, 0)]], side="key")
    assert plain.heads == () and plain.entity_types == () and plain.entity(0).levels == (None,)


@pytest.mark.parametrize(
    ("clusters", "message"),
    [
        ([{"mentions": [(0, 0)], "colour": "red"}], "mapping with 'mentions'"),
        ([{"type": "PER"}], "mapping with 'mentions'"),
        ([[{"span": (0, 1), "weight": 2}]], r"unknown key\(s\) \['weight'\]"),
        ([[{"head": 0}]], "mention without 'span'"),
        ([[{"span": (0, 1), "head": 3}]], "head 3 is not a token of mention"),
        ([[{"span": (0, 1), "min": (1, 2)}]], r"MIN span \(1, 2\) lies outside"),
        ([[{"span": (0, 1), "level": 1}]], "level must be a string"),
        ([{"mentions": [(0, 0)], "type": 5}], "type must be a string"),
        ([[{"span": (0, 1), "optional": "yes"}]], "'optional' must be true or false"),
    ],
)
def test_bad_mention_dicts_are_input_errors(clusters: list[object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        corefscore.score({"d": clusters}, {"d": []})


def test_custom_metric_objects_score_merge_and_reject_name_clashes() -> None:
    from corefscore.metrics import ceaf, lea

    by_size = lea.with_importance("size", name="lea-by-size")
    overlap = ceaf.custom(lambda k, r: len(set(k.mentions) & set(r.mentions)), name="ceaf-mine")
    result = corefscore.score(KEY, RESPONSE, metrics=["lea", "ceafm", by_size, overlap])
    assert list(result.metrics) == ["ceafm", "lea", "lea-by-size", "ceaf-mine"]
    assert result["lea-by-size"] == result["lea"]
    assert result["ceaf-mine"].f1 == pytest.approx(result["ceafm"].f1)
    half = CorefScorer(metrics=[overlap])
    half.update(KEY["d1"], RESPONSE["d1"], doc_id="d1")
    other = CorefScorer(metrics=[overlap])
    other.update(KEY["d2"], RESPONSE["d2"], doc_id="d2")
    merged = half.merge(other).compute()["ceaf-mine"]
    assert merged.f1 == pytest.approx(result["ceaf-mine"].f1)
    clash = lea.with_importance("uniform", name="muc")
    with pytest.raises(UsageError, match="taken by a built-in metric"):
        corefscore.score(KEY, RESPONSE, metrics=[clash])


_SPAN = st.tuples(st.integers(0, 9), st.integers(0, 2)).map(lambda p: (p[0], p[0] + p[1]))
_CLUSTERS = st.lists(st.lists(_SPAN, min_size=0, max_size=4), max_size=5)
_OPTIONS: list[dict[str, object]] = [
    {},
    {"metrics": "conll"},
    {"duplicates": "strict"},
    {"duplicates": "first"},
    {"singletons": "drop"},
    {"matching": "overlap"},
    {"matching": "min-span"},
    {"metrics": ["muc", "bcub", "lea", "ceafm"]},
    {"metrics": ["ceafe", "ace-value"]},
]


@settings(max_examples=300, deadline=None)
@given(_CLUSTERS, _CLUSTERS, st.sampled_from(range(len(_OPTIONS))), st.booleans())
def test_update_on_plain_clusters_equals_scoring_their_documents(
    key: list[list[tuple[int, int]]],
    response: list[list[tuple[int, int]]],
    which: int,
    as_lists: bool,
) -> None:
    # update() scores the usual input without documents when their preparation
    # would change nothing: the statistics, warnings and errors are the documents'.
    from unittest import mock

    from corefscore.engines import objects

    if as_lists:  # as decoded from JSON
        key = [[list(s) for s in e] for e in key]  # type: ignore[misc]

    def update(scorer: CorefScorer) -> object:
        try:
            return scorer.update(key, response)
        except InputError as exc:
            return str(exc)

    plain, documents = (CorefScorer(**_OPTIONS[which]) for _ in range(2))  # type: ignore[arg-type]
    with mock.patch.object(objects, "score_plain_clusters", lambda *args: None):
        expected = update(documents)
    assert update(plain) == expected
    assert plain._warnings == documents._warnings
    if not isinstance(expected, str):
        assert plain.compute().metrics == documents.compute().metrics


_DOC_IDS = st.sampled_from(["a", "b", "c"])


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(_DOC_IDS, _CLUSTERS, max_size=3),
    st.dictionaries(_DOC_IDS, _CLUSTERS, max_size=3),
    st.sampled_from(range(len(_OPTIONS))),
    st.booleans(),
    st.sampled_from([2000, 12]),
)
def test_score_on_plain_clusters_equals_scoring_their_corpora(
    key: dict[str, list[list[tuple[int, int]]]],
    response: dict[str, list[list[tuple[int, int]]]],
    which: int,
    per_document: bool,
    limit: int,
) -> None:
    # score() reads the usual input without corpora when it may (the same
    # documents on both sides, at most LIST_MENTIONS mentions in all): the
    # numbers, warnings and errors are the corpora's, bit for bit.
    from unittest import mock

    from corefscore.engines import objects

    def run() -> object:
        try:
            result = corefscore.score(key, response, per_document=per_document, **_OPTIONS[which])
        except (InputError, UsageError) as exc:
            return str(exc)
        return result.to_dict(), result.document_statistics

    with mock.patch.object(objects, "LIST_MENTIONS", limit):
        plain = run()
        with mock.patch.object(objects, "score_plain_corpus", lambda *args: None):
            corpora = run()
    assert plain == corpora


def test_score_takes_the_plain_path_for_the_usual_input(monkeypatch: pytest.MonkeyPatch) -> None:
    from corefscore.engines import objects

    taken: list[object] = []
    real = objects.score_plain_corpus
    monkeypatch.setattr(
        objects, "score_plain_corpus", lambda *a: taken.append(real(*a)) or taken[-1]
    )
    assert corefscore.score(KEY, RESPONSE)["muc"].recall_num == 2
    corefscore.score(KEY, {"d1": RESPONSE["d1"]})  # d2 unpaired: the corpora's path
    corefscore.score({"d": [[(0, 0), (0, 0)]]}, {"d": [[(0, 0)]]})  # a repeated span
    corefscore.score(KEY, RESPONSE, singletons="drop")  # a regime to apply
    # d1 holds 6 mentions and d2 7: each under the bound, but not together.
    monkeypatch.setattr(objects, "LIST_MENTIONS", 12)
    corefscore.score(KEY, RESPONSE)
    monkeypatch.setattr(objects, "LIST_MENTIONS", 13)
    corefscore.score(KEY, RESPONSE)
    assert taken[0] is not None and taken[1:5] == [None, None, None, None]
    assert taken[5] == taken[0]
    # Ids that are not strings: the corpora's path names the documents str(id).
    by_number = corefscore.score({7: KEY["d1"]}, {7: RESPONSE["d1"]}, per_document=True)
    assert taken[6] is None
    assert by_number.documents is not None and list(by_number.documents) == ["7"]
    assert by_number["muc"] == corefscore.score({"7": KEY["d1"]}, {"7": RESPONSE["d1"]})["muc"]
    first = taken[0]
    assert isinstance(first, dict) and list(first) == ["d1", "d2"]
    assert first["d1"]["muc"] == (1.0, 1.0, 1.0, 2.0)  # one key link of one, one of two


def test_update_takes_the_plain_path_for_the_usual_input(monkeypatch: pytest.MonkeyPatch) -> None:
    from corefscore.engines import objects

    taken: list[object] = []
    real = objects.score_plain_clusters
    monkeypatch.setattr(
        objects, "score_plain_clusters", lambda *a: taken.append(real(*a)) or taken[-1]
    )
    scorer = CorefScorer()
    scorer.update([[(0, 0), (2, 3)], [(5, 5)]], [[(0, 0), (2, 3), (5, 5)]])
    scorer.update([[(0, 0), (0, 0)]], [[(0, 0)]])  # a repeated span: the documents' path
    assert taken[0] is not None and taken[1] is None
    first = taken[0]
    assert isinstance(first, dict) and first["muc"] == (1.0, 1.0, 1.0, 2.0)  # one link of two
    scorer.update([[(0, 0)]], [[(0, 0)]], doc_id="named")
    with pytest.raises(InputError, match="'named' was already scored"):
        scorer.update([[(0, 0)]], [[(0, 0)]], doc_id="named")
    assert len(taken) == 3 and len(scorer.document_statistics) == 3


def test_bad_clusters_under_a_taken_name_are_reported_before_the_name() -> None:
    # As on the documents' path: the clusters are read first, then the name refused.
    scorer = CorefScorer()
    scorer.update([[(0, 0)]], [[(0, 0)]], doc_id="d")
    with pytest.raises(InputError, match=r"invalid span \(3, 1\)"):
        scorer.update([[(3, 1)]], [[(0, 0)]], doc_id="d")
    with pytest.raises(InputError, match="'d' was already scored"):
        scorer.update([[(0, 0)]], [[(0, 0)]], doc_id="d")
    assert list(scorer.document_statistics) == ["d"]
