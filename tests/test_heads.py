"""Mention heads from dependency heads and from CoNLL-2012 parse bits."""

from __future__ import annotations

import pytest

from corefscore.errors import InputError
from corefscore.heads import HeadFinder, mention_head
from corefscore.model import Syntax


def tree(*tokens: tuple[str, str, str], starts: tuple[int, ...] = (0,)) -> Syntax:
    """Syntax from (word, POS, parse bit) triples."""
    words, pos, bits = zip(*tokens)
    return Syntax(words=words, pos=pos, parse=bits, sentence_starts=starts)


# (TOP (S (NP (NP the president) (PP of (NP the company))) (VP said (NP it))))
PRESIDENT = tree(
    ("the", "DT", "(TOP(S(NP(NP*"),
    ("president", "NN", "*)"),
    ("of", "IN", "(PP*"),
    ("the", "DT", "(NP*"),
    ("company", "NN", "*)))"),
    ("said", "VBD", "(VP*"),
    ("it", "PRP", "(NP*))))"),
)

# the -> president -> said (root); of -> president; the -> company -> of; it -> said
PRESIDENT_DEPS = Syntax(words=PRESIDENT.words, dependency_heads=(1, 5, 1, 4, 2, -1, 5))


def word(syntax: Syntax, span: tuple[int, int]) -> str:
    assert syntax.words is not None
    return syntax.words[mention_head(syntax, span)]


@pytest.mark.parametrize(
    ("span", "head"),
    [
        ((0, 4), "president"),  # NP -> its first NP child (Collins' NP rule 2)
        ((0, 1), "president"),  # NP -> rightmost noun
        ((3, 4), "company"),
        ((2, 4), "of"),  # PP -> the preposition
        ((5, 6), "said"),  # VP -> the verb
        ((0, 6), "said"),  # S -> VP -> verb
        ((6, 6), "it"),  # one token is its own head
        ((1, 2), "president"),  # not a constituent; NP (0, 4)'s head is inside
        ((1, 3), "president"),
    ],
)
def test_parse_heads(span: tuple[int, int], head: str) -> None:
    assert word(PRESIDENT, span) == head


@pytest.mark.parametrize(
    ("span", "head"),
    [
        ((0, 4), "president"),
        ((3, 4), "company"),
        ((2, 4), "of"),
        ((0, 6), "said"),  # the root's head is outside every span
        ((1, 2), "president"),  # "of" depends on "president", inside the span
        ((4, 5), "company"),  # two tokens point outside: the first one
    ],
)
def test_dependency_heads(span: tuple[int, int], head: str) -> None:
    assert word(PRESIDENT_DEPS, span) == head


def test_dependency_heads_win_over_the_parse() -> None:
    # "it"'s dependency head is made "the" here: the parse would say VP -> "said".
    both = Syntax(
        words=PRESIDENT.words,
        pos=PRESIDENT.pos,
        parse=PRESIDENT.parse,
        dependency_heads=(1, 5, 1, 4, 2, 6, -1),
        sentence_starts=(0,),
    )
    assert word(both, (5, 6)) == "it"
    assert word(PRESIDENT, (5, 6)) == "said"


def test_possessive_and_coordination_and_nml() -> None:
    # (NP (NP the company 's) chairman and (NP (NML New York) office))
    s = tree(
        ("the", "DT", "(TOP(NP(NP(NP*"),
        ("company", "NN", "*"),
        ("'s", "POS", "*)"),
        ("chairman", "NN", "*)"),
        ("and", "CC", "*"),
        ("the", "DT", "(NP*"),
        ("New", "NNP", "(NML*"),
        ("York", "NNP", "*)"),
        ("office", "NN", "*)))"),
    )
    assert word(s, (0, 2)) == "'s"  # Collins: an NP ending in POS has it as head
    assert word(s, (0, 3)) == "chairman"
    assert word(s, (5, 8)) == "office"
    assert word(s, (6, 7)) == "York"  # NML follows the NP rules
    assert word(s, (0, 8)) == "chairman"  # coordination: the first NP conjunct


def test_function_tags_and_punctuation() -> None:
    # (S (NP-SBJ John) (VP left) (. .)) and an NP whose rules find nothing: (NP (, ,) (RB so))
    s = tree(
        ("John", "NNP", "(TOP(S(NP-SBJ*)"),
        ("left", "VBD", "(VP*)"),
        (".", ".", "*))"),
        (",", ",", "(TOP(FRAG(X*"),
        ("oh", "UH", "*)"),
        ("!", ".", "*))"),
        starts=(0, 3),
    )
    assert word(s, (0, 2)) == "left"
    # X is not in the table: first non-punctuation child from the left.
    assert word(s, (3, 4)) == "oh"
    # FRAG scans from the right, skipping punctuation: the X node.
    assert word(s, (3, 5)) == "oh"


def test_spans_that_are_not_constituents() -> None:
    # (S (NP John) (VP saw (NP the big dog)))
    s = tree(
        ("John", "NNP", "(TOP(S(NP*)"),
        ("saw", "VBD", "(VP*"),
        ("the", "DT", "(NP*"),
        ("big", "JJ", "*"),
        ("dog", "NN", "*))))"),
    )
    # "the big": the covering NP's head "dog" lies outside -> the last token
    assert word(s, (2, 3)) == "big"
    # "saw the": covering VP's head "saw" lies inside
    assert word(s, (1, 2)) == "saw"


def test_no_covering_constituent_gives_the_last_token() -> None:
    s = tree(
        ("John", "NNP", "(TOP(S(NP*)"),
        ("left", "VBD", "(VP*)))"),
        ("Mary", "NNP", "-"),  # a sentence without a parse
        ("stayed", "VBD", "-"),
        starts=(0, 2),
    )
    assert word(s, (1, 2)) == "Mary"  # across sentences
    assert word(s, (2, 3)) == "stayed"


def test_a_parse_column_without_brackets_gives_the_last_token() -> None:
    s = tree(("the", "DT", "*"), ("big", "JJ", "-"), ("dog", "NN", "*"), starts=(0,))
    assert [word(s, span) for span in [(0, 1), (0, 2), (1, 2), (2, 2)]] == [
        "big",
        "dog",
        "dog",
        "dog",
    ]
    still_checked = tree(("a", "DT", "*"), ("b", "NN", "*)"))
    with pytest.raises(InputError, match="unbalanced"):
        mention_head(still_checked, (0, 1))


def test_a_finder_serves_many_spans_and_checks_bounds() -> None:
    finder = HeadFinder(PRESIDENT)
    assert [finder.head(s) for s in [(0, 4), (3, 4), (0, 6)]] == [1, 4, 5]
    with pytest.raises(InputError, match=r"mention \(5, 7\) lies outside the document's 7 tokens"):
        finder.head((5, 7))


def test_errors() -> None:
    with pytest.raises(InputError, match="neither dependency heads nor a CoNLL-2012 parse"):
        mention_head(Syntax(words=("a", "b")), (0, 1))
    unbalanced = tree(("a", "DT", "(NP*"), ("b", "NN", "*"))
    with pytest.raises(InputError, match=r"1 constituent\(s\) never closed"):
        mention_head(unbalanced, (0, 1))
    closing = tree(("a", "DT", "(NP*"), ("b", "NN", "*))"))
    with pytest.raises(InputError, match=r"'\)' without '\('"):
        mention_head(closing, (0, 1))
    across = tree(("a", "DT", "(NP*"), ("b", "NN", "*)"), ("c", "NN", "(NP*)"), starts=(0, 1))
    with pytest.raises(InputError, match="still open where the sentence starting at token 1"):
        mention_head(across, (0, 1))
    bad = tree(("a", "DT", "(NP"), ("b", "NN", "*)"))
    with pytest.raises(InputError, match="bad parse bit '\\(NP' at token 0"):
        mention_head(bad, (0, 1))
