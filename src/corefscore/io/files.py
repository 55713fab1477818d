"""Opening input files, with gzip handled in one place."""

from __future__ import annotations

import io
import os
import re
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, partial
from typing import IO, TYPE_CHECKING, TypeVar

from ..errors import InputError

if TYPE_CHECKING:
    import gzip

_S = TypeVar("_S", str, bytes)

_GZIP_MAGIC = b"\x1f\x8b"
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


@cache
def _gzip_input() -> type[gzip.GzipFile]:
    """The class of a gzip stream whose corrupt or truncated data is an ``InputError``.

    Every reader reads through here, so each need not know what gzip,
    zlib and EOF errors look like. Made on first use: most inputs are not
    compressed, and gzip is not loaded at start-up for them.
    """
    import gzip

    class _GzipInput(gzip.GzipFile):
        def _failed(self, exc: Exception) -> InputError:
            cause = "truncated" if isinstance(exc, EOFError) else "corrupt"
            return InputError(f"gzip data is {cause} ({exc})", path=str(self.name))

        def read(self, size: int | None = -1) -> bytes:
            try:
                return super().read(size)
            except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
                raise self._failed(exc) from None

        def read1(self, size: int = -1) -> bytes:
            try:
                return super().read1(size)
            except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
                raise self._failed(exc) from None

        def readline(self, size: int | None = -1) -> bytes:
            try:
                return super().readline(size)
            except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
                raise self._failed(exc) from None

    return _GzipInput


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
        return _gzip_input()(filename=name, fileobj=handle, mode="rb")
    if magic in _UTF16_MARKS:
        handle.close()
        raise InputError(
            "file is UTF-16 (byte-order mark found); convert it to UTF-8", path=name, line=1
        )
    return handle


def check_line_ends(first_block: bytes, path: str) -> None:
    """Refuse a line-based file whose lines end in a lone CR (classic Mac OS).

    Read by LF, such a file is one long line: a CoNLL file would become one
    empty document named after all its text, scored silently as nothing.
    Only the first line is looked at, so this costs nothing on a large file.
    """
    newline = first_block.find(b"\n")
    first_line = first_block if newline < 0 else first_block[:newline]
    if b"\r" in first_line.rstrip(b"\r"):
        raise InputError(
            "lines end in CR alone (classic Mac OS line ends); convert them to LF or CRLF",
            path=path,
            line=1,
        )


def opening_block(block: bytes, path: str) -> bytes:
    """A line-based file's first block, checked (not UTF-16, line ends) and without
    its UTF-8 byte-order mark."""
    if block[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InputError(
            "file is UTF-16 (byte-order mark found); convert it to UTF-8", path=path, line=1
        )
    check_line_ends(block, path)
    return block.removeprefix(b"\xef\xbb\xbf")


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
        if name.endswith(".gz"):
            import gzip

            handle: IO[str] = gzip.open(name, "wt", encoding="utf-8", newline="\n")
        else:
            handle = open(name, "w", encoding="utf-8", newline="\n")
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


def lazy_pattern(pattern: _S, flags: int = 0) -> Callable[[], re.Pattern[_S]]:
    """``re.compile(pattern, flags)`` on the first call. For the patterns that
    `corefscore score` on CoNLL text does not use: compiling one costs about 0.1 ms,
    which module-level patterns paid at every start-up."""
    return cache(partial(re.compile, pattern, flags))


# A '# newdoc' comment of CoNLL-U and UA files, with its optional id.
NEWDOC = lazy_pattern(r"#\s*newdoc(?:\s+id\s*=\s*(.*?))?\s*$")


def newdoc_id(
    match: re.Match[str], documents: int, source: str, lineno: int, warnings: list[str]
) -> str:
    """The document id of a ``NEWDOC`` match: its id, or, without one, its place in
    the file (``documents`` before it, plus one, as udapi names it: a key and a
    response with bare '# newdoc' lines then pair document by document), said in
    a warning."""
    doc_id = (match.group(1) or "").strip()
    if not doc_id:
        doc_id = str(documents + 1)
        warnings.append(
            f"{source}:{lineno}: '# newdoc' without an id; "
            f"document named {doc_id!r} (its place in the file)"
        )
    return doc_id


def first_sight(first_seen: dict[str, int], doc_id: str, lineno: int, path: str) -> None:
    """Record that document ``doc_id`` begins at line ``lineno``; a document id that
    was seen before is an error at that line (every reader says it alike)."""
    if doc_id in first_seen:
        raise InputError(
            f"document id {doc_id!r} appears twice in this file "
            f"(first at line {first_seen[doc_id]})",
            path=path,
            line=lineno,
        )
    first_seen[doc_id] = lineno
