"""The option groups that several commands share, and what the commands turn
their options into.

Every command is a module of this package with a ``NAME``, an
``add_parser(subparsers)`` that adds its sub-parser and a ``run(args)`` that
returns the exit code. :func:`.full_parser.new_parser` assembles argparse's
parser from them; :func:`.light_parser.parse_light` reads the common command
lines by the same declarations, without argparse. Nothing here imports
argparse.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import UsageError

if TYPE_CHECKING:
    import argparse
    from typing import Protocol

    from ..evaluation import Evaluation
    from .full_parser import Parser

# Kept here, not imported, so that --help and --version load no numpy.
POLICIES = ("reference", "first", "strict")
METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
MATCHINGS = ("exact", "head", "min-span", "overlap", "partial")
COMPATS = ("auto", "conll", "corefud", "ua")
#: --preset: the official settings of the CRAC shared tasks (corefud-scorer).
PRESETS: dict[str, dict[str, str]] = {
    "crac22": {"compat": "corefud", "match": "partial", "singletons": "drop", "zeros": "linear"},
    "crac23": {"compat": "corefud", "match": "head", "singletons": "drop", "zeros": "linear"},
    "crac24": {"compat": "corefud", "match": "head", "singletons": "drop", "zeros": "dependent"},
}
PRESETS["crac"] = PRESETS["crac24"]
FORMATS = ("conll", "conllu", "jsonl", "json", "sgml", "mentions", "ua")
CONVERT_TARGETS = ("conll", "conllu", "jsonl", "json", "ua")
CEAF_FAMILY = ("ceafe", "ceafm", "ceaf-phi1", "ceaf-phi2")

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"


if TYPE_CHECKING:
    # For type checkers only: a Protocol class costs about as much to create as
    # a small module does to import, at every start-up.
    class Command(Protocol):
        """A command module: its name, its sub-parser, its body."""

        NAME: str

        def add_parser(self, subparsers: Subparsers) -> None: ...

        def run(self, args: argparse.Namespace) -> int: ...


def add_pair_options(p: argparse.ArgumentParser, *, responses: bool = False) -> None:
    """Options shared by every command that reads a key and a response (or several)."""
    p.add_argument("key", metavar="KEY", help="gold (key) file")
    if responses:
        p.add_argument("responses", metavar="RESPONSE", nargs="+", help="system (response) files")
    else:
        p.add_argument("response", metavar="RESPONSE", help="system (response) file")
    for side in ("key", "response"):
        p.add_argument(
            f"--{side}-format",
            choices=FORMATS,
            help=f"format of the {side} file (default: detected from its content and name)",
        )
    p.add_argument(
        "--empty-nodes",
        action="store_true",
        help="CoNLL-U: count empty nodes (zeros) as tokens, so mentions on them are scored",
    )
    p.add_argument(
        "--duplicates",
        choices=POLICIES,
        help="repeated spans: reference = the reference scorer's own handling, its numbers "
        "(default; cross-document: first); first = keep the first copy on both sides; "
        "strict = keep the first in the response, a repeated key span is an error",
    )
    add_compat_options(p)
    p.add_argument(
        "--match",
        choices=MATCHINGS,
        help="how a response mention is paired with a key mention (its twin): exact span "
        "(default; corefud: head), same syntactic head, MUC-style MIN span, token overlap, "
        "or (corefud) partial; one-to-one",
    )
    p.add_argument(
        "--head-column",
        type=int,
        metavar="N",
        help="for --match head: read dependency heads from field N (0-based; token numbers "
        "within the sentence from 1, 0 = root); default: a SemEval-2010 HEAD column or the "
        "CoNLL-2012 parse column",
    )
    p.add_argument(
        "--singletons",
        choices=("keep", "drop"),
        help="keep or drop one-mention entities, on both sides (default: keep; corefud: drop)",
    )
    p.add_argument("--key-singletons", choices=("keep", "drop"), help="override for the key")
    p.add_argument(
        "--response-singletons", choices=("keep", "drop"), help="override for the response"
    )
    p.add_argument(
        "--remove-nested", action="store_true", help="keep only maximal spans on each side"
    )
    add_anaphora_options(p)
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")


def add_anaphora_options(p: argparse.ArgumentParser) -> None:
    """Universal Anaphora: split antecedents, non-referring markables, bridging, deixis."""
    group = p.add_argument_group("Universal Anaphora (docs/metrics.md)")
    group.add_argument(
        "--split-antecedents",
        choices=("keep", "drop", "only"),
        help="plural mentions with split antecedents: keep = score them (default, as the UA "
        "scorer), drop = leave them out, only = score just their alignment",
    )
    group.add_argument(
        "--split-importance",
        type=float,
        metavar="W",
        help="LEA: weight of an entity with a split antecedent, times its size (default 1)",
    )
    group.add_argument(
        "--non-referring",
        action="store_true",
        help="also score the identification of non-referring markables (metric non-referring)",
    )
    group.add_argument(
        "--bridging",
        action="store_true",
        help="also score bridging: anaphor recognition, and full bridging at markable and "
        "entity level (metrics bridging-anaphors, bridging-markables, bridging-entities)",
    )
    group.add_argument(
        "--discourse-deixis",
        action="store_true",
        help="UA files: score the discourse deixis layer (its DISCOURSE_DEIXIS column) instead "
        "of identity coreference",
    )
    group.add_argument(
        "--min",
        action="store_true",
        help="match mentions by their MIN spans (UA Min attributes, MUC MIN): the same as "
        "--match min-span",
    )


def add_compat_options(p: argparse.ArgumentParser) -> None:
    """--compat, --preset and --zeros: whose evaluation is reproduced."""
    p.add_argument(
        "--compat",
        choices=COMPATS,
        default="auto",
        help="whose numbers: conll = the CoNLL reference scorer v8.01; corefud = "
        "corefud-scorer v1.2 of the CRAC shared tasks; ua = the Universal Anaphora scorer "
        "(LREC 2022), quirks included; auto (default): corefud for two CoNLL-U files, else conll",
    )
    p.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        help="an official setting: crac (= crac24: head match, singletons dropped, zeros "
        "paired by dependencies), crac23 (head, linear zeros), crac22 (partial, linear zeros)",
    )
    p.add_argument(
        "--zeros",
        choices=("dependent", "linear"),
        help="corefud: pair zero mentions by their enhanced dependencies first (dependent, "
        "default) or as words like other mentions (linear)",
    )


def add_bootstrap_options(p: argparse.ArgumentParser, default: int | None, help: str) -> None:
    p.add_argument("--bootstrap", type=int, default=default, metavar="N", help=help)
    p.add_argument(
        "--ci", type=float, default=95.0, metavar="LEVEL", help="interval level in %% (95)"
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="random seed of the resampling (default 0: the same intervals every run)",
    )


def add_number_options(p: argparse.ArgumentParser) -> None:
    """--digits and --round: how printed percentages look (full precision is in JSON/CSV)."""
    p.add_argument(
        "--digits",
        type=int,
        default=2,
        metavar="N",
        help="decimals of printed percentages (default 2)",
    )
    p.add_argument(
        "--round",
        choices=("truncate", "half-even"),
        help="truncate (default: scorer.pl's digits, as in published CoNLL tables) or round "
        "half to even (the default of the CorefUD evaluation: corefud-scorer's digits)",
    )


def add_output_options(p: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    p.add_argument("--format", choices=formats, default=formats[0], help="output format")
    p.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE, not stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")


def evaluation_of(
    args: argparse.Namespace, *, metrics: Any = None, corefud: bool = False
) -> Evaluation:
    """The one :class:`~corefscore.evaluation.Evaluation` of a command's options.

    ``metrics`` overrides ``-m`` (e.g. the metrics ``--format perl`` needs).
    Options a command does not have keep their defaults. ``corefud``: the
    command can run the CorefUD evaluation, which ``--compat auto`` then
    chooses for two CoNLL-U files; the other commands work on the CoNLL
    evaluation.
    """
    from ..evaluation import Evaluation

    given = with_anaphora_metrics(args, getattr(args, "metric", None))
    chosen = _preset(args)
    compat = chosen.get("compat", "auto")
    if compat == "auto":
        compat = _auto_compat(args) if corefud else "conll"
    elif compat == "corefud" and not corefud:
        raise UsageError(
            f"corefscore {getattr(args, 'command', 'this command')} works on the CoNLL "
            "evaluation; --compat corefud and --preset are for score and compare"
        )
    return Evaluation.create(
        metrics=metrics if metrics is not None else given,
        compat=compat,
        zeros=chosen.get("zeros"),
        duplicates=getattr(args, "duplicates", None),
        matching=chosen.get("match"),
        singletons=chosen.get("singletons"),
        key_singletons=getattr(args, "key_singletons", None),
        response_singletons=getattr(args, "response_singletons", None),
        remove_nested=getattr(args, "remove_nested", False),
        gold_mentions=getattr(args, "gold_mentions", False),
        anaphoric_only=getattr(args, "anaphoric_only", False),
        cross_document=getattr(args, "cross_document", False),
        key_scope=getattr(args, "key_scope", None) or "global",
        response_scope=getattr(args, "response_scope", None) or "global",
        **_anaphora_options(args),
    )


def with_anaphora_metrics(args: argparse.Namespace, given: Any) -> Any:
    """``-m`` with what --non-referring and --bridging add (to the defaults when no -m)."""
    extra = [
        name
        for flag, name in (("non_referring", "non-referring"), ("bridging", "bridging"))
        if getattr(args, flag, False)
    ]
    if not extra:
        return given
    if given is None:
        compat = getattr(args, "compat", None)
        given = "muc,bcub,ceafm,ceafe,blanc,lea" if compat == "ua" else "all"
    return ",".join([*([given] if isinstance(given, str) else given), *extra])


def _anaphora_options(args: argparse.Namespace) -> dict[str, Any]:
    """The Universal Anaphora options given, as ``Evaluation.create`` keywords."""
    out: dict[str, Any] = {}
    if getattr(args, "split_antecedents", None) is not None:
        out["split_antecedents"] = args.split_antecedents
    if getattr(args, "split_importance", None) is not None:
        out["split_importance"] = args.split_importance
    if getattr(args, "discourse_deixis", False):
        out["layer"] = "discourse_deixis"
    return out


def _preset(args: argparse.Namespace) -> dict[str, Any]:
    """compat, match, singletons and zeros: as given, else from --preset; a given option
    that contradicts the preset is an error."""
    names = ("compat", "match", "singletons", "zeros")
    given = {n: getattr(args, n, None) for n in names}
    if given["compat"] == "auto":
        given["compat"] = None
    if getattr(args, "min", False):
        if given["match"] not in (None, "min-span"):
            raise UsageError(f"--min is --match min-span; drop --match {given['match']} or --min")
        given["match"] = "min-span"
    preset = getattr(args, "preset", None)
    if preset is None:
        return {n: v for n, v in given.items() if v is not None}
    out = dict(PRESETS[preset])
    for name, value in given.items():
        if value is not None and value != out[name]:
            raise UsageError(
                f"--preset {preset} sets --{name} {out[name]}; drop --{name} {value} or the preset"
            )
    return out


def _auto_compat(args: argparse.Namespace) -> str:
    """--compat auto: corefud when the key and every response are CoNLL-U files
    (scored per document, on this machine)."""
    from ..evaluation import default_compat
    from ..io import detect_format

    if getattr(args, "cross_document", False) or getattr(args, "engine", None) == "dask":
        return "conll"

    responses = (
        getattr(args, "responses", None) or getattr(args, "systems", None) or [args.response]
    )
    key_format = getattr(args, "key_format", None) or detect_format(args.key, side="key")
    for path in responses:
        response_format = getattr(args, "response_format", None) or detect_format(
            path, side="response"
        )
        if default_compat(key_format, response_format) != "corefud":
            return "conll"
    return "corefud"


def reading_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of ``read_pair`` from the pair options."""
    return {
        "head_column": args.head_column,
        "key_format": args.key_format,
        "response_format": args.response_format,
        "empty_nodes": args.empty_nodes,
    }


def system_names(paths: Sequence[str]) -> list[str]:
    """Short, unique names for system files: what tells their file names apart.

    The dot-separated parts of the file names that every file shares (the
    split, the extension) are dropped, so ``test.resp_xrenner.conll`` and
    ``test.key_ontogum.conll`` become ``resp_xrenner`` and ``key_ontogum``;
    files with the same name are told apart by their folders.
    """
    parts = [os.path.basename(os.path.normpath(p)).split(".") for p in paths]
    shared = set(parts[0]).intersection(*parts[1:]) if len(parts) > 1 else set(parts[0][1:])
    names = [".".join(x for x in ps if x not in shared) or ps[0] for ps in parts]
    if len(set(names)) < len(names):
        folders = [os.path.basename(os.path.dirname(os.path.abspath(p))) for p in paths]
        names = [f"{folder}/{name}" for folder, name in zip(folders, names)]
    unique: list[str] = []
    for name in names:
        unique.append(name if name not in unique else f"{name}-{len(unique) + 1}")
    return unique


def names_option(value: str | None, paths: Sequence[str]) -> list[str]:
    """The systems' names: those of ``--names`` (as many as ``paths``), else from ``paths``."""
    if value is None:
        return system_names(paths)
    count = len(paths)
    names = [n.strip() for n in value.split(",")]
    if len(names) != count or not all(names) or len(set(names)) != count:
        raise UsageError(f"--names needs {count} distinct comma-separated names, got {value!r}")
    return names
