"""Reading input files as text, with gzip and encoding handled in one place."""

from __future__ import annotations

import gzip
import io
import os

from ..errors import InputError

_GZIP_MAGIC = b"\x1f\x8b"


def read_text(path: str | os.PathLike[str]) -> str:
    """Return the decoded text of ``path``; ``.gz`` content is detected by its magic bytes.

    Raises :class:`InputError` naming the file (and the line, for decoding
    problems) instead of an ``OSError`` or ``UnicodeDecodeError``.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path=name) from None
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except PermissionError:
        raise InputError("permission denied", path=name) from None
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", path=name) from None
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise InputError(f"corrupt gzip data ({exc})", path=name) from None
    return decode(data, name)


def decode(data: bytes, name: str) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InputError(
            "file is UTF-16 (byte-order mark found); convert it to UTF-8", path=name, line=1
        )
    if b"\x00" in data[:8192]:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError("binary data (NUL byte); not a text file", path=name, line=line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); convert the file to UTF-8",
            path=name,
            line=line,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def open_binary(path: str | os.PathLike[str]) -> io.BufferedIOBase:
    """Open ``path`` for reading bytes, transparently gunzipping ``.gz`` content."""
    name = os.fspath(path)
    try:
        handle = open(name, "rb")  # noqa: SIM115 - returned to the caller
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
        return gzip.GzipFile(fileobj=handle, mode="rb")  # type: ignore[return-value]
    return handle
