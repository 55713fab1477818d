"""Universal Anaphora (UA) CoNLL-U Plus reader: hand-written documents, every error
at its line, detection, and the UA scorer's own test files when they are present."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from corefscore.errors import InputError, UsageError
from corefscore.io import read_corpus
from corefscore.io.conll import FormsDigest
from corefscore.io.detect import detect_format, format_from_content, format_from_name
from corefscore.io.ua import UABridge, UAMarkable, read_ua, read_ua_text
from corefscore.model import Document
from corefscore.tokens import check_shared_tokens

HEADER = (
    "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC "
    "IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM"
)


def row(word_id: int, form: str, identity: str = "_", bridging: str = "_", dd: str = "_") -> str:
    """A 15-column token line, tab-separated."""
    return "\t".join([str(word_id), form, *["_"] * 8, identity, bridging, dd, "_", "_"])


def mark(entity: str, markable: str, *more: str) -> str:
    """The attributes of an opening: EntityID, MarkableID, then ``more`` items."""
    return "|".join([f"EntityID={entity}", f"MarkableID={markable}", *more])


def doc_text(*lines: str, doc_id: str = "d") -> str:
    return "\n".join([HEADER, f"# newdoc id = {doc_id}", *lines, ""])


# "John met Mary. They bought a house. The door was red. It rained."
# Line numbers in the comments: errors and `lines` refer to them.
STORY = "\n".join(
    [
        HEADER,  # 1
        "# newdoc id = story",  # 2
        "# text = John met Mary .",  # 3
        row(1, "John", f"({mark('1', 'm1', 'Min=1', 'ElementOf=3')})"),  # 4, token 0
        row(2, "met"),  # 5
        row(3, "Mary", f"({mark('2', 'm2', 'ElementOf=3', 'SemType=dn')})"),  # 6, token 2
        row(4, "."),  # 7
        "",  # 8
        row(1, "They", f"({mark('3', 'm3')})"),  # 9, token 4
        row(2, "bought"),  # 10
        row(3, "a", f"({mark('4', 'm4', 'Min=8')}"),  # 11, token 6
        row(4, "house", ")"),  # 12, token 7
        row(5, "."),  # 13
        "",  # 14
        row(1, "The", f"({mark('5', 'm5')}", "(MarkableID=m5|Rel=part-of|MentionAnchor=m4)"),  # 15
        row(2, "door", ")"),  # 16, token 10
        row(3, "was"),  # 17
        row(4, "red"),  # 18
        row(5, "."),  # 19
        "",  # 20
        row(1, "It", f"({mark('6-Pseudo', 'm6')})"),  # 21, token 14
        row(2, "rained"),  # 22
        row(3, "."),  # 23
        "",
    ]
)
STORY_WORDS = "John met Mary . They bought a house . The door was red . It rained .".split()


def test_story_exactly() -> None:
    corpus = read_ua_text(STORY, source="story.ua")
    assert list(corpus.documents) == ["story"]
    assert corpus.warnings == ()
    doc = corpus["story"]
    assert doc.entities == (((0, 0),), ((2, 2),), ((4, 4),), ((6, 7),), ((9, 10),))
    assert doc.labels == ("1", "2", "3", "4", "5")
    assert doc.lines == ((4,), (6,), (9,), (11,), (15,))
    assert doc.min_spans == (((0, 0),), (None,), (None,), ((7, 7),), (None,))
    assert doc.split_antecedents == (None, None, frozenset({((0, 0),), ((2, 2),)}), None, None)
    assert doc.non_referring == ((14, 14),)
    assert doc.bridging == (((9, 10), (6, 7)),)
    assert doc.pieces == ()
    assert doc.source == "story.ua"
    assert doc.syntax is None
    assert doc.token_count == 17
    digest = FormsDigest()
    digest.add_words(STORY_WORDS)
    assert doc.forms_digest == digest.value


def test_story_annotations_keep_what_a_writer_needs() -> None:
    doc = read_ua_text(STORY, source="story.ua")["story"]
    notes = doc.annotations
    assert notes["ua_layer"] == "identity"
    assert notes["ua_columns"] == tuple(HEADER.split("=", 1)[1].split())
    markables = notes["ua_markables"]
    assert [[m.markable_id for m in group] for group in markables] == [
        ["m1"],
        ["m2"],
        ["m3"],
        ["m4"],
        ["m5"],
    ]
    assert markables[0][0] == UAMarkable("m1", "1", ("3",), (0, 0), (), None, 4)
    assert markables[1][0] == UAMarkable("m2", "2", ("3",), None, ("SemType=dn",), None, 6)
    assert notes["ua_non_referring"] == (UAMarkable("m6", "6-Pseudo", (), None, (), None, 21),)
    assert notes["ua_bridging"] == (UABridge("m5", "m4", ("Rel=part-of",), 15),)


def test_file_plain_and_gzipped_and_through_read_corpus(tmp_path: Path) -> None:
    plain = tmp_path / "story.CONLL"
    plain.write_text(STORY)
    packed = tmp_path / "story.conllu.gz"
    packed.write_bytes(gzip.compress(STORY.encode()))
    expected = read_ua_text(STORY, source=str(plain))["story"]
    assert read_ua(plain)["story"] == expected
    assert read_ua(packed)["story"].entities == expected.entities
    # Content decides, whatever the name says.
    assert detect_format(plain) == "ua"
    assert detect_format(packed) == "ua"
    assert read_corpus(plain)["story"] == expected


def test_nesting_and_every_bracket_form() -> None:
    text = doc_text(
        row(1, "the", f"({mark('1', 'a')}({mark('2', 'b')}"),  # token 0: two openings
        row(2, "man", ")"),  # token 1: closes b, the last opened
        row(3, "'s"),
        row(4, "dog", ")"),  # token 3: closes a
        row(5, "x", f"({mark('3', 'c')}"),  # token 4
        row(6, "y", f"({mark('4', 'd')}"),  # token 5
        row(7, "z", "))"),  # token 6: closes d, then c
        row(8, "p", f"({mark('5', 'e')}({mark('6', 'f')})"),  # token 7: (A(B)
        row(9, "q", ")"),  # token 8: closes e
        row(10, "r", f"({mark('7', 'g')}"),  # token 9
        row(11, "s", f"({mark('8', 'h')}))"),  # token 10: the UA guidelines' (...))
        row(12, "t", f"({mark('1', 'i')}"),  # token 11
        row(13, "u", f")({mark('2', 'j')})"),  # token 12: a closer, then an opening
    )
    doc = read_ua_text(text)["d"]
    assert doc.entities == (
        ((0, 3), (11, 12)),
        ((0, 1), (12, 12)),
        ((4, 6),),
        ((5, 6),),
        ((7, 8),),
        ((7, 7),),
        ((9, 10),),
        ((10, 10),),
    )
    assert doc.labels == ("1", "2", "3", "4", "5", "6", "7", "8")
    # A markable's line is the line of its opening.
    assert doc.lines == ((3, 14), (3, 15), (7,), (8,), (10,), (10,), (12,), (13,))


def test_entity_order_is_first_opening_and_mentions_in_opening_order() -> None:
    text = doc_text(
        row(1, "a", f"({mark('9', 'x1')}"),  # token 0, opened first, closed last
        row(2, "b", f"({mark('5', 'x2')})"),  # token 1
        row(3, "c", f")({mark('9', 'x3')})"),  # token 2
    )
    doc = read_ua_text(text)["d"]
    assert doc.labels == ("9", "5")
    assert doc.entities == (((0, 2), (2, 2)), ((1, 1),))


def test_pseudo_markables_are_non_referring_in_file_order() -> None:
    text = doc_text(
        row(1, "It", f"({mark('7-Pseudo', 'p1')})"),
        row(2, "John", f"({mark('1', 'j')})"),
        row(3, "there", f"({mark('8-Pseudo', 'p2')}"),
        row(4, "it", f"({mark('7-Pseudo', 'p3')}))"),
    )
    doc = read_ua_text(text)["d"]
    assert doc.entities == (((1, 1),),)
    assert doc.labels == ("1",)
    # Every markable of a -Pseudo entity, by opening, not by entity.
    assert doc.non_referring == ((0, 0), (2, 3), (3, 3))
    assert [m.markable_id for m in doc.annotations["ua_non_referring"]] == ["p1", "p2", "p3"]


def test_a_pseudo_spelled_otherwise_is_referring() -> None:
    # The UA scorer knows only the "-Pseudo" ending; "6_Pseudo" is an ordinary id.
    doc = read_ua_text(doc_text(row(1, "It", f"({mark('6_Pseudo', 'p')})")))["d"]
    assert doc.labels == ("6_Pseudo",)
    assert doc.non_referring == ()


SPLITS = doc_text(
    row(1, "John", f"({mark('1', 'j1', 'ElementOf=4')})"),  # token 0
    row(2, "and"),
    row(3, "Mary", f"({mark('2', 'm1', 'ElementOf=4')})"),  # token 2
    row(4, "met"),
    row(5, "Bill", f"({mark('3', 'b1', 'ElementOf=5')})"),  # token 4: a singleton
    row(6, ";"),
    row(7, "the", f"({mark('4', 't1', 'ElementOf=5')}"),  # token 6: a plural that is
    row(8, "couple", ")"),  # an element of a plural
    row(9, "and"),
    row(10, "he", f"({mark('3', 'b2')})"),  # token 9
    row(11, "all", f"({mark('5', 'a1')})"),  # token 10: John, Mary and Bill
    row(12, "John", f"({mark('1', 'j2')})"),  # token 11
)


def test_split_antecedents_recursive_with_a_singleton_member() -> None:
    doc = read_ua_text(SPLITS)["d"]
    assert doc.labels == ("1", "2", "3", "4", "5")
    john, mary, bill = ((0, 0), (11, 11)), ((2, 2),), ((4, 4), (9, 9))
    assert doc.entities == (john, mary, bill, ((6, 7),), ((10, 10),))
    assert doc.split_antecedents == (
        None,
        None,
        None,
        frozenset({john, mary}),
        # Entity 4 has elements of its own: its members replace it.
        frozenset({john, mary, bill}),
    )
    assert doc.annotations["ua_markables"][3][0].element_of == ("5",)


def test_split_antecedent_members_may_be_singletons_or_non_referring() -> None:
    text = doc_text(
        row(1, "Sue", f"({mark('1', 's', 'ElementOf=3,9')})"),  # also of a missing entity
        row(2, "it", f"({mark('2-Pseudo', 'p', 'ElementOf=3')})"),
        row(3, "both", f"({mark('3', 'b')})"),
    )
    corpus = read_ua_text(text, source="s.ua")
    doc = corpus["d"]
    assert doc.entities == (((0, 0),), ((2, 2),))
    assert doc.split_antecedents == (None, frozenset({((0, 0),), ((1, 1),)}))
    assert doc.non_referring == ((1, 1),)
    assert corpus.warnings == (
        "s.ua:3: document 'd': markable 's' is an element of entity '9', which has no "
        "markable in the document; ignored (as the UA scorer ignores it)",
    )


def test_element_of_a_missing_entity_only_warns() -> None:
    corpus = read_ua_text(doc_text(row(1, "x", f"({mark('1', 'x', 'ElementOf=7')})")))
    assert corpus["d"].split_antecedents == ()
    assert len(corpus.warnings) == 1


def test_no_element_of_means_no_split_antecedents() -> None:
    assert read_ua_text(doc_text(row(1, "x", f"({mark('1', 'x')})")))["d"].split_antecedents == ()


def test_bridging_pairs_replaced_and_skipped() -> None:
    text = doc_text(
        row(1, "a", f"({mark('1', 'h')}"),  # token 0, line 3
        row(2, "house", ")"),
        row(3, "the", f"({mark('2', 'd')}", "(MarkableID=d|MentionAnchor=h)"),  # line 5
        row(4, "door", ")", "(MarkableID=d|MentionAnchor=r)"),  # line 6: replaces line 5
        row(5, "roof", f"({mark('3', 'r')})", "(MarkableID=r|MentionAnchor=nowhere)"),  # 7
        row(6, "it", f"({mark('4-Pseudo', 'i')})", "(MarkableID=i|MentionAnchor=h)"),  # 8
    )
    corpus = read_ua_text(text, source="b.ua")
    doc = corpus["d"]
    # The first anaphor keeps its place with its replacing antecedent; bridging
    # markables may be non-referring.
    assert doc.bridging == (((2, 3), (4, 4)), ((5, 5), (0, 1)))
    assert [(b.anaphor, b.anchor, b.line) for b in doc.annotations["ua_bridging"]] == [
        ("d", "r", 6),
        ("i", "h", 8),
    ]
    assert corpus.warnings == (
        "b.ua:6: document 'd': a second bridging antecedent 'r' for markable 'd' replaces "
        "'h' (line 5), as the UA scorer does",
        "b.ua:7: document 'd': bridging pair ('r', antecedent 'nowhere') skipped: 'nowhere' "
        "is not a markable of the document (the UA scorer skips it too)",
    )


def test_several_bridging_items_in_one_cell() -> None:
    text = doc_text(
        row(1, "a", f"({mark('1', 'a')})"),
        row(2, "b", f"({mark('2', 'b')})"),
        row(
            3,
            "c",
            f"({mark('3', 'c')})",
            "(MarkableID=c|MentionAnchor=a)(MarkableID=b|MentionAnchor=a)",
        ),
    )
    assert read_ua_text(text)["d"].bridging == (((2, 2), (0, 0)), ((1, 1), (0, 0)))


DEIXIS = doc_text(
    row(1, "John", f"({mark('1', 'm1')})", "_", f"({mark('1-DD', 'dd1')}"),  # token 0
    row(2, "left", "_", "bad-bridging-cell(", ")"),  # token 1
    row(3, "That", f"({mark('2', 'm2')})", "_", f"({mark('1-DD', 'dd2')})"),  # token 2
    row(4, "and", "_", "_", f"({mark('2-DD', 'dd3', 'ElementOf=3-DD')})"),  # token 3
    row(5, "this", "_", "_", f"({mark('4-DD', 'dd4', 'ElementOf=3-DD')})"),  # token 4
    row(6, "both", "_", "_", f"({mark('3-DD', 'dd5')})"),  # token 5
    row(7, "it", "_", "_", f"({mark('9-Pseudo', 'dd6')})"),  # token 6
)


def test_discourse_deixis_layer() -> None:
    doc = read_ua_text(DEIXIS, layer="discourse_deixis")["d"]
    assert doc.labels == ("1-DD", "2-DD", "4-DD", "3-DD")
    assert doc.entities == (((0, 1), (2, 2)), ((3, 3),), ((4, 4),), ((5, 5),))
    assert doc.split_antecedents == (None, None, None, frozenset({((3, 3),), ((4, 4),)}))
    assert doc.non_referring == ((6, 6),)
    # BRIDGING is not read on this layer (its cell here is malformed).
    assert doc.bridging == ()
    assert doc.annotations["ua_layer"] == "discourse_deixis"
    with pytest.raises(InputError, match="bridging item"):
        read_ua_text(DEIXIS, layer="identity")
    identity = read_ua_text(DEIXIS.replace("bad-bridging-cell(", "_"), layer="identity")["d"]
    assert identity.entities == (((0, 0),), ((2, 2),))
    assert identity.labels == ("1", "2")


def test_space_separated_lines_read_as_tab_separated() -> None:
    spaced = "\n".join(
        "   ".join(line.split("\t")) if "\t" in line else line for line in STORY.split("\n")
    )
    assert "\t" not in spaced
    assert read_ua_text(spaced, source="story.ua") == read_ua_text(STORY, source="story.ua")
    assert read_ua_text(spaced)["story"].forms_digest == read_ua_text(STORY)["story"].forms_digest


def test_columns_found_by_name_or_at_the_scorers_positions() -> None:
    reordered = "\n".join(
        [
            "# global.columns = ID IDENTITY FORM",
            "# newdoc id = d",
            "1\t(EntityID=1|MarkableID=a\tJohn",
            "2\t)\tSmith",
        ]
    )
    doc = read_ua_text(reordered)["d"]
    assert doc.entities == (((0, 1),),)
    digest = FormsDigest()
    digest.add_words(["John", "Smith"])
    assert doc.forms_digest == digest.value
    # Without '# global.columns': FORM 1, IDENTITY 10, BRIDGING 11 (0-based).
    headless = read_ua_text("\n".join(STORY.split("\n")[1:]))["story"]
    story = read_ua_text(STORY)["story"]
    for name in ("entities", "labels", "min_spans", "split_antecedents", "non_referring"):
        assert getattr(headless, name) == getattr(story, name)
    assert headless.bridging == story.bridging
    assert headless.forms_digest == story.forms_digest
    assert headless.annotations["ua_columns"] is None


def test_without_a_form_column_tokens_are_counted_but_not_fingerprinted() -> None:
    text = "# global.columns = ID IDENTITY\n# newdoc id = d\n1 (EntityID=1|MarkableID=a)\n2 _\n"
    doc = read_ua_text(text)["d"]
    assert doc.token_count == 2
    assert doc.forms_digest is None
    assert read_ua_text(text, syntax=True)["d"].syntax.words is None  # type: ignore[union-attr]


def test_discontinuous_markable_is_one_mention_in_pieces() -> None:
    text = doc_text(
        row(1, "The", f"({mark('1', 'x', 'Min=2')}"),  # token 0
        row(2, "man", ")"),  # token 1
        row(3, ","),
        row(4, "tall", f"({mark('1', 'x')})"),  # token 3: the same MarkableID again
        row(5, "he", f"({mark('1', 'y')})"),  # token 4
        row(6, "a", f"({mark('2', 'z')})"),  # token 5
        row(7, "b", f"({mark('2', 'z')})"),  # token 6: adjacent parts: one piece
    )
    doc = read_ua_text(text)["d"]
    assert doc.entities == (((0, 3), (4, 4)), ((5, 6),))
    assert doc.pieces == ((((0, 1), (3, 3)), None), (None,))
    assert doc.lines == ((3, 7), (8,))
    assert doc.min_spans == (((1, 1), None), (None,))


def test_documents_count_tokens_from_zero_and_keep_syntax_when_asked() -> None:
    text = "\n".join(
        [
            HEADER,
            "# newdoc id = A",
            row(1, "x", f"({mark('1', 'a', 'Min=2')}"),
            row(2, "y", ")"),
            "",
            row(1, "z"),
            "# newdoc id = B",
            row(1, "u"),
            row(2, "v", f"({mark('1', 'a', 'Min=2-2')})"),  # a MarkableID per document
            "",
        ]
    )
    corpus = read_ua_text(text, syntax=True)
    a, b = corpus["A"], corpus["B"]
    assert (a.entities, a.min_spans, a.token_count) == ((((0, 1),),), (((1, 1),),), 3)
    assert (b.entities, b.min_spans, b.token_count) == ((((1, 1),),), (((1, 1),),), 2)
    assert a.syntax is not None and b.syntax is not None
    assert a.syntax.words == ("x", "y", "z")
    assert a.syntax.sentence_starts == (0, 2)
    assert a.syntax.token_lines == (3, 4, 6)
    assert b.syntax.sentence_starts == (0,)


def test_file_without_newdoc_is_one_document_named_by_its_place() -> None:
    text = "\n".join([HEADER, row(1, "x", f"({mark('1', 'a')})"), "", row(1, "y")])
    corpus = read_ua_text(text, source="f.ua")
    assert list(corpus.documents) == ["1"]
    assert corpus["1"].token_count == 2
    assert corpus.warnings == (
        "f.ua:2: no '# newdoc id = ...' before the first sentence; document named '1' "
        "(its place in the file)",
    )


def test_tokens_are_checked_between_key_and_response() -> None:
    key = read_ua_text(STORY, source="key.ua")["story"]
    fewer = STORY.replace(row(4, "red") + "\n", "")
    assert fewer != STORY
    response = read_ua_text(fewer, source="response.ua")["story"]
    with pytest.raises(InputError, match="key and response tokens differ"):
        check_shared_tokens(key, response, [])
    warnings: list[str] = []
    check_shared_tokens(key, read_ua_text(STORY, source="response.ua")["story"], warnings)
    assert warnings == []


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (
            [row(1, "a"), "1\ta\t_\t_\t_\t_\t_\t_\t_\t_\t_"],
            4,
            "token line has 11 tab-separated field(s); its BRIDGING column is field 12",
        ),
        (["1 a _ _"], 3, "token line has 4 space-separated field(s); its BRIDGING column"),
        ([row(1, "a", ")")], 3, "')' in IDENTITY cell ')' closes no open markable in document 'd'"),
        (
            [row(1, "a", f"({mark('1', 'a')})"), row(2, "b", "))")],
            4,
            "closes no open markable",
        ),
        (
            [row(1, "a", f"({mark('1', 'x')}"), row(2, "b")],
            3,
            "markable 'x' opened here is never closed in document 'd'",
        ),
        ([row(1, "a", "(EntityID=1)")], 3, "markable opening '(EntityID=1' has no MarkableID"),
        ([row(1, "a", "(MarkableID=m|EntityId=1)")], 3, "has no EntityID"),
        ([row(1, "a", "()")], 3, "markable opening '(' has no MarkableID"),
        ([row(1, "a", "x(EntityID=1|MarkableID=m)")], 3, "bad IDENTITY cell"),
        (
            [row(1, "a", f"({mark('1', 'x', 'Min=one')})")],
            3,
            "bad Min value 'one' of markable 'x': expected N or N,M",
        ),
        ([row(1, "a", f"({mark('1', 'x', 'Min=0')})")], 3, "bad Min value '0'"),
        ([row(1, "a", f"({mark('1', 'x', 'Min=1,2,3')})")], 3, "bad Min value '1,2,3'"),
        (
            [row(1, "a"), row(2, "b", f"({mark('1', 'x', 'Min=2,1')})")],
            4,
            "bad Min value '2,1'",
        ),
        (
            [row(1, "a"), row(2, "b", f"({mark('1', 'x', 'Min=1')}"), row(3, "c", ")")],
            4,
            "Min=1 (tokens 1..1, 1-based) lies outside markable 'x' (tokens 2..3) in document 'd'",
        ),
        (
            [row(1, "a", f"({mark('1', 'x')})"), row(2, "b", f"({mark('2', 'x')})")],
            4,
            "MarkableID 'x' opened again with EntityID '2'; its opening at line 3 has EntityID '1'",
        ),
        (
            [row(1, "a", f"({mark('1', 'x')}"), row(2, "b", f"({mark('1', 'x')})")],
            4,
            "MarkableID 'x' opened again while a part of it is still open (it was first "
            "opened at line 3)",
        ),
        (
            [row(1, "a", f"({mark('1', 'x')}"), row(2, "b", f")({mark('1', 'x')})")],
            3,
            "the parts of markable 'x' overlap in document 'd'",
        ),
        (
            [
                row(1, "a", f"({mark('1', 'x', 'ElementOf=2')})"),
                row(2, "b", f"({mark('2', 'y', 'ElementOf=3')})"),
                row(3, "c", f"({mark('3', 'z', 'ElementOf=1')})"),
            ],
            4,
            "ElementOf cycle in document 'd': entity '2' is, through '2' > '1' > '3' > '2', "
            "an element of itself",
        ),
        (
            [row(1, "a", f"({mark('1', 'x', 'ElementOf=1')})")],
            3,
            "entity '1' is, through '1' > '1', an element of itself",
        ),
        (
            [row(1, "a", f"({mark('1', 'x')})", "(MarkableID=x|Rel=poss)")],
            3,
            "bridging item '(MarkableID=x|Rel=poss' has no MentionAnchor",
        ),
        (
            [row(1, "a", f"({mark('1', 'x')})", "(MentionAnchor=x)")],
            3,
            "bridging item '(MentionAnchor=x' has no MarkableID",
        ),
    ],
)
def test_errors_name_file_and_line(lines: list[str], line: int, message: str) -> None:
    with pytest.raises(InputError) as info:
        read_ua_text(doc_text(*lines), source="bad.ua")
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(f"bad.ua:{line}: ")
    assert message in text


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "\n".join([HEADER, row(1, "a"), "# newdoc id = d", row(1, "b")]),
            2,
            "token line outside a document (no '# newdoc id = ...' before it)",
        ),
        (
            "\n".join([HEADER, "# newdoc id = A", row(1, "a"), "# newdoc id = A", row(1, "b")]),
            4,
            "document id 'A' appears twice in this file (first at line 2)",
        ),
        (
            "# global.columns = ID FORM MISC\n# newdoc id = d\n1\ta\t_\n",
            1,
            "'# global.columns' names no IDENTITY column",
        ),
        ("", 1, "empty file"),
        (HEADER + "\n# a comment\n", 1, "no token lines"),
    ],
)
def test_file_level_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as info:
        read_ua_text(text, source="bad.ua")
    assert str(info.value).startswith(f"bad.ua:{line}: ")
    assert message in str(info.value)


def test_discourse_deixis_needs_its_column() -> None:
    with pytest.raises(InputError, match="names no DISCOURSE_DEIXIS column"):
        read_ua_text("# global.columns = ID FORM IDENTITY\n", layer="discourse_deixis")


def test_unknown_layers_and_layers_of_other_formats(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown layer 'bridging'"):
        read_ua_text(STORY, layer="bridging")
    ua = tmp_path / "story.ua"
    ua.write_text(STORY)
    with pytest.raises(UsageError, match="unknown layer"):
        read_corpus(ua, layer="Identity")
    conll = tmp_path / "k.conll"
    conll.write_text("#begin document (d); part 000\nd 0 0 x (1)\n#end document\n")
    with pytest.raises(UsageError, match=r"only in Universal Anaphora \(ua\) files.* is conll"):
        read_corpus(conll, layer="discourse_deixis")
    assert len(read_corpus(conll, layer="identity")) == 1
    assert read_corpus(ua, layer="discourse_deixis")["story"].entities == ()


def test_ua_file_with_bad_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.ua"
    path.write_bytes(STORY.encode().replace(b"rained", b"rain\xffed"))
    with pytest.raises(InputError, match=r"bad\.ua:22: not valid UTF-8"):
        read_ua(path)


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (HEADER.encode() + b"\n# newdoc id = d\n", "ua"),
        (b"# global.columns = ID FORM DISCOURSE_DEIXIS\n", "ua"),
        (b"# global.columns = ID FORM UPOS MISC\n# newdoc id = d\n", "conllu"),
        (b"# newdoc id = d\n1\tx\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1)\n", "conllu"),
    ],
)
def test_detection_by_content(head: bytes, expected: str) -> None:
    assert format_from_content(head) == expected


def test_detection_by_name() -> None:
    assert format_from_name("light_dev.2022.CONLLUA") == "ua"
    assert format_from_name("x.ua.gz") == "ua"
    assert format_from_name("x.conllu") == "conllu"


def test_a_document_equals_itself_read_twice() -> None:
    # Frozen sets and named tuples compare by value: a reread is equal.
    assert read_ua_text(SPLITS)["d"] == read_ua_text(SPLITS)["d"]
    assert isinstance(read_ua_text(SPLITS)["d"], Document)


# The UA scorer's own files (its plural tests, space-separated, and the
# research fixtures, tab-separated): read when present.
UA_SCORER = Path(os.environ.get("COREFSCORE_UA_SCORER", "/work/research/ua/src"))
PLURAL_TESTS = UA_SCORER / "plural-tests"
FIXTURES = UA_SCORER.parent / "fixtures"


def _scorer_files() -> list[Path]:
    if not PLURAL_TESTS.is_dir():
        pytest.skip(
            f"UA scorer test files not available: {PLURAL_TESTS} (set COREFSCORE_UA_SCORER to "
            "the folder of a universal-anaphora-scorer checkout)"
        )
    files = sorted(p for p in PLURAL_TESTS.iterdir() if p.suffix in (".key", ".sys"))
    if FIXTURES.is_dir():
        files += sorted(p for p in FIXTURES.iterdir() if p.suffix in (".key", ".sys"))
    return files


def test_ua_scorer_files_read_without_error() -> None:
    files = _scorer_files()
    assert len(files) >= 17
    for path in files:
        corpus = read_ua(path)
        assert len(corpus) >= 1, path
        assert detect_format(path) == "ua", path
        read_ua(path, layer="discourse_deixis")


def test_ua_scorer_plural_key_by_hand() -> None:
    _scorer_files()
    corpus = read_ua(PLURAL_TESTS / "TC-PA.key")
    assert list(corpus.documents) == ["PluralTestCases/TC-PA"]
    doc = corpus["PluralTestCases/TC-PA"]
    # Key {ab} {cd} {e} {{ac}fg} (PluralTestCases.README): a = markable_a on
    # tokens 1-2, c = markable_c on token 1, b and d on tokens 4 and 5, e on
    # 7-9, f on 10-11 and g on 12 (1-based); a and c carry ElementOf=4.
    ab, cd = ((0, 1), (3, 3)), ((0, 0), (4, 4))
    assert doc.token_count == 12
    assert len(doc.entities) == 4
    assert doc.entities == (ab, cd, ((6, 8),), ((9, 10), (11, 11)))
    assert doc.split_antecedents == (None, None, None, frozenset({ab, cd}))
