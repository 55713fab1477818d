"""The Universal Anaphora (UA) CoNLL-U Plus writer: exact output, round trips
through the UA reader, what it refuses or counts, and ``convert --to ua``."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from corefscore import cli
from corefscore.errors import InputError
from corefscore.io.convert import TARGETS, convert, render
from corefscore.io.lossy import Losses
from corefscore.io.ua import read_ua, read_ua_text
from corefscore.io.ua_writer import COLUMNS, write_ua
from corefscore.model import Corpus, Document, Syntax

HEADER = "# global.columns = " + " ".join(COLUMNS)


def row(word_id: int, form: str, identity: str = "_", bridging: str = "_", dd: str = "_") -> str:
    """A 15-column token line, as the writer writes it."""
    return "\t".join([str(word_id), form, *["_"] * 8, identity, bridging, dd, "_", "_"])


def write(corpus: Corpus, *, lossy: bool = False) -> tuple[str, list[str]]:
    out = io.StringIO()
    losses = Losses(allow=lossy, target="UA")
    write_ua(corpus, out, losses=losses)
    return out.getvalue(), losses.warnings()


def model(doc: Document) -> Document:
    """``doc`` without what only says where it came from (lines, source, reader records)."""
    syntax = doc.syntax
    if syntax is not None:
        syntax = replace(syntax, token_lines=None)
    return replace(doc, lines=(), source=None, annotations={}, syntax=syntax)


# "John met Mary. They bought a house. The door was red. It rained."
# Entity 3 ("They") is John and Mary; "bought a house" and "a house" close on one
# token, "The door was red" and "The door" open on one; "It" is non-referring;
# "The door" bridges to "a house".
WORDS = "John met Mary . They bought a house . The door was red . It rained .".split()
SMALL = Document(
    doc_id="d",
    entities=(
        ((0, 0),),
        ((2, 2),),
        ((4, 4),),
        ((5, 7),),
        ((6, 7),),
        ((9, 12),),
        ((9, 10),),
    ),
    labels=("1", "2", "3", "4", "5", "6", "7"),
    min_spans=(((0, 0),), (None,), ((4, 4),), (None,), ((7, 7),), (None,), ((10, 10),)),
    syntax=Syntax(words=tuple(WORDS), sentence_starts=(0, 4, 9, 14)),
    split_antecedents=(None, None, frozenset({((0, 0),), ((2, 2),)}), None, None, None, None),
    non_referring=((14, 14),),
    bridging=(((9, 10), (6, 7)),),
)

SMALL_TEXT = "\n".join(
    [
        HEADER,
        "# newdoc id = d",
        "# sent_id = d-1",
        row(1, "John", "(EntityID=1|MarkableID=markable_1|Min=1|ElementOf=3)"),
        row(2, "met"),
        row(3, "Mary", "(EntityID=2|MarkableID=markable_2|ElementOf=3)"),
        row(4, "."),
        "",
        "# sent_id = d-2",
        row(1, "They", "(EntityID=3|MarkableID=markable_3|Min=5)"),
        row(2, "bought", "(EntityID=4|MarkableID=markable_4"),
        row(3, "a", "(EntityID=5|MarkableID=markable_5|Min=8"),
        row(4, "house", "))"),
        row(5, "."),
        "",
        "# sent_id = d-3",
        row(
            1,
            "The",
            "(EntityID=6|MarkableID=markable_6(EntityID=7|MarkableID=markable_7|Min=11",
            "(MarkableID=markable_7|MentionAnchor=markable_5)",
        ),
        row(2, "door", ")"),
        row(3, "was"),
        row(4, "red", ")"),
        row(5, "."),
        "",
        "# sent_id = d-4",
        row(1, "It", "(EntityID=8-Pseudo|MarkableID=markable_8)"),
        row(2, "rained"),
        row(3, "."),
        "",
        "",
    ]
)


def test_small_corpus_exact_lines() -> None:
    text, warnings = write(Corpus({"d": SMALL}))
    assert text == SMALL_TEXT
    assert warnings == []


def test_small_corpus_reads_back_as_written() -> None:
    back = read_ua_text(SMALL_TEXT, syntax=True)
    assert back.warnings == ()
    assert model(back["d"]) == model(SMALL)
    # Written again from what was read: the reader's MarkableIDs, the same text.
    assert render(back, to="ua") == (SMALL_TEXT, [])


def test_fx1_built_by_hand_reads_back_as_the_same_document() -> None:
    # The UA scorer notes' fixture fx1.key (split antecedent, a -Pseudo markable,
    # bridging, Min), as a Corpus.
    words = (
        "John met Mary . They bought a house . The door was red . It rained . "
        "John liked it . The roof leaked ."
    ).split()
    doc = Document(
        doc_id="fx1",
        entities=(
            ((0, 0), (17, 17)),
            ((2, 2),),
            ((4, 4),),
            ((6, 7), (19, 19)),
            ((9, 10),),
            ((21, 22),),
        ),
        labels=("1", "2", "3", "4", "5", "7"),
        min_spans=(
            ((0, 0), (17, 17)),
            ((2, 2),),
            ((4, 4),),
            ((7, 7), (19, 19)),
            ((10, 10),),
            ((22, 22),),
        ),
        syntax=Syntax(words=tuple(words), sentence_starts=(0, 4, 9, 14, 17, 21)),
        split_antecedents=(
            None,
            None,
            frozenset({((0, 0), (17, 17)), ((2, 2),)}),
            None,
            None,
            None,
        ),
        non_referring=((14, 14),),
        bridging=(((9, 10), (6, 7)), ((21, 22), (19, 19))),
    )
    text, warnings = write(Corpus({"fx1": doc}))
    assert warnings == []
    assert "(EntityID=7-Pseudo|MarkableID=markable_6)" in text
    assert "(EntityID=1|MarkableID=markable_7|Min=18|ElementOf=3)" in text
    back = read_ua_text(text, syntax=True, source="fx1.ua")
    assert back.warnings == ()
    assert model(back["fx1"]) == model(doc)


# A UA file as the writer lays it out, with what only the reader's records
# hold: its MarkableIDs, a Pseudo entity's id, SemType and Rel attributes.
UA_SOURCE = "\n".join(
    [
        HEADER,
        "# newdoc id = s",
        "# sent_id = s-1",
        row(1, "John", "(EntityID=j|MarkableID=m1|ElementOf=p|SemType=dn)"),
        row(2, "and"),
        row(3, "Mary", "(EntityID=m|MarkableID=m2|ElementOf=p)"),
        row(4, "."),
        "",
        "# sent_id = s-2",
        row(1, "They", "(EntityID=p|MarkableID=m3)"),
        row(2, "saw", "(EntityID=9-Pseudo|MarkableID=x7|Min=6)"),
        row(3, "a", "(EntityID=h|MarkableID=m4"),
        row(4, "house", ")"),
        row(5, "and"),
        row(6, "its", "(EntityID=h|MarkableID=m5)"),
        row(7, "door", "(EntityID=d|MarkableID=m6)", "(MarkableID=m6|MentionAnchor=m5|Rel=poss)"),
        row(8, "."),
        "",
        "",
    ]
)


def test_ua_to_ua_keeps_the_readers_ids_and_attributes() -> None:
    corpus = read_ua_text(UA_SOURCE, syntax=True)
    assert render(corpus, to="ua") == (UA_SOURCE, [])


def test_ua_to_ua_through_files(tmp_path: Path) -> None:
    source = tmp_path / "in.ua"
    source.write_text(UA_SOURCE, encoding="utf-8")
    target = tmp_path / "out.ua"
    assert convert(source, target, to="ua") == []
    assert target.read_text(encoding="utf-8") == UA_SOURCE
    assert model(read_ua(target, syntax=True)["s"]) == model(read_ua(source, syntax=True)["s"])


def test_elementof_goes_on_every_mention_of_a_member() -> None:
    # fx1.key writes ElementOf on John's first markable only; it means the whole
    # entity, so the writer puts it on both, and the document reads back the same.
    text = "\n".join(
        [
            HEADER,
            "# newdoc id = e",
            row(1, "John", "(EntityID=1|MarkableID=m1|ElementOf=3)"),
            row(2, "Mary", "(EntityID=2|MarkableID=m2|ElementOf=3)"),
            row(3, "they", "(EntityID=3|MarkableID=m3)"),
            row(4, "John", "(EntityID=1|MarkableID=m4)"),
            "",
        ]
    )
    corpus = read_ua_text(text)
    written, _ = render(corpus, to="ua")
    assert row(4, "_", "(EntityID=1|MarkableID=m4|ElementOf=3)") in written
    assert model(read_ua_text(written)["e"]) == model(corpus["e"])


def test_member_that_is_no_entity_is_written_as_its_own() -> None:
    # Mary's singleton entity was dropped; the split antecedent still names it.
    doc = Document(
        doc_id="d",
        entities=(((0, 0), (5, 5)), ((3, 3),)),
        labels=("1", "3"),
        split_antecedents=(None, frozenset({((0, 0), (5, 5)), ((2, 2),)})),
    )
    text, warnings = write(Corpus({"d": doc}))
    assert warnings == []
    assert "(EntityID=4|MarkableID=markable_2|ElementOf=3)" in text
    back = read_ua_text(text)["d"]
    assert back.labels == ("1", "4", "3")
    assert back.split_antecedents[2] == doc.split_antecedents[1]


def test_member_with_a_split_antecedent_of_its_own_is_counted() -> None:
    # "they" (2) is John and Mary; "all of them" (4) is "they" and Sue. UA's
    # ElementOf is transitive: read back, 4 is John, Mary and Sue.
    john, mary, they, sue = ((0, 0),), ((1, 1),), ((2, 2),), ((3, 3),)
    doc = Document(
        doc_id="d",
        entities=(john, mary, they, sue, ((4, 5),)),
        split_antecedents=(
            None,
            None,
            frozenset({john, mary}),
            None,
            frozenset({they, sue}),
        ),
    )
    text, warnings = write(Corpus({"d": doc}))
    assert "(EntityID=2|MarkableID=markable_3|ElementOf=4)" in text
    assert warnings == [
        "1 split-antecedent member(s) with a split antecedent of their own, which UA readers "
        "replace by its members"
    ]
    back = read_ua_text(text)["d"]
    assert back.split_antecedents[4] == frozenset({john, mary, sue})


def test_discontinuous_mention_repeats_its_markable_id() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 4),), ((2, 2),)),
        pieces=((((0, 1), (3, 4)),), (None,)),
        min_spans=(((1, 1),), (None,)),
    )
    text, warnings = write(Corpus({"d": doc}))
    cells = [line.split("\t")[10] for line in text.splitlines() if line[:1].isdigit()]
    assert cells == [
        "(EntityID=0|MarkableID=markable_1|Min=2",
        ")",
        "(EntityID=1|MarkableID=markable_2)",
        "(EntityID=0|MarkableID=markable_1",
        ")",
    ]
    assert warnings == [
        "1 markable(s) written in parts (discontinuous, or crossing another markable), which "
        "the UA scorer v1 reads as their last part only"
    ]
    assert model(read_ua_text(text)["d"]) == model(doc)


def test_crossing_markables_are_written_in_parts_that_nest() -> None:
    # (0, 2) and (1, 3) cross: each ')' closes the markable opened last, so (1, 3)
    # is written as (1, 2) and (3, 3) under one MarkableID, which reads back whole.
    doc = Document(doc_id="d", entities=(((0, 2),), ((1, 3),)))
    text, warnings = write(Corpus({"d": doc}))
    cells = [line.split("\t")[10] for line in text.splitlines() if line[:1].isdigit()]
    assert cells == [
        "(EntityID=0|MarkableID=markable_1",
        "(EntityID=1|MarkableID=markable_2",
        "))",
        "(EntityID=1|MarkableID=markable_2)",
    ]
    assert len(warnings) == 1 and warnings[0].startswith("1 markable(s) written in parts")
    assert model(read_ua_text(text)["d"]) == model(doc)


def test_bridging_without_a_markable_is_refused_then_dropped() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 0),), ((2, 3),)),
        source="in.json",
        bridging=(((2, 3), (1, 1)), ((2, 3), (0, 0))),
    )
    with pytest.raises(InputError) as info:
        write(Corpus({"d": doc}))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(
        "in.json: cannot convert to UA: document 'd': bridging link from (2, 3) to antecedent "
        "(1, 1): its antecedent is no markable of the document"
    )
    text, warnings = write(Corpus({"d": doc}), lossy=True)
    assert warnings == ["dropped 1 bridging links that UA cannot hold (lossy conversion)"]
    assert read_ua_text(text)["d"].bridging == (((2, 3), (0, 0)),)


def test_second_antecedent_of_one_anaphor_is_refused() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 0),), ((1, 1),), ((2, 3),)),
        bridging=(((2, 3), (0, 0)), ((2, 3), (1, 1))),
    )
    with pytest.raises(InputError, match="its anaphor has another antecedent"):
        write(Corpus({"d": doc}))
    _, warnings = write(Corpus({"d": doc}), lossy=True)
    assert warnings == ["dropped 1 bridging links that UA cannot hold (lossy conversion)"]


def test_labels_that_cannot_be_entity_ids_are_renumbered() -> None:
    doc = Document(doc_id="d", entities=(((0, 0),), ((1, 1),)), labels=("a b", "x-Pseudo"))
    text, _ = write(Corpus({"d": doc}))
    assert "(EntityID=1|MarkableID=markable_1)" in text
    assert "(EntityID=2|MarkableID=markable_2)" in text
    assert read_ua_text(text)["d"].entities == doc.entities


def test_facts_without_a_place_are_counted() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 1),), ((2, 2),)),
        heads=((1,), (2,)),
        mention_levels=(("NAM",), (None,)),
        entity_types=("PER", None),
        # The second MIN lies outside its mention: the UA reader would refuse it.
        min_spans=(((1, 1),), ((0, 0),)),
        syntax=Syntax(words=("New", "York", "it is")),
    )
    text, warnings = write(Corpus({"d": doc}))
    assert sorted(warnings) == [
        "UA has no place for MIN spans outside their mention; 1 not written",
        "UA has no place for entity types; 1 not written",
        "UA has no place for heads; 2 not written",
        "UA has no place for mention levels; 1 not written",
        "UA has no place for white space inside word forms (written as '_'); 1 not written",
    ]
    assert row(3, "it_is", "(EntityID=1|MarkableID=markable_2)") in text
    assert read_ua_text(text)["d"].min_spans == (((1, 1),), (None,))


def test_document_without_tokens_keeps_one() -> None:
    corpus = Corpus({"empty": Document(doc_id="empty", entities=()), "d": SMALL})
    text, _ = write(corpus)
    assert text.startswith(
        f"{HEADER}\n# newdoc id = empty\n# sent_id = empty-1\n{row(1, '_')}\n\n# newdoc id = d\n"
    )
    assert list(read_ua_text(text).documents) == ["empty", "d"]


def test_tokens_after_the_last_markable_are_kept() -> None:
    # Without words, the reader's token count decides how many tokens to write.
    doc = Document(doc_id="d", entities=(((0, 0),),), token_count=3)
    text, _ = write(Corpus({"d": doc}))
    assert read_ua_text(text)["d"].token_count == 3


def test_discourse_deixis_layer_is_written_to_its_column() -> None:
    text = "\n".join(
        [
            HEADER,
            "# newdoc id = dd",
            row(1, "John", dd="(EntityID=1-DD|MarkableID=dd1"),
            row(2, "left", dd=")"),
            row(3, "That", dd="(EntityID=1-DD|MarkableID=dd2)"),
            "",
        ]
    )
    corpus = read_ua_text(text, layer="discourse_deixis", syntax=True)
    written, _ = render(corpus, to="ua")
    assert row(3, "That", dd="(EntityID=1-DD|MarkableID=dd2)") in written
    again = read_ua_text(written, layer="discourse_deixis", syntax=True)
    assert model(again["dd"]) == model(corpus["dd"])


# --------------------------------------------------------------------------------------------
# convert: a UA corpus to the other targets


@pytest.mark.parametrize(
    ("to", "name"),
    [("conll", "CoNLL-2012"), ("jsonl", "jsonlines"), ("json", "JSON clusters")],
)
def test_ua_to_targets_without_anaphora_refuses_then_warns(
    tmp_path: Path, to: str, name: str
) -> None:
    source = tmp_path / "in.ua"
    source.write_text(SMALL_TEXT, encoding="utf-8")
    target = tmp_path / f"out.{to}"
    with pytest.raises(InputError) as info:
        convert(source, target, to=to)
    # One line, at the plural entity's markable ("They", line 10 of the file).
    assert str(info.value) == (
        f"{source}:10: cannot convert to {name}: document 'd', entity 3: its split "
        f"antecedent (2 entities) has no place in {name} (use lossy=True to drop such items)"
    )
    assert not target.exists()
    warnings = convert(source, target, to=to, lossy=True)
    assert warnings[:3] == [
        f"dropped 1 split antecedents that {name} cannot hold (lossy conversion)",
        f"dropped 1 non-referring markables that {name} cannot hold (lossy conversion)",
        f"dropped 1 bridging links that {name} cannot hold (lossy conversion)",
    ]
    assert target.exists()


def test_refused_bridging_names_its_line(tmp_path: Path) -> None:
    source = tmp_path / "in.ua"
    text = SMALL_TEXT.replace("|ElementOf=3", "").replace("8-Pseudo", "8")
    source.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        convert(source, tmp_path / "out.conll", to="conll")
    assert str(info.value).startswith(
        f"{source}:17: cannot convert to CoNLL-2012: document 'd': bridging link from (9, 10) "
        "to antecedent (6, 7): CoNLL-2012 has no place for bridging"
    )


def test_ua_is_a_conversion_target() -> None:
    assert "ua" in TARGETS


@pytest.mark.skipif(
    "ua" not in cli.CONVERT_TARGETS,
    reason="the command line's CONVERT_TARGETS (cli/parser.py) does not list 'ua' yet",
)
def test_command_line_converts_to_ua(tmp_path: Path) -> None:
    source = tmp_path / "in.ua"
    source.write_text(UA_SOURCE, encoding="utf-8")
    target = tmp_path / "out.ua"
    assert cli.main(["convert", str(source), str(target), "--to", "ua", "-q"]) == 0
    assert target.read_text(encoding="utf-8") == UA_SOURCE
