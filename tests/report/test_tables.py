"""CSV, Markdown and LaTeX tables, macro averages and the documents sorted by F1."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

import corefscore
from corefscore import cli
from corefscore.report.tables import format_csv, format_latex, format_markdown

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"


@pytest.fixture(scope="module")
def result() -> corefscore.ScoreResult:
    return corefscore.score_files(KEY, RESPONSE, metrics="conll", per_document=True)


def test_macro_averages_and_worst_documents_first(result: corefscore.ScoreResult) -> None:
    macro = result.macro()
    # MUC per document: R 1 and 0, P 2/3 and 0, F1 4/5 and 0.
    assert macro["muc"] == pytest.approx({"recall": 0.5, "precision": 1 / 3, "f1": 0.4})
    assert macro["conll"]["f1"] == pytest.approx(
        sum(d.conll for d in result.documents.values() if d.conll is not None) / 2
    )
    ranked = result.ranked_documents()
    assert [d for d, _ in ranked] == ["(example/doc); part 001", "(example/doc); part 000"]
    assert ranked[0][1] == pytest.approx(0.25)
    data = result.to_dict()
    assert data["documents_by_f1"][0] == {"document": "(example/doc); part 001", "f1": 0.25}
    assert data["macro"]["muc"]["f1"] == pytest.approx(0.4)


def test_csv_has_full_precision_rows_for_corpus_documents_and_macro(
    result: corefscore.ScoreResult,
) -> None:
    rows = list(csv.DictReader(io.StringIO(format_csv(result))))
    corpus_muc = next(r for r in rows if r["scope"] == "corpus" and r["metric"] == "muc")
    assert float(corpus_muc["recall"]) == 2 / 3 and float(corpus_muc["precision_den"]) == 4
    assert {r["scope"] for r in rows} == {
        "corpus",
        "(example/doc); part 000",
        "(example/doc); part 001",
        "macro",
        "signature",
    }
    assert rows[-1]["metric"] == result.signature


def test_markdown_and_latex_tables(result: corefscore.ScoreResult) -> None:
    markdown = format_markdown(result)
    assert markdown.splitlines()[:3] == [
        "| Metric | R | P | F1 |",
        "| --- | ---: | ---: | ---: |",
        "| MUC | 66.66 | 50.00 | 57.14 |",
    ]
    assert f"`{result.signature}`" in markdown
    latex = format_latex(result)
    assert r"MUC & 66.66 & 50.00 & 57.14 \\" in latex
    assert r"CoNLL &  &  & 60.66 \\" in latex
    assert latex.startswith("% metrics:muc+bcub+ceafe|")


def test_cli_formats(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt, marker in (("csv", "scope,metric"), ("markdown", "| Metric"), ("latex", "tabular")):
        assert cli.main(["score", str(KEY), str(RESPONSE), "--format", fmt]) == 0
        assert marker in capsys.readouterr().out
    assert cli.main(["score", str(KEY), str(RESPONSE), "--per-document", "-m", "muc"]) == 0
    out = capsys.readouterr().out
    assert "macro-average (mean of the documents' scores)" in out
    assert "documents by muc F1, worst first" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color(
    result: corefscore.ScoreResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    from corefscore.report.text import format_text, use_color

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_color(_Terminal()) and not use_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(_Terminal())
    coloured = format_text(result, color=True)
    assert "\x1b[1m" in coloured and "\x1b[" not in format_text(result)
    # Colour codes do not change the visible text.
    plain = format_text(result)
    assert coloured.replace("\x1b[1m", "").replace("\x1b[2m", "").replace("\x1b[0m", "") == plain


def test_progress_bar_draws_only_on_a_terminal() -> None:
    from corefscore.report.progress import ProgressBar

    piped = io.StringIO()
    bar = ProgressBar("scoring", stream=piped, minimum=1)
    bar(1, 2)
    bar(2, 2)
    bar.close()
    assert piped.getvalue() == ""
    terminal = _Terminal()
    bar = ProgressBar("scoring", stream=terminal, minimum=1)
    bar(2, 2)
    assert terminal.getvalue() == "\rscoring [" + "#" * 30 + "] 2/2"
    bar.close()
    assert terminal.getvalue().endswith("\r\x1b[K")
    calls: list[tuple[int, int]] = []
    corefscore.score_corpora(
        corefscore.io.read_corpus(KEY),
        corefscore.io.read_corpus(RESPONSE, side="response"),
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 2), (2, 2)]
