"""The HTML report in a real browser: Debian's Chromium, driven by Playwright.

Skipped with the reason when Playwright or the browser is missing, unless
``COREFSCORE_REQUIRE_BROWSER=1`` (CI sets it), which makes that a failure.
The browser is the system's (``/usr/bin/chromium`` or ``$COREFSCORE_CHROMIUM``);
Playwright never downloads one here.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from corefscore.cli import main
from corefscore.model import corpus_from_mapping
from corefscore.report.html import build_html_report
from corefscore.report.text import pct
from tests.report.test_html import ALPHA_ID, embedded_data, write_fixture

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEED, RESAMPLES = 3, 200


def _unavailable(reason: str) -> None:
    if os.environ.get("COREFSCORE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and COREFSCORE_REQUIRE_BROWSER=1 requires the browser test")
    pytest.skip(reason)


def _chromium() -> str:
    configured = os.environ.get("COREFSCORE_CHROMIUM")
    path = configured or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        _unavailable(
            f"no Chromium at {path} (apt-get install chromium, or set COREFSCORE_CHROMIUM)"
        )
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install playwright; no browser download)")
    executable = _chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    requests: list[str] = []
    opened.on("request", lambda request: requests.append(request.url))
    yield opened
    context.close()
    assert errors == []
    # The page loads nothing but itself.
    assert all(url.startswith("file://") for url in requests), requests


def _open(page: Any, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready=true]")


def _wait_closed(page: Any) -> None:
    """Wait until the viewer is emptied: the dialog's close event comes as a separate task."""
    page.wait_for_function(
        "!document.querySelector('.doc-view') && !document.getElementById('viewer').open",
        timeout=5000,
    )


def _score_json(key: Path, response: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    argv = ["score", str(key), str(response), "--format", "json", "--per-document"]
    assert main([*argv, "--bootstrap", str(RESAMPLES), "--seed", str(SEED)]) == 0
    return json.loads(capsys.readouterr().out)


def _expected_cells(score: Any) -> dict[str, str]:
    """Every number of a summary table, formatted as shown, from ``score --format json``."""
    out: dict[str, str] = {}
    intervals = score["bootstrap"]["metrics"]
    for metric, values in score["metrics"].items():
        fields = ("f1",) if metric == "conll" else ("recall", "precision", "f1")
        for field in fields:
            out[f"{metric}.{field}"] = pct(values[field])
            out[f"{metric}.{field}.low"] = pct(intervals[metric][field]["low"])
            out[f"{metric}.{field}.high"] = pct(intervals[metric][field]["high"])
    for metric, values in score["macro"].items():
        for field, short in (("recall", "r"), ("precision", "p"), ("f1", "f1")):
            if field in values:
                out[f"macro.{metric}.{short}"] = pct(values[field])
    return out


def test_report_in_chromium(page: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, sys1, sys2 = write_fixture(tmp_path)
    report = tmp_path / "report.html"
    argv = ["report", str(key), str(sys1), str(sys2), "-o", str(report)]
    assert main([*argv, "--bootstrap", str(RESAMPLES), "--seed", str(SEED)]) == 0
    _open(page, report)

    shown = page.eval_on_selector_all(
        "table.summary",
        """tables => Object.fromEntries(tables.map(t => [t.dataset.system,
            Object.fromEntries([...t.querySelectorAll('[data-key]')]
                .map(c => [c.dataset.key, c.textContent]))]))""",
    )
    for name, path in (("sys1", sys1), ("sys2", sys2)):
        expected = _expected_cells(_score_json(key, path, capsys))
        # 7 metrics x (R, P, F1, their 6 bounds, 3 macro values) + CoNLL (F1, 2 bounds, macro)
        assert len(expected) == 7 * 12 + 4
        assert shown[name] == expected

    # Keyboard: from the last sort button, Tab reaches the first document, Enter opens it.
    page.locator("th button.sort").last.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == ALPHA_ID
    page.keyboard.press("Enter")
    page.wait_for_selector("#viewer[open] .doc-view")
    assert page.locator(".doc-view").count() == 1

    key_text = page.locator('#viewer .text[aria-label^="key"]')
    missed = key_text.locator(".m.missed")
    assert missed.count() == 1
    assert "her" in missed.inner_text() and "mother" in missed.inner_text()
    # "her" (entity 2) nests inside the missed "her mother" (entity 4).
    assert missed.locator(".m").count() == 1
    normal = key_text.locator(".m:not(.missed)").first
    style = "e => { const s = getComputedStyle(e); return [s.outlineStyle, s.backgroundImage]; }"
    missed_style, normal_style = missed.evaluate(style), normal.evaluate(style)
    assert missed_style[0] == "solid" and normal_style[0] == "none"
    assert missed_style[1] != normal_style[1]
    spurious = page.locator('#viewer .text[aria-label^="response"] .m.spurious')
    assert spurious.count() == 1 and "mother" in spurious.inner_text()

    # Clicking "John" highlights key entity 1 and its aligned response entity: 2 + 2 mentions.
    key_text.locator(".m").first.click()
    assert page.locator("#viewer .text .m.hl").all_inner_texts() == ["John1]", "He1]"] * 2

    alignment = page.locator("#viewer svg.alignment-svg")
    assert alignment.locator("line.align-line").count() == 3
    assert alignment.locator("text.phi").all_text_contents() == ["φ 1.00", "φ 0.80", "φ 0.50"]
    assert "Split key entities (1)" in page.locator("#viewer").inner_text()

    shot = tmp_path / "document.png"
    page.screenshot(path=str(shot))
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000

    page.keyboard.press("Escape")
    _wait_closed(page)
    assert page.locator("#viewer[open]").count() == 0
    assert page.evaluate("document.activeElement.textContent") == ALPHA_ID

    # The other system: its alpha misses the same mention and has nothing spurious.
    page.select_option("#system", label="sys2")
    page.keyboard.press("Enter")
    page.wait_for_selector("#viewer[open] .doc-view")
    assert page.locator("#viewer .text .m.missed").count() == 1
    assert page.locator("#viewer .text .m.spurious").count() == 0
    assert "sys2" in page.locator("#viewer-title").inner_text()


def _generated_corpus(documents: int, seed: int) -> tuple[Any, Any]:
    """Random documents of 150-400 tokens; the response loses and moves some mentions."""
    rng = random.Random(seed)
    key: dict[str, list[list[tuple[int, int]]]] = {}
    response: dict[str, list[list[tuple[int, int]]]] = {}
    for d in range(documents):
        tokens = rng.randint(150, 400)
        starts = sorted(rng.sample(range(0, tokens - 3, 4), tokens // 12))
        spans = [(s, s + rng.choice((0, 0, 1, 2))) for s in starts]
        rng.shuffle(spans)
        entities = max(1, len(spans) // 3)
        key[f"doc{d:03d}"] = [spans[e::entities] for e in range(entities)]
        moved: list[list[tuple[int, int]]] = [[] for _ in range(entities + 5)]
        for e, entity in enumerate(key[f"doc{d:03d}"]):
            for span in entity:
                if rng.random() > 0.1:
                    moved[e if rng.random() < 0.8 else rng.randrange(len(moved))].append(span)
        response[f"doc{d:03d}"] = [m for m in moved if m]
    return corpus_from_mapping(key, side="key"), corpus_from_mapping(response, side="response")


def test_300_documents_render_lazily_and_sort(page: Any, tmp_path: Path) -> None:
    key, response = _generated_corpus(300, seed=1)
    report = tmp_path / "big.html"
    report.write_text(build_html_report(key, {"sys": response}, bootstrap=100, seed=1))
    _open(page, report)
    assert page.locator("#documents tbody tr").count() == 300
    assert page.locator(".doc-view").count() == 0

    page.locator("button.doc").nth(150).click()
    page.wait_for_selector("#viewer[open] .doc-view")
    page.click("#next")
    assert page.locator(".doc-view").count() == 1
    assert page.locator(".doc-view").get_attribute("data-doc") == "151"
    page.keyboard.press("Escape")
    _wait_closed(page)

    conll = [row[0] for row in embedded_data(report.read_text())["systems"][0]["per_document"]]
    ids = [f"doc{d:03d}" for d in range(300)]
    by_score = sorted(range(300), key=lambda d: (conll[d], d))
    header = page.locator('th button.sort[aria-label="sort by CoNLL (sys)"]')
    header.focus()
    page.keyboard.press("Enter")
    first = page.locator("#documents tbody tr").first
    assert first.locator("button.doc").inner_text() == ids[by_score[0]]
    assert header.locator("xpath=..").get_attribute("aria-sort") == "ascending"
    page.keyboard.press(" ")
    assert header.locator("xpath=..").get_attribute("aria-sort") == "descending"
    best = min(d for d in range(300) if conll[d] == max(conll))
    assert first.locator("button.doc").inner_text() == ids[best]


def test_errors_comparison_and_a_narrow_screen(browser: Any, tmp_path: Path) -> None:
    key, sys1, sys2 = write_fixture(tmp_path)
    report = tmp_path / "report.html"
    argv = ["report", str(key), str(sys1), str(sys2), "-o", str(report), "--trials", "200"]
    assert main([*argv, "--bootstrap", "50", "--seed", str(SEED)]) == 0
    data = embedded_data(report.read_text())
    context = browser.new_context(viewport={"width": 400, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _open(page, report)
    # Usable at 400 px: nothing wider than the screen (tables scroll in their own box).
    assert page.evaluate("document.documentElement.scrollWidth") <= 400

    counts = page.eval_on_selector_all(
        "#error-totals td[data-key]", "cells => cells.map(c => Number(c.textContent))"
    )
    systems = data["systems"]
    assert counts == [s["errors"]["counts"][k] for k in range(7) for s in systems]
    bars = page.locator("#error-chart rect[data-category]")
    assert bars.count() == 7 * len(systems)

    # A document of the per-document error table opens the viewer at its errors.
    page.locator("#error-documents button.doc").first.click()
    page.wait_for_selector("#viewer[open] #viewer-errors")
    items = page.locator("#viewer-errors li")
    assert items.count() == len(systems[0]["errors"]["items"][0])
    assert items.first.get_attribute("data-category") == "span_error"
    assert "“her mother” (tokens 8–9)" in items.first.inner_text()
    width = page.evaluate("[document.getElementById('viewer').scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    page.keyboard.press("Escape")
    _wait_closed(page)

    ranking = page.eval_on_selector_all(
        "#ranking tbody tr",
        "rows => rows.map(r => [r.cells[0].textContent, r.cells[1].textContent])",
    )
    assert ranking == [[str(s["rank"]), s["name"]] for s in data["comparison"]["systems"]]
    assert page.locator("#side-by-side tbody tr").count() == len(data["metrics"]) + 1

    # Without text: the same page, dots for the words.
    blind = tmp_path / "blind.html"
    assert main([*argv[:-2], "-o", str(blind), "--no-text", "--bootstrap", "0"]) == 0
    _open(page, blind)
    page.locator("#documents button.doc").first.click()
    page.wait_for_selector("#viewer[open] .doc-view")
    key_text = page.locator('#viewer .text[aria-label^="key"]').inner_text()
    assert "John" not in key_text and "·" in key_text
    context.close()
    assert errors == []
