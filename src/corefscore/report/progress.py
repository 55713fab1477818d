"""A progress bar on stderr for long runs, shown only on a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``bar(done, total)`` redraws one line on ``stream`` (at most 10 times a second).

    Nothing is written unless ``stream`` is a terminal, so piped output and
    logs stay clean; ``close`` clears the line.
    """

    def __init__(self, label: str, *, stream: TextIO | None = None, minimum: int = 50) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.minimum = minimum
        self.active = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total < self.minimum:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = width * done // total if total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
