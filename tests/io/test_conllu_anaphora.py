"""CorefUD ``SplitAnte`` and ``Bridge``: read into ``Document.split_antecedents``
and ``Document.bridging``, written from them, and converted to and from UA."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefscore.errors import InputError
from corefscore.io.conllu import bridging_mentions, read_conllu, read_conllu_text
from corefscore.io.convert import render
from corefscore.io.ua import read_ua_text
from corefscore.model import Corpus, Document, Syntax


def row(word_id: str, form: str, misc: str = "_") -> str:
    return "\t".join([word_id, form, "_", "_", "_", "_", "_", "_", "_", misc])


# "John met Mary. They bought a house. The door was red." Line numbers in comments.
SMALL = "\n".join(
    [
        "# global.Entity = eid-etype-head-other",  # 1
        "# newdoc id = c",  # 2
        "# sent_id = c-1",  # 3
        "# text = John met Mary .",  # 4
        row("1", "John", "Entity=(e1)"),  # 5
        row("2", "met"),  # 6
        row("3", "Mary", "Entity=(e2)"),  # 7
        row("4", "."),  # 8
        "",  # 9
        "# sent_id = c-2",  # 10
        "# text = They bought a house .",  # 11
        row("1", "They", "Entity=(e3)|SplitAnte=e1<e3,e2<e3"),  # 12
        row("2", "bought"),  # 13
        row("3", "a", "Entity=(e4"),  # 14
        row("4", "house", "Entity=e4)"),  # 15
        row("5", "."),  # 16
        "",  # 17
        "# sent_id = c-3",  # 18
        "# text = The door was red .",  # 19
        row("1", "The", "Bridge=e4<e5:part|Entity=(e5"),  # 20
        row("2", "door", "Entity=e5)"),  # 21
        row("3", "was"),  # 22
        row("4", "red"),  # 23
        row("5", "."),  # 24
        "",
        "",
    ]
)
SPLIT = frozenset({((0, 0),), ((2, 2),)})


def test_split_antecedents_and_bridging_are_read_into_the_fields() -> None:
    corpus = read_conllu_text(SMALL, source="small.conllu")
    doc = corpus["c"]
    assert corpus.warnings == ()
    assert doc.entities == (((0, 0),), ((2, 2),), ((4, 4),), ((6, 7),), ((9, 10),))
    assert doc.split_antecedents == (None, None, SPLIT, None, None)
    assert doc.bridging == (((9, 10), (6, 7)),)
    # The raw items stay as they were, for the CoNLL-U writer.
    assert doc.annotations == {
        "split_antecedents": [(12, "e1<e3,e2<e3")],
        "bridging": [(20, "e4<e5:part")],
    }


@pytest.mark.parametrize("syntax", [True, False])
@pytest.mark.parametrize("empty_nodes", [True, False])
def test_every_reading_gives_the_same_fields(
    tmp_path: Path, syntax: bool, empty_nodes: bool
) -> None:
    path = tmp_path / "small.conllu"
    path.write_text(SMALL, encoding="utf-8")
    doc = read_conllu(path, syntax=syntax, empty_nodes=empty_nodes)["c"]
    assert doc.split_antecedents == (None, None, SPLIT, None, None)
    assert doc.bridging == (((9, 10), (6, 7)),)


# Which mentions a Bridge link means. Tokens: 0 A 1 house 2 . 3 The 4 house 5 .
# 6 Its 7 door 8 and 9 roof 10 . 11 the 12 house
CHOICES = "\n".join(
    [
        "# newdoc id = b",  # 1
        row("1", "A", "Entity=(h"),  # 2
        row("2", "house", "Entity=h)"),  # 3
        row("3", "."),  # 4
        "",  # 5
        row("1", "The", "Entity=(h"),  # 6
        row("2", "house", "Entity=h)"),  # 7
        row("3", "."),  # 8
        "",  # 9
        # "Its door": the door (d) opens here, and "Its" (d too) inside it.
        row("1", "Its", "Bridge=h<d|Entity=(d(d)"),  # 10
        row("2", "door", "Entity=d)"),  # 11
        # On a word inside the mention: the mention of r opened last before it.
        row("3", "and", "Entity=(r"),  # 12
        row("4", "roof", "Entity=r)|Bridge=h<r"),  # 13
        row("5", "."),  # 14
        "",  # 15
        # An antecedent entity whose only mention comes after the anaphor.
        row("1", "the", "Bridge=l<h|Entity=(h"),  # 16
        row("2", "house", "Entity=h)(l)"),  # 17
        "",
    ]
)


def test_bridge_anaphor_and_antecedent_choice() -> None:
    doc = read_conllu_text(CHOICES)["b"]
    assert doc.labels == ("h", "d", "r", "l")
    assert doc.bridging == (
        # The shorter of two mentions opening at the word ("Its"); the nearest
        # antecedent mention before it ("The house", not "A house").
        ((6, 6), (3, 4)),
        # Opened last before "roof": "and roof".
        ((8, 9), (3, 4)),
        # l's only mention follows the anaphor: its first mention.
        ((11, 12), (12, 12)),
    )


def test_bridging_mentions_rule() -> None:
    entity = ((0, 1), (3, 4), (3, 5))
    assert bridging_mentions(((6, 6), (6, 7)), 6, entity) == ((6, 6), (3, 5))
    assert bridging_mentions(((6, 6),), 5, entity) is None
    assert bridging_mentions(((0, 0),), 0, ((2, 2), (1, 1))) == ((0, 0), (1, 1))


def test_bridge_on_an_empty_node_means_the_next_word() -> None:
    # The anaphor opens on the empty node 1.1: without empty nodes it starts on
    # "roof", where the link then belongs too.
    text = "\n".join(
        [
            "# newdoc id = z",
            row("1", "house", "Entity=(h)"),
            row("1.1", "_", "Bridge=h<p|Entity=(p"),
            row("2", "roof", "Entity=p)"),
            "",
        ]
    )
    assert read_conllu_text(text)["z"].bridging == (((1, 1), (0, 0)),)
    assert read_conllu_text(text, empty_nodes=True)["z"].bridging == (((1, 2), (0, 0)),)


def test_links_to_unknown_entities_are_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "u.conllu"
    path.write_text(
        SMALL.replace("SplitAnte=e1<e3,e2<e3", "SplitAnte=e1<e3,e9<e3").replace(
            "Bridge=e4<e5:part", "Bridge=e4<e7"
        ),
        encoding="utf-8",
    )
    corpus = read_conllu(path)
    assert corpus.warnings == (
        f"{path}:12: document 'c': SplitAnte names entity 'e9', which has no mention in the "
        "document; link ignored",
        f"{path}:20: document 'c': Bridge names entity 'e7', which has no mention in the "
        "document; link ignored",
    )
    doc = corpus["c"]
    assert doc.split_antecedents == (None, None, frozenset({((0, 0),)}), None, None)
    assert doc.bridging == ()


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        (
            "SplitAnte=e1<e3,e2<e3",
            "SplitAnte=e1<e3,e2e3",
            12,
            "bad SplitAnte value 'e1<e3,e2e3': 'e2e3' is not a link such as e1<e3 (links "
            "separated by ',')",
        ),
        (
            "SplitAnte=e1<e3,e2<e3",
            "SplitAnte=",
            12,
            "bad SplitAnte value '': '' is not a link such as e1<e3",
        ),
        (
            "Bridge=e4<e5:part",
            "Bridge=e4<e5<e6",
            20,
            "bad Bridge value 'e4<e5<e6': 'e4<e5<e6' is not a link such as e1<e3 or e1<e3:relation",
        ),
        (
            "Bridge=e4<e5:part",
            "Bridge=e5<e5",
            20,
            "bad Bridge value 'e5<e5': 'e5<e5' links entity 'e5' to itself",
        ),
    ],
)
def test_malformed_links_are_one_line_errors(
    tmp_path: Path, old: str, new: str, line: int, message: str
) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(SMALL.replace(old, new), encoding="utf-8")
    for syntax, empty_nodes in ((True, True), (True, False), (False, False)):
        with pytest.raises(InputError) as info:
            read_conllu(path, syntax=syntax, empty_nodes=empty_nodes)
        text = str(info.value)
        assert "\n" not in text
        assert text.startswith(f"{path}:{line}: {message}")


# --------------------------------------------------------------------------------------------
# Writing SplitAnte and Bridge


def ua_row(word_id: int, form: str, identity: str = "_", bridging: str = "_") -> str:
    return "\t".join([str(word_id), form, *["_"] * 8, identity, bridging, "_", "_", "_"])


UA_HEADER = (
    "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
    "DISCOURSE_DEIXIS REFERENCE NOM_SEM"
)
UA_SMALL = "\n".join(
    [
        UA_HEADER,
        "# newdoc id = c",
        "# sent_id = c-1",
        ua_row(1, "John", "(EntityID=1|MarkableID=m1|ElementOf=3)"),
        ua_row(2, "met"),
        ua_row(3, "Mary", "(EntityID=2|MarkableID=m2|ElementOf=3)"),
        ua_row(4, "."),
        "",
        "# sent_id = c-2",
        ua_row(1, "They", "(EntityID=3|MarkableID=m3)"),
        ua_row(2, "bought"),
        ua_row(3, "a", "(EntityID=4|MarkableID=m4"),
        ua_row(4, "house", ")"),
        ua_row(5, "."),
        "",
        "# sent_id = c-3",
        ua_row(1, "The", "(EntityID=5|MarkableID=m5", "(MarkableID=m5|MentionAnchor=m4)"),
        ua_row(2, "door", ")"),
        ua_row(3, "was"),
        ua_row(4, "red"),
        ua_row(5, "."),
        "",
        "",
    ]
)


def conllu_row(word_id: str, form: str, misc: str = "_") -> str:
    return "\t".join([word_id, form, "_", "_", "_", "_", "_", "_", "_", misc])


UA_AS_CONLLU = "\n".join(
    [
        "# global.Entity = eid-etype-head-other",
        "# newdoc id = c",
        "# sent_id = c-1",
        "# text = John met Mary .",
        conllu_row("1", "John", "Entity=(e1)"),
        conllu_row("2", "met"),
        conllu_row("3", "Mary", "Entity=(e2)"),
        conllu_row("4", "."),
        "",
        "# sent_id = c-2",
        "# text = They bought a house .",
        conllu_row("1", "They", "Entity=(e3)|SplitAnte=e1<e3,e2<e3"),
        conllu_row("2", "bought"),
        conllu_row("3", "a", "Entity=(e4"),
        conllu_row("4", "house", "Entity=e4)"),
        conllu_row("5", "."),
        "",
        "# sent_id = c-3",
        "# text = The door was red .",
        conllu_row("1", "The", "Bridge=e4<e5|Entity=(e5"),
        conllu_row("2", "door", "Entity=e5)"),
        conllu_row("3", "was"),
        conllu_row("4", "red"),
        conllu_row("5", "."),
        "",
        "",
    ]
)


def test_ua_to_conllu_writes_splitante_and_bridge() -> None:
    ua = read_ua_text(UA_SMALL, syntax=True)
    text, warnings = render(ua, to="conllu")
    assert warnings == []
    assert text == UA_AS_CONLLU
    back = read_conllu_text(text)
    assert back.warnings == ()
    assert back["c"].entities == ua["c"].entities
    assert (
        back["c"].split_antecedents
        == ua["c"].split_antecedents
        == (
            None,
            None,
            SPLIT,
            None,
            None,
        )
    )
    assert back["c"].bridging == ua["c"].bridging == (((9, 10), (6, 7)),)


def test_conllu_to_conllu_writes_the_links_once() -> None:
    corpus = read_conllu_text(SMALL)
    text, warnings = render(corpus, to="conllu")
    assert warnings == []
    assert text == SMALL  # the links come from the MISC as read, not from the fields too
    again = read_conllu_text(text)["c"]
    assert again.split_antecedents == corpus["c"].split_antecedents
    assert again.bridging == corpus["c"].bridging


def test_conllu_to_ua_and_back() -> None:
    corpus = read_conllu_text(SMALL)
    text, warnings = render(corpus, to="ua")
    assert warnings == []
    ua = read_ua_text(text)["c"]
    assert ua.labels == ("e1", "e2", "e3", "e4", "e5")
    assert ua.split_antecedents == corpus["c"].split_antecedents
    assert ua.bridging == corpus["c"].bridging


def test_member_that_is_no_entity_becomes_one() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 0),), ((3, 3),)),
        labels=("1", "3"),
        split_antecedents=(None, frozenset({((0, 0),), ((1, 1),)})),
    )
    text, _ = render(Corpus({"d": doc}), to="conllu")
    assert "Entity=(e3)|SplitAnte=e1<e3,e4<e3" in text
    back = read_conllu_text(text)["d"]
    # Entities are read in order of appearance: e1, the new e4, then e3.
    assert back.labels == ("e1", "e4", "e3")
    assert back.split_antecedents == (None, None, doc.split_antecedents[1])


def test_non_referring_markables_cannot_go_to_conllu() -> None:
    doc = Document(doc_id="d", entities=(((0, 0),),), non_referring=((1, 1),))
    with pytest.raises(InputError) as info:
        render(Corpus({"d": doc}), to="conllu")
    assert str(info.value) == (
        "cannot convert to CoNLL-U: document 'd': non-referring markable (1, 1) (in no entity) "
        "has no place in CoNLL-U (use lossy=True to drop such items)"
    )
    _, warnings = render(Corpus({"d": doc}), to="conllu", lossy=True)
    assert warnings == [
        "dropped 1 non-referring markables that CoNLL-U cannot hold (lossy conversion)"
    ]


def test_bridging_conllu_cannot_link_is_refused() -> None:
    doc = Document(
        doc_id="d",
        entities=(((0, 0), (2, 2)), ((4, 4),)),
        bridging=(((2, 2), (0, 0)), ((4, 4), (3, 3))),
    )
    with pytest.raises(InputError, match="both are mentions of one entity"):
        render(Corpus({"d": doc}), to="conllu")
    text, warnings = render(Corpus({"d": doc}), to="conllu", lossy=True)
    assert warnings == ["dropped 2 bridging links that CoNLL-U cannot hold (lossy conversion)"]
    assert "Bridge" not in text


def test_bridging_read_back_with_other_mentions_is_counted() -> None:
    # The antecedent is the house's first mention, but CoNLL-U names only the
    # entity: read back, it is the mention nearest before the anaphor.
    doc = Document(
        doc_id="d",
        entities=(((0, 0), (2, 2)), ((4, 4),)),
        bridging=(((4, 4), (0, 0)),),
    )
    text, warnings = render(Corpus({"d": doc}), to="conllu")
    assert warnings == [
        "CoNLL-U has no place for the exact mentions of bridging links that read back as other "
        "mentions of their entities; 1 not written"
    ]
    assert read_conllu_text(text)["d"].bridging == (((4, 4), (2, 2)),)


# --------------------------------------------------------------------------------------------
# CoNLL-U to the targets that hold neither


@pytest.mark.parametrize(("to", "name"), [("conll", "CoNLL-2012"), ("jsonl", "jsonlines")])
def test_conllu_links_to_other_targets_refused_then_warned(
    tmp_path: Path, to: str, name: str
) -> None:
    path = tmp_path / "c.conllu"
    path.write_text(SMALL, encoding="utf-8")
    corpus = read_conllu(path, syntax=True)
    with pytest.raises(InputError) as info:
        render(corpus, to=to)
    assert str(info.value) == (
        f"{path}:12: cannot convert to {name}: document 'c', entity e3: its split antecedent "
        f"(2 entities) has no place in {name} (use lossy=True to drop such items)"
    )
    _, warnings = render(corpus, to=to, lossy=True)
    assert warnings == [
        f"dropped 1 split antecedents that {name} cannot hold (lossy conversion)",
        f"dropped 1 bridging links that {name} cannot hold (lossy conversion)",
    ]


def test_bridging_refusal_names_the_anaphor_line(tmp_path: Path) -> None:
    path = tmp_path / "c.conllu"
    path.write_text(SMALL.replace("|SplitAnte=e1<e3,e2<e3", ""), encoding="utf-8")
    with pytest.raises(InputError) as info:
        render(read_conllu(path), to="json")
    assert str(info.value).startswith(
        f"{path}:20: cannot convert to JSON clusters: document 'c': bridging link from (9, 10) "
        "to antecedent (6, 7)"
    )


def test_document_without_links_converts_as_before() -> None:
    doc = Document(
        doc_id="d", entities=(((0, 1),),), syntax=Syntax(words=("a", "b"), sentence_starts=(0,))
    )
    for to in ("conll", "conllu", "jsonl", "json", "ua"):
        assert render(Corpus({"d": doc}), to=to)[1] == []
