"""Opening input files, with gzip handled in one place."""

from __future__ import annotations

import gzip
import io
import os

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
