"""The ``corefscore`` command line.

Exit codes: 0 success, 1 input error, 2 usage error. Results go to stdout,
warnings and errors to stderr, one line each.

Each command is a module of this package (its parser and its body); the
option groups they share are in :mod:`.parser`, what they write in
:mod:`.output`. A run reads its command line with :mod:`.light_parser`
where it can, else with argparse (:mod:`.full_parser`), and imports only
its command's module, so that ``--help`` and ``--version`` load no numpy.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import CorefScoreError, InputError, UsageError
from .parser import (
    CEAF_FAMILY,
    COMPATS,
    CONVERT_TARGETS,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    FORMATS,
    MATCHINGS,
    METRICS,
    POLICIES,
    system_names,
)

__all__ = [
    "CEAF_FAMILY",
    "COMMANDS",
    "COMPATS",
    "CONVERT_TARGETS",
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "FORMATS",
    "MATCHINGS",
    "METRICS",
    "POLICIES",
    "build_parser",
    "entry_point",
    "main",
    "system_names",
]

if TYPE_CHECKING:
    import argparse

    from .parser import Command

    #: The commands, by name, in the order of ``corefscore --help``.
    COMMANDS: dict[str, Command]

# The commands, in the order of ``corefscore --help``. A run imports only the
# module of its command: the others, and what they import, were a few percent of
# the start-up of `corefscore score`.
_NAMES = (
    "score",
    "metrics",
    "twins",
    "convert",
    "compare",
    "report",
    "analyze",
    "lab",
    "scorer-pl",
)


def _command(name: str) -> Command:
    """The module of command ``name``, imported now. By literal imports: only the
    package's own lazy loader may import by name (tests/test_security.py)."""
    if name == "score":
        from . import score

        return score
    if name == "metrics":
        from . import metrics

        return metrics
    if name == "twins":
        from . import twins

        return twins
    if name == "convert":
        from . import convert

        return convert
    if name == "compare":
        from . import compare

        return compare
    if name == "report":
        from . import report

        return report
    if name == "analyze":
        from . import analyze

        return analyze
    if name == "lab":
        from . import lab

        return lab
    if name == "scorer-pl":
        from . import scorer_pl

        return scorer_pl
    raise KeyError(name)


def __getattr__(name: str) -> Any:
    # COMMANDS imports every command. (Not the command modules themselves: the
    # imports in _command() ask this function for them first, and fall back to
    # importing them on its AttributeError.)
    if name == "COMMANDS":
        commands = {command: _command(command) for command in _NAMES}
        globals()["COMMANDS"] = commands
        return commands
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (what a run of it
    needs: building all of them is a few ms of every run)."""
    from .full_parser import new_parser

    names = [command] if command in _NAMES else _NAMES
    return new_parser(_command(name) for name in names)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    if "numpy" not in sys.modules:
        _single_threaded_numerics()
    words = sys.argv[1:] if argv is None else argv
    args: argparse.Namespace | None = None
    # Reading builds millions of small objects and nothing here makes reference
    # cycles that matter, so the cyclic collector only adds work (its passes
    # over a growing heap made the reader's cost per mention rise by a third
    # from 16k to 64k mentions); it is restored for callers of main().
    collecting = gc.isenabled()
    gc.disable()
    try:
        if words and words[0] in _NAMES:
            from .light_parser import parse_light

            args = parse_light(_command(words[0]), words)
        if args is None:
            parser = build_parser(words[0] if words else None)
            args = parser.parse_args(argv)
            if args.command is None:
                parser.print_help(sys.stderr)
                return EXIT_USAGE
        return _command(args.command).run(args)
    except InputError as exc:
        print(f"corefscore: error: {exc.cli_message()}", file=sys.stderr)
        return EXIT_INPUT
    except UsageError as exc:
        command = getattr(args, "command", None) or _command_of(argv)
        message = exc.cli_message()
        # A message that already points somewhere (e.g. 'corefscore metrics') needs no second hint.
        hint = "" if "(see '" in message else f" (see 'corefscore {command} --help')"
        print(f"corefscore: usage error: {message}{hint}", file=sys.stderr)
        return EXIT_USAGE
    except CorefScoreError as exc:
        print(f"corefscore: error: {exc.cli_message()}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:
        # Output piped into e.g. `head`: not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except MemoryError:
        print("corefscore: error: out of memory", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:
        if os.environ.get("COREFSCORE_DEBUG"):
            raise
        print(
            f"corefscore: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set COREFSCORE_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    finally:
        if collecting:
            gc.enable()


def _command_of(argv: Sequence[str] | None) -> str:
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    return words[0] if words and words[0] in _NAMES else "score"


def entry_point() -> NoReturn:
    """The ``corefscore`` command (and ``python -m corefscore``): ``main()``, then
    the end of the process."""
    # Off for the whole run, so that main() does not turn the collector back on
    # at its end: its first pass would then go over every object the run made
    # (about 2 ms of the 55 of a small run) just before the process ends.
    gc.disable()
    from .. import _numpy

    _numpy.on_first_use(keep_freed_memory)
    end_process(main())


def end_process(code: int) -> NoReturn:
    """Exit with ``code`` after the exit handlers and a flush of the standard
    streams, without the interpreter's teardown.

    Freeing every module and cached object at exit took a tenth of a CorefUD
    evaluation of GUM train (about 30 ms of 0.4 s of CPU): work whose only
    effect is to be undone by the process ending. Everything with an effect
    still happens: ``atexit`` handlers (coverage, temporary directories,
    process pools) run, and the streams are flushed. With another thread
    still running, the ordinary exit waits for it.
    """
    import atexit

    # Threads that threading.enumerate() can list were started by threading, so
    # a run that never imported it has none (and need not load it to know).
    if "threading" in sys.modules:
        import threading

        main_thread = threading.main_thread()
        if any(
            t is not main_thread and t.is_alive() and not t.daemon for t in threading.enumerate()
        ):
            sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):
            # A reader that went away (`| head`) or a closed stream: nothing to lose.
            pass
    os._exit(code)


# glibc's mallopt parameters.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def keep_freed_memory() -> None:
    """Have glibc's malloc keep the memory that arrays free for the next ones.

    By default an allocation over 128 KiB is mapped afresh from the kernel and
    unmapped when freed, and the heap's free top is given back: each new array
    then pays a page fault per 4 KiB it touches, a few microseconds each on a
    virtual machine. With freed memory kept (arrays under 32 MiB from the heap,
    up to 512 MiB of free top kept), reading and scoring corpus (a) of the
    benchmark made 10,800 page faults instead of 18,100 (0.26 -> 0.23 CPU s), a
    document of a million mentions 7.4 -> 6.8 CPU s; peak memory is unchanged.
    The free top kept is large because a file's reading frees its arrays (about
    150 MB for a million mentions) just before the next file's reading needs
    them again: with 64 MiB kept, that document made 208,000 page faults instead
    of 154,000.
    Only the command does this, once it works with arrays: the process is its
    own. Elsewhere than glibc, nothing is done.
    """
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
    except (ValueError, OSError):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, 32 << 20)
    mallopt(_M_TRIM_THRESHOLD, 512 << 20)


def _single_threaded_numerics() -> None:
    """corefscore does no linear algebra; BLAS thread pools only cost start-up CPU."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
