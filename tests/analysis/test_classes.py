"""Resolution classes (Stoyanov et al. 2009 §4.1) and their per-class scores."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore import score_corpora
from corefscore.analysis.classes import (
    CLASSES,
    SCHEMA,
    ClassReport,
    classify_document,
    resolution_classes,
)
from corefscore.errors import InputError, UsageError
from corefscore.io import read_corpus
from corefscore.model import Corpus, Document, Span, Syntax
from corefscore.report.classes import format_classes

from ..conftest import shared_path


def _frac(value: float) -> Fraction:
    return Fraction(value).limit_denominator(10_000)


# --- the paper vectors -------------------------------------------------------


def _vectors() -> list[dict[str, Any]]:
    data = json.loads(shared_path("data", "paper-vectors.json").read_text())
    return [v for v in data if v["name"].startswith("rc_example") and "mentions" in v]


def _vector_corpora(vector: dict[str, Any]) -> tuple[Corpus, Corpus, dict[str, Span]]:
    """Lay the vector's mentions out in ``text_order``, tagged by their type."""
    words: list[str] = []
    pos: list[str] = []
    spans: dict[str, Span] = {}
    tag = {"NAM": "NNP", "PRO": "PRP"}
    for name in vector["text_order"]:
        info = vector["mentions"][name]
        start = len(words)
        for word in info["text"].split():
            words.append(word)
            pos.append(tag.get(info["type"], "DT" if word.lower() == "the" else "NN"))
        spans[name] = (start, len(words) - 1)
    syntax = Syntax(words=tuple(words), pos=tuple(pos), sentence_starts=(0,))

    def corpus(clusters: list[list[str]]) -> Corpus:
        entities = tuple(tuple(spans[m] for m in c) for c in clusters)
        return Corpus({"d": Document("d", entities, syntax=syntax)})

    return corpus(vector["key"]), corpus(vector["response"]), spans


def test_paper_vectors_classes() -> None:
    vectors = [v for v in _vectors() if "all_classes" in v]
    assert vectors
    for vector in vectors:
        key, _, spans = _vector_corpora(vector)
        names = {span: name for name, span in spans.items()}
        got: dict[str, list[str]] = {c: [] for c in CLASSES}
        for span, label in classify_document(key.documents["d"]).items():
            assert label is not None
            got[label].append(names[span])
        assert got == vector["all_classes"]


def test_paper_vectors_scores() -> None:
    vectors = [v for v in _vectors() if "[" in v["metric"]]
    # 7 MUC-RC and 7 anaphor-level vectors.
    assert len(vectors) == 14
    for vector in vectors:
        key, response, _spans = _vector_corpora(vector)
        report = resolution_classes(key, response)
        family, name = vector["metric"].rstrip("]").split("[")
        entry = report[name]
        assert entry.count == len(vector["class_members"])
        score = entry.muc_rc if family == "muc_rc" else entry.anaphor
        assert family in ("muc_rc", "als")
        assert _frac(score.recall) == Fraction(vector["recall"]), vector["metric"]
        assert _frac(score.precision) == Fraction(vector["precision"]), vector["metric"]
        assert _frac(score.f1) == Fraction(vector["f1_exact"]), vector["metric"]


# --- hand-derived examples ----------------------------------------------------

# Tokens: 0 Smith, 1 Jones, 2 he, 3 him, 4 Jones, 5 x (not a key mention).
_WORDS = ("Smith", "Jones", "he", "him", "Jones", "x")
_POS = ("NNP", "NNP", "PRP", "PRP", "NNP", "NN")
_SYNTAX = Syntax(words=_WORDS, pos=_POS, sentence_starts=(0,))
A = ((0, 0), (2, 2), (3, 3))  # Smith ... he ... him
B = ((1, 1), (4, 4))  # Jones ... Jones


def _corpus(*entities: tuple[Span, ...]) -> Corpus:
    return Corpus({"d": Document("d", tuple(entities), syntax=_SYNTAX, source="mem")})


def test_classes_of_the_hand_example() -> None:
    classes = classify_document(_corpus(A, B).documents["d"])
    assert classes == {(2, 2): "G3Pr", (3, 3): "G3Pr", (4, 4): "PN-e"}


def test_muc_rc_counts_merges_not_pairs() -> None:
    # Response {Smith, Jones, he, him}: "he" links to Smith (correct) and Jones
    # (wrong), "him" to Smith, Jones and "he" -- 5 pairwise links, 3 correct.
    # On top of the partial clustering {Smith} {Jones, Jones} {he} {him} they
    # make 3 merges, of which 2 lower A's partitions (3 -> 1): R = 2/2, P = 2/3.
    report = resolution_classes(_corpus(A, B), _corpus(((0, 0), (1, 1), (2, 2), (3, 3))))
    g3 = report["G3Pr"]
    assert (g3.muc_rc.recall_num, g3.muc_rc.recall_den) == (2, 2)
    assert (g3.muc_rc.precision_num, g3.muc_rc.precision_den) == (2, 3)
    # Anaphor level: "he" and "him" are in the response entity of Smith: 2 TP.
    assert (g3.anaphor_counts.tp, g3.anaphor_counts.wl, g3.anaphor_counts.fn) == (2, 0, 0)
    # The second "Jones" is missing from the response: FN, and no MUC-RC link.
    pn = report["PN-e"]
    assert (pn.muc_rc.recall_num, pn.muc_rc.recall_den, pn.muc_rc.precision_den) == (0, 1, 0)
    assert (pn.anaphor_counts.tp, pn.anaphor_counts.fn) == (0, 1)
    assert report.distribution == {c: {"G3Pr": 2, "PN-e": 1}.get(c, 0) for c in CLASSES}
    assert _frac(report["G3Pr"].share) == Fraction(2, 3)


def test_wrong_and_right_links_of_two_anaphors() -> None:
    # "he" joins the Jones entity, "him" joins Smith: one wrong, one right
    # merge (R = P = 1/2); anaphor level: "he" is a wrong link (its response
    # entity holds no twin of Smith), "him" a true positive.
    report = resolution_classes(_corpus(A, B), _corpus(((1, 1), (2, 2), (4, 4)), ((0, 0), (3, 3))))
    g3 = report["G3Pr"]
    assert (g3.muc_rc.recall_num, g3.muc_rc.recall_den) == (1, 2)
    assert (g3.muc_rc.precision_num, g3.muc_rc.precision_den) == (1, 2)
    assert (g3.anaphor_counts.tp, g3.anaphor_counts.wl, g3.anaphor_counts.fn) == (1, 1, 0)
    assert _frac(g3.anaphor.recall) == Fraction(1, 2)
    assert _frac(g3.anaphor.precision) == Fraction(1, 2)
    # The second Jones links to Jones (right) and to "he" (wrong: "he" sits in
    # Smith's gold cluster when PN-e is scored): MUC-RC R = 1/1, P = 1/2; at
    # the anaphor level it is a true positive.
    pn = report["PN-e"].muc_rc
    assert (pn.recall_num, pn.recall_den, pn.precision_num, pn.precision_den) == (1, 1, 1, 2)
    assert report["PN-e"].anaphor.f1 == 1.0
    # Totals add the classes up.
    total = report.total.muc_rc
    assert (report.total.count, total.recall_num, total.precision_den) == (3, 2, 4)
    assert report.total.anaphor_counts.tp == 2 and report.total.anaphor_counts.wl == 1


def test_links_to_response_only_mentions_are_ignored_by_muc_rc() -> None:
    # "he" is linked only to x, which the key does not have: no MUC-RC link
    # (P = 0/0), but the anaphor level calls it a wrong link.
    report = resolution_classes(_corpus(A), _corpus(((0, 0), (3, 3)), ((2, 2), (5, 5))))
    g3 = report["G3Pr"]
    assert (g3.muc_rc.recall_num, g3.muc_rc.precision_den) == (1, 1)
    assert (g3.anaphor_counts.tp, g3.anaphor_counts.wl, g3.anaphor_counts.fn) == (1, 0, 1)
    # x follows "he", so "he" is first in its response entity: FN, not WL.
    report = resolution_classes(_corpus(A), _corpus(((0, 0), (3, 3)), ((5, 5), (2, 2))))
    assert report["G3Pr"].anaphor_counts.fn == 1


def test_partial_match_uses_content_words_only() -> None:
    words = ("the", "dog", "the", "cat", "a", "big", "dog", "the", "dog")
    pos = ("DT", "NN", "DT", "NN", "DT", "JJ", "NN", "DT", "NN")
    syntax = Syntax(words=words, pos=pos, sentence_starts=(0,))
    doc = Document("d", (((0, 1), (2, 3), (4, 6), (7, 8)),), syntax=syntax)
    # "the cat" shares only "the" with "the dog": CN-n; "a big dog" shares
    # "dog": CN-p; the final "the dog" matches the first exactly: CN-e.
    assert classify_document(doc) == {(2, 3): "CN-n", (4, 6): "CN-p", (7, 8): "CN-e"}
    # Without stopwords "the" is a content word too.
    assert classify_document(doc, stopwords=())[(2, 3)] == "CN-p"


def test_missing_response_document_and_bad_policy() -> None:
    key = Corpus({**_corpus(A, B).documents, "e": Document("e", (A, B), syntax=_SYNTAX)})
    report = resolution_classes(key, _corpus(A, B))
    # Document e has no response: its 3 anaphors are missed, and the report says so.
    assert report.total.count == 6 and report.total.anaphor_counts.fn == 3
    assert any("1 key document(s) not in the response" in w for w in report.warnings)
    with pytest.raises(InputError, match="the response has no documents"):
        resolution_classes(_corpus(A, B), Corpus({}))
    with pytest.raises(UsageError):
        resolution_classes(_corpus(A), _corpus(A), duplicates="nope")


def test_format_classes() -> None:
    report = resolution_classes(_corpus(A, B), _corpus(((1, 1), (2, 2), (4, 4)), ((0, 0), (3, 3))))
    text = format_classes(report)
    lines = text.splitlines()
    assert lines[0].split() == [
        "class",
        "count",
        "share%",
        "MUC-RC",
        "R",
        "P",
        "F1",
        "anaphor",
        "R",
        "P",
        "F1",
    ]
    assert lines[1 + CLASSES.index("G3Pr")].split() == [
        "G3Pr",
        "2",
        "66.67",
        "50.00",
        "50.00",
        "50.00",
        "50.00",
        "50.00",
        "50.00",
    ]
    total = next(line for line in lines if line.startswith("total"))
    assert total.split() == [
        "total",
        "3",
        "100.00",
        "66.67",
        "50.00",
        "57.14",
        "66.67",
        "66.67",
        "66.67",
    ]
    data = json.loads(format_classes(report, "json"))
    assert data["schema"] == SCHEMA
    assert list(data["classes"]) == list(CLASSES)
    g3 = data["classes"]["G3Pr"]
    assert g3["count"] == 2 and g3["share"] == pytest.approx(2 / 3)
    assert g3["muc_rc"]["recall"] == 0.5 and g3["anaphor"]["precision"] == 0.5
    assert g3["anaphor"]["wl"] == 1
    with pytest.raises(UsageError):
        format_classes(report, "csv")


# --- properties -----------------------------------------------------------------

_LEXICON = (
    ("he", "PRP"),
    ("it", "PRP"),
    ("you", "PRP"),
    ("Smith", "NNP"),
    ("dog", "NN"),
    ("ran", "VBD"),
)


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[Corpus, Corpus]:
    n = draw(st.integers(1, 14))
    words = draw(st.lists(st.sampled_from(_LEXICON), min_size=n, max_size=n))
    syntax = Syntax(
        words=tuple(w for w, _ in words), pos=tuple(p for _, p in words), sentence_starts=(0,)
    )

    def partition() -> tuple[tuple[Span, ...], ...]:
        labels = draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n))
        groups: dict[int, list[Span]] = {}
        for token, label in enumerate(labels):
            if label >= 0:
                groups.setdefault(label, []).append((token, token))
        return tuple(tuple(g) for g in groups.values())

    key, response = partition(), partition()
    return (
        Corpus({"d": Document("d", key, syntax=syntax)}),
        Corpus({"d": Document("d", response, syntax=syntax)}),
    )


def _check_bounds(report: ClassReport) -> None:
    for entry in (*report.classes, report.total):
        rc, counts = entry.muc_rc, entry.anaphor_counts
        assert rc.recall_den == entry.count
        assert rc.recall_num <= min(rc.recall_den, rc.precision_den)
        assert counts.tp + counts.wl + counts.fn == entry.count
        assert counts.fp == 0


@settings(max_examples=150, deadline=None)
@given(_pairs())
def test_perfect_response_scores_one_and_bounds_hold(pair: tuple[Corpus, Corpus]) -> None:
    key, response = pair
    report = resolution_classes(key, key)
    _check_bounds(report)
    for entry in report.classes:
        if entry.count:
            assert entry.muc_rc.f1 == 1.0 and entry.anaphor.f1 == 1.0
    report = resolution_classes(key, response)
    _check_bounds(report)
    # Every non-first key mention is an anaphor, with or without a class.
    anaphors = sum(len(e) - 1 for e in key.documents["d"].entities)
    assert report.total.count + report.unclassified == anaphors


# --- GUM --------------------------------------------------------------------------

GUM_TEST_CONLL = {
    "PN-e": 381,
    "PN-p": 168,
    "PN-n": 69,
    "CN-e": 390,
    "CN-p": 474,
    "CN-n": 377,
    "1+2Pr": 808,
    "G3Pr": 311,
    "U3Pr": 427,
}
GUM_TEST_CONLLU = {
    "PN-e": 390,
    "PN-p": 161,
    "PN-n": 66,
    "CN-e": 389,
    "CN-p": 470,
    "CN-n": 347,
    "1+2Pr": 795,
    "G3Pr": 302,
    "U3Pr": 422,
}


def _gum(ext: str) -> tuple[Corpus, Corpus]:
    pairs = shared_path("data", "real", "gum", "pairs")
    key = read_corpus(pairs / f"test.key_gum.{ext}", syntax=True)
    response = read_corpus(pairs / f"test.resp_xrenner.{ext}", syntax=False)
    return key, response


def test_gum_test_distribution_conll() -> None:
    key, response = _gum("conll")
    report = resolution_classes(key, response)
    assert report.distribution == GUM_TEST_CONLL
    assert report.unclassified == 203
    # All anaphors = the key side of MUC recall's denominator (|K| - 1 summed).
    muc = score_corpora(key, response, metrics=["muc"], duplicates="first")["muc"]
    assert report.total.count + report.unclassified == muc.recall_den == 3608
    pn = report["PN-e"].muc_rc
    assert (pn.recall_num, pn.recall_den, pn.precision_num, pn.precision_den) == (
        271,
        381,
        271,
        287,
    )
    counts = report["PN-e"].anaphor_counts
    assert (counts.tp, counts.wl, counts.fn) == (268, 4, 109)
    total = report.total.muc_rc
    assert (total.recall_num, total.recall_den, total.precision_den) == (1461, 3405, 1612)


def test_gum_test_distribution_conllu() -> None:
    # CoNLL-U: heads from the dependency tree, types from UPOS and FEATS.
    key, response = _gum("conllu")
    report = resolution_classes(key, response)
    assert report.distribution == GUM_TEST_CONLLU
    assert report.unclassified == 266
