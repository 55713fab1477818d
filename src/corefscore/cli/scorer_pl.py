"""corefscore scorer-pl: a drop-in for ``perl scorer.pl``, and the shim that installs it.

``corefscore scorer-pl METRIC KEY RESPONSE [none|DOC]`` takes the reference
scorer's arguments and writes its stdout, stderr and exit code byte for byte
(``corefscore.scorer_pl``). ``--install PATH`` writes a small Perl
``scorer.pl`` that forwards to it, for code that runs the reference scorer by
path.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import UsageError
from .parser import Subparsers

NAME = "scorer-pl"

#: Marks a file written by ``--install`` (so that it may be replaced without a backup).
SHIM_MARK = "corefscore-scorer-pl-shim"


def add_parser(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        NAME,
        help="drop-in for 'perl scorer.pl' (the CoNLL reference scorer v8.01): its arguments, "
        "output and exit codes",
        description="Run as the CoNLL reference scorer's command line: 'scorer.pl METRIC KEY "
        "RESPONSE [none|DOC]' with its stdout, stderr and exit codes byte for byte (only the "
        "version line differs; documents in file order). METRIC is muc, bcub, ceafm, ceafe, "
        "blanc or all; without a 4th argument every document is listed, with 'none' only the "
        "totals, with a document id only that document. Put '--' before arguments that begin "
        "with '-'.",
        epilog="'corefscore scorer-pl --install DIR' writes DIR/scorer.pl, a Perl script that "
        "runs this command, for code that calls 'perl .../scorer.pl' or the script itself.",
    )
    p.add_argument(
        "--lea-branch",
        action="store_true",
        help="behave as the reference's LEA-scorer branch (version 9.0.0-alpha): metric lea, "
        "and 'all' = muc, bcub, ceafe, lea",
    )
    p.add_argument(
        "--no-refusal",
        action="store_true",
        help="keep scoring after more than 10 repeated response mentions (the reference "
        "stops with exit code 1; the notices are printed either way)",
    )
    p.add_argument(
        "--install",
        metavar="PATH",
        help="write an executable Perl scorer.pl at PATH (PATH/scorer.pl for a directory) "
        "that runs 'corefscore scorer-pl' with its arguments (with --lea-branch and "
        "--no-refusal baked in when given)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="with --install: replace an existing scorer.pl (a foreign one is kept as "
        "scorer.pl.orig)",
    )
    # The path the shim was run as ($0): Perl's messages name lib/CorScorer.pm relative to it.
    p.add_argument("--argv0", help=argparse.SUPPRESS)
    p.add_argument(
        "args",
        nargs=argparse.REMAINDER,
        metavar="METRIC KEY RESPONSE [none|DOC]",
        help="the reference scorer's arguments (extra ones are ignored, as it does)",
    )


def run(args: argparse.Namespace) -> int:
    from ..scorer_pl import Options
    from ..scorer_pl import run as run_scorer

    words: list[str] = list(args.args)
    if words and words[0] == "--":
        words = words[1:]
    if args.install is not None:
        if words:
            raise UsageError("--install takes no scorer arguments")
        return install(
            args.install, force=args.force, lea_branch=args.lea_branch, refuse=not args.no_refusal
        )
    if args.force:
        raise UsageError("--force goes with --install")
    options = Options(
        lea_branch=args.lea_branch,
        argv0=os.fsencode(args.argv0) if args.argv0 is not None else None,
        refuse=not args.no_refusal,
    )
    sys.stdout.flush()
    sys.stderr.flush()
    return run_scorer(
        words,
        stdout=sys.stdout.buffer,
        stderr=sys.stderr.buffer,
        stdin=sys.stdin.buffer if sys.stdin is not None else None,
        options=options,
    )


def _perl_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


def shim_text(python: str, *, lea_branch: bool = False, refuse: bool = True) -> str:
    """The Perl ``scorer.pl`` that runs ``python -m corefscore scorer-pl`` (or ``corefscore``)."""
    from .._version import __version__

    flags = (["--lea-branch"] if lea_branch else []) + ([] if refuse else ["--no-refusal"])
    perl_flags = "".join(f", '{flag}'" for flag in flags)
    shown = " ".join([f"{python} -m corefscore scorer-pl", *flags]).replace("\n", " ")
    return f"""#!/usr/bin/env perl
# scorer.pl: the command line of the CoNLL reference coreference scorer, served by corefscore.
# Written by 'corefscore scorer-pl --install' (corefscore {__version__}); {SHIM_MARK}.
# Runs '{shown} -- ARGUMENTS' ('corefscore' on PATH when that
# Python is gone) in this process, with its standard input, output and error, so the output
# and the exit code are the reference scorer's (only the version line differs).
use strict;

my @options = ('--argv0=' . $0{perl_flags});
foreach my $command ([{_perl_string(python)}, '-m', 'corefscore'], ['corefscore']) {{
  next if $command->[0] =~ m{{/}} && !-x $command->[0];
  exec {{ $command->[0] }} @$command, 'scorer-pl', @options, '--', @ARGV;
}}
print STDERR "scorer.pl: cannot run corefscore ($!): neither ", {_perl_string(python)},
  " -m corefscore nor corefscore on PATH; reinstall with 'corefscore scorer-pl --install'\\n";
exit 127;
"""


def _is_shim(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return SHIM_MARK.encode() in f.read(4096)
    except OSError:
        return False


def _free_name(base: str) -> str:
    if not os.path.lexists(base):
        return base
    n = 1
    while os.path.lexists(f"{base}.{n}"):
        n += 1
    return f"{base}.{n}"


def install(path: str, *, force: bool, lea_branch: bool, refuse: bool) -> int:
    """Write the shim at ``path`` (``path/scorer.pl`` for a directory); say what was done."""
    said: list[str] = []
    if os.path.isdir(path) or path.endswith(("/", os.sep)):
        folder, target = path, os.path.join(path, "scorer.pl")
    else:
        folder, target = os.path.dirname(path) or ".", path
    if os.path.isdir(target):
        raise UsageError(f"--install: {target} is a directory")
    backup: str | None = None
    if os.path.lexists(target):
        ours = _is_shim(target)
        if not force:
            what = "a corefscore shim" if ours else "not written by corefscore"
            keep = "" if ours else f" (it is then kept as {target}.orig)"
            raise UsageError(
                f"--install: {target} exists ({what}); add --force to replace it{keep}"
            )
        if not ours:
            backup = _free_name(target + ".orig")
    if not os.path.isdir(folder):
        os.makedirs(folder)
        said.append(f"created the folder {folder}")
    python = os.path.abspath(sys.executable) if sys.executable else "python3"
    text = shim_text(python, lea_branch=lea_branch, refuse=refuse)
    import tempfile  # (only here: its import costs every other command)

    handle, temporary = tempfile.mkstemp(prefix=".scorer.pl.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(temporary, 0o755)
        if backup is not None:
            os.rename(target, backup)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    flags = (" --lea-branch" if lea_branch else "") + ("" if refuse else " --no-refusal")
    said.append(
        f"wrote {target}: a Perl script that runs '{python} -m corefscore scorer-pl{flags}' "
        "(or 'corefscore' on PATH) with its arguments; run it as 'perl "
        f"{target} METRIC KEY RESPONSE [none|DOC]' or directly"
    )
    if backup is not None:
        said.append(f"kept the previous {target} as {backup}")
        if os.path.isfile(os.path.join(folder, "lib", "CorScorer.pm")):
            said.append(
                f"{folder} is a reference-coreference-scorers checkout: its lib/ is no longer "
                f"used; 'mv {backup} {target}' restores the reference scorer"
            )
    for line in said:
        print(f"corefscore: {line}", file=sys.stderr)
    return 0
