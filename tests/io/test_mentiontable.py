"""The mention table reader: chunks, codes, collisions and errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

import corefscore.io.mentiontable as mentiontable
from corefscore.errors import InputError
from corefscore.io.mentiontable import read_mention_table


def _write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def test_read_mention_table(tmp_path: Path) -> None:
    text = "# header\ndocA\t0\t1\tE1\n\ndocA\t3\t3\tE2\r\n# note\ndocB\t0\t0\tE1\ndocA\t5\t6\tE1"
    table = read_mention_table(_write(tmp_path / "m.tsv", text))
    assert table.doc_ids == ("docA", "docB")
    assert table.doc.tolist() == [0, 0, 1, 0]
    assert table.start.tolist() == [0, 3, 0, 5]
    assert table.end.tolist() == [1, 3, 0, 6]
    assert table.label.tolist() == [0, 1, 0, 0]
    assert list(table.labels) == ["E1", "E2"]
    with gzip.open(tmp_path / "m.tsv.gz", "wb") as handle:
        handle.write(text.encode())
    again = read_mention_table(tmp_path / "m.tsv.gz")
    assert again.label.tolist() == table.label.tolist()


def test_read_mention_table_in_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [f"d{i // 7}\t{i}\t{i + 1}\te{(i * 5) % 11}" for i in range(300)]
    path = _write(tmp_path / "m.tsv", "\n".join(lines) + "\n")
    monkeypatch.setattr(mentiontable, "_CHUNK_BYTES", 64)
    table = read_mention_table(path)
    assert len(table) == 300
    assert [table.doc_ids[d] for d in table.doc.tolist()] == [f"d{i // 7}" for i in range(300)]
    assert [table.labels[e] for e in table.label.tolist()] == [
        f"e{(i * 5) % 11}" for i in range(300)
    ]


@pytest.mark.parametrize("width", [9, 17])
def test_key_collisions_fall_back_to_exact_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """Ids of 9-16 bytes are keyed by two mixed words, longer ones hashed: force collisions."""
    pad = "p" * (width - 1)
    docs = [f"{pad}a", f"{pad}b", f"{pad}a", f"{pad}b"]
    ids = [f"x{pad}", f"y{pad}", f"x{pad}", f"z{pad}"]
    text = "".join(f"{d}\t{i}\t{i}\t{e}\n" for i, (d, e) in enumerate(zip(docs, ids)))
    path = _write(tmp_path / "m.tsv", text)

    def constant(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        return np.zeros(len(starts), dtype=np.uint64)  # every long id collides

    monkeypatch.setattr(mentiontable, "_field_hashes", constant)
    # With a zero mixer the key of a 9-16 byte id is its second word alone.
    monkeypatch.setattr(mentiontable, "_MIX", np.uint64(0))
    table = read_mention_table(path)
    assert [table.doc_ids[d] for d in table.doc.tolist()] == docs
    assert [table.labels[e] for e in table.label.tolist()] == ids
    assert table.label.tolist() == [0, 1, 0, 2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a\t0\t1\tx\na\t0\tx\n", r"m\.tsv:2: expected 4 tab-separated fields .* found 3"),
        ("# h\na\t0\t1\tx\na\t-1\t1\tx\n", r"m\.tsv:3: start '-1' is not a non-negative integer"),
        ("a\t4\t1\tx\n", r"m\.tsv:1: invalid span \(4, 1\)"),
        ("a\t0\t1\t\n", r"m\.tsv:1: .*with an empty id"),
        ("a\t0\tz\tx\n", r"m\.tsv:1: end 'z' is not a non-negative integer"),
        ("a\t0\t123456789\tx\nb\t1\t1x\tx\n", r"m\.tsv:2: end '1x' is not"),
        ("# h\na\t0\t1\tx\x00\n", r"m\.tsv:2: NUL byte"),
    ],
)
def test_read_mention_table_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        read_mention_table(_write(tmp_path / "m.tsv", text))
