"""The release metadata agrees with itself and with the package.

CITATION.cff, CHANGELOG.md and pyproject.toml are read as text (CITATION.cff
with a tiny hand parser, so no YAML library is needed), and each is checked
against ``corefscore.__version__`` and the project's URLs. Building the sdist
and the wheel, ``twine check`` and a test of the installed wheel outside the
source tree are in .ci/run; docs/releasing.md says how a release is cut.
"""

from __future__ import annotations

import fnmatch
import re
import sys
from typing import Any

import pytest

import corefscore

from .conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest itself depends on tomli before 3.11
    import tomli as tomllib

BASE_URL = "https://github.com/corefscore/corefscore"
DOCS_URL = "https://corefscore.readthedocs.io"
PACKAGE = REPO / "src" / "corefscore"


@pytest.fixture(scope="module")
def pyproject() -> dict[str, Any]:
    with (REPO / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def citation_fields() -> dict[str, str]:
    """The top-level ``key: value`` scalars of CITATION.cff (not the nested ones)."""
    fields = {}
    for line in (REPO / "CITATION.cff").read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([a-z][\w-]*):(?:\s+(.*))?$", line)
        if match:
            fields[match[1]] = _unquote(match[2] or "")
    return fields


def citation_versions() -> list[str]:
    """Every ``version:`` of CITATION.cff, at any depth (preferred-citation has one too)."""
    text = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    return [_unquote(v) for v in re.findall(r"^\s*version:\s*(.+?)\s*$", text, re.MULTILINE)]


def test_citation_version_is_the_package_version() -> None:
    versions = citation_versions()
    assert versions, "CITATION.cff has no version"
    assert set(versions) == {corefscore.__version__}, (
        f"CITATION.cff says {versions}, the package is {corefscore.__version__}"
    )


def test_citation_fields() -> None:
    fields = citation_fields()
    assert fields["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "abstract", "keywords", "preferred-citation"):
        assert key in fields, f"CITATION.cff has no {key}"
    assert fields["license"] == "MIT"
    assert fields["repository-code"] == BASE_URL
    text = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^  - name: "?corefscore developers"?$', text, re.MULTILINE)
    assert re.search(r"^preferred-citation:\n  type: software$", text, re.MULTILINE)
    assert "\t" not in text, "YAML forbids tabs for indentation"


def test_changelog_has_the_current_version() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    version = re.escape(corefscore.__version__)
    assert re.search(r"^## \[Unreleased\]$", text, re.MULTILINE), "no Unreleased section"
    heading = rf"^## \[{version}\] - (?:\d{{4}}-\d{{2}}-\d{{2}}|Unreleased)$"
    assert re.search(heading, text, re.MULTILINE), (
        f"CHANGELOG.md has no section '## [{corefscore.__version__}] - YYYY-MM-DD'"
    )
    assert re.search(rf"^\[{version}\]: {re.escape(BASE_URL)}/", text, re.MULTILINE), (
        f"CHANGELOG.md has no link reference for [{corefscore.__version__}]"
    )


def test_pyproject_urls(pyproject: dict[str, Any]) -> None:
    urls = pyproject["project"]["urls"]
    assert urls["Homepage"] == BASE_URL
    assert urls["Repository"] == BASE_URL
    assert urls["Documentation"] == DOCS_URL
    assert urls["Issues"] == f"{BASE_URL}/issues"
    assert urls["Changelog"].startswith(BASE_URL) and urls["Changelog"].endswith("CHANGELOG.md")


def test_pyproject_license(pyproject: dict[str, Any]) -> None:
    project = pyproject["project"]
    assert project["license"] == "MIT", "the licence is an SPDX expression (PEP 639)"
    assert project["license-files"] == ["LICENSE"]
    assert "MIT License" in (REPO / "LICENSE").read_text(encoding="utf-8")
    # setuptools>=77 refuses licence classifiers next to a licence expression.
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    requires = pyproject["build-system"]["requires"]
    assert "setuptools>=77" in requires, "license expressions need setuptools>=77"


def test_pyproject_classifiers(pyproject: dict[str, Any]) -> None:
    classifiers = pyproject["project"]["classifiers"]
    assert len(classifiers) == len(set(classifiers))
    minimum = re.fullmatch(r">=3\.(\d+)", pyproject["project"]["requires-python"])
    assert minimum, "requires-python is '>=3.N'"
    versions = [c.rpartition(":: ")[2] for c in classifiers if re.search(r"Python :: 3\.\d+$", c)]
    assert versions and versions[0] == f"3.{minimum[1]}", "classifiers start at requires-python"


def test_classifiers_are_trove_classifiers(pyproject: dict[str, Any]) -> None:
    """PyPI refuses an upload with an unknown classifier; the [test] extra has the list."""
    known = pytest.importorskip("trove_classifiers", reason="trove-classifiers is not installed")
    classifiers = pyproject["project"]["classifiers"]
    unknown = [c for c in classifiers if c not in known.classifiers]
    assert not unknown, f"not trove classifiers: {unknown}"


def test_package_data_is_declared(pyproject: dict[str, Any]) -> None:
    """py.typed and the report's templates, and every other non-Python file, go into the wheel."""
    patterns = pyproject["tool"]["setuptools"]["package-data"]["corefscore"]
    assert "py.typed" in patterns
    assert "report/templates/*" in patterns
    data = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    ]
    assert "py.typed" in data
    assert {"report/templates/report.html", "report/templates/report.css"} <= set(data)
    undeclared = [f for f in data if not any(fnmatch.fnmatch(f, p) for p in patterns)]
    assert not undeclared, f"files in src/corefscore not declared as package data: {undeclared}"


def test_sdist_manifest() -> None:
    lines = (REPO / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    includes = {w for line in lines if line.startswith("include ") for w in line.split()[1:]}
    assert {"CHANGELOG.md", "CITATION.cff", "LICENSE", "README.md"} <= includes
    assert "graft tests" in lines
    # bench/.corpora (generated corpora) and site/ (a built site) stay out.
    grafted = {line.split()[1] for line in lines if line.startswith("graft ")}
    assert not grafted & {".", "bench", "site"}


def test_ci_builds_and_checks_the_distributions() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("python -m build ") for line in ci)
    assert any(line.startswith("python -m twine check --strict ") for line in ci)
