"""CorefUD CoNLL-U writer: exact output, refusals, round trips through the reader, real data."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.errors import InputError
from corefscore.io.conll import read_conll
from corefscore.io.conll_writer import crossing_same_entity
from corefscore.io.conllu import read_conllu, read_conllu_text
from corefscore.io.conllu_writer import conllu_entity_ids, write_conllu
from corefscore.io.lossy import Losses
from corefscore.model import Corpus, Document, Span, Syntax

from ..conftest import shared_path

SYNTAX = Syntax(
    words=("John", "saw", "his", "dog", ".", "He", "barked", "loudly"),
    pos=("PROPN", "VERB", "PRON", "NOUN", "PUNCT", "PRON", "VERB", "ADV"),
    dependency_heads=(1, -1, 3, 1, 1, 6, -1, 6),
    sentence_starts=(0, 5),
)

# Entity "1": three single-token mentions; "2": a discontinuous mention
# John ... barked loudly; "3": "his dog" nested in a mention of the same entity
# that runs over the sentence break.
DOC = Document(
    doc_id="d1",
    entities=(((0, 0), (2, 2), (5, 5)), ((0, 7),), ((2, 3), (2, 6))),
    labels=("1", "2", "3"),
    heads=((0, 2, 5), (7,), (3, None)),
    entity_types=("PER", "event", None),
    pieces=((None, None, None), (((0, 0), (6, 7)),), (None, None)),
    min_spans=((None, None, None), ((0, 0),), ((3, 3), None)),
    mention_levels=(("NAM", "PRO", "PRO"), (None,), (None, None)),
    syntax=SYNTAX,
    annotations={"bridging": [(4, "e3<e1")]},
)

EXPECTED = """\
# global.Entity = eid-etype-head-other
# newdoc id = d1
# sent_id = d1-1
# text = John saw his dog .
1\tJohn\t_\tPROPN\t_\t_\t2\tdep\t_\tEntity=(e1-PER-1)(e2[1/2]-event-3)
2\tsaw\t_\tVERB\t_\t_\t0\troot\t_\t_
3\this\t_\tPRON\t_\t_\t4\tdep\t_\tEntity=(e3(e3--2(e1-PER-1)
4\tdog\t_\tNOUN\t_\t_\t2\tdep\t_\tEntity=e3)
5\t.\t_\tPUNCT\t_\t_\t2\tdep\t_\t_

# sent_id = d1-2
# text = He barked loudly
1\tHe\t_\tPRON\t_\t_\t2\tdep\t_\tEntity=(e1-PER-1)
2\tbarked\t_\tVERB\t_\t_\t0\troot\t_\tEntity=e3)(e2[2/2]--3
3\tloudly\t_\tADV\t_\t_\t2\tdep\t_\tEntity=e2[2/2])

"""


def render(*docs: Document, lossy: bool = False) -> tuple[str, Losses]:
    losses = Losses(allow=lossy, target="CoNLL-U")
    out = io.StringIO()
    write_conllu(Corpus({d.doc_id: d for d in docs}), out, losses=losses)
    return out.getvalue(), losses


def test_small_document_exactly() -> None:
    text, losses = render(DOC)
    assert text == EXPECTED
    assert losses.facts == {"MIN spans": 2, "mention levels": 3, "bridging links": 1}
    assert not losses.dropped


def test_small_document_round_trip() -> None:
    back = read_conllu_text(EXPECTED)["d1"]
    assert back.entities == DOC.entities
    assert back.labels == ("e1", "e2", "e3")
    assert back.heads == DOC.heads
    assert back.entity_types == DOC.entity_types
    assert back.pieces == DOC.pieces
    assert back.syntax == SYNTAX
    # And writing what was read gives the same text (labels are now kept as is).
    assert render(back)[0] == EXPECTED


def test_without_syntax_one_sentence_of_placeholders() -> None:
    doc = Document("x y", entities=(((1, 2),), ((2, 2),)), labels=("a", "b"))
    text, _ = render(doc)
    assert text == (
        "# global.Entity = eid-etype-head-other\n# newdoc id = x y\n# sent_id = x y-1\n"
        "# text = _ _ _\n"
        "1\t_\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "2\t_\t_\t_\t_\t_\t_\t_\t_\tEntity=(a\n"
        "3\t_\t_\t_\t_\t_\t_\t_\t_\tEntity=(b)a)\n\n"
    )
    back = read_conllu_text(text)["x y"]
    assert back.entities == doc.entities and back.labels == ("a", "b")
    assert back.syntax == Syntax(words=("_",) * 3, sentence_starts=(0,))


def test_entity_ids() -> None:
    def ids(*labels: str) -> list[str]:
        return conllu_entity_ids(
            Document("d", tuple(((i, i),) for i in range(len(labels))), labels)
        )

    assert ids("e12", "person_3", "x") == ["e12", "person_3", "x"]
    assert ids("12", "3") == ["e12", "e3"]
    assert ids("12", "e3") == ["e1", "e2"]  # mixed: renumbered so none can clash
    assert ids("a-b", "c") == ["e1", "e2"]  # '-' would end the id
    assert ids("1a", "b") == ["e1", "e2"]


def test_crossing_mentions_of_one_entity_refused_or_dropped() -> None:
    doc = Document("d", entities=(((0, 2), (1, 3)),), labels=("7",), lines=((4, 9),), source="f")
    with pytest.raises(InputError) as err:
        render(doc)
    assert str(err.value).startswith("f:9: cannot convert to CoNLL-U: document 'd', entity 7:")
    text, losses = render(doc, lossy=True)
    assert losses.dropped == {"crossing mentions of one entity": 1}
    assert read_conllu_text(text)["d"].entities == (((0, 2),),)


def test_overlapping_discontinuous_mentions_of_one_entity_refused() -> None:
    doc = Document(
        "d",
        entities=(((0, 3), (2, 5), (4, 9)),),
        pieces=((((0, 0), (3, 3)), ((2, 2), (5, 5)), ((4, 4), (8, 9))),),
    )
    with pytest.raises(InputError, match="part markers cannot tell apart"):
        render(doc)
    text, losses = render(doc, lossy=True)
    assert losses.dropped == {"overlapping discontinuous mentions of one entity": 1}
    back = read_conllu_text(text)["d"]
    assert back.entities == (((0, 3), (4, 9)),)
    assert back.pieces == ((((0, 0), (3, 3)), ((4, 4), (8, 9))),)


def test_facts_without_a_place_are_counted() -> None:
    doc = Document(
        "d",
        entities=(((0, 1),), ((2, 2),)),
        heads=((5,), (2,)),  # 5 is not in its mention
        entity_types=("a-b", "ok"),
        optional=((True,), (False,)),
        syntax=Syntax(
            words=tuple("abcdef"), dependency_heads=(3, -1, 1, 1, 0, 4), sentence_starts=(0, 3)
        ),
        annotations={"split_antecedents": [(1, "e1<e2"), (2, "e3<e4")]},
    )
    text, losses = render(doc)
    assert losses.facts == {
        "heads outside their mention": 1,
        "entity types with characters a CoNLL-U attribute cannot hold": 1,
        "optional flags": 1,
        "dependency heads outside their sentence": 3,
        "split antecedents links": 2,
    }
    assert "\tEntity=(e0)" not in text and "Entity=(e1-ok-1)" in text
    back = read_conllu_text(text)["d"]
    assert back.heads == ((None,), (2,))
    assert back.syntax is not None
    assert back.syntax.dependency_heads == (-1, -1, 1, -1, -1, 4)


def test_mention_beyond_the_words_is_an_error() -> None:
    doc = Document("d", entities=(((2, 3),),), syntax=Syntax(words=("a", "b")), source="s")
    with pytest.raises(InputError, match="ending at token 3 but only 2 words"):
        render(doc)


@st.composite
def documents(draw: st.DrawFn) -> Document:
    n = draw(st.integers(1, 12))
    span = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).map(lambda p: (min(p), max(p)))
    entities: list[tuple[Span, ...]] = []
    for spans in draw(st.lists(st.lists(span, min_size=1, max_size=4), max_size=5)):
        drop = {s for _, s in crossing_same_entity(tuple(spans))}
        entities.append(tuple(s for s in spans if s not in drop))
    starts = tuple(sorted({0, *draw(st.lists(st.integers(1, n), max_size=3))} - {n}))
    words = tuple(f"w{i}" for i in range(n))
    return Document("d", tuple(entities), syntax=Syntax(words=words, sentence_starts=starts))


@settings(max_examples=150, deadline=None)
@given(documents())
def test_round_trip_property(doc: Document) -> None:
    text, losses = render(doc)
    assert not losses.dropped and not losses.facts
    back = read_conllu_text(text)["d"]

    def by_label(d: Document, prefix: str) -> dict[str, list[Span]]:
        return {prefix + label: sorted(e) for label, e in zip(d.labels, d.entities)}

    assert by_label(back, "") == by_label(doc, "e")
    assert back.syntax == doc.syntax


def _through_conllu(corpus: Corpus) -> Corpus:
    out = io.StringIO()
    losses = Losses(allow=False, target="CoNLL-U")
    write_conllu(corpus, out, losses=losses)
    assert not losses.dropped
    return read_conllu_text(out.getvalue())


def test_gum_conllu_round_trip() -> None:
    corpus = read_conllu(shared_path("data", "real", "gum", "pairs", "test.key_gum.conllu"))
    back = _through_conllu(corpus)
    assert list(back.documents) == list(corpus.documents)
    mentions = 0
    for doc in corpus:
        other = back[doc.doc_id]
        assert other.entities == doc.entities
        assert other.labels == tuple("e" + label for label in doc.labels)
        assert other.heads == doc.heads
        assert other.entity_types == doc.entity_types
        assert other.pieces == doc.pieces
        assert other.syntax == doc.syntax
        mentions += doc.mention_count
    assert mentions > 5000


@pytest.mark.parametrize(
    ("key", "response"),
    [
        (
            ("dutchcoref_knack", "key", "knack_file7.gold.conll"),
            ("dutchcoref_knack", "response", "knack_file7.dutchcoref.conll"),
        ),
        (("gum", "pairs", "test.key_gum.conll"), ("gum", "pairs", "test.resp_xrenner.conll")),
    ],
)
def test_conll_to_conllu_keeps_entities_and_scores(
    key: tuple[str, ...], response: tuple[str, ...]
) -> None:
    key_c = read_conll(shared_path("data", "real", *key), syntax=True)
    resp_c = read_conll(shared_path("data", "real", *response), syntax=True)
    key_u, resp_u = _through_conllu(key_c), _through_conllu(resp_c)
    for side_c, side_u in ((key_c, key_u), (resp_c, resp_u)):
        assert list(side_u.documents) == list(side_c.documents)
        for doc in side_c:
            other = side_u[doc.doc_id]
            # Entities may be listed in another order at ties (CoNLL numbers them
            # by the first bracket in its own column order); compare by label.
            assert {lab: sorted(e) for lab, e in zip(other.labels, other.entities)} == {
                "e" + lab: sorted(e) for lab, e in zip(doc.labels, doc.entities)
            }
            assert other.syntax is not None and doc.syntax is not None
            assert other.syntax.words == doc.syntax.words
            assert other.syntax.sentence_starts == doc.syntax.sentence_starts
    before = corefscore.score_corpora(key_c, resp_c).to_dict()
    after = corefscore.score_corpora(key_u, resp_u).to_dict()
    assert after == before
    assert 0 < before["metrics"]["muc"]["recall"] < 1


# --------------------------------------------------------------------------------------------
# CoNLL-U to CoNLL-U: what the writer keeps from a CoNLL-U source

# Numeric entity ids (as in GUM), which the writer prefixes with "e": SplitAnte
# and Bridge must follow. "They" (1) and the zero 6.1 (4) have split antecedents
# and a bridge; the zero carries DEPS naming a word and is a mention of its own;
# "went" has items Entity= is inserted among (sorted by name, as udapi sorts).
CORE_SOURCE = """\
# global.Entity = eid-etype-head-other
# newdoc id = d1
# sent_id = s-one
# text = John met Mary . They left
1\tJohn\tJohn\tPROPN\t_\tNumber=Sing\t2\tnsubj\t2:nsubj\tEntity=(1-person-1)
2\tmet\tmeet\tVERB\t_\t_\t0\troot\t0:root\tSpaceAfter=No
3\tMary\tMary\tPROPN\t_\t_\t2\tobj\t2:obj\tEntity=(2-person-1)|SpaceAfter=No
4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t2:punct\t_
5\tThey\tthey\tPRON\t_\t_\t6\tnsubj\t6:nsubj\tEntity=(3-person-1)|SplitAnte=1<3,2<3
6\tleft\tleave\tVERB\t_\t_\t2\tconj\t2:conj\tMSeg=le-ft|Bridge=2<4:part|Entity=(4-place-1)
6.1\t_\t_\t_\t_\t_\t_\t_\t6:nsubj\tEntity=(3-person-1)

# sent_id = s-two
# text = Mary went
1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\tEntity=(2-person-1)
2\twent\tgo\tVERB\t_\t_\t0\troot\t0:root\tAlt=x|Gloss=went|SpaceAfter=No
"""

CORE_EXPECTED = """\
# global.Entity = eid-etype-head-other
# newdoc id = d1
# sent_id = s-one
# text = John met Mary . They left
1\tJohn\t_\tPROPN\t_\tNumber=Sing\t2\tdep\t2:nsubj\tEntity=(e1-person-1)
2\tmet\t_\tVERB\t_\t_\t0\troot\t0:root\tSpaceAfter=No
3\tMary\t_\tPROPN\t_\t_\t2\tdep\t2:obj\tEntity=(e2-person-1)|SpaceAfter=No
4\t.\t_\tPUNCT\t_\t_\t2\tdep\t2:punct\t_
5\tThey\t_\tPRON\t_\t_\t6\tdep\t6:nsubj\tEntity=(e3-person-1)|SplitAnte=e1<e3,e2<e3
6\tleft\t_\tVERB\t_\t_\t2\tdep\t2:conj\tMSeg=le-ft|Bridge=e2<e4:part|Entity=(e4-place-1)
6.1\t_\t_\t_\t_\t_\t_\t_\t6:nsubj\tEntity=(e3-person-1)

# sent_id = s-two
# text = Mary went
1\tMary\t_\tPROPN\t_\t_\t2\tdep\t2:nsubj\tEntity=(e2-person-1)
2\twent\t_\tVERB\t_\t_\t0\troot\t0:root\tAlt=x|Gloss=went|SpaceAfter=No

"""


def test_conllu_source_keeps_misc_links_zeros_and_sentence_ids() -> None:
    from corefscore.io.convert import render as convert_render

    corpus = read_conllu_text(CORE_SOURCE, empty_nodes=True)
    text, warnings = convert_render(corpus, to="conllu")
    assert text == CORE_EXPECTED
    assert warnings == []
    # Written again, the output is unchanged (ids are valid now, nothing renamed).
    again, _ = convert_render(read_conllu_text(text, empty_nodes=True), to="conllu")
    assert again == CORE_EXPECTED


def test_conllu_source_read_without_empty_nodes_loses_only_what_names_them() -> None:
    from corefscore.io.convert import render as convert_render

    corpus = read_conllu_text(CORE_SOURCE)  # the zero 6.1 is not a token here
    text, warnings = convert_render(corpus, to="conllu")
    assert "6.1\t" not in text
    assert "SplitAnte=e1<e3,e2<e3" in text and "Bridge=e2<e4:part" in text
    # The zero's mention went with it, said by the reader.
    assert [w.split(": ", 1)[1] for w in warnings] == [
        "document 'd1': dropped 1 mention(s) made only of empty nodes (read with "
        "empty_nodes=True to keep them)"
    ]


def test_links_on_a_node_not_written_are_counted() -> None:
    from corefscore.io.convert import render as convert_render

    source = CORE_SOURCE.replace(
        "6:nsubj\tEntity=(3-person-1)", "6:nsubj\tEntity=(3-person-1)|Bridge=1<3"
    )
    _, warnings = convert_render(read_conllu_text(source), to="conllu")
    assert warnings[1:] == ["CoNLL-U has no place for bridging links; 1 not written"]


def test_new_entity_item_goes_where_udapi_orders_it() -> None:
    from corefscore.io.conllu_writer import _misc_column

    assert _misc_column("Alt=x|SpaceAfter=No", "(e1)", {}) == "Alt=x|Entity=(e1)|SpaceAfter=No"
    assert _misc_column("_", "(e1)", {}) == "Entity=(e1)"
    assert _misc_column("Entity=(e1)|SpaceAfter=No", "", {}) == "SpaceAfter=No"
    assert _misc_column("Entity=(e1)", "", {}) == "_"
    assert (
        _misc_column("Bridge=1<2:part,3<2|X=1<2", "", {"1": "e1", "2": "e2"})
        == "Bridge=e1<e2:part,3<e2|X=1<2"
    )


def _misc_items(path: str) -> dict[tuple[str, str], list[str]]:
    """Every node's MISC items but Entity=, by (sent_id, ID); numeric ids in links prefixed."""
    items: dict[tuple[str, str], list[str]] = {}
    sent_id = ""
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            line = line.rstrip("\n")
            if line.startswith("# sent_id"):
                sent_id = line.split("=", 1)[1].strip()
            elif line and not line.startswith("#"):
                fields = line.split("\t")
                if "-" not in fields[0]:
                    items[(sent_id, fields[0])] = [
                        x for x in fields[9].split("|") if not x.startswith("Entity=")
                    ]
    return items


@pytest.mark.parametrize("name", ["dev.key_gum", "dev.resp_xrenner"])
def test_gum_conllu_to_conllu_keeps_every_node_misc_and_the_corefud_scores(
    tmp_path: pytest.TempPathFactory, name: str
) -> None:
    from pathlib import Path

    from corefscore import cli

    source = shared_path("data", "real", "gum", "pairs", f"{name}.conllu")
    target = Path(str(tmp_path)) / f"{name}.conllu"
    assert cli.main(["convert", str(source), str(target), "--to", "conllu", "-q"]) == 0
    before, after = _misc_items(str(source)), _misc_items(str(target))
    assert list(after) == list(before)  # every node, empty nodes included, in order
    relinked = 0
    for node, items in before.items():
        expected = []
        for item in items:
            key, _, value = item.partition("=")
            if key in ("Bridge", "SplitAnte") and value[:1].isdigit():
                relinked += 1
                value = ",".join("e" + link.replace("<", "<e", 1) for link in value.split(","))
                item = f"{key}={value}"
            expected.append(item)
        assert after[node] == expected, node
    assert relinked > 100 if "key" in name else relinked == 0
    # The converted file scores as the original under the CorefUD evaluation.
    pairs = source.parent
    other = "dev.resp_xrenner" if "key" in name else "dev.key_gum"
    for match in ("head", "exact", "partial"):
        original = [pairs / f"{name}.conllu", pairs / f"{other}.conllu"]
        converted = [target, pairs / f"{other}.conllu"]
        if "resp" in name:
            original.reverse()
            converted.reverse()
        expected_scores = corefscore.score_files(*original, matching=match).to_dict()
        converted_scores = corefscore.score_files(*converted, matching=match).to_dict()
        assert converted_scores["metrics"] == expected_scores["metrics"], match
