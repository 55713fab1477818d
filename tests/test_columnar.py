"""The columnar engine: arrays to contingency tables, sums, CEAF, the mention table reader."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore.crossdoc as crossdoc
from corefscore.columnar import (
    ceaf_alignment,
    component_sizes,
    contingency_from_arrays,
    encode_mentions,
    first_appearance_codes,
    repeated_positions,
    segment_sums,
)
from corefscore.contingency import build_table
from corefscore.crossdoc import read_mention_table
from corefscore.errors import InputError, UsageError
from corefscore.metrics import REGISTRY
from corefscore.metrics.base import sequential_sum
from corefscore.metrics.ceaf import align, phi3, phi4
from corefscore.model import Document


@st.composite
def _documents(draw: st.DrawFn) -> Document:
    spans = draw(
        st.lists(
            st.tuples(st.integers(0, 12), st.integers(0, 3)).map(lambda t: (t[0], t[0] + t[1])),
            max_size=14,
            unique=True,
        )
    )
    labels = draw(st.lists(st.integers(0, 4), min_size=len(spans), max_size=len(spans)))
    entities: dict[int, list[tuple[int, int]]] = {}
    for span, label in zip(spans, labels):
        entities.setdefault(label, []).append(span)
    return Document("d", tuple(tuple(e) for e in entities.values()))


def _arrays(doc: Document) -> tuple[np.ndarray, np.ndarray]:
    spans = [s for e in doc.entities for s in e]
    entity = [i for i, e in enumerate(doc.entities) for _ in e]
    codes = encode_mentions(
        np.zeros(len(spans), dtype=np.int64),
        np.array([s for s, _ in spans], dtype=np.int64),
        np.array([e for _, e in spans], dtype=np.int64),
        widths=(1, 8, 8),
    )
    return codes, np.array(entity, dtype=np.int64)


@settings(max_examples=200, deadline=None)
@given(_documents(), _documents())
def test_table_from_arrays_equals_build_table(key: Document, response: Document) -> None:
    ordinary = build_table(key, response)
    key_codes, key_entities = _arrays(key)
    response_codes, response_entities = _arrays(response)
    table = contingency_from_arrays(
        key_codes,
        key_entities,
        response_codes,
        response_entities,
        n_key_entities=len(key.entities),
        n_response_entities=len(response.entities),
    )
    assert (table.dense() == ordinary.dense()).all()
    assert table.matched_mentions == ordinary.matched_mentions
    # Cells are numbered differently; each response mention must land on the same pair.
    for mine, theirs in zip(table.response_cells.tolist(), ordinary.response_cells.tolist()):
        assert (mine < 0) == (theirs < 0)
        if mine >= 0:
            assert (table.rows[mine], table.cols[mine]) == (
                ordinary.rows[theirs],
                ordinary.cols[theirs],
            )
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "bcub-all"):
        assert REGISTRY[name].statistics(table) == REGISTRY[name].statistics(ordinary), name


@settings(max_examples=200, deadline=None)
@given(_documents(), _documents())
def test_ceaf_alignment_total_is_optimal(key: Document, response: Document) -> None:
    table = build_table(key, response)
    for similarity in (phi3, phi4):
        weights = similarity(
            table.counts, table.key_sizes[table.rows], table.response_sizes[table.cols]
        )
        rows, cols, sims = ceaf_alignment(table.shape, table.rows, table.cols, weights)
        assert len(set(rows.tolist())) == len(rows) and len(set(cols.tolist())) == len(cols)
        assert (np.diff(rows) > 0).all()
        assert sequential_sum(1 - (1 - sims)) == pytest.approx(align(table, similarity).total)


def test_sparse_assignment_on_a_chain() -> None:
    """A component where greedy choice is wrong: (0,0)=2, (0,1)=3, (1,1)=2 -> 2 + 2."""
    rows = np.array([0, 0, 1])
    cols = np.array([0, 1, 1])
    chosen_rows, chosen_cols, sims = ceaf_alignment((2, 2), rows, cols, np.array([2.0, 3.0, 2.0]))
    assert chosen_rows.tolist() == [0, 1]
    assert chosen_cols.tolist() == [0, 1]
    assert sims.tolist() == [2.0, 2.0]


def test_component_sizes() -> None:
    table = contingency_from_arrays(
        np.array([1, 2, 3, 4]),
        np.array([0, 0, 1, 2]),
        np.array([1, 2, 3, 9]),
        np.array([0, 1, 1, 2]),
    )
    keys, responses = component_sizes(table)
    # {K0, K1 | R0, R1}; K2 and R2 share nothing (mentions 4 and 9 differ).
    assert sorted(zip(keys.tolist(), responses.tolist())) == [(2, 2)]


def test_segment_sums_add_left_to_right() -> None:
    values = np.array([1e16, 1.0, -1e16, 0.5, 1.0, 1e-3] * 30)
    segments = np.array([0, 0, 0, 1, 1, 2] * 30)
    # Segment 0 is long (90 values): one accumulate; the others go column by column.
    out = segment_sums(values, segments, 4)
    for s in range(3):
        assert out[s] == sequential_sum(values[segments == s])
    assert out[3] == 0.0
    shuffled = np.array([2, 0, 1] * 60)
    assert segment_sums(values, shuffled, 3)[1] == sequential_sum(values[shuffled == 1])


def test_codes() -> None:
    assert first_appearance_codes(np.array([7, 3, 7, 9, 3])).tolist() == [0, 1, 0, 2, 1]
    assert repeated_positions(np.array([5, 6, 5, 5, 7])).tolist() == [2, 3]
    big = np.array([2**40, 0, 2**40])
    codes = encode_mentions(big, big, np.array([1, 1, 1]))  # too wide to pack: numbered
    assert codes[0] == codes[2] != codes[1]
    small = np.array([3])
    assert encode_mentions(small, small, small, widths=(2, 4, 4)) == [3 << 8 | 3 << 4 | 3]
    with pytest.raises(UsageError, match="need"):
        encode_mentions(small, np.array([16]), small, widths=(2, 4, 4))


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
    monkeypatch.setattr(crossdoc, "_CHUNK_BYTES", 64)
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

    monkeypatch.setattr(crossdoc, "_field_hashes", constant)
    # With a zero mixer the key of a 9-16 byte id is its second word alone.
    monkeypatch.setattr(crossdoc, "_MIX", np.uint64(0))
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
