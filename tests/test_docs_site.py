"""The documentation site (mkdocs.yml and docs/) stays whole.

Every page under docs/ is in the nav (no orphan), every nav entry is a page,
and every module or object the API pages render (``::: name`` and its
``members:``) exists. These checks read mkdocs.yml without a YAML library, so
they run without mkdocs installed; only the cross-check against a real YAML
parse needs PyYAML (which comes with mkdocs, the ``docs`` extra).
``python -m mkdocs build --strict`` (in .ci/run) checks the rest: links,
anchors and rendering.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from typing import Any

import pytest

from .conftest import REPO

DOCS = REPO / "docs"
CONFIG = REPO / "mkdocs.yml"
NAV_PAGE = re.compile(r"^\s*-\s+(?:[^:\n]+:\s+)?(?P<page>[\w./-]+\.md)\s*$")
DIRECTIVE = re.compile(r"^:::\s+(?P<name>[\w.]+)\s*$")


def _nav_lines() -> list[str]:
    """The lines of the top-level ``nav:`` block of mkdocs.yml."""
    lines = CONFIG.read_text(encoding="utf-8").splitlines()
    start = lines.index("nav:") + 1
    block = []
    for line in lines[start:]:
        if line and not line[0].isspace() and not line.startswith("#"):
            break  # the next top-level key
        block.append(line)
    return block


def nav_pages() -> list[str]:
    """The pages of the nav, in order, as paths relative to docs/ (no YAML parser)."""
    return [m["page"] for line in _nav_lines() if (m := NAV_PAGE.match(line))]


def docs_pages() -> list[str]:
    return sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


def test_every_docs_page_is_in_the_nav() -> None:
    nav = nav_pages()
    assert nav, "no page found in the nav of mkdocs.yml"
    orphans = sorted(set(docs_pages()) - set(nav))
    assert not orphans, f"pages missing from the nav of mkdocs.yml: {orphans}"


def test_every_nav_entry_is_a_page_once() -> None:
    nav = nav_pages()
    missing = [page for page in nav if not (DOCS / page).is_file()]
    assert not missing, f"nav entries without a page under docs/: {missing}"
    repeated = sorted({page for page in nav if nav.count(page) > 1})
    assert not repeated, f"pages listed twice in the nav: {repeated}"
    assert nav[0] == "index.md", "the landing page docs/index.md comes first in the nav"


def api_objects() -> list[tuple[str, str, list[str]]]:
    """(page, rendered name, explicitly listed members) of every ``:::`` directive."""
    found = []
    for page in sorted((DOCS / "api").glob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            match = DIRECTIVE.match(line)
            if not match:
                continue
            members: list[str] = []
            in_members = False
            for option in lines[i + 1 :]:
                if option and not option[0].isspace():
                    break  # the directive's indented options end here
                stripped = option.strip()
                if stripped == "members:":
                    in_members = True
                elif in_members and stripped.startswith("- "):
                    members.append(stripped[2:].strip())
                elif stripped:
                    in_members = False
            found.append((page.name, match["name"], members))
    return found


def _resolve(name: str) -> Any:
    """The module ``name``, or the attribute ``name`` of its parent module."""
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        # find_spec raises, rather than returning None, for a name under a
        # module that is no package: an object such as corefscore.model.Entity.
        spec = None
    if spec is not None:
        return importlib.import_module(name)
    parent, _, attribute = name.rpartition(".")
    if not parent or importlib.util.find_spec(parent) is None:
        raise LookupError(f"no module {name!r}")
    module = importlib.import_module(parent)
    if not hasattr(module, attribute):
        raise LookupError(f"module {parent!r} has no attribute {attribute!r}")
    return getattr(module, attribute)


def test_every_api_module_exists() -> None:
    objects = api_objects()
    assert objects, "no ::: directive in docs/api/*.md"
    problems = []
    for page, name, members in objects:
        try:
            target = _resolve(name)
        except (LookupError, ImportError) as error:
            problems.append(f"docs/api/{page}: ::: {name}: {error}")
            continue
        problems += [
            f"docs/api/{page}: ::: {name}: no member {member!r}"
            for member in members
            if not hasattr(target, member)
        ]
    assert not problems, "\n".join(problems)


def test_every_api_page_renders_something() -> None:
    pages = {page for page, _, _ in api_objects()}
    empty = sorted(p.name for p in (DOCS / "api").glob("*.md") if p.name not in pages)
    assert not empty, f"API pages without a ::: directive: {empty}"


def _yaml_nav_pages(nav: Any) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _yaml_nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _yaml_nav_pages(value)]
    raise AssertionError(f"unexpected nav entry {nav!r}")


def test_nav_agrees_with_a_yaml_parse() -> None:
    yaml = pytest.importorskip(
        "yaml", reason="PyYAML is not installed (it comes with mkdocs: pip install -e '.[docs]')"
    )
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert config["site_name"] == "corefscore"
    assert config.get("docs_dir", "docs") == "docs"
    assert _yaml_nav_pages(config["nav"]) == nav_pages()


def test_readme_links_resolve() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", readme)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert local, "the README links to no documentation page"
    missing = [t for t in local if not (REPO / t).exists()]
    assert not missing, f"README links to missing files: {missing}"


def test_ci_builds_the_site_strictly() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^python -m mkdocs build --strict\b", ci, re.MULTILINE)


def test_the_api_pages_show_records_as_dataclasses() -> None:
    # docs/griffe_records.py gives griffe (which reads the source, not the
    # objects) what it gives a dataclass: the label and the fields as __init__.
    griffe = pytest.importorskip("griffe", reason="griffelib comes with the test and docs extras")
    import dataclasses

    from .test_record import corefscore_records

    spec = importlib.util.spec_from_file_location("griffe_records", DOCS / "griffe_records.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    extensions = griffe.load_extensions(module.RecordsExtension())
    package = griffe.load("corefscore", search_paths=[REPO / "src"], extensions=extensions)
    records = corefscore_records()
    assert records
    for cls in records:
        shown = package[cls.__module__.removeprefix("corefscore.") + "." + cls.__qualname__]
        assert "dataclass" in shown.labels, cls
        parameters = [p.name for p in shown.members["__init__"].parameters][1:]
        assert parameters == [f.name for f in dataclasses.fields(cls) if f.init], cls
