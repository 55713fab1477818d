"""The MUC-6/7 coreference SGML reader, on small documents written here.

The documents follow the examples of the MUC-6 coreference task definition
(v2.3): a chairman and his company, "the company", "it", a MIN on a long NP,
an optional (STATUS="OPT") markable, nested COREF elements.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import corefscore
from corefscore.errors import InputError
from corefscore.io.sgml import TOKEN, read_muc_sgml, read_muc_sgml_text

# Tokens of the first document (line 4 to 6):
#  0 John  1 Smith  2 ,  3 chairman  4 of  5 Acme  6 Corp  7 .  8 ,  9 said
# 10 the  11 company  12 will  13 grow  14 .  15 It  16 hired  17 the
# 18 president  19 of  20 the  21 company  22 .
TWO_DOCS = """\
<DOC>
<DOCNO> wsj-001 </DOCNO>
<TEXT>
<COREF ID="1" MIN="Smith">John Smith</COREF>, <COREF ID="2" REF="1" MIN="chairman">chairman of <COREF ID="3">Acme Corp.</COREF></COREF>, said
<COREF ID="4" REF="3">the company</COREF> will grow. <COREF ID="5" REF="4">It</COREF> hired
<COREF ID="6" REF="1" MIN="president">the president of <COREF ID="7" REF="4" STATUS="OPT">the company</COREF></COREF>.
</TEXT>
</DOC>
Text between documents is not part of either.
<DOC><DOCNO>wsj-002</DOCNO>
<TEXT><p><COREF ID="10" TYPE="IDENT">IBM</COREF>'s
<COREF ID="11" TYPE="IDENT" REF="12">chief</COREF> met <COREF ID="12" REF="13">Ms. Lee</COREF>
and <COREF ID="13" REF="11">she</COREF> left <COREF ID="14" REF="10">it</COREF>.</p></TEXT>
</DOC>
"""  # noqa: E501


def test_two_documents_entities_labels_lines_min_and_optional() -> None:
    corpus = read_muc_sgml_text(TWO_DOCS, source="muc.sgml")
    assert list(corpus.documents) == ["wsj-001", "wsj-002"]
    doc = corpus["wsj-001"]
    assert doc.syntax is not None and doc.syntax.words is not None
    assert len(doc.syntax.words) == 23
    assert doc.syntax.words[5:8] == ("Acme", "Corp", ".")
    assert doc.entities == (
        ((0, 1), (3, 7), (17, 21)),
        ((5, 7), (10, 11), (15, 15), (20, 21)),
    )
    assert doc.labels == ("1", "3")
    assert doc.lines == ((4, 4, 6), (4, 5, 5, 6))
    assert doc.min_spans == (((1, 1), (3, 3), (18, 18)), (None, None, None, None))
    assert doc.optional == ((False, False, False), (False, False, False, True))
    assert doc.source == "muc.sgml"


def test_ref_cycle_and_forward_ref_make_one_component() -> None:
    doc = read_muc_sgml_text(TWO_DOCS)["wsj-002"]
    # IBM 's chief met Ms . Lee and she left it .
    assert doc.syntax is not None
    assert doc.syntax.words == (
        "IBM", "'s", "chief", "met", "Ms", ".", "Lee", "and", "she", "left", "it", ".",
    )  # fmt: skip
    # 11 -> 12 -> 13 -> 11 is a cycle: still one entity, labelled by its first ID.
    assert doc.entities == (((0, 0), (10, 10)), ((2, 2), (4, 6), (8, 8)))
    assert doc.labels == ("10", "11")
    assert doc.lines == ((11, 13), (12, 12, 13))  # file lines, not document lines
    # Neither MIN nor OPT appears in this document.
    assert doc.min_spans == ()
    assert doc.optional == ()


def test_token_rule() -> None:
    text = "The ex-chairman of U.S. Steel's unit, don't (sic) say $3.5 million."
    assert TOKEN.findall(text) == [
        "The", "ex-chairman", "of", "U.S", ".", "Steel", "'s", "unit", ",", "don", "'t",
        "(", "sic", ")", "say", "$", "3.5", "million", ".",
    ]  # fmt: skip


def test_min_is_first_occurrence_of_its_tokens_within_the_mention() -> None:
    text = (
        'the <COREF ID="1" MIN="the company">head of the company and the company board</COREF> .\n'
    )
    doc = read_muc_sgml_text(text, source="x/file.coref.sgml")["file"]
    # the head of the company and the company board .
    assert doc.entities == (((1, 8),),)
    assert doc.min_spans == (((3, 4),),)


def test_file_without_doc_is_named_after_stem(tmp_path: Path) -> None:
    path = tmp_path / "ne-07.sgml"
    path.write_text(
        '<COREF ID="a">Acme</COREF> said <COREF ID="b" REF="a">it</COREF> grew\n'
        "<COREF ID='c' STATUS=OPT>Bob</COREF>\n",
        encoding="utf-8",
    )
    corpus = read_muc_sgml(path)
    assert list(corpus.documents) == ["ne-07"]
    doc = corpus["ne-07"]
    assert doc.entities == (((0, 0), (2, 2)), ((4, 4),))
    assert doc.labels == ("a", "c")
    assert doc.lines == ((1, 1), (2,))
    assert doc.optional == ((False, False), (True,))


def test_gzip_and_tags_across_lines(tmp_path: Path) -> None:
    path = tmp_path / "d.sgml.gz"
    text = (
        '<DOC><DOCNO>\n d1 \n</DOCNO>\n<!-- a\ncomment -->\n<COREF\n ID="1"\n>x y</COREF> z\n'
        "</DOC>\n"
    )
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    doc = read_muc_sgml(path)["d1"]
    assert doc.entities == (((0, 1),),)
    assert doc.lines == ((6,),)


def test_element_boundary_inside_a_token_covers_the_whole_token() -> None:
    doc = read_muc_sgml_text('un<COREF ID="1">believ</COREF>able news')["document"]
    assert doc.entities == (((0, 0),),)


def test_doc_without_docno_is_named_with_a_warning() -> None:
    corpus = read_muc_sgml_text('<DOC><COREF ID="1">A</COREF></DOC>\n<DOC>B</DOC>', source="f.sgml")
    assert list(corpus.documents) == ["f:1", "f:2"]
    assert corpus.warnings == ("f.sgml:1: <DOC> without <DOCNO>; named 'f:1'",
                               "f.sgml:2: <DOC> without <DOCNO>; named 'f:2'")  # fmt: skip


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('a\n<COREF ID="1">A</COREF> <COREF ID="2" REF="9">b</COREF>', 2, "REF='9' names no"),
        ('<COREF ID="1">A</COREF>\n\n<COREF ID="1">b</COREF>', 3, "duplicate COREF ID='1'"),
        ('<COREF ID="1">A</COREF>\n</COREF>', 2, "</COREF> without an open"),
        ('x\n<COREF ID="1">A <COREF ID="2">b</COREF>\nc', 2, "COREF ID='1' is not closed"),
        ('<DOC><DOCNO>d</DOCNO>\n<COREF ID="1">A\n</DOC>', 2, "COREF ID='1' is not closed"),
        ('a\n<COREF TYPE="IDENT">A</COREF>', 2, "COREF element without ID"),
        ('a\n<COREF ID="">A</COREF>', 2, "COREF element without ID"),
        ('a\n<COREF ID="1" MIN="chief">the boss</COREF>', 2, "MIN='chief' of COREF ID='1'"),
        ('a\n<COREF ID="1" MIN="the boss">the\nboss man</COREF>', 2, None),
        ('a\n<COREF ID="1"> , </COREF>', 2, None),
        ('a\n<COREF ID="1"> </COREF>', 2, "COREF ID='1' contains no token"),
        ('a\n<COREF ID="1"/>', 2, "empty COREF element"),
        ('a\n<COREF ID="1" junk>x</COREF>', 2, "malformed COREF attributes 'junk'"),
        ("<DOC><DOCNO>d</DOCNO>\nx\n", 1, "<DOC> is not closed"),
        ("<DOC><DOCNO>d</DOCNO></DOC>\n<DOC>\n<DOC>", 3, "<DOC> inside the document"),
        ("a\n</DOC>", 2, "</DOC> without <DOC>"),
        ('<DOC><DOCNO>d</DOCNO></DOC>\n<COREF ID="1">x</COREF>', 2, "COREF element outside"),
        ('<COREF ID="1">x</COREF>\n<DOC><DOCNO>d</DOCNO></DOC>', 1, "before the first <DOC>"),
        ("<DOC><DOCNO>d</DOCNO></DOC>\n<DOC><DOCNO>d</DOCNO></DOC>", 2, "'d' appears twice"),
        ('x\n<COREF ID="1"\n', 2, "unterminated tag"),
    ],
)
def test_errors_have_path_and_line(text: str, line: int, message: str | None) -> None:
    if message is None:  # these inputs are valid
        read_muc_sgml_text(text, source="bad.sgml")
        return
    with pytest.raises(InputError) as info:
        read_muc_sgml_text(text, source="bad.sgml")
    assert info.value.path == "bad.sgml"
    assert info.value.line == line
    assert message in info.value.message
    assert str(info.value).startswith(f"bad.sgml:{line}: ")


def test_non_utf8_and_binary_files(tmp_path: Path) -> None:
    path = tmp_path / "latin1.sgml"
    path.write_bytes(b'ok\n<COREF ID="1">caf\xe9</COREF>\n')
    with pytest.raises(InputError, match=r"latin1.sgml:2: not valid UTF-8 \(byte 0xe9\)"):
        read_muc_sgml(path)
    path.write_bytes(b"ok\nok\n\x00\n")
    with pytest.raises(InputError, match=r":3: binary data"):
        read_muc_sgml(path)
    with pytest.raises(InputError, match="no such file"):
        read_muc_sgml(tmp_path / "missing.sgml")


# Key and response: the same text, different markup.
# Tokens: 0 The 1 president 2 of 3 the 4 company 5 resigned 6 . 7 He 8 left 9 .
#        10 Acme 11 said 12 it 13 grew 14 .
KEY = """\
<DOC><DOCNO>d</DOCNO>
<COREF ID="1" MIN="president">The president of the company</COREF> resigned.
<COREF ID="2" REF="1">He</COREF> left. <COREF ID="3">Acme</COREF> said
<COREF ID="4" REF="3">it</COREF> grew.
</DOC>
"""
RESPONSE = """\
<DOC><DOCNO>d</DOCNO>
<COREF ID="a">The president</COREF> of the company resigned.
<COREF ID="b" REF="a">He</COREF> left. <COREF ID="c">Acme</COREF> said
<COREF ID="d">it</COREF> grew.
</DOC>
"""


def test_end_to_end_muc_exact_versus_min_span() -> None:
    key = read_muc_sgml_text(KEY, source="key.sgml")
    response = read_muc_sgml_text(RESPONSE, source="response.sgml")
    assert key["d"].entities == (((0, 4), (7, 7)), ((10, 10), (12, 12)))
    assert response["d"].entities == (((0, 1), (7, 7)), ((10, 10),), ((12, 12),))
    # Exact spans: "The president" is not the key's NP, so the key chain
    # {NP, He} is split in two by the response (2 - 2 = 0), and so is
    # {Acme, it}: R = 0/2; the response chain {The president, He} is split by
    # the key: P = 0/1.
    exact = corefscore.score_corpora(key, response, metrics="muc")["muc"]
    assert (exact.recall_num, exact.recall_den) == (0, 2)
    assert (exact.precision_num, exact.precision_den) == (0, 1)
    # MIN-span: "The president" contains MIN "president" and lies within the
    # key NP, so it is its twin: R = (2 - 1 + 2 - 2)/2 = 1/2, P = 1/1.
    muc = corefscore.score_corpora(key, response, metrics="muc", matching="min-span")["muc"]
    assert (muc.recall_num, muc.recall_den) == (1, 2)
    assert (muc.precision_num, muc.precision_den) == (1, 1)
    assert muc.f1 == pytest.approx(2 / 3)


def test_end_to_end_optional_key_mention_without_twin_is_dropped() -> None:
    # Tokens: 0 Acme 1 said 2 its 3 unit 4 and 5 it 6 grew
    key = read_muc_sgml_text(
        '<COREF ID="1">Acme</COREF> said <COREF ID="2" REF="1" STATUS="OPT">its</COREF> '
        'unit and <COREF ID="3" REF="2">it</COREF> grew'
    )
    found = read_muc_sgml_text(
        '<COREF ID="1">Acme</COREF> said <COREF ID="2" REF="1">its</COREF> '
        'unit and <COREF ID="3" REF="2">it</COREF> grew'
    )
    missed = read_muc_sgml_text(
        '<COREF ID="1">Acme</COREF> said its unit and <COREF ID="3" REF="1">it</COREF> grew'
    )
    assert key["document"].optional == ((False, True, False),)
    # Without its twin the optional "its" leaves the key: {Acme, it} against
    # {Acme, it} gives R = 1/1 (not (3 - 2)/2 = 1/2), P = 1/1.
    muc = corefscore.score_corpora(key, missed, metrics="muc")["muc"]
    assert (muc.recall_num, muc.recall_den) == (1, 1)
    assert (muc.precision_num, muc.precision_den) == (1, 1)
    # With its twin it stays and counts: R = 2/2, P = 2/2.
    muc = corefscore.score_corpora(key, found, metrics="muc")["muc"]
    assert (muc.recall_num, muc.recall_den) == (2, 2)
    assert (muc.precision_num, muc.precision_den) == (2, 2)
