"""The CoNLL reader's array path must give the line-by-line reader's corpus
exactly, or hand the file back.

``conll_arrays.read_by_arrays`` reads files over 256 KiB; when it returns a
corpus, every document must equal the line-by-line reader's in every field,
including the bookkeeping ones that equality skips (token count, forms digest,
reading order); when the line-by-line reader raises or warns, the array path
must return ``None`` so that the caller reports it.
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from corefscore.errors import InputError
from corefscore.io import conll
from corefscore.io.conll import _read_blocks, read_conll, read_conll_text
from corefscore.io.conll_arrays import read_by_arrays
from corefscore.model import Corpus, Syntax

from ..conftest import examples, shared_path


def facts(corpus: Corpus) -> list[tuple[object, ...]]:
    return [
        (
            doc_id,
            doc.doc_id,
            doc.entities,
            doc.labels,
            doc.lines,
            doc.reading_order,
            doc.token_count,
            doc.forms_digest,
            doc.source,
        )
        for doc_id, doc in corpus.documents.items()
    ]


def by_lines(blocks: list[bytes]) -> Corpus | str:
    """The line-by-line reader's corpus, or its error (warnings included)."""
    try:
        corpus = _read_blocks(iter(blocks), "f")
    except InputError as exc:
        return str(exc)
    return corpus


def arrays(blocks: list[bytes]) -> Corpus | None:
    """The array path's corpus, without the syntax."""
    found = read_by_arrays(iter(blocks), "f")
    if found is None:
        return None
    assert found[1] is None
    return found[0]


def assert_same(blocks: list[bytes]) -> Corpus | None:
    expected = by_lines(blocks)
    got = arrays(blocks)
    if isinstance(expected, str) or expected.warnings:
        assert got is None, expected
        return None
    if got is not None:
        assert facts(got) == facts(expected)
        assert got.warnings == ()
        assert got.source == expected.source
    return got


LABELS = ["0", "1", "2", "7", "07", "12", "345", "99999999999999999"]


@st.composite
def documents(draw: st.DrawFn, *, clean: bool) -> bytes:
    """A CoNLL text of a few documents; unless ``clean``, with the odd line that
    the array path must refuse or read exactly as the line-by-line reader."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    separator = rng.choice(["\t", "   ", " "])
    semeval = rng.random() < 0.2
    short = rng.choice([0.0, 0.0, 0.0, 0.1, 1.0])
    lines: list[str] = []
    names = [f"d{i}" for i in range(rng.randint(1, 4))]
    if not clean and rng.random() < 0.1:
        names.append(names[0])  # a document id seen twice
    for name in names:
        lines.append(f"#begin document ({name}); part 000")
        size = rng.randint(0, 14)
        fields: list[list[str]] = [[] for _ in range(size)]
        for _ in range(rng.randint(0, 6) if size else 0):
            start = rng.randrange(size)
            end = min(size - 1, start + rng.choice([0, 0, 1, 2, 4]))
            label = rng.choice(LABELS)
            if start == end:
                fields[start].append(f"({label})")
            else:
                fields[start].append(f"({label}")
                fields[end].append(f"{label})")
        for i, items in enumerate(fields):
            rng.shuffle(items)
            # Items run together only where no two numbers would join into one.
            joiner = rng.choice(["|", "|", ""])
            if any(x[-1].isdigit() and y[0].isdigit() for x, y in pairwise(items)):
                joiner = "|"
            coreference = joiner.join(items) if items else rng.choice(["-", "-", "_"])
            word = rng.choice(["w", "Jo", "é", "12", "x-y"])
            head = [str(i + 1), word] if semeval else [name, "0", str(i), word, "NN", "*"]
            if rng.random() < short:
                head = head[:2]  # no word field before the coreference one: no forms digest
            lines.append(separator.join([*head, coreference]))
            if rng.random() < 0.1:
                lines.append("")  # a sentence break
            if rng.random() < 0.05:
                lines.append("# a comment")
        lines.append("#end document")
    if not clean:
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(lines))
            edit = rng.choice(ODD_EDITS)
            lines[k] = edit(lines[k], rng)
    text = "\n".join(lines) + rng.choice(["\n", ""])
    if rng.random() < 0.15:
        text = text.replace("\n", "\r\n")
    return text.encode("utf-8")


def _field(value: str) -> Callable[[str, random.Random], str]:
    """Replace a line's last field."""

    def edit(line: str, rng: random.Random) -> str:
        head = line.rsplit(None, 1)[0] if line.strip() else "x"
        return head + rng.choice([" ", "\t"]) + value

    return edit


ODD_EDITS: list[Callable[[str, random.Random], str]] = [
    _field("(1+2)"),
    _field("(1+23)"),
    _field("1"),
    _field("((1)"),
    _field("(1))"),
    _field("(1 )"),
    _field("(\u0661)"),
    _field("(-1)"),
    _field("(1)|-"),
    _field("|"),
    _field("(123456789012345678)"),
    _field("(0007)"),
    _field("3)"),
    _field("(3"),
    lambda line, rng: line + "\t",
    lambda line, rng: line + " ",
    lambda line, rng: line + "\r",
    lambda line, rng: line + "\x0c",
    lambda line, rng: "\x01" + line,
    lambda line, rng: line + "\x00",
    lambda line, rng: " " + line,
    lambda line, rng: " \t ",
    lambda line, rng: "",
    lambda line, rng: "#end document",
    lambda line, rng: "#begin document (x); part 000",
    lambda line, rng: "stray\t0\t0\tw\tNN\t*\t-",
    lambda line, rng: line.replace("\t", " ", 1),
    lambda line, rng: line.replace("(", "\t(", 1),
]


def blocks_of(text: bytes, cuts: list[int]) -> list[bytes]:
    """The text cut after some of its newlines (how ``iter_blocks`` hands it over)."""
    ends = [i + 1 for i, byte in enumerate(text) if byte == 10]
    chosen = sorted({ends[c % len(ends)] for c in cuts} if ends else set())
    pieces, start = [], 0
    for end in chosen:
        if end > start:
            pieces.append(text[start:end])
            start = end
    if start < len(text):
        pieces.append(text[start:])
    return pieces


cuts = st.lists(st.integers(0, 10_000), max_size=4)


@settings(max_examples=examples(400), deadline=None)
@given(documents(clean=False), cuts)
def test_the_arrays_give_the_line_reader_corpus_or_hand_the_file_back(
    text: bytes, where: list[int]
) -> None:
    assert_same(blocks_of(text, where))


@settings(max_examples=examples(200), deadline=None)
@given(documents(clean=True), cuts)
def test_the_arrays_read_clean_files_themselves(text: bytes, where: list[int]) -> None:
    blocks = blocks_of(text, where)
    assume(not isinstance(by_lines(blocks), str))
    assert assert_same(blocks) is not None


TEXT = (
    "#begin document (a); part 000\n"
    "a\t0\t0\tJohn\t(0)|(12\n"
    "a\t0\t1\tSmith\t12)\n"
    "\n"
    "a\t0\t2\tsaw\t(07\n"
    "a\t0\t3\thim\t(07)|07)|(0)\n"
    "#end document\n"
    "#begin document (b); part 000\n"
    "b\t0\t0\tMary\t(1\n"
    "b\t0\t1\tAnn\t(1\n"
    "b\t0\t2\there\t1)|1)\n"
    "#end document\n"
)


def test_a_small_file_read_by_arrays() -> None:
    corpus = arrays([TEXT.encode()])
    assert corpus is not None
    a, b = corpus["(a); part 000"], corpus["(b); part 000"]
    assert a.entities == (((0, 0), (3, 3)), ((0, 1),), ((3, 3), (2, 3)))
    assert a.labels == ("0", "12", "07")
    assert a.lines == ((2, 6), (3,), (6, 6))
    # Line 6: the one-token mentions (07) and (0), then the closing 07).
    assert a.reading_order == (0, 1, 2, 0, 2)
    assert a.token_count == 4
    # A closing bracket pairs with the latest opening of its label.
    assert b.entities == (((1, 2), (0, 2)),)
    assert facts(corpus) == facts(_read_blocks(iter([TEXT.encode()]), "f"))


@pytest.mark.parametrize(
    ("field", "why"),
    [
        ("(1+2)", "a split antecedent (a warning)"),
        ("(1 )", "white space inside the field"),
        ("(123456789012345678)", "a label of 18 digits"),
        ("1)", "a closing bracket without its opening"),
        ("(1", "an opening bracket never closed"),
        ("((1)", "an opening bracket without its number"),
        ("(1))", "a closing bracket without its number"),
        ("()", "brackets without a number"),
        ("(1)2", "a number without brackets"),
        ("(1)x", "a byte that no item holds"),
    ],
)
def test_the_arrays_hand_back_what_they_do_not_read(field: str, why: str) -> None:
    text = TEXT.replace("Smith\t12)", f"Smith\t12)|{field}" if "(" in field else f"Smith\t{field}")
    assert arrays([text.encode()]) is None, why


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"\x00", "a NUL byte"),
        (b"\xff", "a byte that is not UTF-8"),
        (b"\xc3", "a UTF-8 sequence cut short"),
    ],
)
def test_the_arrays_hand_back_text_the_line_reader_refuses(raw: bytes, why: str) -> None:
    data = TEXT.encode().replace(b"Smith", b"Sm" + raw + b"ith", 1)
    assert arrays([data]) is None, why
    assert isinstance(by_lines([data]), str), why  # the line reader's error


def test_an_empty_block_is_no_line() -> None:
    data = TEXT.encode()
    corpus = arrays([data, b"", data[:0]])
    assert corpus is not None
    assert facts(corpus) == facts(_read_blocks(iter([data]), "f"))


def test_the_arrays_read_text_beyond_ascii() -> None:
    data = TEXT.replace("Smith", "Sm\u00eft\u0127", 1).encode()
    corpus = arrays([data])
    assert corpus is not None
    assert facts(corpus) == facts(_read_blocks(iter([data]), "f"))


def big_file(tmp_path: Path, edit: str = "") -> Path:
    """A file over 256 KiB, which ``read_conll`` reads by arrays."""
    path = tmp_path / "big.conll"
    parts = [TEXT.replace("(a)", f"(a{i})").replace("(b)", f"(b{i})") for i in range(1400)]
    text = "".join(parts)
    if edit:
        text = text.replace("a\t0\t1\tSmith\t12)\n", edit, 1)
    path.write_text(text)
    assert path.stat().st_size > conll._PLAIN_BYTES
    return path


def test_read_conll_reads_a_large_file_by_arrays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = big_file(tmp_path)
    corpus = read_conll(path)
    assert len(corpus) == 2800
    calls: list[int] = []
    original = conll._read_blocks

    def counted(blocks: Iterator[bytes], source: str) -> Corpus:
        calls.append(1)
        return original(blocks, source)

    monkeypatch.setattr(conll, "_read_blocks", counted)
    assert facts(read_conll(path)) == facts(corpus)
    assert calls == []  # the line-by-line reader was not needed
    assert facts(original(conll.iter_blocks(str(path), 1 << 16), str(path))) == facts(corpus)


def test_an_error_in_a_large_file_is_reported_by_the_line_reader(tmp_path: Path) -> None:
    path = big_file(tmp_path, "a\t0\t1\tSmith\t12))\n")
    with pytest.raises(InputError, match=r"big.conll:3: bad coreference field '12\)\)'"):
        read_conll(path)


def test_a_warning_in_a_large_file_is_given_by_the_line_reader(tmp_path: Path) -> None:
    path = big_file(tmp_path, "a\t0\t1\tSmith\t12)|(1+2)\n")
    corpus = read_conll(path)
    assert corpus.warnings == (f"{path}:3: skipped split-antecedent item '(1+2)'",)
    assert corpus["(a0); part 000"].entities[1] == ((0, 1),)


def test_read_conll_text_takes_the_same_paths() -> None:
    text = "".join(TEXT.replace("(a)", f"(a{i})").replace("(b)", f"(b{i})") for i in range(1400))
    assert facts(read_conll_text(text, source="f")) == facts(
        _read_blocks(iter([text.encode()]), "f")
    )


# The syntax: the arrays' columns against the syntax pass (conll.read_syntax).

WORDS = ["w", "Jo", "é", "12", "x-y", "New York", "a\u00a0b", "(", "*"]


@st.composite
def syntax_documents(draw: st.DrawFn) -> bytes:
    """CoNLL-2012 or SemEval-2010 documents with the syntax columns, sentence
    breaks and comments; now and then a field the arrays must hand back."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    separator = rng.choice(["\t", "\t", "   "])
    semeval = rng.random() < 0.25
    odd = rng.random() < 0.3
    lines: list[str] = []
    for d in range(rng.randint(1, 3)):
        lines.append(f"#begin document (d{d}); part 000")
        for _ in range(rng.randint(0, 3)):
            size = rng.randint(1, 6)
            depth = 0
            for i in range(size):
                word = rng.choice(WORDS[:5] if not odd else WORDS)
                pos = rng.choice(["NN", "PRP", "-"]) if rng.random() < 0.9 else "-"
                if i == size - 1:
                    bit = "*" + ")" * depth
                else:
                    opened = rng.randint(0, 2)
                    closed = rng.randint(0, min(depth + opened - 1, 1)) if depth + opened else 0
                    bit = "".join(f"({rng.choice(['S', 'NP'])}" for _ in range(opened))
                    bit += "*" + ")" * closed
                    depth += opened - closed
                if odd and rng.random() < 0.05:
                    bit = rng.choice(["(NP", "*))", "x", "-"])
                named = rng.choice(["*", "(PERSON)", "(GPE*", "*)", "-"])
                coreference = rng.choice(["-", "(0)", "-", "(1)"])
                if semeval:
                    head = str(rng.randint(0, size + (1 if odd else 0)))
                    fields = [str(i + 1), word, word, word, pos, pos, "_", "_", head, head]
                else:
                    fields = [f"d{d}", "0", str(i), word, pos, bit, "-", "-", "-", "-", named]
                if odd and rng.random() < 0.05:
                    fields = fields[: rng.randint(1, len(fields))]
                if odd and rng.random() < 0.05:
                    fields[rng.randrange(len(fields))] = rng.choice(["", " x", "x "])
                lines.append(separator.join([*fields, coreference]))
                if odd and rng.random() < 0.05:
                    lines.append(rng.choice(["# note", "  ", "\t"]))
            lines.append(rng.choice(["", "", " "]))
        lines.append("#end document")
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    return text.encode("utf-8")


def syntax_by_pass(blocks: list[bytes]) -> dict[str, Syntax] | str:
    try:
        return conll.read_syntax(iter(blocks), "f")
    except InputError as exc:
        return str(exc)


@settings(max_examples=examples(400), deadline=None)
@given(syntax_documents(), cuts)
def test_the_arrays_give_the_syntax_pass_columns_or_hand_them_back(
    text: bytes, where: list[int]
) -> None:
    blocks = blocks_of(text, where)
    assume(not isinstance(by_lines(blocks), str))
    found = read_by_arrays(iter(blocks), "f", syntax=True)
    assert found is not None
    _, syntax = found
    expected = syntax_by_pass(blocks)
    if isinstance(expected, str):
        assert syntax is None, expected
    elif syntax is not None:
        assert list(syntax) == list(expected)
        for doc_id, columns in syntax.items():
            assert columns == expected[doc_id], doc_id
            assert columns.sentence_starts == expected[doc_id].sentence_starts


@pytest.mark.parametrize(
    "block",
    [
        b"d 0 0 w NN (S* - - - - * -\nd 0 1 x VB *) - - - - * (0)\n",  # every line whole
        b"d 0 0 w NN (S* - - - - * -\nd 0 1 x VB *) - - - - *",  # the last field ends the block
        b"d\t0\t0\tw\tNN\t*\t-\t-\t-\t-\t*\t-\r\n\nd 0 1 x  VB *  - - - -   *  (0)\n",
        b"d 0 0 w NN (S* - - - - * -\nd 0 1 x\n# note\nd 0 2 y VB *)\n",  # lines without some
        b"d 0 0 w NN * - - - - (0)\r\nd 0 1 x VB * - - - -\t-\r\n",  # field 10 the last
    ],
)
def test_the_columns_of_a_block_are_its_lines_fields(block: bytes) -> None:
    from corefscore.io.conll_arrays import _Block, _columns

    lines = _Block(block)
    wanted = [3, 4, 5, 10]
    expected = [
        fields[c] if c < len(fields) else ""
        for fields in (line.split() for line in block.decode().splitlines())
        if fields and not fields[0].startswith("#")
        for c in wanted
    ]
    assert _columns(lines, lines.token_lines, lines.token_fields, wanted) == expected


def test_the_arrays_read_the_syntax_of_a_plain_file() -> None:
    text = (
        "#begin document (a); part 000\n"
        "a 0 0 John NNP (TOP(S(NP*) - - - - (PERSON) (0)\n"
        "a 0 1 ran VBD (VP*))) - - - - * -\n"
        "\n"
        "a 0 2 He PRP (TOP(S(NP*) - - - - * (0)\n"
        "a 0 3 left VBD (VP*))) - - - - * -\n"
        "#end document\n"
    )
    found = read_by_arrays(iter([text.encode()]), "f", syntax=True)
    assert found is not None and found[1] is not None
    syntax = found[1]["(a); part 000"]
    assert syntax.words == ("John", "ran", "He", "left")
    assert syntax.pos == ("NNP", "VBD", "PRP", "VBD")
    assert syntax.parse == ("(TOP(S(NP*)", "(VP*)))", "(TOP(S(NP*)", "(VP*)))")
    assert syntax.named_entities == ("(PERSON)", "*", "*", "*")
    assert syntax.sentence_starts == (0, 2)
    assert syntax == conll.read_syntax(iter([text.encode()]), "f")["(a); part 000"]


def test_read_conll_with_syntax_reads_large_files_by_arrays(tmp_path: Path) -> None:
    path = big_file(tmp_path)
    by_arrays = read_conll(path, syntax=True)
    by_pass = conll.read_syntax(conll.iter_blocks(str(path)), str(path))
    assert {d: doc.syntax for d, doc in by_arrays.documents.items()} == by_pass
    syntax = by_arrays["(a0); part 000"].syntax
    assert syntax is not None and syntax.words == ("John", "Smith", "saw", "him")


# Real files and perturbations of them: read by arrays (they are over 256 KiB)
# and line by line, the same corpus or the same error.

PERTURBATIONS: dict[str, Callable[[list[str]], list[str]]] = {
    "as is": lambda lines: lines,
    "a token line dropped": lambda lines: lines[:40] + lines[41:],
    "a bracket shifted down a line": lambda lines: _shift_bracket(lines),
    "a document repeated": lambda lines: lines + lines[: lines.index("#end document") + 1],
    "a document renamed": lambda lines: [
        "#begin document (renamed); part 000" if i == 0 else line for i, line in enumerate(lines)
    ],
    "an end line dropped": lambda lines: _without(lines, "#end document"),
    "the last end line dropped": lambda lines: lines[
        : len(lines) - 1 - lines[::-1].index("#end document")
    ],
    "a closing bracket dropped": lambda lines: _drop_closing(lines),
    "tabs as spaces": lambda lines: [line.replace("\t", " ") for line in lines],
    "CRLF line ends": lambda lines: [line + "\r" for line in lines],
}


def _without(lines: list[str], line: str) -> list[str]:
    k = lines.index(line)
    return lines[:k] + lines[k + 1 :]


def _shift_bracket(lines: list[str]) -> list[str]:
    out = list(lines)
    k = next(i for i, line in enumerate(out) if line.endswith(")") and "(" not in line.split()[-1])
    head, field = out[k].rsplit(None, 1)
    out[k] = head + "\t-"
    out[k + 1] = out[k + 1].rsplit(None, 1)[0] + "\t" + field
    return out


def _drop_closing(lines: list[str]) -> list[str]:
    out = list(lines)
    k = next(
        i
        for i, line in enumerate(out)
        if line.split()[-1:]
        and line.split()[-1][-1] == ")"
        and not line.split()[-1].startswith("(")
    )
    out[k] = out[k].rsplit(None, 1)[0] + "\t-"
    return out


@pytest.mark.parametrize("compress", [False, True])
def test_the_size_on_disk_decides_only_when_it_can(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compress: bool
) -> None:
    """Over 256 KiB on disk, a file goes to the arrays unread; a gzipped one,
    whose text is larger than its size on disk, is read ahead as before."""
    path = big_file(tmp_path)
    if compress:
        packed = tmp_path / "big.conll.gz"
        packed.write_bytes(gzip.compress(path.read_bytes()))
        assert packed.stat().st_size < conll._PLAIN_BYTES
        path = packed
    corpus = _read_blocks(conll.iter_blocks(str(path)), str(path))
    seen: list[bool] = []
    original = conll._read

    def spied(*args: object, **kwargs: bool) -> Corpus:
        seen.append(kwargs["large"])
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(conll, "_read", spied)
    monkeypatch.setattr(conll, "_read_blocks", None)  # never the line-by-line reader
    assert facts(read_conll(path)) == facts(corpus)
    assert seen == [not compress]


def read_both(text: str) -> tuple[object, object]:
    def attempt(reader: Callable[[], Corpus]) -> object:
        try:
            corpus = reader()
        except InputError as exc:
            return str(exc)
        return facts(corpus), corpus.warnings

    data = text.encode()
    assert len(data) > conll._PLAIN_BYTES
    by_arrays = attempt(lambda: read_conll_text(text, source="f"))
    by_lines_only = attempt(lambda: _read_blocks(iter([data]), "f"))
    return by_arrays, by_lines_only


@pytest.mark.parametrize("perturbation", sorted(PERTURBATIONS))
def test_perturbed_real_files_read_alike(perturbation: str) -> None:
    path = shared_path("data", "real", "gum", "pairs", "test.key_ontogum.conll")
    lines = path.read_text(encoding="utf-8").split("\n")
    text = "\n".join(PERTURBATIONS[perturbation](lines[:-1])) + "\n"
    by_arrays, by_lines_only = read_both(text)
    assert by_arrays == by_lines_only


_KEYS = st.lists(
    st.one_of(
        st.integers(0, 3),
        st.integers(0, (1 << 16) - 1),
        st.integers(0, (1 << 32) - 1),
        st.integers(-(1 << 40), 1 << 40),
    ),
    max_size=300,
)


@settings(max_examples=examples(200))
@given(keys=st.lists(_KEYS, min_size=1, max_size=3), width=st.integers(0, 300))
def test_the_radix_sorts_give_numpys_stable_orders(keys: list[list[int]], width: int) -> None:
    """``_stable_argsort`` and ``_lexsorted`` sort 16-bit halves by radix where the
    keys allow it: the orders must be numpy's stable ones, ties in place, for keys
    of one value, of 16 or 32 bits, negative or beyond 32 bits (numpy's sort then)."""
    import numpy as np

    from corefscore.io.conll_arrays import _lexsorted, _stable_argsort

    rng = random.Random(width)
    columns = [
        np.array([rng.choice(k) if k else 0 for _ in range(width)], dtype=np.int64) for k in keys
    ]
    for column in columns:
        assert _stable_argsort(column).tolist() == np.argsort(column, kind="stable").tolist()
    assert _lexsorted(*columns).tolist() == np.lexsort(columns).tolist()
