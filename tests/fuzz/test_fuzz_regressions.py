"""Inputs the fuzzers found, checked at the reader level (the CLI cases are in
``tests/bad_inputs/fuzz/``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefscore.errors import InputError
from corefscore.io.conll import read_conll
from corefscore.io.conllu import read_conllu

from .test_fuzz_cli import run_cli


@pytest.mark.parametrize("tail", [b"", b"\n", b"\r\n"])
def test_conll_file_of_a_byte_order_mark_alone_is_an_empty_file_error(
    tmp_path: Path, tail: bytes
) -> None:
    # Found by fuzz/fuzz_conll.py: stripping the mark left an empty block,
    # which the array pass indexed (IndexError, an internal error in the CLI).
    path = tmp_path / "bom.conll"
    path.write_bytes(b"\xef\xbb\xbf" + tail)
    expected = "empty file" if not tail else "no '#begin document' line"
    with pytest.raises(InputError, match=expected) as caught:
        read_conll(path)
    assert caught.value.line == 1


def test_conllu_file_of_a_byte_order_mark_alone_reads_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "bom.conllu"
    path.write_bytes(b"\xef\xbb\xbf")
    with pytest.raises(InputError) as caught:
        read_conllu(path)
    assert (caught.value.path, caught.value.line) == (str(path), 1)


@pytest.mark.parametrize("blank", [b"\x0c", b"\x0b", b" \x0c\t"])
def test_conll_syntax_pass_counts_vertical_white_space_lines_as_breaks(
    tmp_path: Path, blank: bytes
) -> None:
    # Found by fuzz/fuzz_conll.py: the coreference pass took a line of form
    # feed or vertical tab for a sentence break, the syntax pass for a token,
    # so the columns were one token off (IndexError when the line came first).
    path = tmp_path / "breaks.conll"
    path.write_bytes(
        b"#begin document d\n" + blank + b"\nd 0 0 John (1)\n" + blank + b"\nd 0 1 he (1)\n"
        b"#end document\n"
    )
    doc = read_conll(path, syntax=True)["d"]
    assert doc.entities == (((0, 0), (1, 1)),)
    assert doc.syntax is not None
    assert doc.syntax.words == ("John", "he")
    assert doc.syntax.sentence_starts == (0, 1)


def test_conll_file_with_a_form_feed_line_converts(tmp_path: Path) -> None:
    source = tmp_path / "ff.conll"
    source.write_bytes(b"#begin document d\n\x0c\nd 0 0 x (1)\n#end document\n")
    target = tmp_path / "ff.conllu"
    code, out, err = run_cli(["convert", str(source), str(target), "--to", "conllu", "-q"])
    assert (code, out, err) == (0, "", "")
    assert "Entity=(e1" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize("content", [b"", b"\n", b"\n  \n"])
def test_jsonlines_file_without_documents_is_not_converted(tmp_path: Path, content: bytes) -> None:
    # Found by test_fuzz_cli.py: it used to convert to an empty file, exit 0.
    source = tmp_path / "none.jsonl"
    source.write_bytes(content)
    target = tmp_path / "none.conll"
    code, out, err = run_cli(["convert", str(source), str(target), "--to", "conll"])
    assert (code, out, err) == (1, "", f"corefscore: error: {source}:1: empty file\n")
    assert not target.exists()
