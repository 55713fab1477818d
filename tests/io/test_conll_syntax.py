"""Reading token columns (words, POS, parse bits, named entities, heads) from CoNLL files."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from corefscore.errors import InputError
from corefscore.heads import mention_head
from corefscore.io import read_conll, read_conll_text
from corefscore.io.conll import iter_blocks, syntax_token_lines
from tests.conftest import examples, shared_path

DOC = "(d); part 000"  # the document id of a "#begin document (d); part 000" line

# word, POS, parse bit, dependency head (1-based in the sentence), NE, coreference
SENTENCES = [
    [
        ("The", "DT", "(TOP(S(NP(NP*", "2", "*", "(0"),
        ("president", "NN", "*)", "6", "*", "-"),
        ("of", "IN", "(PP*", "2", "*", "-"),
        ("the", "DT", "(NP*", "5", "(ORG*", "(1"),
        ("company", "NN", "*)))", "3", "*)", "1)|0)"),
        ("said", "VBD", "(VP*", "0", "*", "-"),
        ("it", "PRP", "(NP*))", "6", "*", "(1)"),
        (".", ".", "*))", "6", "*", "-"),
    ],
    [
        ("He", "PRP", "(TOP(S(NP*)", "2", "(PERSON)", "(0)"),
        ("left", "VBD", "(VP*)", "0", "*", "-"),
        (".", ".", "*))", "2", "*", "-"),
    ],
]


def conll2012(
    sentences: list[list[tuple[str, ...]]] = SENTENCES, *, lemma_heads: bool = False
) -> str:
    """A CoNLL-2012 document; with ``lemma_heads`` the lemma field (6) holds the heads."""
    lines = ["#begin document (d); part 000"]
    for sentence in sentences:
        for i, (w, pos, parse, head, ne, coref) in enumerate(sentence):
            lemma = head if lemma_heads else w.lower()
            fields = ["d", "0", str(i), w, pos, parse, lemma, "-", "-", "spk", ne, coref]
            lines.append("\t".join(fields))
        lines.append("")
    lines.append("#end document")
    return "\n".join(lines) + "\n"


def test_conll2012_columns() -> None:
    doc = read_conll_text(conll2012(), syntax=True)[DOC]
    s = doc.syntax
    assert s is not None
    assert s.words == (
        "The",
        "president",
        "of",
        "the",
        "company",
        "said",
        "it",
        ".",
        "He",
        "left",
        ".",
    )
    assert s.pos == ("DT", "NN", "IN", "DT", "NN", "VBD", "PRP", ".", "PRP", "VBD", ".")
    assert s.parse is not None and s.parse[4] == "*)))" and s.parse[8] == "(TOP(S(NP*)"
    assert s.named_entities == ("*", "*", "*", "(ORG*", "*)", "*", "*", "*", "(PERSON)", "*", "*")
    assert s.sentence_starts == (0, 8)
    assert s.dependency_heads is None
    assert doc.entities == (((0, 4), (8, 8)), ((3, 4), (6, 6)))
    # the parse is usable for heads: "The president of the company" -> "president"
    assert mention_head(s, (0, 4)) == 1
    assert mention_head(s, (8, 10)) == 9


def test_syntax_is_off_by_default_and_changes_no_mention() -> None:
    text = conll2012()
    plain = read_conll_text(text)[DOC]
    assert plain.syntax is None
    assert read_conll_text(text, syntax=True)[DOC].entities == plain.entities


def test_head_column_gives_document_positions() -> None:
    doc = read_conll_text(conll2012(lemma_heads=True), head_column=6)[DOC]
    assert doc.syntax is not None
    # sentence 2 starts at token 8: "He" -> "left" (9), "left" -> root
    assert doc.syntax.dependency_heads == (1, 5, 1, 4, 2, -1, 5, 5, 9, -1, 9)
    assert doc.syntax.words is not None and doc.syntax.parse is not None
    assert mention_head(doc.syntax, (5, 6)) == 5


def test_comments_white_space_lines_and_crlf_count_like_the_coreference_pass() -> None:
    text = (
        "#begin document d\r\n"
        "d\t0\t0\tOne\tCD\t-\t(1\r\n"
        "# a comment is not a token\r\n"
        "d\t0\t1\tTwo\tCD\t-\t1)\r\n"
        " \t \r\n"
        "d\t0\t0\tThree\tCD\t-\t(1)\r\n"
        "#end document\r\n"
    )
    doc = read_conll_text(text, syntax=True)["d"]
    assert doc.entities == (((0, 1), (2, 2)),)
    assert doc.syntax is not None
    assert doc.syntax.words == ("One", "Two", "Three")
    assert doc.syntax.sentence_starts == (0, 2)
    assert doc.syntax.parse is None  # all "-": no parse
    lines = syntax_token_lines(iter((text.encode(),)), "<string>")
    assert lines == {"d": [2, 4, 6]}


def semeval(head: str, phead: str, pos: str, ppos: str) -> str:
    rows = [
        ("1", "Nieuwe", "ADJ", "2"),
        ("2", "postmeester", "N", "0"),
        ("", "", "", ""),
        ("1", "Frans", "N", "2"),
        ("2", "vertrekt", "WW", "0"),
    ]
    lines = ["#begin document file_7"]
    for tid, w, tag, h in rows:
        if not tid:
            lines.append("\t" * 16)  # SemEval-2010's sentence separator
            continue
        fields = [tid, w, "-", w.lower()]
        fields += [tag if pos else "-", tag if ppos else "-", "-", "-"]
        fields += [h if head else "-", h if phead else "-", "-", "-", "-", "-", "-", "-"]
        fields.append("(1)" if w == "Frans" else "-")
        lines.append("\t".join(fields))
    lines.append("#end document file_7")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("head", "phead", "pos", "ppos"), [(True, False, True, False), (False, True, False, True)]
)
def test_semeval_layout(head: bool, phead: bool, pos: bool, ppos: bool) -> None:
    text = semeval(
        "x" if head else "", "x" if phead else "", "x" if pos else "", "x" if ppos else ""
    )
    doc = read_conll_text(text, syntax=True)["file_7"]
    s = doc.syntax
    assert s is not None
    assert s.words == ("Nieuwe", "postmeester", "Frans", "vertrekt")
    assert s.pos == ("ADJ", "N", "N", "WW")
    assert s.dependency_heads == (1, -1, 3, -1)
    assert s.sentence_starts == (0, 2)
    assert s.parse is None and s.named_entities is None
    assert doc.entities == (((2, 2),),)


def test_semeval_without_any_heads_has_none() -> None:
    s = read_conll_text(semeval("", "", "x", ""), syntax=True)["file_7"].syntax
    assert s is not None and s.dependency_heads is None


def test_minimal_and_odd_columns_are_left_out() -> None:
    # 3 fields: token number, word, coreference (a SemEval-style response)
    text = "#begin document d\n1\tA\t(0)\n2\tB\t-\n#end document\n"
    s = read_conll_text(text, syntax=True)["d"].syntax
    assert s is not None and s.words == ("A", "B") and s.pos is None
    # LitBank-like: "_" in the parse and NE fields is neither
    text = "#begin document d\n" + "".join(
        f"d\t0\t{i}\tw{i}\t_\t_\t_\t_\t_\t_\t_\t_\t{c}\n" for i, c in enumerate(["(0)", ""])
    )
    s = read_conll_text(text, syntax=True)["d"].syntax
    assert s is not None
    assert (s.words, s.pos, s.parse, s.named_entities) == (("w0", "w1"), None, None, None)


def test_an_empty_document_has_empty_syntax() -> None:
    s = read_conll_text("#begin document d\n#end document\n", syntax=True)["d"].syntax
    assert s is not None and s.words is None and s.sentence_starts == ()


def replace_field(text: str, line: int, index: int, value: str) -> str:
    lines = text.split("\n")
    fields = lines[line - 1].split("\t")
    fields[index] = value
    lines[line - 1] = "\t".join(fields)
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("line", "index", "value", "message", "where"),
    [
        (11, 5, "*))", "closes a constituent that was never opened", 11),
        (3, 5, "(NP", "bad parse bit '\\(NP'", 3),
        (9, 5, "*)", "1 constituent\\(s\\) still open at the end of the sentence", 9),
        (3, 6, "two", "dependency head 'two' is not a token number", 3),
        (12, 6, "4", "dependency head '4' is beyond the sentence's 3 tokens", 12),
        (4, 6, "-1", "dependency head '-1' is not a token number", 4),
    ],
)
def test_bad_syntax_is_an_input_error_at_its_line(
    line: int, index: int, value: str, message: str, where: int
) -> None:
    text = replace_field(conll2012(lemma_heads=True), line, index, value)
    with pytest.raises(InputError, match=message) as err:
        read_conll_text(text, source="t.conll", head_column=6)
    assert (err.value.path, err.value.line) == ("t.conll", where)
    assert str(err.value).startswith(f"t.conll:{where}: ")


def test_a_missing_head_field_is_an_input_error() -> None:
    text = "#begin document d\nd\t0\t0\tw\tNN\t-\t2\t(0)\nd\t0\t1\tw\t(0)\n#end document\n"
    with pytest.raises(InputError, match=r"no field 6 .* on this line of 5 fields") as err:
        read_conll_text(text, source="t.conll", head_column=6)
    assert err.value.line == 3


def test_read_conll_reads_files_and_gzip(tmp_path: Path) -> None:
    plain = tmp_path / "k.conll"
    plain.write_text(conll2012())
    packed = tmp_path / "k.conll.gz"
    packed.write_bytes(gzip.compress(conll2012().encode()))
    for path in (plain, packed):
        s = read_conll(path, syntax=True)[DOC].syntax
        assert s is not None and s.words is not None and len(s.words) == 11


REAL = [
    ("gum", "pairs", "test.key_gum.conll"),
    ("gum", "pairs", "test.resp_xrenner.conll"),
    ("litbank", "key", "1023_bleak_house_brat.conll"),
    ("dutchcoref_knack", "key", "knack_file7.gold.conll"),
    ("dutchcoref_knack", "response", "knack_file7.dutchcoref.conll"),
    ("model_based_coref_wiki", "response", "lee.wiki-grounded-output.conll"),
    ("model_based_coref_wiki", "response", "aralikatte.wiki-grounded-output.conll"),
    ("model_based_coref_wiki", "response", "clark.wiki-grounded-output.conll"),
]


@pytest.mark.parametrize("parts", REAL, ids=["/".join(p) for p in REAL])
def test_real_files_the_syntax_pass_counts_the_same_tokens(parts: tuple[str, ...]) -> None:
    path = str(shared_path("data", "real", *parts))
    plain = read_conll(path)
    with_syntax = read_conll(path, syntax=True)
    token_lines = syntax_token_lines(iter_blocks(path), path)
    assert list(token_lines) == list(plain.documents)
    checked = 0
    for doc in plain:
        lines = token_lines[doc.doc_id]
        syntax = with_syntax[doc.doc_id].syntax
        assert with_syntax[doc.doc_id].entities == doc.entities
        assert syntax is not None and syntax.words is not None
        assert len(syntax.words) == len(lines)
        # The coreference pass records the line of each mention's last token.
        for entity, entity_lines in zip(doc.entities, doc.lines):
            for (_, end), line in zip(entity, entity_lines):
                assert lines[end] == line
                checked += 1
    assert checked == sum(doc.mention_count for doc in plain) > 0


def test_real_semeval_key_has_its_predicted_dependency_heads() -> None:
    path = shared_path("data", "real", "dutchcoref_knack", "key", "knack_file7.gold.conll")
    s = read_conll(path, syntax=True)["file_7"].syntax
    assert s is not None and s.words is not None and s.dependency_heads is not None
    assert len(s.words) == 151 and len(s.sentence_starts) == 11
    # "Nieuwe postmeester" / "Frans Rombouts verdwijnt ...": PHEAD 2, 0 / 3, 1, 0
    assert s.dependency_heads[:5] == (1, -1, 4, 2, -1)
    assert s.words[mention_head(s, (2, 3))] == "Frans"


@settings(max_examples=examples(500), deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["a", "bc", " ", "\t", "\n", "\r", "\x0b", "\x0c", "\xa0", "\u2003", "\x85"]
        ),
        max_size=30,
    ).map("".join)
)
def test_padded_fields_are_found_as_strip_finds_them(text: str) -> None:
    from corefscore.io.conll import _PADDED_FIELD

    padded = any(f != f.strip() for line in text.split("\n") for f in line.split("\t"))
    assert bool(_PADDED_FIELD().search(text)) == padded


def _columns(text: str, *, flat: bool) -> tuple[int, list[tuple[str, ...]]]:
    from corefscore.io.conll import _SyntaxBuilder

    builder = _SyntaxBuilder("t.conll", None)
    builder.count = text.count("\n") + 1
    if not (flat and builder._split_flat(text)):
        builder._split_rows(text)
    return builder.shortest, [builder._field(i) for i in range(builder.shortest)]


FIELD = st.sampled_from(["a", "bc", "", "\x00", "\xa0", " ", "\r", "x y", "\u2003"])


@settings(max_examples=examples(500), deadline=None)
@given(
    st.lists(st.lists(FIELD, min_size=1, max_size=5), min_size=1, max_size=6),
    st.sampled_from(["\t", " ", "  "]),
)
@example([["a", "b", "\x00"], ["c"]], " ")  # a field that looks like the marker
@example([["a", "b", ""], ["c"]], "\t")
def test_the_one_call_split_gives_the_row_by_row_columns(
    rows: list[list[str]], separator: str
) -> None:
    # Whatever the lines (ragged, padded, with the markers themselves in them),
    # the columns are those of splitting each line, or the one-call split declines.
    text = "\n".join(separator.join(row) for row in rows)
    assert _columns(text, flat=True) == _columns(text, flat=False)


def test_the_one_call_split_is_taken_for_regular_lines() -> None:
    from corefscore.io.conll import _SyntaxBuilder

    for separator in ("\t", "   "):
        builder = _SyntaxBuilder("t.conll", None)
        text = "\n".join(separator.join(["d", "0", str(i), f"w{i}", "-"]) for i in range(4))
        builder.count = 4
        assert builder._split_flat(text)
        assert builder._field(3) == ("w0", "w1", "w2", "w3")


def _walk_line_by_line(blocks: list[bytes]) -> list[tuple[str, list[int], list[int], list[bytes]]]:
    """The syntax pass' walk, one line at a time: what the one-scan walk must give."""
    from corefscore.io.conll import _BEGIN, _END

    out: list[tuple[str, list[int], list[int], list[bytes]]] = []
    current: tuple[str, list[int], list[int], list[bytes]] | None = None
    new_sentence = True
    lineno = 0
    for block in blocks:
        lines = block.split(b"\n")
        if block.endswith(b"\n"):
            lines.pop()
        for raw in lines:
            lineno += 1
            plain = raw[:1] not in {b"", b"#", b"\r", b" ", b"\t", b"\x0b", b"\x0c"}
            if current is None:
                match = _BEGIN.match(raw.rstrip(b"\r").decode()) if raw[:1] == b"#" else None
                if match:
                    current = (match.group(1).strip(), [], [], [])
                    new_sentence = True
                continue
            raw = raw if plain else raw.rstrip(b"\r")
            if not plain and not raw.strip():
                new_sentence = True
            elif not plain and raw[:1] == b"#":
                if _END.search(raw.decode()):
                    out.append(current)
                    current = None
            else:
                if new_sentence:
                    current[2].append(len(current[1]))
                    new_sentence = False
                current[1].append(lineno)
                current[3].append(raw)
    if current is not None:
        out.append(current)
    return out


LINE = st.sampled_from(
    [
        "#begin document (d); part 000",
        "#begin document (e); part 001",
        "#end document",
        "# a comment",
        "",
        "\r",
        "   ",
        "\x0b",
        "d 0 0 w NN * (0)",
        "d\t0\t1\tw\tNN\t*\t-",
        "d 0 2 w NN * -\r",
        " d 0 3 w NN * -",
        "\td 0 4 w NN * 0)",
    ]
)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(LINE, max_size=25), st.data(), st.booleans())
def test_the_walk_finds_the_lines_a_line_by_line_walk_finds(
    lines: list[str], data: st.DataObject, final_break: bool
) -> None:
    from corefscore.io.conll import _walk

    text = "\n".join(lines) + ("\n" if final_break and lines else "")
    raw = text.encode()
    # Cut into blocks of whole lines, as iter_blocks does.
    breaks = [i + 1 for i, c in enumerate(raw) if c == 10 and i + 1 < len(raw)]
    cuts = sorted(data.draw(st.sets(st.sampled_from(breaks))) if breaks else set())
    blocks = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)])] or [b""]
    walked = [
        (doc_id, b.line_numbers, b.sentence_starts, b"\n".join(b.lines).split(b"\n"))
        for doc_id, b in _walk(blocks, "t.conll", None)
    ]
    expected = [
        (doc_id, numbers, starts, rows if rows else [b""])
        for doc_id, numbers, starts, rows in _walk_line_by_line(blocks)
    ]
    assert walked == expected
