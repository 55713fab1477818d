"""The CoNLL-2012 / SemEval-2010 reader, on small files written here."""

from __future__ import annotations

import gzip
from itertools import accumulate
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from corefscore.errors import InputError
from corefscore.io import read_conll, read_conll_text
from corefscore.io.conll import _read_blocks, iter_blocks


def conll(*docs: tuple[str, list[str]], sep: str = "\t") -> str:
    """Build a file: each document is (id, coreference fields), one token each."""
    out = []
    for doc_id, fields in docs:
        out.append(f"#begin document {doc_id}")
        for i, f in enumerate(fields):
            out.append(sep.join([doc_id, "0", str(i), f"w{i}", "NN", f]))
        out.append("#end document")
    return "\n".join(out) + "\n"


def spans(text: str, doc: str = "d") -> list[list[tuple[int, int]]]:
    return [list(e) for e in read_conll_text(text)[doc].entities]


def test_items_nested_joined_and_run_together() -> None:
    text = conll(("d", ["(0", "-", "0)|(1)", "(2(1)", "2)", "(3)|(3)", "_", "(12", "12)"]))
    assert spans(text) == [[(0, 2)], [(2, 2), (3, 3)], [(3, 4)], [(5, 5), (5, 5)], [(7, 8)]]


def test_same_entity_nesting_pairs_last_opened_first() -> None:
    text = conll(("d", ["(1", "(1", "1)", "1)"]))
    assert spans(text) == [[(1, 2), (0, 3)]]


def test_entity_and_mention_order_follow_the_reference_passes() -> None:
    # On one line: single-token mentions first, then openings, then closings.
    text = conll(("d", ["(7(8)", "7)"]))
    doc = read_conll_text(text)["d"]
    assert doc.labels == ("8", "7")
    assert [list(e) for e in doc.entities] == [[(0, 0)], [(0, 1)]]


def test_token_positions_skip_blank_whitespace_and_comment_lines() -> None:
    text = (
        "#begin document d\n"
        "d\t0\t0\tw\t(1\n"
        "\n"
        "   \t \n"
        "# a comment inside the document\n"
        "d\t0\t1\tw\t1)\n"
        "d\t0\t2\tw\t(1)\n"
        "#end document\n"
    )
    assert spans(text) == [[(0, 1), (2, 2)]]


def test_space_separated_file_reads_only_the_last_column() -> None:
    text = conll(("d", ["(1)", "-", "(1)"]), sep="   ").replace("w1", "(5)")
    assert spans(text) == [[(0, 0), (2, 2)]]


def test_tab_separated_line_ignores_parentheses_in_other_columns() -> None:
    text = conll(("d", ["-", "(1)", "(1)"])).replace("w0", "(5)")
    assert spans(text) == [[(1, 1), (2, 2)]]


def test_empty_last_field_means_no_mention() -> None:
    # LitBank: lines without a mention end with a tab (an empty last column).
    text = "#begin document d\nd\t0\t_\t\nd\t1\t_\t(3)\nd\t2\t(9)\t\n#end document\n"
    assert spans(text) == [[(1, 1)]]


def test_trailing_tab_on_every_line_is_ignored() -> None:
    text = "#begin document d\nd\t0\t(3)\t\nd\t1\t-\t\nd\t2\t(3)\t\n#end document\n"
    assert spans(text) == [[(0, 0), (2, 2)]]


def test_crlf_line_endings() -> None:
    text = conll(("d", ["(1", "1)", "(1)"])).replace("\n", "\r\n")
    assert spans(text) == [[(0, 1), (2, 2)]]


def test_split_antecedent_with_one_digit_is_skipped_with_a_warning() -> None:
    corpus = read_conll_text(conll(("d", ["(1+2)|(1)", "(1)"])))
    assert [list(e) for e in corpus["d"].entities] == [[(0, 0), (1, 1)]]
    assert any("split-antecedent" in w for w in corpus.warnings)


def test_document_ids_keep_the_part_and_pair_by_id() -> None:
    text = conll(("(bc/cnn/00); part 000", ["(1)", "(1)"]), ("(bc/cnn/00); part 001", ["(2)"]))
    corpus = read_conll_text(text)
    assert list(corpus.documents) == ["(bc/cnn/00); part 000", "(bc/cnn/00); part 001"]


def test_missing_end_document_at_end_of_file_is_tolerated() -> None:
    text = conll(("d", ["(1", "1)"])).replace("#end document\n", "")
    corpus = read_conll_text(text, source="f.conll")
    assert [list(e) for e in corpus["d"].entities] == [[(0, 1)]]
    assert corpus.warnings == (
        "f.conll: document 'd' has no '#end document'; read to the end of the file",
    )


def test_document_without_mentions() -> None:
    assert read_conll_text(conll(("d", ["-", "_"])))["d"].entities == ()


def test_gzip_is_read_transparently(tmp_path: Path) -> None:
    path = tmp_path / "key.conll.gz"
    path.write_bytes(gzip.compress(conll(("d", ["(1)", "(1)"])).encode()))
    assert [list(e) for e in read_conll(path)["d"].entities] == [[(0, 0), (1, 1)]]


def test_utf8_bom_is_skipped() -> None:
    assert spans("\ufeff" + conll(("d", ["(1)"]))) == [[(0, 0)]]


@pytest.mark.parametrize("size", [1, 7, 64, 1 << 20])
def test_blocks_of_any_size_read_the_same(size: int) -> None:
    text = (
        conll(("a", ["(1", "-", "1)", "(2)"]), ("b", ["(3)", "-", "-", "(3)"]), sep="  ")
        + "\n\n"
        + conll(("c", ["-", "(4", "4)", "-", "(4)"]))
    ).encode()
    blocks = []
    rest = text
    while rest:
        # Cut on line boundaries, as iter_blocks does.
        cut = rest.find(b"\n", size)
        cut = len(rest) if cut < 0 else cut + 1
        blocks.append(rest[:cut])
        rest = rest[cut:]
    corpus = _read_blocks(iter(blocks), "f")
    assert {d: [list(e) for e in doc.entities] for d, doc in corpus.documents.items()} == {
        "a": [[(0, 2)], [(3, 3)]],
        "b": [[(0, 0), (3, 3)]],
        "c": [[(1, 2), (4, 4)]],
    }


@pytest.mark.parametrize("compress", [False, True])
def test_iter_blocks_gives_whole_lines_smaller_at_the_start(tmp_path: Path, compress: bool) -> None:
    lines = [f"line {i} {'x' * (i % 37)}\n".encode() for i in range(3000)]
    data = b"".join(lines)
    path = tmp_path / "f.conll"
    path.write_bytes(gzip.compress(data) if compress else data)
    blocks = list(iter_blocks(str(path), 4096, start_size=512, start_bytes=8192))
    assert b"".join(blocks) == data
    assert all(block.endswith(b"\n") for block in blocks)
    sizes = [len(block) for block in blocks]
    # Each block is what was asked for, completed to the end of its last line
    # (lines here are at most 50 bytes); 512 until 8192 bytes are read, then 4096.
    read = list(accumulate(sizes))
    small = next(k for k, done in enumerate(read) if done >= 8192) + 1
    assert all(512 <= size < 512 + 50 for size in sizes[:small])
    assert all(4096 <= size < 4096 + 50 for size in sizes[small:-1])
    assert 0 < sizes[-1] < 4096 + 50
    assert list(iter_blocks(str(path), 1 << 20)) == [data]


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=40),
    last_newline=st.booleans(),
    crlf=st.booleans(),
    size=st.integers(1, 64),
    start=st.integers(0, 16),
    compress=st.booleans(),
)
def test_iter_blocks_cuts_only_at_line_ends(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    last_newline: bool,
    crlf: bool,
    size: int,
    start: int,
    compress: bool,
) -> None:
    """Whatever the sizes asked for, the blocks are the file's bytes in order, each
    ending a line (the last one may end the file without a newline), none empty."""
    end = b"\r\n" if crlf else b"\n"
    data = end.join(lines) + (end if lines and last_newline else b"")
    # A UTF-16 byte-order mark is refused when the file is opened (see below), and
    # gzip's magic bytes make a plain file read as gzip data (a corrupt one here).
    assume(compress or data[:2] not in (b"\xff\xfe", b"\xfe\xff", b"\x1f\x8b"))
    path = tmp_path_factory.mktemp("blocks") / "f.conll"
    path.write_bytes(gzip.compress(data) if compress else data)
    blocks = list(iter_blocks(str(path), size, start_size=start, start_bytes=4 * start))
    assert b"".join(blocks) == data
    assert all(blocks)
    assert all(block.endswith(b"\n") for block in blocks[:-1])
    # A block holds what was asked for, completed to its line's end: never a
    # whole line more than needed.
    for block in blocks[:-1]:
        assert b"\n" not in block[:-1][max(size, start) :]


def _error(text: str | bytes, tmp_path: Path) -> str:
    path = tmp_path / "bad.conll"
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    with pytest.raises(InputError) as info:
        read_conll(path)
    message = str(info.value)
    assert "\n" not in message
    return message.replace(str(path), "FILE")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            conll(("d", ["-", "3)"])),
            "FILE:3: closing bracket '3)' without an opening '(3' in document 'd'",
        ),
        (
            conll(("d", ["(3", "-"])),
            "FILE:2: mention '(3' opened here (token 0) is never closed in document 'd'",
        ),
        (conll(("d", ["(a)"])), "FILE:2: bad coreference field '(a)'"),
        (conll(("d", ["(-1)"])), "FILE:2: bad coreference field '(-1)'"),
        (conll(("d", ["(person-1)"])), "FILE:2: bad coreference field '(person-1)'"),
        (conll(("d", ["(1+23)"])), "FILE:2: split-antecedent item '(1+23)' is not supported"),
        ("just some text\n", "FILE:1: not a CoNLL coreference file: expected a '#begin document'"),
        ("", "FILE:1: empty file"),
        (
            "\n\n# only comments\n",
            "FILE:1: not a CoNLL coreference file: no '#begin document' line",
        ),
        (
            conll(("d", ["(1)"])) * 2,
            "FILE:4: document id 'd' appears twice in this file (first at line 1)",
        ),
        (
            conll(("d", ["(1)"])).replace("#end document\n", "") + conll(("e", ["(1)"])),
            "FILE:3: '#begin document' inside document 'd' (begun at line 1): "
            "missing '#end document'",
        ),
        (conll(("d", ["(1)"])) + "x\t0\t(1)\n", "FILE:4: token line outside a document"),
        (conll(("d", ["(1)"])) + "x\t0\t-\n", "FILE:4: token line outside a document"),
        ("#end document\n", "FILE:1: '#end document' without '#begin document'"),
        (b"\xff\xfe#\x00b\x00", "FILE:1: file is UTF-16 (byte-order mark found)"),
        (conll(("d", ["(1)"])).encode() + b"caf\xe9\n", "FILE:4: not valid UTF-8 (byte 0xe9)"),
        (b"#begin document d\n\x00\x01\x02\n", "FILE:2: binary data (NUL byte)"),
        # The first problem in the file is named, wherever the blocks were cut.
        (b"#begin document d\ncaf\xe9\n\x00\n", "FILE:2: not valid UTF-8 (byte 0xe9)"),
        (b"#begin document d\n\x00\ncaf\xe9\n", "FILE:2: binary data (NUL byte)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "FILE:1: not valid UTF-8 (byte 0x89)"),
    ],
)
def test_malformed_input_gives_one_line_error(
    text: str | bytes, expected: str, tmp_path: Path
) -> None:
    assert _error(text, tmp_path).startswith(expected)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"missing\.conll: no such file"):
        read_conll(tmp_path / "missing.conll")
    with pytest.raises(InputError, match="is a directory"):
        read_conll(tmp_path)
    corrupt = tmp_path / "corrupt.gz"
    corrupt.write_bytes(gzip.compress(b"#begin document d\n")[:12])
    with pytest.raises(InputError, match=r"corrupt\.gz"):
        read_conll(corrupt)


@given(
    st.one_of(st.none(), st.lists(st.sampled_from(["-", "_", "NN", "", "--", "_-"]), max_size=6))
)
def test_a_syntax_column_is_present_unless_every_value_is_a_dash_or_an_underscore(
    values: list[str] | None,
) -> None:
    from corefscore.io.conll import _present

    column = None if values is None else tuple(values)
    absent = column is None or all(v in ("-", "_") for v in column)
    assert _present(column) == (None if absent else column)
