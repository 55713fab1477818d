"""No input can make corefscore run code, or touch files it was not named.

Two checks. A scan of the source (its syntax trees) proves that the package
has no way to turn data into code: no ``eval``/``exec``/``compile``, no
pickle, marshal, shelve or YAML loader, no subprocess or shell. And runs of
the command line under an audit hook (PEP 578) prove that scoring, converting
and writing ``-o`` output open only the files named on the command line (the
inputs for reading, the outputs for writing), delete nothing and start
nothing, even when the inputs name other files (``../../etc/passwd``,
``#include``-like lines, external entities, ``$ref``).
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import corefscore
from corefscore.cli import main

SOURCE = Path(corefscore.__file__).parent

# Modules whose use would let data become code or a process.
FORBIDDEN_MODULES = frozenset(
    {
        "pickle",
        "_pickle",
        "cPickle",
        "dill",
        "cloudpickle",
        "marshal",
        "shelve",
        "yaml",
        "ruamel",
        "subprocess",
        "pty",
        "ctypes",
        "code",
        "codeop",
        "runpy",
        "webbrowser",
    }
)
FORBIDDEN_BUILTINS = frozenset({"eval", "exec", "compile", "__import__", "breakpoint"})
# os functions that run a program or replace the process.
FORBIDDEN_OS = frozenset(
    {"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "startfile"}
)
FORBIDDEN_OS_PREFIXES = ("exec", "spawn")
# importlib may only appear in the lazy attribute loader, whose module names come
# from the literal tables its callers give it (checked below).
IMPORTLIB_ALLOWED = {SOURCE / "_lazy.py"}
# ``from importlib import resources`` (and nothing else of importlib) may appear
# where package data is read, as long as each package named is a literal
# (checked below): resources.files imports the package it is given.
RESOURCES_ALLOWED = {SOURCE / "report" / "html.py"}
# ctypes may appear where the command tunes glibc's allocator, and only as
# ``ctypes.CDLL(None).mallopt`` (checked below): no library is loaded by name.
CTYPES_ALLOWED = {SOURCE / "cli" / "__init__.py"}


def _python_files() -> list[Path]:
    files = sorted(SOURCE.rglob("*.py"))
    assert len(files) > 20, "the package source was not found"
    return files


def _imports_only_resources(node: ast.ImportFrom) -> bool:
    return node.module == "importlib" and [(a.name, a.asname) for a in node.names] == [
        ("resources", None)
    ]


def _problems(path: Path, base: Path = SOURCE) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        where = f"{path.relative_to(base)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root in FORBIDDEN_MODULES and not (
                    alias.name == "ctypes" and alias.asname is None and path in CTYPES_ALLOWED
                ):
                    yield f"{where}: import {alias.name}"
                if root == "importlib" and path not in IMPORTLIB_ALLOWED:
                    yield f"{where}: import importlib"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            root = node.module.split(".")[0]
            if root in FORBIDDEN_MODULES or (
                root == "importlib"
                and path not in IMPORTLIB_ALLOWED
                and not (path in RESOURCES_ALLOWED and _imports_only_resources(node))
            ):
                yield f"{where}: from {node.module} import ..."
            if root == "os":
                for alias in node.names:
                    if alias.name in FORBIDDEN_OS or alias.name.startswith(FORBIDDEN_OS_PREFIXES):
                        yield f"{where}: from os import {alias.name}"
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_BUILTINS:
                yield f"{where}: call to {func.id}()"
            if isinstance(func, ast.Attribute):
                owner = func.value.id if isinstance(func.value, ast.Name) else None
                if owner == "os" and (
                    func.attr in FORBIDDEN_OS or func.attr.startswith(FORBIDDEN_OS_PREFIXES)
                ):
                    yield f"{where}: os.{func.attr}()"
                if owner == "builtins" and func.attr in FORBIDDEN_BUILTINS:
                    yield f"{where}: builtins.{func.attr}()"
                # numpy's loader unpickles only when asked to.
                for keyword in node.keywords:
                    if keyword.arg == "allow_pickle" and not (
                        isinstance(keyword.value, ast.Constant) and keyword.value.value is False
                    ):
                        yield f"{where}: {func.attr}(allow_pickle=...)"
        elif isinstance(node, ast.Name) and node.id in ("eval", "exec", "__import__"):
            # Also catches the builtins passed around as values (f = eval).
            yield f"{where}: reference to {node.id}"


def test_the_source_has_no_way_to_run_data_as_code() -> None:
    problems = [p for path in _python_files() for p in _problems(path)]
    assert problems == []


def test_the_scan_catches_what_it_forbids(tmp_path: Path) -> None:
    # The scan must be able to fail: every forbidden form is reported.
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import pickle\nimport subprocess as sp\nfrom yaml import load\nfrom os import system\n"
        "import os\nos.execvp('x', [])\neval('1')\nexec('x=1')\ncompile('1', 'f', 'eval')\n"
        "__import__('os')\nnp.load('f', allow_pickle=True)\nf = eval\nimport importlib\n"
        "from importlib import resources\n",
        encoding="utf-8",
    )
    lines = {int(problem.split(":")[1]) for problem in _problems(bad, base=tmp_path)}
    assert lines == set(range(1, 15)) - {5}  # all but the plain "import os"


def test_ctypes_only_reaches_mallopt_of_the_running_process() -> None:
    for path in CTYPES_ALLOWED:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        uses = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "ctypes"
        ]
        assert uses, f"{path}: no ctypes use left; drop it from CTYPES_ALLOWED"
        parents = {
            id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
        }
        for use in uses:
            call = parents[id(use)]
            assert use.attr == "CDLL" and isinstance(call, ast.Call), ast.unparse(use)
            assert [ast.unparse(a) for a in call.args] == ["None"] and not call.keywords
            outer = parents[id(call)]
            assert isinstance(outer, ast.Attribute) and outer.attr == "mallopt", ast.unparse(outer)


def test_package_data_is_read_only_from_literal_package_names() -> None:
    for path in RESOURCES_ALLOWED:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            id(node.func): node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        }
        uses = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "resources"
        ]
        assert uses, f"{path} reads no package data: take it out of RESOURCES_ALLOWED"
        names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "resources"]
        assert len(names) == len(uses), f"{path} passes resources around as a value"
        for use in uses:
            call = calls.get(id(use))
            assert use.attr == "files" and call is not None, f"{path}:{use.lineno}"
            args = [*call.args, *(k.value for k in call.keywords)]
            assert len(args) == 1 and isinstance(args[0], ast.Constant), f"{path}:{use.lineno}"
            assert str(args[0].value).startswith("corefscore"), f"{path}:{use.lineno}"


def _lazy_sources(path: Path, tree: ast.Module, call: ast.Call) -> list[str]:
    """The module names a ``lazy_attributes`` call may import, all literals."""
    table = call.args[1]
    where = f"{path.relative_to(SOURCE)}:{call.lineno}"
    if isinstance(table, ast.Dict):
        return [ast.literal_eval(v) for v in table.values]
    if isinstance(table, ast.Call) and ast.unparse(table.func) == "dict.fromkeys":
        return [ast.literal_eval(table.args[1])]
    # The package's table: names from the literal _EXPORTS, each module made ".{m}".
    assert path == SOURCE / "__init__.py" and isinstance(table, ast.DictComp), where
    assert ast.unparse(table.generators[0].iter) == "_EXPORTS.items()", where
    assert ast.unparse(table.value) == "f'.{module}'", where
    tables = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in node.targets)
    ]
    assert len(tables) == 1 and isinstance(tables[0], ast.Dict), where
    return [f".{ast.literal_eval(v)}" for v in tables[0].values]


def test_lazy_loader_imports_only_modules_named_in_its_literal_table() -> None:
    seen = 0
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "lazy_attributes"
            ):
                continue
            seen += 1
            # Relative to the caller's package, every name is a module of ours.
            package = path.parent
            for module in _lazy_sources(path, tree, node):
                assert module.startswith(".") and not module.startswith(".."), module
                target = package / module[1:].replace(".", "/")
                assert target.with_suffix(".py").exists() or target.is_dir(), (path, module)
    assert seen >= 4
    with pytest.raises(AttributeError):
        corefscore.__getattr__("os")  # a name outside the table imports nothing


# Audit events: file opens, file-system changes, and anything that runs code
# or a process. "exec" is raised for every module import too, so each run is
# done once unrecorded first (every lazy import happens then).
WATCHED = frozenset(
    {
        "open",
        "os.remove",
        "os.unlink",
        "os.rmdir",
        "os.rename",
        "os.mkdir",
        "os.chmod",
        "os.symlink",
        "os.link",
        "os.truncate",
        "os.listdir",
        "os.scandir",
        "shutil.rmtree",
        "shutil.copyfile",
        "shutil.move",
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.startfile",
        "exec",
        "compile",
        "pickle.find_class",
        "marshal.loads",
        "marshal.load",
        "ctypes.dlopen",
        "socket.connect",
        "urllib.Request",
        "webbrowser.open",
    }
)


class _Recorder:
    events: list[tuple[str, tuple[Any, ...]]] | None = None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _Recorder.events is not None and event in WATCHED:
        _Recorder.events.append((event, args))


_installed = False


@contextlib.contextmanager
def recorded() -> Iterator[list[tuple[str, tuple[Any, ...]]]]:
    """The watched audit events raised inside the block."""
    global _installed
    if not _installed:
        # An audit hook cannot be removed: it is installed once, and records
        # only inside this block.
        sys.addaudithook(_audit)
        _installed = True
    events: list[tuple[str, tuple[Any, ...]]] = []
    _Recorder.events = events
    try:
        yield events
    finally:
        _Recorder.events = None


def _run(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, err.getvalue()


def _opens(events: list[tuple[str, tuple[Any, ...]]]) -> tuple[set[str], set[str], list[Any]]:
    """Files opened for reading, files opened for writing, and every other event."""
    reads: set[str] = set()
    writes: set[str] = set()
    others: list[Any] = []
    for event, args in events:
        if event != "open":
            others.append((event, args))
            continue
        target, mode, flags = args
        if isinstance(target, int):
            others.append((event, args))  # reopening a descriptor: not expected
            continue
        name = os.path.realpath(os.fsdecode(target))
        writing = (mode is not None and any(c in mode for c in "wax+")) or (
            mode is None and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC)
        )
        (writes if writing else reads).add(name)
    return reads, writes, others


# Inputs that mention other files in every way a format could be tricked into
# following: a document id, an include line, a comment, a SYSTEM entity, a
# $ref, a file: URL.
HOSTILE_CONLL = (
    "#include /etc/passwd\n"
    "#begin document ../../etc/passwd\n"
    "#include ../../../etc/shadow\n"
    "../../etc/passwd\t0\t0\tfile:///etc/hosts\tNN\t(1)\n"
    "../../etc/passwd\t0\t1\t$(cat /etc/passwd)\tNN\t-\n"
    "../../etc/passwd\t0\t2\t`id`\tNN\t(1)\n"
    "#end document\n"
)
HOSTILE_CONLLU = (
    "# newdoc id = ../../etc/passwd\n"
    "# global.Entity = eid-etype-head-other\n"
    "# include = /etc/passwd\n"
    "# sent_id = /etc/hosts\n"
    "1\t/etc/passwd\t_\tX\t_\t_\t0\troot\t_\tEntity=(e1-file:///etc/passwd-1)\n"
    "2\t$(id)\t_\tX\t_\t_\t1\tdep\t_\t_\n"
    "3\t../x\t_\tX\t_\t_\t1\tdep\t_\tEntity=(e1-x-1)\n"
    "\n"
)
HOSTILE_JSONL = (
    '{"doc_key": "../../etc/passwd", "sentences": [["/etc/passwd", "x", "y"]], '
    '"$ref": "file:///etc/passwd", "include": "/etc/shadow", '
    '"clusters": [[[0, 0], [2, 2]]], "predicted_clusters": [[[0, 0], [2, 2]]]}\n'
)
HOSTILE_JSON = (
    '{"../../etc/passwd": [{"mentions": [[0, 0], [2, 2]], "id": "/etc/shadow",'
    ' "type": "file:///etc/hosts"}]}\n'
)
HOSTILE_SGML = (
    '<!DOCTYPE muc SYSTEM "/etc/passwd">\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n'
    '<?xml-stylesheet href="/etc/hosts"?>\n'
    "<DOC><DOCNO>../../etc/passwd</DOCNO><TEXT>\n"
    '<COREF ID="1" MIN="here">&xxe; here /etc/passwd</COREF> and '
    '<COREF ID="2" REF="1">it</COREF> <include src="/etc/shadow"/>\n'
    "</TEXT></DOC>\n"
)
HOSTILE = {
    "conll": HOSTILE_CONLL,
    "conllu": HOSTILE_CONLLU,
    "jsonl": HOSTILE_JSONL,
    "json": HOSTILE_JSON,
    "sgml": HOSTILE_SGML,
}


def _check_only_named_files(
    args: list[str], reads: set[Path], writes: set[Path], *, expect_exit: int = 0
) -> None:
    code, err = _run(args)  # warm-up: lazy imports happen here, unrecorded
    assert code == expect_exit, err
    for path in writes:
        path.unlink(missing_ok=True)
    with recorded() as events:
        code, err = _run(args)
    assert code == expect_exit, err
    read, written, others = _opens(events)
    assert read == {os.path.realpath(p) for p in reads}, read
    assert written == {os.path.realpath(p) for p in writes}, written
    assert others == []


@pytest.mark.parametrize("fmt", sorted(HOSTILE))
def test_scoring_hostile_files_opens_only_the_two_inputs(tmp_path: Path, fmt: str) -> None:
    key = tmp_path / f"key.{fmt}"
    response = tmp_path / f"response.{fmt}"
    key.write_text(HOSTILE[fmt], encoding="utf-8")
    response.write_text(HOSTILE[fmt], encoding="utf-8")
    _check_only_named_files(["score", str(key), str(response), "-q"], {key, response}, set())
    _check_only_named_files(
        ["twins", str(key), str(response), "--format", "json"], {key, response}, set()
    )


@pytest.mark.parametrize("fmt", sorted(HOSTILE))
@pytest.mark.parametrize("to", ["conll", "conllu", "jsonl", "json"])
def test_converting_writes_only_the_named_target(tmp_path: Path, fmt: str, to: str) -> None:
    source = tmp_path / f"in.{fmt}"
    source.write_text(HOSTILE[fmt], encoding="utf-8")
    target = tmp_path / "out" / f"converted.{to}.gz"
    target.parent.mkdir()
    _check_only_named_files(
        ["convert", str(source), str(target), "--to", to, "--lossy", "-q"], {source}, {target}
    )
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(["in." + fmt, "out", target.name])


def test_dash_o_output_is_the_only_file_written(tmp_path: Path) -> None:
    key = tmp_path / "key.conll"
    systems = [tmp_path / "a.conll", tmp_path / "b.conll"]
    key.write_text(HOSTILE_CONLL, encoding="utf-8")
    for system in systems:
        system.write_text(HOSTILE_CONLL, encoding="utf-8")
    output = tmp_path / "ranking.json"
    args = ["compare", str(key), *map(str, systems), "--trials", "20", "--seed", "1"]
    _check_only_named_files(
        [*args, "--format", "json", "-o", str(output), "-q"], {key, *systems}, {output}
    )
    assert output.read_text(encoding="utf-8").lstrip().startswith("{")


def test_a_failing_run_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "broken.conll"
    source.write_text("#begin document d\nd 0 0 x (1\n#end document\n", encoding="utf-8")
    target = tmp_path / "never.json"
    _check_only_named_files(
        ["convert", str(source), str(target), "--to", "json"], {source}, set(), expect_exit=1
    )
    assert not target.exists()


def test_the_audit_recorder_sees_opens_and_processes(tmp_path: Path) -> None:
    # The hook must be able to fail the tests above: it records what they forbid.
    import subprocess  # only this check needs it

    with recorded() as events:
        (tmp_path / "x").write_text("x", encoding="utf-8")
        (tmp_path / "x").read_text(encoding="utf-8")
        os.remove(tmp_path / "x")
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    reads, writes, others = _opens(events)
    assert reads == writes == {os.path.realpath(tmp_path / "x")}
    assert {event for event, _ in others} >= {"os.remove", "subprocess.Popen"}
