"""CorefUD CoNLL-U reader: hand-written documents, errors at their lines, real GUM data."""

from __future__ import annotations

import gzip
import math
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefscore
from corefscore.errors import InputError
from corefscore.io.conll import read_conll
from corefscore.io.conllu import read_conllu, read_conllu_text
from corefscore.model import Corpus, Document, Syntax

from ..conftest import shared_path


def row(word_id: str, form: str, misc: str = "_", upos: str = "X", head: str = "_") -> str:
    return "\t".join([word_id, form, form.lower(), upos, "_", "_", head, "_", "_", misc])


# Line numbers are given in the comments: errors and `lines` refer to them.
BASIC = "\n".join(
    [
        "# newdoc id = d1",  # 1
        "# global.Entity = eid-etype-head-other",  # 2
        "# sent_id = 1",  # 3
        row("1", "John", "Entity=(e1-person-1)", "PROPN", "2"),  # 4
        row("2", "saw", "_", "VERB", "0"),  # 5
        row("3", "his", "Entity=(e2-animal-2(e1-person-1)", "PRON", "4"),  # 6
        row("4", "dog", "Entity=e2)|SpaceAfter=No", "NOUN", "2"),  # 7
        row("5", ".", "_", "PUNCT", "2"),  # 8
        "",  # 9
        row("1-2", "Don't"),  # 10: a multiword token, not a token
        row("1", "Do", "_", "AUX", "3"),  # 11
        row("2", "n't", "_", "PART", "3"),  # 12
        row("3", "bite", "SplitAnte=e1<e3", "VERB", "0"),  # 13
        row("4", "him", "Entity=(e1--1)|Bridge=e2<e1", "PRON", "3"),  # 14
        "",
    ]
)


def test_basic_document_exactly() -> None:
    corpus = read_conllu_text(BASIC, source="basic.conllu")
    assert list(corpus.documents) == ["d1"]
    # e3 has no mention: its SplitAnte link is read and ignored, with a warning.
    assert corpus.warnings == (
        "basic.conllu:13: document 'd1': SplitAnte names entity 'e3', which has no mention in "
        "the document; link ignored",
    )
    assert corpus["d1"] == Document(
        doc_id="d1",
        entities=(((0, 0), (2, 2), (8, 8)), ((2, 3),)),
        labels=("e1", "e2"),
        lines=((4, 6, 14), (6,)),
        source="basic.conllu",
        # e2's head is its 2nd token, "dog" (document position 3).
        heads=((0, 2, 8), (3,)),
        entity_types=("person", "animal"),
        syntax=Syntax(
            words=("John", "saw", "his", "dog", ".", "Do", "n't", "bite", "him"),
            pos=("PROPN", "VERB", "PRON", "NOUN", "PUNCT", "AUX", "PART", "VERB", "PRON"),
            dependency_heads=(1, -1, 3, 1, 1, 7, 7, -1, 7),
            sentence_starts=(0, 5),
        ),
        annotations={"split_antecedents": [(13, "e1<e3")], "bridging": [(14, "e2<e1")]},
        # "him" (e1) bridges to e2, whose one mention "his dog" comes before it.
        bridging=(((8, 8), (2, 3)),),
    )


def test_gzip_file_reads_like_text(tmp_path: Path) -> None:
    path = tmp_path / "basic.conllu.gz"
    path.write_bytes(gzip.compress(BASIC.encode("utf-8")))
    doc = read_conllu(path)["d1"]
    assert doc.entities == (((0, 0), (2, 2), (8, 8)), ((2, 3),))
    assert doc.source == str(path)


# A discontinuous mention whose second part contains an empty node (3.1):
# its nodes are a, c, E, d; head 3 is the empty node E.
NO_DECLARATION = (
    "{}: Entity= annotations without a '# global.Entity' declaration; their attributes "
    "read in CorefUD's order eid-etype-head-other"
)
DISCONTINUOUS = "\n".join(
    [
        "# newdoc id = d2",  # 1 (no global.Entity: eid-etype-head-other)
        row("1", "a", "Entity=(e5[1/2]-x-3)"),  # 2
        row("2", "b"),  # 3
        row("3", "c", "Entity=(e5[2/2]-x-3"),  # 4
        row("3.1", "E"),  # 5
        row("4", "d", "Entity=e5[2/2])"),  # 6
        "",
        # Parts that become adjacent once the empty node is left out.
        row("1", "p", "Entity=(e9[1/2]--2)"),  # 8
        row("1.1", "Q"),  # 9
        row("2", "r", "Entity=(e9[2/2]--2)"),  # 10
        "",
        # A mention only on an empty node, and one opening on an empty node.
        row("1", "x"),  # 12
        row("1.1", "Y", "Entity=(e7-thing-1)(e8-thing-1"),  # 13
        row("2", "z", "Entity=e8)(e7-thing-1)"),  # 14
        "",
    ]
)


def test_discontinuous_and_empty_nodes_left_out() -> None:
    corpus = read_conllu_text(DISCONTINUOUS)
    doc = corpus["d2"]
    # tokens: a0 b1 c2 d3 | p4 r5 | x6 z7
    assert doc.entities == (((0, 3),), ((4, 5),), ((7, 7),), ((7, 7),))
    assert doc.labels == ("e5", "e9", "e7", "e8")
    assert doc.lines == ((2,), (8,), (14,), (13,))
    assert doc.pieces == ((((0, 0), (2, 3)),), (None,), (None,), (None,))
    # e5's head is the empty node: unknown here. e8's head (node Y) too.
    assert doc.heads == ((None,), (5,), (7,), (None,))
    assert doc.entity_types == ("x", None, "thing", "thing")
    assert doc.annotations == {"dropped_empty_node_mentions": 1}
    assert corpus.warnings == (
        "<string>:1: document 'd2': dropped 1 mention(s) made only of empty nodes "
        "(read with empty_nodes=True to keep them)",
        NO_DECLARATION.format("<string>"),
    )
    assert doc.syntax is not None
    assert doc.syntax.words == ("a", "b", "c", "d", "p", "r", "x", "z")
    assert doc.syntax.sentence_starts == (0, 4, 6)
    assert doc.syntax.dependency_heads is None  # HEAD is "_" everywhere


def test_discontinuous_and_empty_nodes_kept() -> None:
    corpus = read_conllu_text(DISCONTINUOUS, empty_nodes=True)
    doc = corpus["d2"]
    # tokens: a0 b1 c2 E3 d4 | p5 Q6 r7 | x8 Y9 z10
    assert doc.entities == (((0, 4),), ((5, 7),), ((9, 9), (10, 10)), ((9, 10),))
    assert doc.lines == ((2,), (8,), (13, 14), (13,))
    assert doc.pieces == ((((0, 0), (2, 4)),), (((5, 5), (7, 7)),), (None, None), (None,))
    assert doc.heads == ((3,), (7,), (9, 10), (9,))
    assert corpus.warnings == (NO_DECLARATION.format("<string>"),)
    assert doc.annotations == {}
    assert doc.syntax is not None
    assert doc.syntax.words == ("a", "b", "c", "E", "d", "p", "Q", "r", "x", "Y", "z")
    assert doc.syntax.sentence_starts == (0, 5, 8)


def test_gum_style_attributes_and_nesting() -> None:
    # GUM names the id "GRP" and has no head attribute: heads stay unknown.
    text = "\n".join(
        [
            "# newdoc id = g",
            "# global.Entity = GRP-etype-infstat-minspan",
            row("1", "The", "Entity=(1-abstract-new-2"),
            row("2", "groups", "Entity=(3-person-new-1)"),
            row("3", "here", "Entity=1)"),
            "",
        ]
    )
    doc = read_conllu_text(text)["g"]
    assert doc.entities == (((0, 2),), ((1, 1),))
    assert doc.labels == ("1", "3")
    assert doc.heads == ()
    assert doc.entity_types == ("abstract", "person")
    assert doc.pieces == ()


def test_same_entity_nested_mentions_close_innermost_first() -> None:
    text = "\n".join(
        [
            "# newdoc id = n",
            row("1", "the", "Entity=(e1-p-2"),
            row("2", "man", "_"),
            row("3", "who", "Entity=(e1-p-1)"),
            row("4", "sold", "Entity=(e1-p-1"),
            row("5", "it", "Entity=e1)e1)"),
        ]
    )
    doc = read_conllu_text(text)["n"]
    assert doc.entities == (((2, 2), (3, 4), (0, 4)),)
    assert doc.heads == ((2, 3, 1),)


def test_missing_newdoc_names_document_by_its_place() -> None:
    """Named by its place, as udapi names bare '# newdoc' documents, so that a key and
    a response without ids still pair."""
    text = "\n".join([row("1", "x", "Entity=(e1-a-1)"), "", "# newdoc", row("1", "y"), ""])
    corpus = read_conllu_text(text, source="/data/some/file.conllu.gz")
    assert list(corpus.documents) == ["1", "2"]
    assert corpus.warnings == (
        "/data/some/file.conllu.gz:1: no '# newdoc id = ...' before the first sentence; "
        "document named '1' (its place in the file)",
        "/data/some/file.conllu.gz:3: '# newdoc' without an id; document named '2' (its place "
        "in the file)",
        NO_DECLARATION.format("/data/some/file.conllu.gz"),
    )


def test_several_documents_in_order() -> None:
    text = "\n".join(
        [
            "# newdoc id = A",
            row("1", "x", "Entity=(e1-a-1)"),
            "",
            "# newdoc id = B",
            row("1", "y"),
            row("2", "y", "Entity=(e1-a-1)"),
            "",
        ]
    )
    corpus = read_conllu_text(text)
    assert list(corpus.documents) == ["A", "B"]
    assert corpus["B"].entities == (((1, 1),),)
    assert corpus["B"].lines == ((6,),)


ERRORS = [
    (
        "closing bracket 'e1)' without an opening '(e1'",
        3,
        [row("1", "a"), row("2", "b", "Entity=e1)")],
    ),
    (
        "mention '(e2' opened here is never closed",
        2,
        [row("1", "a", "Entity=(e2-x-1"), row("2", "b")],
    ),
    ("bad Entity= value 'foo'", 2, [row("1", "a", "Entity=foo")]),
    ("bad opening chunk '(' in Entity= value '(e1-x('", 2, [row("1", "a", "Entity=(e1-x(")]),
    ("bad opening chunk '([1/2]-x'", 2, [row("1", "a", "Entity=([1/2]-x)")]),
    (
        "head '3' of a mention of entity 'e1' is not a position within its 2 node(s)",
        2,
        [row("1", "a", "Entity=(e1-x-3"), row("2", "b", "Entity=e1)")],
    ),
    ("head 'h' of a mention", 2, [row("1", "a", "Entity=(e1-x-h"), row("2", "b", "Entity=e1)")]),
    ("bad discontinuous part marker '[3/2]'", 2, [row("1", "a", "Entity=(e1[3/2]-x-1)")]),
    ("bad discontinuous part marker '[a]'", 2, [row("1", "a", "Entity=(e1[a]-x-1)")]),
    (
        "discontinuous mention of entity 'e1' has only part(s) [1] of 2",
        2,
        [row("1", "a", "Entity=(e1[1/2]-x-1)"), row("2", "b")],
    ),
    (
        "part 1/2 of a discontinuous mention of entity 'e1' appears twice",
        3,
        [row("1", "a", "Entity=(e1[1/2]-x-1)"), row("2", "b", "Entity=(e1[1/2]-x-1)")],
    ),
    ("token line has 9 tab-separated column(s)", 3, [row("1", "a"), "2\tb\t_\t_\t_\t_\t_\t_\t_"]),
    ("bad token ID 'x'", 2, [row("x", "a")]),
    ("HEAD '7' is not a word of this sentence", 2, [row("1", "a", head="7")]),
]


@pytest.mark.parametrize(("message", "line", "rows"), ERRORS)
def test_errors_at_their_line(message: str, line: int, rows: list[str]) -> None:
    text = "\n".join(["# newdoc id = d", *rows, ""])
    with pytest.raises(InputError) as info:
        read_conllu_text(text, source="bad.conllu")
    assert message in str(info.value)
    assert str(info.value).startswith(f"bad.conllu:{line}: ")


def test_duplicate_document_id() -> None:
    text = "\n".join(["# newdoc id = A", row("1", "x"), "", "# newdoc id = A", row("1", "y")])
    with pytest.raises(InputError, match=r"appears twice in this file \(first at line 1\)") as e:
        read_conllu_text(text, source="dup.conllu")
    assert str(e.value).startswith("dup.conllu:4: ")


def test_empty_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="empty file"):
        read_conllu_text("")
    with pytest.raises(InputError, match="no such file"):
        read_conllu(tmp_path / "absent.conllu")


@st.composite
def _mentions(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(1, 8))
    spans = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).map(lambda p: tuple(sorted(p))),
            max_size=8,
        )
    )
    return n, [(a, b) for a, b in spans]


@settings(max_examples=200, deadline=None)
@given(_mentions())
def test_any_bracketing_in_canonical_order_reads_back(
    case: tuple[int, list[tuple[int, int]]],
) -> None:
    """One entity per mention, so crossing mentions are unambiguous too."""
    n, spans = case
    chunks: list[list[str]] = [[] for _ in range(n)]
    for t in range(n):
        # udapi's order: closings, then openings (longer first), then single tokens.
        closing = [f"e{i})" for i, (a, b) in enumerate(spans) if b == t and a < t]
        opening = sorted(
            ((a - b, f"(e{i}-x-{b - a + 1}") for i, (a, b) in enumerate(spans) if a == t < b)
        )
        single = [f"(e{i}-x-1)" for i, (a, b) in enumerate(spans) if a == b == t]
        chunks[t] = closing + [c for _, c in opening] + single
    rows = [
        row(str(t + 1), "w", "Entity=" + "".join(c) if c else "_") for t, c in enumerate(chunks)
    ]
    doc = read_conllu_text("\n".join(["# newdoc id = h", *rows]))["h"]
    read = {label: entity for label, entity in zip(doc.labels, doc.entities)}
    assert read == {f"e{i}": (span,) for i, span in enumerate(spans)}
    # Every head was written as the mention's last token.
    heads = dict(zip(doc.labels, doc.heads))
    assert heads == {f"e{i}": (b,) for i, (_, b) in enumerate(spans)}


# Real data: the GUM keys and xrenner responses exist as CoNLL-2012 and as
# CorefUD CoNLL-U (PROVENANCE.md). Both readings must score the same, per
# document, except where the files themselves differ.

# Cross-sentence xrenner mentions that CoNLL-U could not hold (PROVENANCE.md).
DROPPED = {"test": ("GUM_podcast_bezos", (204, 255)), "dev": ("GUM_letter_wiki", (0, 584))}
# Documents where the response has one span in two entities and the two files
# list those entities in opposite order on that line (CoNLL-U "(e222--1)(e138--1)",
# CoNLL-2012 "(138)|(222)"), so ``duplicates="first"`` keeps a different copy.
REORDERED = {
    "test": {"GUM_conversation_lambada", "GUM_news_nasa"},
    "dev": {"GUM_whow_overalls"},
}


def _renamed(corpus: Corpus) -> Corpus:
    """CoNLL-2012 ids '(GUM_x); part 000' as the CoNLL-U ids 'GUM_x'."""
    docs = {}
    for doc_id, doc in corpus.documents.items():
        name = doc_id.split(";")[0].strip("()")
        docs[name] = replace(doc, doc_id=name)
    return Corpus(documents=docs)


def _mention_set(doc: Document) -> Counter[tuple[int, int]]:
    return Counter(span for entity in doc.entities for span in entity)


@pytest.mark.parametrize("split", ["test", "dev"])
def test_gum_conllu_scores_like_conll2012(split: str) -> None:
    pairs = shared_path("data", "real", "gum", "pairs")
    key_u = read_conllu(pairs / f"{split}.key_gum.conllu")
    resp_u = read_conllu(pairs / f"{split}.resp_xrenner.conllu")
    key_c = _renamed(read_conll(pairs / f"{split}.key_gum.conll"))
    resp_c = _renamed(read_conll(pairs / f"{split}.resp_xrenner.conll"))
    assert list(key_u.documents) == list(key_c.documents) == list(resp_u.documents)
    assert len(key_u) == 30
    assert key_u.warnings == resp_u.warnings == ()

    dropped_doc, dropped_span = DROPPED[split]
    for doc_id in key_u.documents:
        assert _mention_set(key_u[doc_id]) == _mention_set(key_c[doc_id])
        u, c = key_u[doc_id].syntax, key_c[doc_id]
        assert (
            u is not None
            and u.words is not None
            and len(u.words) > max(s[1] for e in c.entities for s in e)
        )
        missing = _mention_set(resp_c[doc_id]) - _mention_set(resp_u[doc_id])
        assert missing == (Counter({dropped_span: 1}) if doc_id == dropped_doc else Counter())
        assert _mention_set(resp_u[doc_id]) - _mention_set(resp_c[doc_id]) == Counter()
        # Same entities (as mention sets) on both sides, whatever their order.
        for side_u, side_c in ((key_u, key_c), (resp_u, resp_c)):
            if side_u is resp_u and doc_id == dropped_doc:
                continue
            assert sorted(map(sorted, side_u[doc_id].entities)) == sorted(
                map(sorted, side_c[doc_id].entities)
            )

    # The CoNLL-2012 files have no split antecedents (CoNLL-U's SplitAnte): left out.
    a = corefscore.score_corpora(
        key_u, resp_u, duplicates="first", per_document=True, split_antecedents="drop"
    )
    b = corefscore.score_corpora(key_c, resp_c, duplicates="first", per_document=True)
    assert a.documents is not None and b.documents is not None
    agree = []
    for doc_id in key_u.documents:
        ours, theirs = a.documents[doc_id].metrics, b.documents[doc_id].metrics
        same = all(
            math.isclose(ours[m].recall_num, theirs[m].recall_num, rel_tol=1e-12)
            and math.isclose(ours[m].precision_num, theirs[m].precision_num, rel_tol=1e-12)
            and ours[m].recall_den == theirs[m].recall_den
            and ours[m].precision_den == theirs[m].precision_den
            for m in ours
        )
        if same:
            agree.append(doc_id)
    assert set(key_u.documents) - set(agree) == REORDERED[split] | {dropped_doc}
    assert len(agree) == {"test": 27, "dev": 28}[split]
    # The dropped mention is the only difference in that document's response.
    assert a.documents[dropped_doc]["mentions"].precision_den + 1 == (
        b.documents[dropped_doc]["mentions"].precision_den
    )


def test_xrenner_heads_lie_in_their_mentions() -> None:
    pairs = shared_path("data", "real", "gum", "pairs")
    corpus = read_conllu(pairs / "test.resp_xrenner.conllu")
    heads = 0
    pieces = 0
    for doc in corpus:
        assert doc.heads
        for entity, entity_heads in zip(doc.entities, doc.heads):
            for (start, end), head in zip(entity, entity_heads):
                assert head is not None and start <= head <= end
                heads += 1
        pieces += sum(p is not None for e in doc.pieces for p in e)
    assert heads == 2436 - 1  # PROVENANCE: 2,436 mentions, one dropped (bezos)
    # xrenner's discontinuous mentions only skip empty nodes, which are not tokens.
    assert pieces == 0


# syntax=False: files are then read by the array pass, which hands only the
# lines that matter to the line loop. Everything but Document.syntax must be
# as with syntax=True (read a line at a time).


def _same_but_syntax(fast: Corpus, full: Corpus) -> None:
    assert list(fast.documents) == list(full.documents)
    assert fast.warnings == full.warnings
    for doc_id, doc in fast.documents.items():
        assert doc.syntax is None
        assert full[doc_id].syntax is not None
        assert doc == replace(full[doc_id], syntax=None)


# Unusual but valid lines that the array pass must hand to the line loop:
# a document started without "# newdoc", an attribute declaration after it,
# multiword tokens, an ID longer than the array pass checks, white-space-only
# lines, "Entity" as a word form, MISC items in several places.
UNUSUAL = "\n".join(
    [
        row("1", "Entity", "Entity=(a-x-1)"),  # 1: no newdoc: document named after the file
        row("2", "Bridge", "SpaceAfter=No|Bridge=a<b"),  # 2
        "   ",  # 3: blank
        "#newdoc id = second",  # 4: no space after '#'
        "#  global.Entity = eid-head-etype",  # 5
        row("1-2", "ab"),  # 6
        row("1", "a", "MSeg=x|Entity=(b-2-t|SplitAnte=a<b"),  # 7
        row("00000000000000000000002", "b", "Entity=b)"),  # 8: a long (valid) ID
        row("2.1", "E", "Entity=(c-1-t)"),  # 9: only on an empty node
        row("3", "c", "Entity=(d-1-u)(e-1-v)"),  # 10
        "",  # 11
        "# newpar",  # 12
        "# newdoc id = third",  # 13
        row("1", "x", "Entity=(f-1-w"),  # 14
        row("1.1", "Y"),  # 15
        row("2", "y", "Entity=f)|Entity=(g-1-w)"),  # 16: two Entity items
    ]
)


@pytest.mark.parametrize("text", [BASIC, DISCONTINUOUS, UNUSUAL], ids=["basic", "disc", "unusual"])
@pytest.mark.parametrize("empty_nodes", [False, True])
@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_syntax_false_reads_the_same_coreference(
    tmp_path: Path, text: str, empty_nodes: bool, ending: str
) -> None:
    path = tmp_path / "doc.conllu"
    path.write_bytes((text.replace("\n", ending) + ending).encode("utf-8"))
    full = read_conllu(path, empty_nodes=empty_nodes)
    assert full == read_conllu_text(text, source=str(path), empty_nodes=empty_nodes)
    _same_but_syntax(read_conllu(path, empty_nodes=empty_nodes, syntax=False), full)
    _same_but_syntax(
        read_conllu_text(text, source=str(path), empty_nodes=empty_nodes, syntax=False), full
    )


def test_unusual_lines_exactly(tmp_path: Path) -> None:
    path = tmp_path / "u.conllu"
    path.write_text(UNUSUAL + "\n", encoding="utf-8")
    corpus = read_conllu(path, syntax=False)
    assert list(corpus.documents) == ["1", "second", "third"]
    assert corpus.warnings == (
        f"{path}:1: no '# newdoc id = ...' before the first sentence; document named '1' "
        "(its place in the file)",
        f"{path}:2: document '1': Bridge names entity 'b', which has no mention in the "
        "document; link ignored",
        f"{path}:4: document 'second': dropped 1 mention(s) made only of empty nodes "
        "(read with empty_nodes=True to keep them)",
        f"{path}:7: document 'second': SplitAnte names entity 'a', which has no mention in the "
        "document; link ignored",
    )
    assert corpus["1"].entities == (((0, 0),),)
    assert corpus["1"].annotations == {"bridging": [(2, "a<b")]}
    second = corpus["second"]
    # tokens a0 b1 c2 (E is not a token); eid-head-etype: the head comes first.
    assert second.labels == ("b", "d", "e")
    assert second.entities == (((0, 1),), ((2, 2),), ((2, 2),))
    assert second.heads == ((1,), (2,), (2,))
    assert second.entity_types == ("t", "u", "v")
    assert second.lines == ((7,), (10,), (10,))
    assert second.annotations == {
        "split_antecedents": [(7, "a<b")],
        "dropped_empty_node_mentions": 1,
    }
    third = corpus["third"]
    assert third.entities == (((0, 1),), ((1, 1),))
    assert third.lines == ((14,), (16,))
    kept = read_conllu(path, syntax=False, empty_nodes=True)["third"]
    assert kept.entities == (((0, 2),), ((2, 2),))


@pytest.mark.parametrize(("message", "line", "rows"), ERRORS[:-1])  # HEAD: syntax only
def test_errors_at_their_line_without_syntax(
    tmp_path: Path, message: str, line: int, rows: list[str]
) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text("\n".join(["# newdoc id = d", *rows, ""]), encoding="utf-8")
    for syntax in (True, False):
        with pytest.raises(InputError) as info:
            read_conllu(path, syntax=syntax)
        assert message in str(info.value)
        assert str(info.value).startswith(f"{path}:{line}: ")


def test_head_column_unchecked_without_syntax() -> None:
    text = "\n".join(["# newdoc id = d", row("1", "a", "Entity=(e1-x-1)", head="7"), ""])
    doc = read_conllu_text(text, syntax=False)["d"]
    assert doc.entities == (((0, 0),),) and doc.syntax is None


def test_earlier_error_wins_over_later_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.conllu"
    good = "\n".join(["# newdoc id = d", row("1", "a", "Entity=(e1-x-1)"), ""]).encode()
    bad_line = row("2", "b").encode().replace(b"b", b"\xff", 1) + b"\n"
    path.write_bytes(good + bad_line)
    for syntax in (True, False):
        with pytest.raises(InputError, match=r"not valid UTF-8 \(byte 0xff\)") as info:
            read_conllu(path, syntax=syntax)
        assert str(info.value).startswith(f"{path}:3: ")
    # A bad token line before the bad byte is reported instead.
    path.write_bytes(good.replace(b"\t_\t_\t_\tEntity", b"\t_\t_\tEntity") + bad_line)
    for syntax in (True, False):
        with pytest.raises(InputError, match="token line has 9") as info:
            read_conllu(path, syntax=syntax)
        assert str(info.value).startswith(f"{path}:2: ")


# (mentions, entities, bridging items): the test key's match PROVENANCE.md
# (7,927 mentions, 4,319 entities); the xrenner response loses its one
# cross-sentence mention (2,436 - 1); the bridging items are `grep -c Bridge=`.
GUM_COUNTS = {
    "test.key_gum": (7927, 4319, 241),
    "test.resp_xrenner": (2435, 598, 0),
    "dev.key_gum": (7897, 3940, 232),
}


@pytest.mark.parametrize("name", list(GUM_COUNTS))
def test_gum_syntax_false_reads_the_same_coreference(name: str) -> None:
    path = shared_path("data", "real", "gum", "pairs", f"{name}.conllu")
    for empty_nodes in (False, True):
        full = read_conllu(path, empty_nodes=empty_nodes)
        fast = read_conllu(path, empty_nodes=empty_nodes, syntax=False)
        _same_but_syntax(fast, full)
        assert (
            sum(doc.mention_count for doc in fast),
            sum(len(doc.entities) for doc in fast),
            sum(len(doc.annotations.get("bridging", ())) for doc in fast),
        ) == GUM_COUNTS[name]


@st.composite
def _documents(draw: st.DrawFn) -> str:
    """Sentences of words, empty nodes and multiword tokens, with mentions on any nodes."""
    out = ["# newdoc id = r"]
    for _ in range(draw(st.integers(1, 3))):
        out.append("# sent_id = s")
        word = 0
        nodes: list[str] = []
        for kind in "w" + "".join(draw(st.lists(st.sampled_from("wwwem"), max_size=6))):
            if kind == "e" and word:
                nodes.append(f"{word}.{sum(n.startswith(f'{word}.') for n in nodes) + 1}")
            elif kind == "m":
                out_id = f"{word + 1}-{word + 2}"
                nodes.append(out_id)
            else:
                word += 1
                nodes.append(str(word))
        real = [i for i, n in enumerate(nodes) if "-" not in n]
        chunks: dict[int, list[str]] = {i: [] for i in real}
        for e, (a, b) in enumerate(
            draw(st.lists(st.tuples(st.sampled_from(real), st.sampled_from(real)), max_size=4))
        ):
            a, b = min(a, b), max(a, b)
            size = sum(1 for i in real if a <= i <= b)
            if a == b:
                chunks[a].append(f"(x{e}-t-1)")
            else:
                chunks[a].append(f"(x{e}-t-{size}")
                chunks[b].insert(0, f"x{e})")
        for i, node in enumerate(nodes):
            misc = "Entity=" + "".join(chunks[i]) if chunks.get(i) else "_"
            out.append(row(node, "w", misc))
        out.append("")
    return "\n".join(out)


@settings(max_examples=150, deadline=None)
@given(_documents(), st.booleans())
def test_array_pass_matches_line_loop(
    tmp_path_factory: pytest.TempPathFactory, text: str, empty_nodes: bool
) -> None:
    path = tmp_path_factory.mktemp("r") / "r.conllu"
    path.write_text(text, encoding="utf-8")
    try:
        full = read_conllu_text(text, source=str(path), empty_nodes=empty_nodes)
    except InputError as exc:
        with pytest.raises(InputError) as info:
            read_conllu(path, empty_nodes=empty_nodes, syntax=False)
        assert str(info.value) == str(exc)
        return
    _same_but_syntax(read_conllu(path, empty_nodes=empty_nodes, syntax=False), full)


# The array pass reads an "Entity=" value straight from the file's bytes when
# it is the only MISC item with a key the reader uses, and compiles each
# distinct value once (shared by all readings, whatever the attribute
# declaration). Everything else on a line goes through the MISC item loop.

_COMMENTS = [
    "# newpar",
    "# sent_id = s",
    "# text = newdoc global.Entity",
    "#newpar",
    "# newdoc id = {doc}",
    "#newdoc id = {doc}",
    "# newdoc",
    "# global.Entity = eid-head-etype",
    "# global.Entity = eid-etype-head-other",
    "#\tglobal.Entity = eid-other-etype",
]
_EXTRA_ITEMS = ["SpaceAfter=No", "Discourse=a:1", "Entityx=1", "Bridge=a<b", "SplitAnte=a<b", "E"]


@st.composite
def _misc_documents(draw: st.DrawFn) -> str:
    """Words with bracketed mentions, other MISC items and comments in any order."""
    out: list[str] = []
    docs = 0
    for _ in range(draw(st.integers(1, 4))):
        for comment in draw(st.lists(st.sampled_from(_COMMENTS), max_size=2)):
            docs += 1
            out.append(comment.format(doc=f"d{docs}"))
        n = draw(st.integers(1, 5))
        chunks: list[list[str]] = [[] for _ in range(n)]
        for e in range(draw(st.integers(0, 4))):
            a, b = sorted(draw(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
            eid = draw(st.sampled_from(["x", "y", f"z{e}"]))
            head = draw(st.sampled_from(["", "1", str(b - a + 1), str(b - a + 2), "h"]))
            attributes = draw(st.sampled_from([f"-t-{head}", f"-{head}-t", "", "--", f"-t{e}"]))
            if a == b:
                chunks[a].append(f"({eid}{attributes})")
            else:
                chunks[a].append(f"({eid}{attributes}")
                chunks[b].insert(0, f"{eid})")
        for t in range(n):
            items = [f"Entity={''.join(chunks[t])}"] if chunks[t] else []
            for extra in draw(st.lists(st.sampled_from(_EXTRA_ITEMS), max_size=2)):
                items.insert(draw(st.integers(0, len(items))), extra)
            feats = draw(st.sampled_from(["_", "A=1|Entity=(q-t-1)", "Entity=(q-t-1)"]))
            columns = [str(t + 1), "w", "w", "X", "_", feats, "_", "_", "_", "|".join(items) or "_"]
            out.append("\t".join(columns))
        out.append("")
    return "\n".join(out)


@settings(max_examples=300, deadline=None)
@given(_misc_documents())
def test_entity_values_from_bytes_match_line_loop(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    path = tmp_path_factory.mktemp("m") / "m.conllu"
    path.write_text(text, encoding="utf-8")
    for _ in range(2):  # the second reading finds every value compiled
        try:
            full = read_conllu_text(text, source=str(path))
        except InputError as exc:
            with pytest.raises(InputError) as info:
                read_conllu(path, syntax=False)
            assert str(info.value) == str(exc)
            continue
        _same_but_syntax(read_conllu(path, syntax=False), full)


def test_misc_items_around_entity_values(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "# newdoc id = m",  # 1
            "# newpar",  # 2
            row("1", "a", "Discourse=x:1|Entity=(e1-t-2|SpaceAfter=No"),  # 3
            row("2", "b", "Entity=e1)(e2-u-1)|Entityx=(e9-v-1)"),  # 4
            # An Entity= item outside MISC (here in FEATS) is not read.
            "\t".join(["3", "c", "c", "X", "_", "A=1|Entity=(e8-w-1)", "_", "_", "_", "_"]),  # 5
            row("4", "d", "Entity=(e2-u-1)|Bridge=e2<e1|Entity=(e3-v-1)"),  # 6
            "",
        ]
    )
    path = tmp_path / "m.conllu"
    path.write_text(text, encoding="utf-8")
    for corpus in (read_conllu(path, syntax=False), read_conllu_text(text, syntax=False)):
        doc = corpus["m"]
        assert doc.labels == ("e1", "e2", "e3")
        assert doc.entities == (((0, 1),), ((1, 1), (3, 3)), ((3, 3),))
        assert doc.lines == ((3,), (4, 6), (6,))
        assert doc.heads == ((1,), (1, 3), (3,))
        assert doc.entity_types == ("t", "u", "v")
        assert doc.annotations == {"bridging": [(6, "e2<e1")]}


def test_same_value_under_two_attribute_declarations(tmp_path: Path) -> None:
    # One compiled value; its attributes are read under each document's declaration.
    text = "\n".join(
        [
            "# newdoc id = a",
            "# global.Entity = eid-etype-head",
            row("1", "x", "Entity=(e1-2-1)"),
            "",
            "# newdoc id = b",
            "# global.Entity = eid-head-etype",
            row("1", "x", "Entity=(e1-2-1)"),
            row("2", "y", "Entity=(e1-2-1)"),
            "",
        ]
    )
    path = tmp_path / "two.conllu"
    path.write_text(text, encoding="utf-8")
    # A one-word mention's head is its word, whatever its head attribute says
    # (udapi ignores it there): head 2 of a one-word mention is no error.
    corpus = read_conllu(path, syntax=False)
    assert corpus["b"].heads == ((0, 1),) and corpus["b"].entity_types == ("1",)
    path.write_text(text.replace("eid-head-etype", "eid-other-etype"), encoding="utf-8")
    corpus = read_conllu(path, syntax=False)
    assert corpus["a"].entity_types == ("2",) and corpus["a"].heads == ((0,),)
    assert corpus["b"].entity_types == ("1",) and corpus["b"].heads == ()
    assert corpus["b"].entities == (((0, 0), (1, 1)),)


@pytest.mark.parametrize(
    ("misc", "message"),
    [
        ("Entity|SpaceAfter=No", "empty 'Entity=' value in MISC"),
        ("SpaceAfter=No|Entity=", "empty 'Entity=' value in MISC"),
        ("Entity=(e1-x-1)(", "bad opening chunk '('"),
    ],
)
def test_entity_item_errors_without_syntax(tmp_path: Path, misc: str, message: str) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text("\n".join(["# newdoc id = d", row("1", "a"), row("2", "b", misc), ""]))
    with pytest.raises(InputError, match=re.escape(message)) as info:
        read_conllu(path, syntax=False)
    assert str(info.value).startswith(f"{path}:3: ")


# With empty nodes as tokens and the syntax (the CorefUD evaluation's reading),
# a file in one block has its columns read by array operations
# (conllu._read_with_columns); it must give what the line loop gives, every
# syntax column included, or fall back to the line loop.

_SYNTAX_FIELDS = [f.name for f in __import__("dataclasses").fields(Syntax)]


def _same_with_columns(path: Path, text: str) -> None:
    try:
        full = read_conllu_text(text, source=str(path), empty_nodes=True)
    except InputError as exc:
        with pytest.raises(InputError) as info:
            read_conllu(path, empty_nodes=True)
        assert str(info.value) == str(exc)
        return
    fast = read_conllu(path, empty_nodes=True)
    assert list(fast.documents) == list(full.documents)
    assert fast.warnings == full.warnings
    for doc in full:
        other = fast[doc.doc_id]
        assert other == doc
        assert other.syntax is not None and doc.syntax is not None
        for name in _SYNTAX_FIELDS:  # the fields out of equality too
            assert getattr(other.syntax, name) == getattr(doc.syntax, name), name


@settings(max_examples=300, deadline=None)
@given(st.one_of(_documents(), _misc_documents()))
def test_columns_by_arrays_match_line_loop(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    path = tmp_path_factory.mktemp("c") / "c.conllu"
    path.write_text(text, encoding="utf-8")
    _same_with_columns(path, text)


def test_columns_by_arrays_on_unusual_lines(tmp_path: Path) -> None:
    path = tmp_path / "u.conllu"
    path.write_text(UNUSUAL, encoding="utf-8")
    _same_with_columns(path, UNUSUAL)


@pytest.mark.parametrize("name", ["dev.key_gum", "dev.resp_xrenner", "test2.key_gum"])
def test_columns_by_arrays_on_gum(name: str) -> None:
    from corefscore.io.conllu import _read_with_columns

    path = shared_path("data", "real", "gum", "pairs", f"{name}.conllu")
    assert _read_with_columns(str(path), False) is not None  # not a fall-back
    _same_with_columns(path, path.read_text(encoding="utf-8"))


def test_columns_only_the_writers_read_are_decoded_when_first_read() -> None:
    import pickle

    from corefscore.io import conllu

    path = (
        Path(__file__).resolve().parents[1]
        / "data"
        / "corefud"
        / "cases"
        / "20_zeros_dependent_deps"
    )
    fast = read_conllu(path / "key.conllu", empty_nodes=True)
    full = read_conllu_text((path / "key.conllu").read_text(), empty_nodes=True)
    syntax, plain = fast["z"].syntax, full["z"].syntax
    assert syntax is not None and plain is not None
    misc = syntax.misc
    assert isinstance(misc, conllu._LazyColumn) and misc._items is None  # not decoded yet
    assert len(misc) == 21 and misc._items is None
    assert misc[0] == "Entity=(e1-person-1-)" and misc._items is not None
    # It is the tuple of its items in every way that shows.
    assert isinstance(plain.misc, tuple)
    assert misc == plain.misc and plain.misc == misc and misc != list(plain.misc)
    assert hash(misc) == hash(plain.misc) and tuple(misc) == plain.misc
    assert misc[1:3] == plain.misc[1:3] and list(reversed(misc)) == list(reversed(plain.misc))
    assert repr(misc) == repr(plain.misc)
    assert pickle.loads(pickle.dumps(misc)) == plain.misc
    assert type(pickle.loads(pickle.dumps(misc))) is tuple
    # UPOS and FEATS all "_" here: None, as the line loop says.
    assert syntax.pos is None and plain.pos is None and syntax.feats is None
    assert syntax == plain and hash(syntax) == hash(plain)
