"""The HTML report's page, style sheet and script: package data, filled in without leftovers."""

from __future__ import annotations

import fnmatch
import html
import re
import string
from importlib import resources
from pathlib import Path

import pytest

from corefscore.io import read_corpus
from corefscore.report.html import _template, build_html_report
from tests.report.test_html import write_fixture

# Listed here, not taken from the module, so that a file gone missing is noticed.
TEMPLATES = ("report.html", "report.css", "report.js")
PLACEHOLDERS = {
    "title",
    "version",
    "count",
    "systems",
    "key",
    "signatures",
    "ci_note",
    "warnings",
    "summary",
    "comparison",
    "errors",
    "text_note",
    "options",
    "metric_options",
    "css",
    "js",
    "data",
}
PACKAGE = Path(__file__).resolve().parents[2] / "src" / "corefscore"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    key_path, sys1, sys2 = write_fixture(tmp_path_factory.mktemp("templates"))
    key = read_corpus(key_path, syntax=True)
    responses = {
        "sys1": read_corpus(sys1, side="response"),
        "sys2": read_corpus(sys2, side="response"),
    }
    return build_html_report(key, responses, bootstrap=20, seed=1)


@pytest.mark.parametrize("name", TEMPLATES)
def test_every_template_is_package_data(name: str) -> None:
    resource = resources.files("corefscore.report").joinpath("templates").joinpath(name)
    assert resource.is_file(), f"{name} is missing from corefscore/report/templates"
    assert resource.read_text(encoding="utf-8").strip()
    # The editors' comment at the top is dropped, and the rest is there.
    text = _template(name)
    assert text.strip() and not text.startswith(("<!--", "/*"))


def test_package_data_lists_every_template() -> None:
    tomllib = pytest.importorskip("tomllib")
    with open(PACKAGE.parents[1] / "pyproject.toml", "rb") as file:
        globs = tomllib.load(file)["tool"]["setuptools"]["package-data"]["corefscore"]
    files = sorted((PACKAGE / "report" / "templates").iterdir())
    assert {path.name for path in files} >= set(TEMPLATES)
    for path in files:
        relative = path.relative_to(PACKAGE).as_posix()
        assert any(fnmatch.fnmatch(relative, glob) for glob in globs), relative


def test_page_placeholders() -> None:
    found = set()
    for match in string.Template.pattern.finditer(_template("report.html")):
        assert match.group("invalid") is None, "a stray $ in report.html (write $$)"
        found.add(match.group("named") or match.group("braced"))
    found.discard(None)  # $$
    assert found == PLACEHOLDERS


def test_style_and_script_cannot_end_early() -> None:
    for name, tag in (("report.css", "</style"), ("report.js", "</script")):
        text = _template(name).lower()
        assert tag not in text and "<!--" not in text, name


def test_no_placeholder_is_left(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>\n")
    assert "corefscore's HTML report" not in page  # the editors' comments are dropped
    for name in PLACEHOLDERS:
        assert f"${name}" not in page and f"${{{name}" not in page, name
    # What comes from report.html itself has no "$" left at all.
    outside = re.sub(r"<(style|script)\b[^>]*>.*?</\1>", "", page, flags=re.S)
    assert "$" not in outside and "{" not in outside
    assert page.count(_template("report.css")) == 1
    assert page.count(_template("report.js")) == 1


def test_values_are_inserted_once(tmp_path: Path) -> None:
    key_path, sys1, _ = write_fixture(tmp_path)
    title = "$css ${data} $$ {js} $"
    page = build_html_report(
        read_corpus(key_path, syntax=True),
        {"$js": read_corpus(sys1, side="response")},
        bootstrap=0,
        title=title,
    )
    assert f"<title>{html.escape(title)}</title>" in page
    assert page.count(_template("report.css")) == 1
    assert page.count(_template("report.js")) == 1
