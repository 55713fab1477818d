"""The error categories of Kummerfeld & Klein (2013), against hand-worked documents
and, as optional oracles, the Berkeley Coreference Analyser itself."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from bisect import bisect_right
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.analysis.error_analysis import CATEGORIES, STEPS, ErrorInstance, analyse_errors
from corefscore.errors import UsageError
from corefscore.io import read_conll_text, read_corpus
from corefscore.model import Corpus, corpus_from_mapping
from corefscore.report.errors import format_errors
from corefscore.scorer import score_corpora
from tests.conftest import examples, shared_path

# One CoNLL-2012 document per category family; each sentence is a list of
# (word, POS, key field, response field). Worked by hand below.
DOCUMENTS = {
    # "dog" (response) stands for "the dog" (key): trimmed alike, one span error.
    "span": [
        [("the", "DT", "(0", "-"), ("dog", "NN", "0)", "(0)"), ("barked", "VBD", "-", "-")],
        [("it", "PRP", "(0)", "(0)"), ("ran", "VBD", "-", "-")],
    ],
    # Key A = {John, he}, B = {Mary, she, her}; response X = {John, he, she},
    # Y = {Mary, her}. X splits into {John, he} (X's anchor: not an error) and
    # {she} (conflated); B is merged from {Mary, her} (its anchor) and {she}
    # (divided).
    "conflated": [
        [("John", "NNP", "(1)", "(1)"), ("ran", "VBD", "-", "-"), ("he", "PRP", "(1)", "(1)")],
        [("Mary", "NNP", "(2)", "(2)"), ("sat", "VBD", "-", "-"), ("she", "PRP", "(2)", "(1)")],
        [("her", "PRP", "(2)", "(2)"), ("dog", "NN", "-", "-")],
    ],
    # Key A = {Ann, she}; response X = {Ann, she, cat} and Y = {dog, it}, all of
    # whose mentions are extra: "cat" is an extra mention, Y an extra entity.
    "extra": [
        [("Ann", "NNP", "(3)", "(3)"), ("saw", "VBD", "-", "-"), ("she", "PRP", "(3)", "(3)")],
        [("a", "DT", "-", "-"), ("cat", "NN", "-", "(3)"), ("and", "CC", "-", "-")],
        [("a", "DT", "-", "-"), ("dog", "NN", "-", "(4)"), ("bit", "VBD", "-", "-")],
        [("it", "PRP", "-", "(4)")],
    ],
    # Key A = {Bob, he, him}, B = {car, it}; response X = {Bob, he}: "him" is a
    # missing mention, B (nothing of it present) a missing entity.
    "missing": [
        [("Bob", "NNP", "(5)", "(5)"), ("said", "VBD", "-", "-"), ("he", "PRP", "(5)", "(5)")],
        [("saw", "VBD", "-", "-"), ("him", "PRP", "(5)", "-")],
        [("the", "DT", "-", "-"), ("car", "NN", "(6)", "-"), ("and", "CC", "-", "-")],
        [("it", "PRP", "(6)", "-")],
    ],
}

EXPECTED = {
    "span": {"span_error": 1},
    "conflated": {"conflated_entities": 1, "divided_entity": 1},
    "extra": {"extra_mention": 1, "extra_entity": 1},
    "missing": {"missing_mention": 1, "missing_entity": 1},
}


def conll(side: int) -> str:
    """The documents as CoNLL-2012 text, the key (side 2) or the response (side 3)."""
    out = []
    for name, sentences in DOCUMENTS.items():
        out.append(f"#begin document ({name}); part 000")
        for sentence in sentences:
            for i, token in enumerate(sentence):
                word, pos = token[0], token[1]
                out.append(f"{name}\t0\t{i}\t{word}\t{pos}\t-\t-\t-\t-\t*\t{token[side]}")
            out.append("")
        out.append("#end document")
    return "\n".join(out) + "\n"


def documents() -> tuple[Corpus, Corpus]:
    key = read_conll_text(conll(2), source="key.conll", syntax=True)
    response = read_conll_text(conll(3), source="response.conll")
    return key, response


def test_each_category_on_a_hand_worked_document() -> None:
    key, response = documents()
    analysis = analyse_errors(key, response)
    for name, expected in EXPECTED.items():
        counts = analysis.documents[f"({name}); part 000"].counts.categories
        assert counts == {c: expected.get(c, 0) for c in CATEGORIES}, name
    assert analysis.totals.categories == {
        c: sum(e.get(c, 0) for e in EXPECTED.values()) for c in CATEGORIES
    }


def test_the_operations_behind_the_categories() -> None:
    key, response = documents()
    operations = analyse_errors(key, response).documents["(conflated); part 000"].counts.operations
    # X splits in two pieces ({John, he}, {she}); B gets two merges; no mention
    # is introduced or removed.
    assert operations == {"correct_span": 0, "introduce": 0, "split": 2, "merge": 2, "remove": 0}
    operations = analyse_errors(key, response).documents["(extra); part 000"].counts.operations
    # X: {Ann, she} split off, "cat" split off alone and removed; Y: both alone.
    assert operations == {"correct_span": 0, "introduce": 0, "split": 4, "merge": 0, "remove": 3}


def test_errors_name_their_mentions_and_mention_types() -> None:
    key, response = documents()
    analysis = analyse_errors(key, response)
    span = analysis.documents["(span); part 000"].errors
    assert [(e.category, e.mentions, e.mention_type) for e in span] == [
        ("span_error", ((0, 1),), "nominal")
    ]
    missing = {e.category: e for e in analysis.documents["(missing); part 000"].errors}
    assert missing["missing_mention"].mentions == ((4, 4),)
    assert missing["missing_mention"].mention_type == "pronoun"
    assert missing["missing_entity"].mentions == ((6, 6), (8, 8))
    assert missing["missing_entity"].mention_type == "nominal"
    by_type = analysis.totals.by_type
    assert by_type["conflated_entities"] == {"name": 0, "nominal": 0, "pronoun": 1}
    assert by_type["extra_entity"] == {"name": 0, "nominal": 1, "pronoun": 0}


def test_each_step_corrects_its_category_and_the_last_gives_the_key() -> None:
    key, response = documents()
    analysis = analyse_errors(key, response)
    assert [s.name for s in analysis.steps] == list(STEPS)
    assert (
        analysis.steps[0].conll
        == score_corpora(key, _drop_singletons(response), metrics="conll").conll
    )
    assert analysis.steps[-1].conll == 1.0
    total = sum(analysis.cost(c) for c in CATEGORIES)
    assert total == pytest.approx(analysis.steps[-1].conll - analysis.steps[0].conll)


def test_step_scores_are_the_same_scored_in_batches_or_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from corefscore.analysis import error_analysis

    key, response = documents()
    at_once = analyse_errors(key, response).steps
    monkeypatch.setattr(error_analysis._StepScores, "BATCH_MENTIONS", 1)
    assert analyse_errors(key, response).steps == at_once
    # The fixture has errors of several kinds: the steps really differ.
    assert len({s.conll for s in at_once}) > 3


def _drop_singletons(corpus: Corpus) -> Corpus:
    return corpus_from_mapping(
        {d: [list(e) for e in doc.entities if len(e) > 1] for d, doc in corpus.documents.items()},
        side="response",
    )


def test_keeping_response_singletons_and_the_last_token_as_head() -> None:
    key, response = documents()
    kept = analyse_errors(key, response, response_singletons="keep", heads="last")
    assert kept.options["response_singletons"] == "keep"
    # No response singleton here: the same categories.
    assert kept.totals == analyse_errors(key, response).totals
    with pytest.raises(UsageError, match="response_singletons"):
        analyse_errors(key, response, response_singletons="some")
    with pytest.raises(UsageError, match="heads"):
        analyse_errors(key, response, heads="first")  # type: ignore[arg-type]


def test_a_key_singleton_absent_from_the_response_is_a_missing_mention() -> None:
    # The analyser stops with an error there (its 'introduce' is left over).
    key = read_conll_text(
        "#begin document (d); part 000\n"
        "d\t0\t0\tSam\tNNP\t-\t-\t-\t-\t*\t(0)\n"
        "d\t0\t1\tand\tCC\t-\t-\t-\t-\t*\t-\n"
        "d\t0\t2\tKim\tNNP\t-\t-\t-\t-\t*\t(1)\n"
        "d\t0\t3\tshe\tPRP\t-\t-\t-\t-\t*\t(1)\n"
        "#end document\n",
        syntax=True,
    )
    response = corpus_from_mapping({"(d); part 000": [[(2, 2), (3, 3)]]}, side="response")
    analysis = analyse_errors(key, response)
    assert analysis.totals.categories["missing_mention"] == 1
    assert sum(analysis.totals.categories.values()) == 1


def test_mentions_across_sentences_and_repeated_spans_are_left_out_with_a_warning() -> None:
    key, _ = documents()
    response = corpus_from_mapping(
        {"(span); part 000": [[(1, 1), (3, 3)], [(1, 1), (2, 2)], [(2, 4), (0, 0)]]},
        side="response",
    )
    analysis = analyse_errors(key, response, documents=["(span); part 000"])
    text = " ".join(analysis.warnings)
    assert "1 mention(s) across a sentence break" in text
    assert "1 repeated span(s)" in text


def test_identical_key_and_response_have_no_error() -> None:
    key, _ = documents()
    analysis = analyse_errors(key, key)
    assert sum(analysis.totals.categories.values()) == 0
    assert all(s.conll == 1.0 for s in analysis.steps)


spans = st.tuples(st.integers(0, 11), st.integers(0, 2)).map(lambda p: (p[0], min(p[0] + p[1], 11)))
clusters = st.lists(st.lists(spans, min_size=1, max_size=4, unique=True), max_size=5)


@settings(max_examples=examples(150), deadline=None)
@given(clusters, clusters)
def test_any_pair_is_analysed_and_its_errors_name_real_mentions(key: list, response: list) -> None:  # type: ignore[type-arg]
    key_corpus = corpus_from_mapping({"d": key}, side="key")
    response_corpus = corpus_from_mapping({"d": response}, side="response")
    analysis = analyse_errors(key_corpus, response_corpus, response_singletons="keep")
    known = {s for e in key for s in e} | {s for e in response for s in e}
    for error in analysis.documents["d"].errors:
        assert set(error.mentions) <= known
    assert all(0.0 <= s.conll <= 1.0 for s in analysis.steps)
    if sum(analysis.totals.categories.values()) == 0:
        assert analysis.steps[-1].conll == analysis.steps[0].conll
    # Errors are made without ErrorInstance's __init__: each must be what it makes.
    for error in analysis.documents["d"].errors:
        built = ErrorInstance(error.category, error.mentions, error.mention_type)
        assert type(error) is ErrorInstance
        assert error == built and hash(error) == hash(built) and repr(error) == repr(built)
        assert list(vars(error).items()) == list(vars(built).items())


@settings(max_examples=examples(150), deadline=None)
@given(clusters, clusters)
def test_the_mentions_of_distinct_spans_are_those_of_the_reading_order_path(
    key: list,  # type: ignore[type-arg]
    response: list,  # type: ignore[type-arg]
) -> None:
    # Three sentences of four tokens: some mentions cross a break, some repeat.
    from dataclasses import replace

    from corefscore.analysis import error_analysis
    from corefscore.model import Syntax

    syntax = Syntax(words=tuple(f"w{i}" for i in range(12)), sentence_starts=(0, 4, 8))
    key_corpus = corpus_from_mapping({"d": key}, side="key")
    key_corpus = Corpus(
        documents={"d": replace(key_corpus.documents["d"], syntax=syntax)},
        source=None,
        warnings=(),
    )
    response_corpus = corpus_from_mapping({"d": response}, side="response")
    for drop in (False, True):
        doc = response_corpus.documents["d"]
        fast_text = error_analysis._Text(doc, syntax, "last")
        fast_warnings: list[str] = []
        fast = error_analysis._distinct_mentions(doc, fast_text, fast_warnings, "response", drop)
        if fast is None:
            continue
        slow_text = error_analysis._Text(doc, syntax, "last")
        slow_warnings: list[str] = []
        original = error_analysis._distinct_mentions
        try:
            error_analysis._distinct_mentions = lambda *args: None  # type: ignore[assignment]
            slow = error_analysis._mentions(doc, slow_text, "response", slow_warnings, drop)
        finally:
            error_analysis._distinct_mentions = original  # type: ignore[assignment]
        assert fast == slow and fast_warnings == slow_warnings
        # Each mention stands for the same span (the fast path leaves them to be
        # worked out when asked for).
        assert slow_text.spans == {m: fast_text.span(m) for e in fast for m in e}
    analyse_errors(key_corpus, response_corpus, response_singletons="keep")


def test_text_json_and_csv_reports() -> None:
    key, response = documents()
    analysis = analyse_errors(key, response)
    text = format_errors(analysis, per_document=True)
    assert re.search(r"Conflated Entities\s+1\s+0\s+0\s+1", text)
    assert "(missing); part 000" in text
    data = json.loads(format_errors(analysis, "json"))
    assert data["totals"]["categories"]["extra_entity"] == 1
    assert [s["step"] for s in data["steps"]] == list(STEPS)
    assert data["steps"][0]["cost"] is None
    rows = format_errors(analysis, "csv").splitlines()
    assert rows[0] == "document," + ",".join(CATEGORIES)
    assert rows[-1] == "TOTAL,1,1,1,1,1,1,1"
    with pytest.raises(UsageError):
        format_errors(analysis, "html")


def test_the_command(tmp_path: Path) -> None:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll(2))
    response.write_text(conll(3))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "corefscore",
            "analyze",
            "errors",
            str(key),
            str(response),
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "TOTAL,1,1,1,1,1,1,1"
    bad = tmp_path / "bad.conll"
    bad.write_text(conll(3).replace("(4)", "(x4)"))
    proc = subprocess.run(
        [sys.executable, "-m", "corefscore", "analyze", "errors", str(key), str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0
    assert "bad.conll:" in proc.stderr and "Traceback" not in proc.stderr


# --- The Berkeley Coreference Analyser as an optional oracle -------------------

# COREFSCORE_BERKELEY_ANALYSER names a checkout of the analyser; without it, the
# research copy of this machine is used if there is one.
ANALYSER = os.environ.get("COREFSCORE_BERKELEY_ANALYSER") or "/work/research/berkeley/src"


def analyser_source() -> Path:
    if not (Path(ANALYSER) / "classify_coreference_errors.py").exists():
        pytest.skip(
            "set COREFSCORE_BERKELEY_ANALYSER to a checkout of "
            "jkkummerfeld/berkeley-coreference-analyser to compare against it"
        )
    return Path(ANALYSER)


SUMMARY_NAMES = {
    "Span Error": "span_error",
    "Conflated Entities": "conflated_entities",
    "Extra Mention": "extra_mention",
    "Extra Entity": "extra_entity",
    "Divided Entity": "divided_entity",
    "Missing Mention": "missing_mention",
    "Missing Entity": "missing_entity",
    "Correct Span": "correct_span",
    "Introduce Mention": "introduce",
    "Split from Cluster": "split",
    "Merge into Cluster": "merge",
    "Remove Mention": "remove",
}


def read_summary(path: Path) -> dict[str, int]:
    out = {}
    for line in path.read_text().splitlines():
        match = re.fullmatch(r"\s*(\d+)\s+(.+?)\s*", line)
        if match and match.group(2) in SUMMARY_NAMES:
            out[SUMMARY_NAMES[match.group(2)]] = int(match.group(1))
    return out


def gold_directory(key: Corpus, folder: Path) -> None:
    """The key as the analyser reads it: one file per document, a flat parse tree
    per sentence (so every head is the last token) and brackets in words escaped."""
    for doc_id, doc in key.documents.items():
        name = doc_id.split(";")[0].strip("()")
        lines = [f"#begin document ({name}); part 000"]
        assert doc.syntax is not None and doc.syntax.words is not None
        words, pos = doc.syntax.words, doc.syntax.pos or ["X"] * len(doc.syntax.words)
        starts = [*doc.syntax.sentence_starts, len(words)]
        fields = _fields(doc)
        for a, b in pairwise(starts):
            for t in range(a, b):
                bit = ("(TOP" if t == a else "") + "*" + (")" if t == b - 1 else "")
                word = words[t].replace("(", "-LRB-").replace(")", "-RRB-")
                tag = pos[t].replace("(", "-LRB-").replace(")", "-RRB-")
                lines.append(f"{name}\t0\t{t - a}\t{word}\t{tag}\t{bit}\t-\t-\t-\t*\t{fields[t]}")
            lines.append("")
        lines.append("#end document")
        (folder / f"{name}.gold_conll").write_text("\n".join(lines) + "\n")


def _fields(doc: corefscore.Document) -> list[str]:
    assert doc.syntax is not None and doc.syntax.words is not None
    items: list[list[str]] = [[] for _ in doc.syntax.words]
    for label, entity in zip(doc.labels, doc.entities):
        for start, end in entity:
            if start == end:
                items[start].append(f"({label})")
            else:
                items[start].append(f"({label}")
                items[end].append(f"{label})")
    return ["|".join(i) or "-" for i in items]


def test_agrees_with_the_analyser_on_the_gum_test_pair(tmp_path: Path) -> None:
    source = analyser_source()
    key_path = shared_path("data", "real", "gum", "pairs", "test.key_ontogum.conll")
    response_path = shared_path("data", "real", "gum", "pairs", "test.resp_xrenner.conll")
    key = read_corpus(key_path, side="key", syntax=True)
    response = read_corpus(response_path, side="response")
    gold = tmp_path / "gold"
    gold.mkdir()
    gold_directory(key, gold)
    proc = subprocess.run(
        [
            sys.executable,
            "classify_coreference_errors.py",
            str(tmp_path / "out"),
            str(gold),
            str(response_path),
            "T",
        ],
        cwd=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    theirs = read_summary(tmp_path / "out.summary")
    analysis = analyse_errors(key, response, heads="last")
    ours = {**analysis.totals.categories, **analysis.totals.operations}
    assert ours == theirs
    # The corrected responses are the analyser's: scored alike at every step.
    files = {
        "span_error": "span_errors",
        "extra_mention": "extra_mention_prog",
        "extra_entity": "extra_entity_prog",
        "divided_entity": "divided_prog",
        "missing_mention": "missing_mention_prog",
        "missing_entity": "missing_entity_prog",
    }
    their_gold = read_corpus(tmp_path / "out.gold", side="key", format="conll")
    steps = {s.name: s for s in analysis.steps}
    for step, suffix in files.items():
        corrected = read_corpus(tmp_path / f"out.corrected.{suffix}", format="conll")
        scored = score_corpora(their_gold, corrected, metrics="conll")
        assert steps[step].conll == pytest.approx(scored.conll, abs=1e-12), step


def test_agrees_with_the_analyser_on_its_own_example() -> None:
    source = analyser_source()
    data = source / "data"
    gold_files = sorted((data / "gold").rglob("*gold_conll"))
    if not gold_files:
        pytest.skip(f"the analyser's example data is not in {data}")
    text = "".join(path.read_text() for path in gold_files)
    key = read_conll_text(text, source="bundled gold", syntax=True)
    response = read_corpus(data / "homogenised" / "stanford.homogenised.out", format="conll")
    heads = analyser_heads(source, text, key)
    analysis = analyse_errors(key, response, heads=heads)
    theirs = read_summary(data / "classified" / "stanford.summary")
    assert {**analysis.totals.categories, **analysis.totals.operations} == theirs


def analyser_heads(source: Path, text: str, key: Corpus):  # type: ignore[no-untyped-def]
    """The analyser's own head of every mention (its Collins rules on the parse):
    "with the same heads", the counts must be the same."""
    sys.path.insert(0, str(source))
    try:
        from nlp_util import coreference, coreference_reading  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(source))
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"corefscore-bundled-{os.getpid()}.conll"
    path.write_text(text)
    try:
        docs = coreference_reading.read_conll_doc(str(path))
    finally:
        path.unlink()

    def head(doc_id: str, span: tuple[int, int]) -> int:
        name, part = doc_id.split(";")[0].strip("()"), doc_id.split()[-1]
        info = docs[name][part]
        syntax = key.documents[doc_id].syntax
        assert syntax is not None
        starts = syntax.sentence_starts
        sentence = bisect_right(starts, span[0]) - 1
        offset = starts[sentence]
        mention = (sentence, span[0] - offset, span[1] + 1 - offset)
        found = coreference.mention_head(mention, info["text"], info["parses"], info["heads"])
        return int(offset + found[0][0])

    return head


def test_a_response_whose_tokens_do_not_line_up_is_refused() -> None:
    from corefscore.errors import InputError

    key, _ = documents()
    lines = conll(3).splitlines(keepends=True)
    dropped = "".join(line for line in lines if "\tbarked\t" not in line)
    response = read_conll_text(dropped, source="dropped.conll")
    with pytest.raises(InputError, match="tokens differ"):
        analyse_errors(key, response)


def test_a_response_mention_beyond_the_keys_words_is_refused() -> None:
    # A format without tokens (clusters) cannot be checked when it is read.
    from corefscore.errors import InputError

    key, _ = documents()
    response = corpus_from_mapping({"(span); part 000": [[(0, 1), (40, 41)]]}, side="response")
    with pytest.raises(InputError, match=r"mention \(40, 41\) lies beyond the key's 5 tokens"):
        analyse_errors(key, response, documents=["(span); part 000"])
