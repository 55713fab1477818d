"""corefscore analyze: resolution classes, CPP, the mention effect and error categories."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InputError, UsageError
from .full_parser import Parser
from .output import emit, warn
from .parser import EXIT_OK, POLICIES, Subparsers, add_output_options, system_names

NAME = "analyze"


def add_parser(subparsers: Subparsers) -> None:
    a = subparsers.add_parser(
        NAME,
        help="analyses that explain a score: resolution classes, CPP, mention effect, errors",
        description="Analyses that explain a score (see docs/analysis.md).",
    )
    kinds = a.add_subparsers(dest="analysis", metavar="ANALYSIS", parser_class=Parser)
    _add_classes(kinds)
    _add_cpp(kinds)
    _add_mention_effect(kinds)
    _add_errors(kinds)


def _add_errors(kinds: Subparsers) -> None:
    errors = kinds.add_parser(
        "errors",
        help="error categories of Kummerfeld & Klein (2013) and what each costs",
        description="Turn the response into the key step by step and name each step, as the "
        "Berkeley Coreference Analyser does: span errors, conflated entities, extra mentions "
        "and entities, divided entities, missing mentions and entities; counts per document, "
        "by mention type, and the CoNLL score after correcting each category "
        "(docs/analysis.md). The key's words, tags and parse or dependencies are used.",
    )
    errors.add_argument("key", metavar="KEY")
    errors.add_argument("response", metavar="RESPONSE")
    errors.add_argument(
        "--response-singletons",
        choices=("drop", "keep"),
        default="drop",
        help="drop (the analyser's default) or keep one-mention response entities",
    )
    errors.add_argument(
        "--heads",
        choices=("syntax", "last"),
        default="syntax",
        help="mention heads from the key's parse or dependencies (default; the last token "
        "without them), or always the last token",
    )
    errors.add_argument(
        "--per-document", action="store_true", help="also list each document's counts (text)"
    )
    errors.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the categories as a bar chart (.png or .svg; needs the 'plot' extra)",
    )
    add_output_options(errors, ("text", "json", "csv"))


def _add_classes(kinds: Subparsers) -> None:
    classes = kinds.add_parser(
        "classes",
        help="resolution classes of the key's anaphors and per-class scores",
        description="Put every non-first key mention in one of the nine resolution classes of "
        "Stoyanov et al. (2009, §4.1) and score the response per class: the MUC-RC adaptation "
        "and CorefUD's anaphor-level score. The key needs words and POS tags (CoNLL-2012 or "
        "CoNLL-U). Save it with --format json -o FILE for 'analyze cpp'.",
    )
    classes.add_argument("key", metavar="KEY")
    classes.add_argument("response", metavar="RESPONSE")
    classes.add_argument(
        "--pronouns",
        metavar="FILE",
        help='pronoun lists of another language: JSON {"first_second": [...], '
        '"gendered_third": [...], "ungendered_third": [...]}',
    )
    classes.add_argument("--corpus", metavar="NAME", help="name of the corpus (for CPP)")
    classes.add_argument("--duplicates", choices=POLICIES, default="first")
    add_output_options(classes, ("text", "json"))


def _add_cpp(kinds: Subparsers) -> None:
    cpp = kinds.add_parser(
        "cpp",
        help="predict a corpus's score from per-class scores (CPP)",
        description="Coreference performance prediction (Stoyanov et al. 2009, §4.4): the "
        "share-weighted sum of per-class mean scores measured on other corpora (REPORTs saved "
        "by 'analyze classes --format json'), for the class distribution of a new corpus (its "
        "key alone, --key). With --leave-one-out, every REPORT is predicted from the others.",
    )
    cpp.add_argument("reports", metavar="REPORT", nargs="+", help="classes reports (JSON)")
    target = cpp.add_mutually_exclusive_group(required=True)
    target.add_argument("--key", metavar="KEY", help="key file of the corpus to predict")
    target.add_argument(
        "--distribution", metavar="FILE", help="its class distribution (JSON), instead of --key"
    )
    target.add_argument(
        "--leave-one-out", action="store_true", help="predict each REPORT from the others"
    )
    cpp.add_argument(
        "--score",
        default="muc_rc.f1",
        help="per-class score to predict from (default muc_rc.f1; or anaphor.f1, ...)",
    )
    cpp.add_argument(
        "--observed",
        default="overall.muc.f1",
        help="observed score compared with the prediction (default overall.muc.f1)",
    )
    cpp.add_argument("--pronouns", metavar="FILE", help="pronoun lists, as for 'classes'")
    add_output_options(cpp, ("text", "json"))


def _add_mention_effect(kinds: Subparsers) -> None:
    effect = kinds.add_parser(
        "mention-effect",
        help="does each metric reward a more precise response (Moosavi & Strube 2016 §2)?",
        description="Build three transformed responses (more precise: incorrectly resolved "
        "mentions removed; less precise a/b: missing key mentions linked into wrong pairs or "
        "larger wrong entities), score each with every metric, and flag the metrics that move "
        "in the wrong direction.",
    )
    effect.add_argument("key", metavar="KEY")
    effect.add_argument("response", metavar="RESPONSE")
    effect.add_argument("--seed", type=int, default=0, help="seed of the transformations")
    effect.add_argument("-m", "--metric", action="append", metavar="NAME")
    effect.add_argument("--duplicates", choices=POLICIES, default="first")
    add_output_options(effect, ("text", "json"))


def run(args: argparse.Namespace) -> int:
    if args.analysis is None:
        raise UsageError("choose an analysis: classes, cpp, mention-effect or errors")
    if args.analysis == "classes":
        return _classes(args)
    if args.analysis == "cpp":
        return _cpp(args)
    if args.analysis == "errors":
        return _errors(args)
    return _mention_effect(args)


def _errors(args: argparse.Namespace) -> int:
    from ..analysis.error_analysis import analyse_errors
    from ..io import read_corpus
    from ..report.errors import format_errors

    key = read_corpus(args.key, side="key", syntax=True)
    response = read_corpus(args.response, side="response")
    analysis = analyse_errors(
        key, response, response_singletons=args.response_singletons, heads=args.heads
    )
    warn(analysis.warnings, args.quiet)
    emit(format_errors(analysis, fmt=args.format, per_document=args.per_document), args)
    if args.plot:
        from ..report.plots import plot_error_categories

        plot_error_categories({system_names([args.response])[0]: analysis}, args.plot)
    return EXIT_OK


def _pronouns(path: str | None) -> Any:
    if path is None:
        return None
    from ..analysis.mention_types import PronounLists

    return PronounLists.from_json(path)


def _classes(args: argparse.Namespace) -> int:
    from ..analysis.classes import resolution_classes
    from ..io import read_corpus
    from ..report.classes import format_classes

    key = read_corpus(args.key, side="key", syntax=True)
    response = read_corpus(args.response, side="response")
    report = resolution_classes(
        key,
        response,
        pronouns=_pronouns(args.pronouns),
        duplicates=args.duplicates,
        corpus=args.corpus,
    )
    warn(report.warnings, args.quiet)
    emit(format_classes(report, fmt=args.format), args)
    return EXIT_OK


def _cpp(args: argparse.Namespace) -> int:
    from ..analysis import cpp
    from ..io.files import read_text
    from ..report.cpp import format_cpp

    reports: dict[str, dict[str, Any]] = {}
    for path in args.reports:
        loaded = cpp.load_report(read_text(path), path=path)
        name = str(loaded.get("corpus") or path)
        if name in reports:
            name = path
        reports[name] = loaded
    if args.leave_one_out:
        result: Any = cpp.leave_one_out(reports, score=args.score, observed=args.observed)
    else:
        distribution = _class_distribution(args)
        result = cpp.predict(list(reports.values()), distribution, score=args.score)
    emit(format_cpp(result, fmt=args.format), args)
    return EXIT_OK


def _class_distribution(args: argparse.Namespace) -> dict[str, float]:
    """The class distribution to predict for: of the key of --key, or read from --distribution."""
    from ..analysis import cpp

    if args.key is not None:
        from ..io import read_corpus

        key = read_corpus(args.key, side="key", syntax=True)
        return cpp.class_distribution(key, pronouns=_pronouns(args.pronouns))
    try:
        with open(args.distribution, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or exc})", path=args.distribution) from None
    return cpp.class_distribution(cpp.load_report(text, path=args.distribution))


def _mention_effect(args: argparse.Namespace) -> int:
    from ..analysis.mention_effect import mention_effect
    from ..io import read_corpus
    from ..report.mention_effect import format_mention_effect

    key = read_corpus(args.key, side="key")
    response = read_corpus(args.response, side="response")
    effect = mention_effect(
        key, response, seed=args.seed, metrics=args.metric, duplicates=args.duplicates
    )
    warn([*key.warnings, *response.warnings, *effect.warnings], args.quiet)
    emit(format_mention_effect(effect, fmt=args.format), args)
    return EXIT_OK
