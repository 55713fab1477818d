"""The light reading of command lines (corefscore.cli.light_parser) against argparse.

Whatever the light parser returns must be the namespace argparse returns for the
same line; everything else it must leave to argparse (``None``). The lines are
drawn from each command's own declaration, as a user would write them, and then
spoiled the ways users spoil them.
"""

from __future__ import annotations

import argparse
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefscore import cli
from corefscore.cli.light_parser import _Option, _Recorder, _Subparsers, parse_light
from corefscore.errors import UsageError

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def declaration(command: str) -> _Recorder | None:
    subparsers = _Subparsers(command)
    try:
        cli.COMMANDS[command].add_parser(subparsers)  # type: ignore[arg-type]
    except Exception:
        return None
    return subparsers.recorder


#: The commands whose declaration the light parser reads (the others always go
#: to argparse: sub-commands, nargs positionals, required option groups).
LIGHT = [name for name in cli.COMMANDS if declaration(name) is not None]


def comparable(values: dict[str, Any]) -> dict[str, Any]:
    # --ci nan is read the same way by both; NaN is not equal to itself.
    return {k: repr(v) if isinstance(v, float) else v for k, v in values.items()}


def argparse_reading(words: list[str]) -> dict[str, Any] | None:
    """argparse's namespace for ``words``, or None where it reports an error."""
    parser = cli.build_parser(words[0])
    try:
        return comparable(vars(parser.parse_args(words)))
    except (UsageError, SystemExit):
        return None


def light_reading(words: list[str]) -> dict[str, Any] | None:
    args = parse_light(cli.COMMANDS[words[0]], words)
    return None if args is None else comparable(vars(args))


def test_the_commands_of_a_small_run_are_read_lightly() -> None:
    assert {"score", "twins"} <= set(LIGHT)
    assert "analyze" not in LIGHT  # sub-commands: argparse's


def word() -> st.SearchStrategy[str]:
    return st.text(string.ascii_letters + string.digits + "._/", min_size=1, max_size=8)


def value_of(option: _Option) -> st.SearchStrategy[str]:
    if option.choices is not None:
        return st.sampled_from([str(c) for c in option.choices])
    if option.type is int:
        return st.integers(0, 10_000).map(str)
    if option.type is float:
        return st.floats(0, 100, allow_nan=False).map(repr)
    return word()


@st.composite
def plain_lines(draw: st.DrawFn, command: str) -> list[str]:
    """A command line of the command's positionals and plain options, in any order."""
    recorder = declaration(command)
    assert recorder is not None
    pieces: list[list[str]] = [[draw(word())] for _ in recorder.positionals]
    flags = [name for name, option in recorder.flags.items() if option.plain]
    for name in draw(st.lists(st.sampled_from(flags), max_size=6)):
        option = recorder.flags[name]
        if option.switch:
            pieces.append([name])
        elif name.startswith("--") and draw(st.booleans()):
            pieces.append([f"{name}={draw(value_of(option))}"])
        else:
            pieces.append([name, draw(value_of(option))])
    for option in recorder.options:
        names = [n for n, o in recorder.flags.items() if o is option]
        if option.required and not any(p[0].split("=")[0] in names for p in pieces):
            pieces.append([names[0], draw(value_of(option))])
    order = draw(st.permutations(range(len(pieces))))
    # The positionals keep their order among themselves.
    positional_slots = sorted(i for i in range(len(pieces)) if order[i] < len(recorder.positionals))
    arranged: list[list[str]] = [[] for _ in pieces]
    for slot, piece in zip(positional_slots, pieces[: len(recorder.positionals)]):
        arranged[slot] = piece
    rest = iter(pieces[len(recorder.positionals) :])
    for i in range(len(pieces)):
        if not arranged[i]:
            arranged[i] = next(rest)
    return [command, *(w for piece in arranged for w in piece)]


@pytest.mark.parametrize("command", LIGHT)
@SETTINGS
@given(data=st.data())
def test_a_plain_line_is_read_as_argparse_reads_it(command: str, data: st.DataObject) -> None:
    words = data.draw(plain_lines(command))
    expected = argparse_reading(words)
    got = light_reading(words)
    assert got is not None, words  # the light parser must take plain lines
    assert got == expected, words


SPOILERS = [
    "-h",
    "--help",
    "--",
    "-",
    "-5",
    "--no-such-option",
    "--form",  # an abbreviation of --format (score)
    "-qm",
    "-mmuc",
    "--quiet=1",
    "--digits=-1",
    "--digits",
    "--digits=two",
    "--format=nope",
    "--format",
    "--version",
    "extra.conll",
    "",
    "--key-format=",
    "--metric=",
    "--show-alignment",
    "--show-alignment=ceafm",
    "--ci=nan",
    "--seed=1_000",
    "-o",
    "--engine=python",
]


@pytest.mark.parametrize("command", LIGHT)
@SETTINGS
@given(data=st.data())
def test_a_spoiled_line_is_left_to_argparse_or_read_the_same(
    command: str, data: st.DataObject
) -> None:
    words = data.draw(plain_lines(command))
    for _ in range(data.draw(st.integers(1, 3))):
        spoiler = data.draw(st.sampled_from(SPOILERS))
        where = data.draw(st.integers(1, len(words)))
        words.insert(where, spoiler)
    if data.draw(st.booleans()) and len(words) > 1:
        del words[data.draw(st.integers(1, len(words) - 1))]
    got = light_reading(words)
    if got is not None:
        assert got == argparse_reading(words), words


@pytest.mark.parametrize(
    "words",
    [
        ["score", "k", "r", "-h"],
        ["score", "k"],
        ["score", "k", "r", "s"],
        ["score", "k", "r", "--format"],
        ["score", "k", "r", "--format", "--quiet"],
        ["score", "k", "r", "--format", "nope"],
        ["score", "k", "r", "--digits", "two"],
        ["score", "k", "r", "--form", "json"],
        ["score", "k", "r", "--quiet=yes"],
        ["score", "k", "r", "--ci", "-5"],
        ["score", "-", "r"],
        ["score", "k", "--", "r"],
        ["score", "k", "r", "--show-alignment"],
        ["score", "k", "r", "-qm", "muc"],
        ["convert", "in.conll"],  # --to is required
    ],
)
def test_what_argparse_must_read_is_left_to_it(words: list[str]) -> None:
    assert light_reading(words) is None


@pytest.mark.parametrize(
    "words",
    [
        ["score", "k", "r"],
        ["score", "--quiet", "k", "--format", "json", "r", "-m", "muc", "--metric=bcub"],
        ["score", "k", "r", "--digits=3", "--digits", "4", "--ci", "90", "--seed", "7"],
        ["score", "k", "r", "--doc", "a", "--doc", "b", "--engine", "columnar"],
        ["score", "k", "r", "--key-format", "conll", "--output-free"][:5],
        ["score", "", "r"],
        ["twins", "k", "r"],
    ],
)
def test_common_lines_are_read_lightly_and_the_same(words: list[str]) -> None:
    got = light_reading(words)
    assert got is not None
    assert got == argparse_reading(words)
    assert got["command"] == words[0]


def fake_command(declare: Any) -> Any:
    """A command named "x" whose options ``declare(parser)`` adds."""

    class Command:
        NAME = "x"

        @staticmethod
        def add_parser(subparsers: Any) -> None:
            declare(subparsers.add_parser("x"))

        @staticmethod
        def run(args: Any) -> int:
            return 0

    return Command()


@pytest.mark.parametrize(
    "declare",
    [
        lambda p: p.add_argument("--a", action=type("Custom", (argparse.Action,), {})),
        lambda p: p.add_argument("file", nargs="?"),
        lambda p: p.add_argument("file", "other"),
        lambda p: p.add_argument("file", default="x"),
        lambda p: (p.add_argument("--a"), p.add_argument("--a")),
        lambda p: p.add_argument("--a", "b"),
        lambda p: p.set_defaults(a=1),
        lambda p: p.add_subparsers(dest="kind"),
        lambda p: p.add_argument("files", nargs="+"),
        lambda p: p.add_mutually_exclusive_group().add_argument("--a", action="store_true"),
    ],
)
def test_a_declaration_the_recorder_cannot_stand_in_for_goes_to_argparse(declare: Any) -> None:
    assert parse_light(fake_command(declare), ["x"]) is None


def test_the_light_parser_reads_only_its_own_command() -> None:
    command = fake_command(lambda p: p.add_argument("file"))
    assert parse_light(command, ["y", "a"]) is None
    assert parse_light(command, []) is None
    assert vars(parse_light(command, ["x", "a"])) == {"command": "x", "file": "a"}

    class Silent:
        NAME = "x"

        @staticmethod
        def add_parser(subparsers: Any) -> None:
            pass  # declares no sub-parser

    assert parse_light(Silent(), ["x"]) is None  # type: ignore[arg-type]

    class Misnamed(Silent):
        @staticmethod
        def add_parser(subparsers: Any) -> None:
            subparsers.add_parser("y")

    assert parse_light(Misnamed(), ["x"]) is None  # type: ignore[arg-type]


def test_required_and_suppressed_options_as_argparse_reads_them() -> None:
    from corefscore.cli.full_parser import new_parser

    def declare(p: Any) -> None:
        p.add_argument("--to", required=True)
        p.add_argument("--hidden", default=argparse.SUPPRESS)

    command = fake_command(declare)
    parser = new_parser([command])
    assert parse_light(command, ["x"]) is None  # --to missing: argparse's error
    for words in (["x", "--to", "a"], ["x", "--to=a", "--hidden", "b"]):
        light = parse_light(command, words)
        assert light is not None
        assert vars(light) == vars(parser.parse_args(words)), words


def test_options_that_share_a_dest_read_as_argparse_reads_them() -> None:
    from corefscore.cli.full_parser import new_parser

    def declare(p: Any) -> None:
        p.add_argument("file")
        p.add_argument("--fast", dest="speed", action="store_const", const="fast")
        p.add_argument("--speed", default="slow", choices=("slow", "fast", "medium"))
        p.add_argument("--on", dest="switch", action="store_true")
        p.add_argument("--off", dest="switch", action="store_false")
        p.add_argument("--n", type=int, default="7")

    command = fake_command(declare)
    parser = new_parser([command])
    for words in (
        ["x", "a"],
        ["x", "a", "--speed", "medium"],
        ["x", "a", "--on"],
        ["x", "--off", "a"],
        ["x", "a", "--on", "--off"],
        ["x", "a", "--n=3"],
    ):
        light = parse_light(command, words)
        assert light is not None, words
        assert vars(light) == vars(parser.parse_args(words)), words
    # --fast (store_const) is argparse's to read.
    assert parse_light(command, ["x", "a", "--fast"]) is None


def test_the_command_runs_the_same_either_way(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "examples"
    key, response = str(examples / "key.conll"), str(examples / "response.conll")
    assert cli.main(["score", key, response, "--format", "json"]) == 0
    light = capsys.readouterr().out
    # An abbreviation (--form) is argparse's to read; the numbers are the same.
    assert cli.main(["score", key, response, "--form", "json"]) == 0
    assert capsys.readouterr().out == light
