"""Mention types for resolution classes: heads, tags, pronoun lists, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefscore.analysis.mention_types import (
    Kind,
    MentionTyper,
    PronounGroup,
    PronounLists,
    fallback_head,
    mention_types,
    named_entity_tokens,
)
from corefscore.errors import InputError
from corefscore.io.conllu import read_conllu_text
from corefscore.model import Document, Syntax


def _doc(words: str, pos: str, spans: list[tuple[int, int]], **syntax: object) -> Document:
    ws, ps = tuple(words.split()), tuple(pos.split())
    assert len(ws) == len(ps)
    return Document(
        "d",
        (tuple(spans),),
        syntax=Syntax(words=ws, pos=ps, sentence_starts=(0,), **syntax),  # type: ignore[arg-type]
        source="k.conll",
    )


def test_fallback_head_stops_at_the_first_post_modifier() -> None:
    pos = "DT NN IN NN IN JJ NNS IN JJ NNP".split()
    # "The prevalence of discrimination across racial groups in contemporary America"
    assert fallback_head(pos, (0, 9)) == 1
    # Prenominal participles and adjectives come before any noun: not a boundary.
    assert fallback_head("DT VBN NN".split(), (0, 2)) == 2
    # A possessive marker or a determiner is never the head.
    assert fallback_head("NNP POS".split(), (0, 1)) == 0
    assert fallback_head("NN NN , WDT VBD".split(), (0, 4)) == 1
    # Nothing nominal and nothing but determiners: the last token.
    assert fallback_head("DT DT".split(), (0, 1)) == 1


def test_named_entity_tokens() -> None:
    bits = ["*", "(PERSON*", "*", "*)", "(GPE)", "*"]
    assert named_entity_tokens(bits) == frozenset({1, 2, 3, 4})
    assert named_entity_tokens(["*"] * 3) == frozenset()


def test_types_from_ptb_tags_and_named_entities() -> None:
    doc = _doc(
        "Barack Obama said he met the company and its IBM chief and I",
        "NNP NNP VBD PRP VBD DT NN CC PRP$ NN NN CC PRP",
        [(0, 1), (3, 3), (5, 6), (8, 8), (9, 10), (12, 12)],
        named_entities=(
            "(PERSON*",
            "*)",
            "*",
            "*",
            "*",
            "*",
            "*",
            "*",
            "*",
            "(ORG)",
            "*",
            "*",
            "*",
        ),
    )
    types = mention_types(doc, doc.entities[0])
    assert types[(0, 1)].kind is Kind.NAME
    assert types[(3, 3)].pronoun is PronounGroup.GENDERED_THIRD
    assert types[(5, 6)].kind is Kind.NOUN and types[(5, 6)].head == 6
    assert types[(8, 8)].pronoun is PronounGroup.UNGENDERED_THIRD
    # "IBM chief": head "chief" is NN, but the head only decides, so no NE override.
    assert types[(9, 10)].kind is Kind.NOUN and types[(9, 10)].head == 10
    assert types[(12, 12)].pronoun is PronounGroup.FIRST_SECOND


def test_named_entity_span_over_the_head_makes_a_name() -> None:
    doc = _doc("the White House", "DT NN NN", [(0, 2)], named_entities=("(ORG*", "*", "*)"))
    assert mention_types(doc, [(0, 2)])[(0, 2)].kind is Kind.NAME


def test_demonstrative_pronoun_has_no_group_and_us_as_a_name_is_not_a_pronoun() -> None:
    doc = _doc("that US", "DT NNP", [(0, 0), (1, 1)])
    types = mention_types(doc, [(0, 0), (1, 1)])
    assert types[(0, 0)].kind is Kind.OTHER
    assert types[(1, 1)].kind is Kind.NAME  # "US" lower-cases to the pronoun "us"
    doc = _doc("this", "PRON", [(0, 0)])
    mt = mention_types(doc, [(0, 0)])[(0, 0)]
    assert mt.kind is Kind.PRONOUN and mt.pronoun is None


CONLLU = """# newdoc id = d
# sent_id = 1
1\tElle\telle\tPRON\t_\tGender=Fem|Number=Sing|Person=3|PronType=Prs\t2\tnsubj\t_\tEntity=(e1)
2\tvoit\tvoir\tVERB\t_\t_\t0\troot\t_\t_
3\tla\tle\tDET\t_\t_\t4\tdet\t_\tEntity=(e2
4\tmaison\tmaison\tNOUN\t_\t_\t2\tobj\t_\t_
5\tde\tde\tADP\t_\t_\t6\tcase\t_\t_
6\tMarie\tMarie\tPROPN\t_\t_\t4\tnmod\t_\tEntity=(e1)e2)
7\tnous\tnous\tPRON\t_\tNumber=Plur|Person=1|PronType=Prs\t2\tobl\t_\tEntity=(e3)
8\tça\tça\tPRON\t_\tPerson=3|PronType=Dem\t2\tobl\t_\tEntity=(e4)

"""


def test_conllu_feats_are_read_and_decide_pronouns_outside_the_lists() -> None:
    doc = read_conllu_text(CONLLU)["d"]
    assert doc.syntax is not None and doc.syntax.feats is not None
    assert doc.syntax.feats[1] == "_"
    assert doc.syntax.feats[6] == "Number=Plur|Person=1|PronType=Prs"
    typer = MentionTyper(doc)
    assert typer.mention_type((0, 0)).pronoun is PronounGroup.GENDERED_THIRD
    assert typer.mention_type((6, 6)).pronoun is PronounGroup.FIRST_SECOND
    assert typer.mention_type((7, 7)).pronoun is PronounGroup.UNGENDERED_THIRD
    # Dependency heads decide: "la maison de Marie" is headed by "maison".
    mt = typer.mention_type((2, 5))
    assert mt.head == 3 and mt.kind is Kind.NOUN
    assert typer.mention_type((5, 5)).kind is Kind.NAME


def test_conllu_without_feats_has_none() -> None:
    text = "# newdoc id = d\n1\ta\ta\tDET\t_\t_\t0\troot\t_\tEntity=(e1)\n\n"
    doc = read_conllu_text(text)["d"]
    assert doc.syntax is not None and doc.syntax.feats is None


def test_pronoun_lists_from_json(tmp_path: Path) -> None:
    path = tmp_path / "de.json"
    path.write_text(
        json.dumps(
            {
                "first_second": ["ich", "du", "Wir"],
                "gendered_third": ["er", "sie"],
                "ungendered_third": ["es"],
            }
        )
    )
    lists = PronounLists.from_json(path)
    assert lists.group("wir") is PronounGroup.FIRST_SECOND
    assert lists.group("Er") is PronounGroup.GENDERED_THIRD
    assert lists.group("es") is PronounGroup.UNGENDERED_THIRD
    assert lists.group("he") is None
    doc = _doc("Er", "PRON", [(0, 0)])
    assert mention_types(doc, [(0, 0)], lists)[(0, 0)].pronoun is PronounGroup.GENDERED_THIRD


def test_pronoun_lists_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"first_second": []}))
    with pytest.raises(InputError, match="exactly the keys") as info:
        PronounLists.from_json(bad)
    assert info.value.path == str(bad)
    bad.write_text(json.dumps({"first_second": [1], "gendered_third": [], "ungendered_third": []}))
    with pytest.raises(InputError, match="list of strings"):
        PronounLists.from_json(bad)
    bad.write_text("{")
    with pytest.raises(InputError, match="not valid JSON"):
        PronounLists.from_json(bad)


def test_missing_columns_are_errors_naming_the_file() -> None:
    no_syntax = Document("d", (((0, 0),),), source="k.conll")
    with pytest.raises(InputError, match="words") as info:
        MentionTyper(no_syntax)
    assert info.value.path == "k.conll"
    no_pos = Document(
        "d", (((0, 0),),), source="k.conll", syntax=Syntax(words=("he",), sentence_starts=(0,))
    )
    with pytest.raises(InputError, match="POS") as info:
        MentionTyper(no_pos)
    assert info.value.path == "k.conll"
