"""Lab plots: written, reproducible, and a clear error without matplotlib."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from corefscore.analysis.lab import run_experiment
from corefscore.errors import UsageError
from corefscore.report.plots import plot_lab


def test_svg_is_written_and_reproducible(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = run_experiment("split-entities")
    first = plot_lab(result, tmp_path / "a.svg")
    second = plot_lab(result, tmp_path / "b.svg")
    text = first.read_text()
    assert text.startswith("<?xml")
    assert first.read_bytes() == second.read_bytes()
    # One line per metric except mentions, labelled as the paper does; no date.
    for label in ("MUC", "B³", "CEAFm", "CEAFe", "BLANC", "LEA", "18-2", "9-5-6"):
        assert label in text, label
    assert "<dc:date>" not in text


def test_png_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = plot_lab(run_experiment("correct-links"), tmp_path / "p.png", metrics=["muc", "lea"])
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"Date" not in data and b"Software" in data
    assert (
        plot_lab(
            run_experiment("correct-links"), tmp_path / "q.png", metrics=["muc", "lea"]
        ).read_bytes()
        == data
    )


def test_metric_and_suffix_checks(tmp_path: Path) -> None:
    result = run_experiment("extra-mentions", metrics=["muc"])
    with pytest.raises(UsageError, match=r"png or \.svg"):
        plot_lab(result, tmp_path / "x.pdf")
    pytest.importorskip("matplotlib")
    with pytest.raises(UsageError, match="lea"):
        plot_lab(result, tmp_path / "x.svg", metrics=["lea"])


def test_missing_matplotlib_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A None entry in sys.modules makes "import matplotlib" raise ImportError.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run_experiment("luo2005-figure1", metrics=["muc"])
    with pytest.raises(UsageError) as info:
        plot_lab(result, tmp_path / "x.svg")
    assert str(info.value) == "plotting needs matplotlib: pip install 'corefscore[plot]'"
    assert not (tmp_path / "x.svg").exists()


def test_error_categories_chart(tmp_path: Path) -> None:
    from corefscore.analysis.error_analysis import analyse_errors
    from corefscore.model import corpus_from_mapping
    from corefscore.report.plots import plot_error_categories

    key = corpus_from_mapping({"d": [[(0, 0), (2, 2)], [(4, 4), (6, 6)]]}, side="key")
    response = corpus_from_mapping({"d": [[(0, 0), (2, 2), (4, 4)], [(8, 8), (9, 9)]]}, side="r")
    analysis = analyse_errors(key, response)
    with pytest.raises(UsageError, match=r"png or \.svg"):
        plot_error_categories({"a": analysis}, tmp_path / "x.pdf")
    with pytest.raises(UsageError, match="no error analysis"):
        plot_error_categories({}, tmp_path / "x.svg")
    pytest.importorskip("matplotlib")
    first = plot_error_categories({"sys A": analysis, "sys B": analysis}, tmp_path / "a.svg")
    second = plot_error_categories({"sys A": analysis, "sys B": analysis}, tmp_path / "b.svg")
    text = first.read_text()
    assert first.read_bytes() == second.read_bytes()
    for label in ("Conflated", "Divided", "Extra", "sys A", "sys B", "Kummerfeld"):
        assert label in text, label
