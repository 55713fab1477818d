"""The CoNLL reader's two ways of finding its line facts must agree exactly.

Small blocks are read line by line in Python (``_PlainLines``, no numpy import),
larger ones with arrays (``_Lines``): the documents, the token positions, the
errors and the forms digest of a file must not depend on which one read it.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.io import conll
from corefscore.io.conll import _Lines, _PlainLines, read_conll_text

from ..conftest import examples

# Bytes that change the facts: line ends (with CR), both separators, "-" (a
# fast line's field), "#" (comments), digits (the SemEval layout) and a word.
pieces = st.sampled_from(
    [b"\n", b"\r\n", b"\r", b"\t", b" ", b"-", b"#", b"1", b"23", b"w", b"(0)", b"\t-", b" -"]
)
# The reader never reads an empty block.
blocks = st.lists(pieces, min_size=1, max_size=60).map(b"".join)


def facts(lines: _Lines | _PlainLines) -> tuple[object, ...]:
    n = lines.count
    spans = [(lo, hi) for lo, hi in combinations(range(n + 1), 2)]
    fast = [(lo, hi, lines.fast_in(lo, hi)) for lo, hi in spans]
    first = [(lo, hi, lines.first_fast(lo, hi)) for lo, hi, has in fast if has]
    words = [
        (lo, hi, layout, lines.words(lo, hi, layout))
        for lo, hi in [(0, n), *spans[:40]]
        for layout in (None, 1, 3)
    ]
    return (
        n,
        lines.token_total,
        lines.has_tab,
        [tuple(v) for v in lines.visited()],
        fast,
        first,
        words,
    )


@settings(max_examples=examples(600), deadline=None)
@given(blocks)
def test_plain_and_array_line_facts_agree(block: bytes) -> None:
    assert facts(_PlainLines(block)) == facts(_Lines(block))


def test_the_facts_of_a_conll_block() -> None:
    block = b"#begin document (d);\nw1\t0\t0\tJohn\t(0)\nw1\t0\t1\tran\t-\n\n#end document\n"
    for lines in (_PlainLines(block), _Lines(block)):
        assert lines.count == 5
        assert lines.token_total == 2  # the two word lines; the blank line is empty
        assert [k for k, *_ in lines.visited()] == [0, 1, 4]
        assert lines.fast_in(0, 3) and not lines.fast_in(3, 5)
        assert lines.first_fast(0, 5) == 2
        assert lines.words(0, 5, None) == (3, b"Johnran", b"\x04\x00\x00\x00\x03\x00\x00\x00")


TEXT = (
    "#begin document (a); part 000\n"
    "a\t0\t0\tJohn\t(0)\n"
    "a\t0\t1\tsaw\t-\n"
    "\n"
    "a\t0\t2\thim\t(0)\n"
    "#end document\n"
    "#begin document (b); part 000\n"
    "b\t0\t0\tMary\t(1\n"
    "b\t0\t1\tSmith\t1)\n"
    "#end document\n"
)


@pytest.mark.parametrize("text", [TEXT, TEXT.replace("\n", "\r\n"), TEXT.replace("\t", " ")])
def test_a_file_reads_the_same_by_plain_lines_and_by_arrays(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = read_conll_text(text)
    monkeypatch.setattr(conll, "_PLAIN_BYTES", -1)
    arrays = read_conll_text(text)
    assert plain.documents == arrays.documents
    assert [d.forms_digest for d in plain] == [d.forms_digest for d in arrays]
    assert plain["(b); part 000"].entities == (((0, 1),),)
    assert plain["(a); part 000"].forms_digest is not None


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 600) | st.integers(0, 2**31 - 1), max_size=40))
def test_word_lengths_are_little_endian_32_bit_integers(sizes: list[int]) -> None:
    import struct

    assert conll._lengths(sizes) == struct.pack(f"<{len(sizes)}i", *sizes)


def test_a_word_of_256_bytes_or_more_has_the_same_digest_either_way() -> None:
    for size in (255, 256, 300, 70_000):
        block = b"#begin document (d);\nd 0 0 " + b"w" * size + b" (0)\nd 0 1 x -\n#end document\n"
        plain, arrays = _PlainLines(block), _Lines(block)
        assert plain.words(0, plain.count, 3) == arrays.words(0, arrays.count, 3)
        found = plain.words(0, plain.count, 3)
        assert found is not None and found[2] == size.to_bytes(4, "little") + b"\x01\0\0\0"
