"""The HTML report's data and page, without a browser (test_html_browser.py has one)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from corefscore.cli import main
from corefscore.errors import UsageError
from corefscore.evaluation import Evaluation
from corefscore.io import read_corpus
from corefscore.model import corpus_from_mapping
from corefscore.report.html import build_html_report, collect_report
from corefscore.scorer import score_corpora
from corefscore.stats import bootstrap

Clusters = Mapping[int, Sequence[tuple[int, int]]]
Doc = tuple[str, Sequence[Sequence[str]], Clusters]

ALPHA = [
    ["John", "met", "Mary", "in", "Paris", "."],
    ["He", "told", "her", "mother", "about", "the", "city", "."],
]
BETA = [["The", "</script><script>alert(1)</script>", "sat", "."], ["It", "slept", "."]]
KEY: list[Doc] = [
    (
        "alpha",
        ALPHA,
        {1: [(0, 0), (6, 6)], 2: [(2, 2), (8, 8)], 3: [(4, 4), (11, 12)], 4: [(8, 9)]},
    ),
    ("beta", BETA, {1: [(0, 1), (4, 4)]}),
]
# sys1 on alpha: "her mother" (8-9) missed, "mother" (9) spurious, key 3 split over
# response 2 and 3, response 2 merges key 2 and 3; beta is perfect.
SYS1: list[Doc] = [
    ("alpha", ALPHA, {1: [(0, 0), (6, 6)], 2: [(2, 2), (8, 8), (4, 4)], 3: [(11, 12), (9, 9)]}),
    ("beta", BETA, {1: [(0, 1), (4, 4)]}),
]
SYS2: list[Doc] = [
    ("alpha", ALPHA, {1: [(0, 0), (6, 6)], 2: [(2, 2), (8, 8)], 3: [(4, 4), (11, 12)]}),
    ("beta", BETA, {1: [(0, 1)], 2: [(4, 4), (5, 5)]}),
]
ALPHA_ID = "(alpha); part 000"


def conll_text(docs: Sequence[Doc]) -> str:
    """CoNLL-2012 lines for documents given as sentences of words and clusters of spans."""
    lines = []
    for doc_id, sentences, clusters in docs:
        lines.append(f"#begin document ({doc_id}); part 000")
        token = 0
        for sentence in sentences:
            for position, word in enumerate(sentence):
                parts = []
                for label, spans in clusters.items():
                    for start, end in spans:
                        if start == token == end:
                            parts.append(f"({label})")
                        elif start == token:
                            parts.append(f"({label}")
                        elif end == token:
                            parts.append(f"{label})")
                coref = "|".join(parts) or "-"
                lines.append(f"{doc_id}\t0\t{position}\t{word}\tX\t*\t-\t-\t-\t-\t*\t{coref}")
                token += 1
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def write_fixture(folder: Path) -> tuple[Path, Path, Path]:
    """key.conll, sys1.conll and sys2.conll in ``folder``."""
    paths = []
    for name, docs in (("key", KEY), ("sys1", SYS1), ("sys2", SYS2)):
        path = folder / f"{name}.conll"
        path.write_text(conll_text(docs), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], paths[2]


def embedded_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture(scope="module")
def fixture_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return write_fixture(tmp_path_factory.mktemp("html"))


def _report(files: tuple[Path, Path, Path], **options: Any) -> str:
    key_path, sys1, sys2 = files
    key = read_corpus(key_path, syntax=True)
    responses = {
        "sys1": read_corpus(sys1, side="response"),
        "sys2": read_corpus(sys2, side="response"),
    }
    return build_html_report(key, responses, **{"bootstrap": 200, "seed": 3, **options})


def test_embedded_numbers_are_the_score_results(fixture_files: tuple[Path, Path, Path]) -> None:
    data = embedded_data(_report(fixture_files))
    key = read_corpus(fixture_files[0])
    assert [s["name"] for s in data["systems"]] == ["sys1", "sys2"]
    assert [d["id"] for d in data["documents"]] == [ALPHA_ID, "(beta); part 000"]
    for system, path in zip(data["systems"], fixture_files[1:]):
        result = score_corpora(key, read_corpus(path, side="response"), per_document=True)
        assert result.documents is not None
        assert data["metrics"] == list(result.metrics)
        for name, score in result.metrics.items():
            assert system["micro"][name] == [score.recall, score.precision, score.f1]
        assert system["conll"] == result.conll
        macro = result.macro()
        assert system["macro_conll"] == macro["conll"]["f1"]
        for name in result.metrics:
            values = macro[name]
            assert system["macro"][name] == [values["recall"], values["precision"], values["f1"]]
        for row, doc in zip(system["per_document"], result.documents.values()):
            assert row[0] == doc.conll
            assert row[1] == [[s.recall, s.precision, s.f1] for s in doc.metrics.values()]
    # sys1's MUC on the corpus, by hand: key links 1+1+1+0 on alpha, 1 on beta = 4;
    # response links 1+2+1 on alpha and 1 on beta = 5; common links 3 + 1.
    muc = data["systems"][0]["micro"]["muc"]
    assert muc[:2] == [3 / 4, 3 / 5]


def test_intervals_are_the_bootstrap_with_the_same_seed(
    fixture_files: tuple[Path, Path, Path],
) -> None:
    data = embedded_data(_report(fixture_files, seed=11, bootstrap=300, ci=90))
    key = read_corpus(fixture_files[0])
    result = score_corpora(key, read_corpus(fixture_files[2], side="response"))
    assert result.document_statistics is not None
    expected = bootstrap(
        result.document_statistics, metrics=list(result.metrics), n=300, ci=90, seed=11
    )
    system = data["systems"][1]
    for name, interval in expected.metrics.items():
        assert system["intervals"][name] == [
            [interval.recall.low, interval.recall.high],
            [interval.precision.low, interval.precision.high],
            [interval.f1.low, interval.f1.high],
        ]
    assert expected.conll is not None
    assert system["conll_interval"] == [expected.conll.low, expected.conll.high]
    assert data["bootstrap"] == {"n": 300, "ci": 90, "seed": 11}
    assert "bootstrap:300@90%,seed=11" in system["signature"]


def _spans(mentions: Sequence[Sequence[int]], labels: Sequence[str]) -> list[tuple[int, int, str]]:
    return [(m[0], m[1], labels[m[2]]) for m in mentions]


def test_missed_spurious_split_merged_and_alignment(
    fixture_files: tuple[Path, Path, Path],
) -> None:
    data = embedded_data(_report(fixture_files))
    doc = data["documents"][0]
    view = data["systems"][0]["views"][0]
    key_labels, response_labels = doc["key_labels"], view["response_labels"]
    # Outer mentions come before the mentions they contain: "her mother" before "her".
    assert _spans(doc["key"], key_labels) == [
        (0, 0, "1"),
        (2, 2, "2"),
        (4, 4, "3"),
        (6, 6, "1"),
        (8, 9, "4"),
        (8, 8, "2"),
        (11, 12, "3"),
    ]
    assert _spans([doc["key"][i] for i in view["missed"]], key_labels) == [(8, 9, "4")]
    assert _spans([view["response"][i] for i in view["spurious"]], response_labels) == [(9, 9, "3")]
    split = [(key_labels[k], [response_labels[r] for r in rs]) for k, rs in view["split"]]
    merged = [(response_labels[r], [key_labels[k] for k in ks]) for r, ks in view["merged"]]
    assert split == [("3", ["2", "3"])]
    assert merged == [("2", ["2", "3"])]
    # CEAF-e φ4 = 2|K∩R| / (|K| + |R|): 1 <-> 1 is 1, 2 <-> 2 is 4/5, 3 <-> 3 is 2/4;
    # 3 <-> 2 (2/5) loses to it because 2 <-> 2 is worth more.
    pairs = [(key_labels[k], response_labels[r], phi) for k, r, phi in view["alignment"]]
    assert pairs == [("1", "1", 1.0), ("2", "2", 4 / 5), ("3", "3", 2 / 4)]
    assert view["phi"] == [pytest.approx(2.3, rel=1e-15), 4.0, 3.0]
    # sys2 on beta: "slept" (5) spurious, nothing missed.
    beta = data["systems"][1]["views"][1]
    assert beta["missed"] == []
    assert _spans([beta["response"][i] for i in beta["spurious"]], beta["response_labels"]) == [
        (5, 5, "2")
    ]


def test_words_cannot_break_out_of_the_page(fixture_files: tuple[Path, Path, Path]) -> None:
    page = _report(fixture_files, title="<b>title</b>")
    # Only the two script elements of the page close; the token stays data.
    assert page.count("</script>") == 2
    assert "<script>alert" not in page
    assert "<b>title</b>" not in page and "&lt;b&gt;title&lt;/b&gt;" in page
    data = embedded_data(page)
    assert data["documents"][1]["tokens"][1] == "</script><script>alert(1)</script>"
    assert data["title"] == "<b>title</b>"


def test_page_loads_nothing_from_outside(fixture_files: tuple[Path, Path, Path]) -> None:
    page = _report(fixture_files)
    for attribute in re.findall(r'\b(?:src|href)\s*=\s*["\']?([^"\'\s>]*)', page, re.I):
        assert not attribute.lower().startswith(("http:", "https:", "//")), attribute
    for word in ("fetch(", "XMLHttpRequest", "<link", "@import", "url(", "<iframe"):
        assert word not in page, word
    assert "<style>" in page and "<svg" not in page.split("<script")[0]


def test_same_seed_same_bytes(fixture_files: tuple[Path, Path, Path]) -> None:
    first, second = _report(fixture_files, seed=5), _report(fixture_files, seed=5)
    assert first == second
    assert _report(fixture_files, seed=6) != first


def test_no_bootstrap_and_corpora_without_words() -> None:
    key = corpus_from_mapping({"d": [[(0, 0), (2, 3)]], "e": [[(0, 1), (3, 3)]]}, side="key")
    response = corpus_from_mapping({"d": [[(0, 0), (2, 3)], [(5, 5)]]}, side="response")
    report = collect_report(key, [("only", response)], bootstrap=0)
    data = report.data
    assert data["bootstrap"] is None
    system = data["systems"][0]
    assert system["intervals"] is None and "bootstrap" not in system["signature"]
    # Without words, tokens are numbered, up to the last mention of either side.
    assert data["documents"][0]["tokens"] == [f"t{t}" for t in range(6)]
    # Document "e" is missing from the response: every key mention is missed.
    assert system["views"][1]["missed"] == [0, 1]
    assert system["per_document"][1][0] == 0.0
    assert any("not in the response" in w for w in report.warnings)
    assert "No bootstrap intervals" in report.to_html()


def test_inexact_twins_are_shown_where_the_system_put_them() -> None:
    key = corpus_from_mapping({"d": [[(0, 1), (4, 4)], [(6, 6)]]}, side="key")
    response = corpus_from_mapping({"d": [[(0, 2), (4, 4)], [(7, 7)]]}, side="response")
    exact = collect_report(key, {"s": response}, bootstrap=0).data["systems"][0]["views"][0]
    assert exact["missed"] == [0, 2] and exact["spurious"] == [0, 2]
    overlap = Evaluation.create(matching="overlap")
    view = collect_report(key, {"s": response}, bootstrap=0, evaluation=overlap).data["systems"][0]
    # (0, 2) overlaps its twin (0, 1) and is drawn at (0, 2); (7, 7) overlaps nothing.
    assert view["views"][0]["response"] == [[0, 2, 0], [4, 4, 0], [7, 7, 1]]
    assert view["views"][0]["missed"] == [2] and view["views"][0]["spurious"] == [2]
    assert view["micro"]["muc"] == [1.0, 1.0, 1.0]


def test_library_errors() -> None:
    key = corpus_from_mapping({"d": [[(0, 0)]]}, side="key")
    with pytest.raises(UsageError, match="at least one response"):
        collect_report(key, [])
    with pytest.raises(UsageError, match="must differ"):
        collect_report(key, [("a", key), ("a", key)])
    with pytest.raises(UsageError, match="between 0 and 100"):
        collect_report(key, {"a": key}, ci=100)


def test_cli_writes_the_report(
    fixture_files: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, sys1, sys2 = (str(p) for p in fixture_files)
    out = tmp_path / "report.html"
    argv = ["report", key, sys1, sys2, "-o", str(out), "--bootstrap", "200", "--seed", "3"]
    assert main(argv) == 0
    assert capsys.readouterr().out == ""
    page = out.read_text(encoding="utf-8")
    # The command line reads the same corpora as the library call, so the same bytes.
    assert page == _report(fixture_files)
    assert main(["report", key, sys1, sys2, "--names", "first,second", "--bootstrap", "0"]) == 0
    data = embedded_data(capsys.readouterr().out)
    assert [s["name"] for s in data["systems"]] == ["first", "second"]


@pytest.mark.parametrize(
    ("extra", "code", "message"),
    [
        (["-o", "{tmp}/missing/report.html"], 1, "corefscore: error: {tmp}/missing/report.html"),
        (["--bootstrap", "-1"], 2, "corefscore: usage error: --bootstrap needs N >= 0"),
        (["--names", "a,a"], 2, "corefscore: usage error: --names needs 2 distinct"),
    ],
)
def test_cli_errors(
    fixture_files: tuple[Path, Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    code: int,
    message: str,
) -> None:
    key, sys1, sys2 = (str(p) for p in fixture_files)
    argv = ["report", key, sys1, sys2, *(e.format(tmp=tmp_path) for e in extra)]
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.startswith(message.format(tmp=tmp_path))
    assert err.count("\n") == 1


def test_error_categories_are_the_error_analysis(fixture_files: tuple[Path, Path, Path]) -> None:
    from corefscore.analysis.error_analysis import CATEGORIES, MENTION_TYPES, analyse_errors

    page = _report(fixture_files)
    data = embedded_data(page)
    assert data["errors"]["categories"] == list(CATEGORIES)
    key = read_corpus(fixture_files[0], syntax=True)
    for system, path in zip(data["systems"], fixture_files[1:]):
        analysis = analyse_errors(key, read_corpus(path, side="response"))
        errors = system["errors"]
        assert errors["counts"] == [analysis.totals.categories[c] for c in CATEGORIES]
        assert errors["steps"] == [s.conll for s in analysis.steps]
        doc = analysis.documents[ALPHA_ID]
        assert errors["per_document"][0] == [doc.counts.categories[c] for c in CATEGORIES]
        assert errors["items"][0] == [
            [
                CATEGORIES.index(e.category),
                [list(m) for m in e.mentions],
                MENTION_TYPES.index(e.mention_type),
            ]
            for e in doc.errors
        ]
    # sys1 on alpha, by hand: "mother" stands for "her mother" by its head (a span
    # error; the fixture has no parse: the last token). Response 2 = {Mary, her, Paris}
    # mixes key 2 and 3: Paris is split off (Mary anchors the rest); response 3 =
    # {the city, her mother} mixes keys 3 and 4: "the city" is split off ("her mother"
    # comes first); key 3 = {Paris, the city} is merged from two pieces, Paris its
    # anchor: one divided entity.
    counts = dict(zip(CATEGORIES, data["systems"][0]["errors"]["counts"]))
    assert counts == {
        **dict.fromkeys(CATEGORIES, 0),
        "span_error": 1,
        "conflated_entities": 2,
        "divided_entity": 1,
    }
    assert re.search(r'<table class="errors" id="error-totals">', page)
    assert _report(fixture_files, errors=False).count('id="error-totals"') == 0


def test_several_systems_are_compared_as_compare_ranks_them(
    fixture_files: tuple[Path, Path, Path],
) -> None:
    from corefscore.stats import compare_systems

    page = _report(fixture_files, trials=500)
    comparison = embedded_data(page)["comparison"]
    key = read_corpus(fixture_files[0])
    statistics = {
        name: score_corpora(
            key, read_corpus(path, side="response"), per_document=True
        ).document_statistics
        for name, path in zip(("sys1", "sys2"), fixture_files[1:])
    }
    ranking = compare_systems(
        statistics, trials=500, seed=3, metrics=embedded_data(page)["metrics"]
    )
    assert comparison["systems"] == [s.to_dict() for s in ranking.systems]
    assert comparison["pairs"] == [p.to_dict() for p in ranking.pairs]
    assert "|test:ar:500,seed=3" in comparison["signature"]
    assert 'id="ranking"' in page and 'id="side-by-side"' in page
    single = read_corpus(fixture_files[1], side="response")
    alone = build_html_report(read_corpus(fixture_files[0]), {"sys1": single}, bootstrap=0)
    assert embedded_data(alone)["comparison"] is None and 'id="ranking"' not in alone


def test_no_text_leaves_every_word_out(fixture_files: tuple[Path, Path, Path]) -> None:
    from corefscore.report.html import _template

    page_with = _report(fixture_files)
    page = _report(fixture_files, text=False)
    template = _template("report.html") + _template("report.js") + _template("report.css")
    words = {w for doc in (ALPHA, BETA) for sentence in doc for w in sentence}
    # Words that could only come from the corpus (not in the page's own text).
    own = {w for w in words if len(w) > 3 and w.isalpha() and w not in template}
    assert own >= {"John", "Mary", "Paris", "told", "mother", "slept"}
    for word in own:
        assert word in page_with
        assert word not in page, word
    data = embedded_data(page)
    assert data["text"] is False
    assert [d["tokens"] for d in data["documents"]] == [14, 7]
    assert "holds no text of the corpus" in page


def test_a_report_whose_error_analysis_cannot_run_says_how_to_leave_it_out(
    fixture_files: tuple[Path, Path, Path],
) -> None:
    from corefscore.errors import InputError

    key = read_corpus(fixture_files[0], syntax=True)
    # Clusters carry no tokens: a mention past the key's words is only found here.
    far = corpus_from_mapping({ALPHA_ID: [[(0, 0), (90, 91)]]}, side="response")
    with pytest.raises(InputError, match="--no-errors, or errors=False"):
        build_html_report(key, {"far": far}, bootstrap=0)
    assert "far" in build_html_report(key, {"far": far}, bootstrap=0, errors=False)
