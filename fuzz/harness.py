"""What the atheris harnesses share: the input file, outcomes, cache resets, the loop.

Import it after ``atheris.instrument_imports`` has loaded corefscore (it
imports corefscore only inside its functions, so it instruments nothing).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import atheris

# One file per process (fork mode runs several), removed after each input:
# libFuzzer ends the process without running Python's exit handlers.
_TMP = os.path.join(
    "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir(), "corefscore-fuzz"
)


def input_path(suffix: str) -> str:
    os.makedirs(_TMP, exist_ok=True)
    return os.path.join(_TMP, f"input-{os.getpid()}{suffix}")


def outcome(read: Callable[..., Any], *args: object, **options: object) -> Any:
    """The corpus read, or corefscore's error (whose message must be one line)."""
    from corefscore.errors import CorefScoreError
    from corefscore.model import Corpus

    try:
        result = read(*args, **options)
    except CorefScoreError as exc:
        if len(str(exc).splitlines()) != 1:
            raise AssertionError(f"error message is not one line: {str(exc)!r}") from exc
        return exc
    assert isinstance(result, Corpus)
    return result


def coreference(corpus: Any) -> list[object]:
    """The documents without their syntax columns."""
    return [dataclasses.replace(doc, syntax=None) for doc in corpus.documents.values()]


def run(
    check: Callable[[int, bytes], None],
    *,
    path: str,
    module: ModuleType,
    caches: Sequence[str],
    argv: list[str] | None = None,
) -> None:
    """Fuzz ``check(flags, body)``: the first byte of an input is ``flags``, the
    rest is written to ``path`` (which ``check`` reads) and removed afterwards.

    The reader's parse caches (``caches``, attributes of ``module``) are bounded
    by entry count, not by bytes: one process reading millions of distinct fuzz
    lines fills them with long keys, and libFuzzer would report the memory as a
    leak. Emptying them every 2,000 inputs keeps the measure on one input's cost.
    """
    inputs = 0

    def test_one_input(data: bytes) -> None:
        nonlocal inputs
        inputs += 1
        if inputs % 2000 == 0:
            for name in caches:
                cache = getattr(module, name, None)
                if isinstance(cache, dict):
                    cache.clear()
        if not data:
            return
        try:
            with open(path, "wb") as handle:
                handle.write(data[1:])
            check(data[0], data[1:])
        finally:
            if os.path.exists(path):
                os.remove(path)

    atheris.Setup(sys.argv if argv is None else argv, test_one_input)
    atheris.Fuzz()
