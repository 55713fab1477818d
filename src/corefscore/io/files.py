"""Opening input files, with gzip handled in one place."""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from ..errors import InputError

_GZIP_MAGIC = b"\x1f\x8b"


def open_binary(path: str | os.PathLike[str]) -> io.BufferedIOBase:
    """Open ``path`` for reading bytes, transparently gunzipping ``.gz`` content."""
    name = os.fspath(path)
    try:
        handle = open(name, "rb")
        magic = handle.peek(2)[:2]
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path=name) from None
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except PermissionError:
        raise InputError("permission denied", path=name) from None
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", path=name) from None
    if magic == _GZIP_MAGIC:
        return gzip.GzipFile(fileobj=handle, mode="rb")
    return handle


def read_text(path: str | os.PathLike[str]) -> str:
    """The whole of a small UTF-8 text file (a report, a list), with input errors."""
    name = os.fspath(path)
    with open_binary(name) as handle:
        try:
            data = handle.read()
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"cannot read file ({exc})", path=name) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", path=name, line=line) from None


@contextmanager
def open_text_output(path_or_stream: str | os.PathLike[str] | IO[str]) -> Iterator[IO[str]]:
    """A text stream to write to: the stream itself, or the file (gzipped for ``.gz``)."""
    if not isinstance(path_or_stream, (str, os.PathLike)):
        yield path_or_stream
        return
    name = os.fspath(path_or_stream)
    try:
        handle: IO[str] = (
            gzip.open(name, "wt", encoding="utf-8", newline="\n")
            if name.endswith(".gz")
            else open(name, "w", encoding="utf-8", newline="\n")
        )
    except OSError as exc:
        raise InputError(f"cannot write ({exc.strerror or exc})", path=name) from None
    with handle:
        yield handle


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` (gzipped for ``.gz``), with input errors."""
    with open_text_output(path) as handle:
        try:
            handle.write(text)
        except OSError as exc:
            raise InputError(
                f"cannot write ({exc.strerror or exc})", path=os.fspath(path)
            ) from None
