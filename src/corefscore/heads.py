"""The head token of a mention, from a document's syntax.

Two sources, tried in this order:

1. dependency heads (``Syntax.dependency_heads``): the head is the token of the
   mention whose own head lies outside the mention (the first such token when
   several do, which only happens for spans that are not subtrees);
2. the CoNLL-2012 parse column (``Syntax.parse``): constituent head rules in
   the spirit of Collins (1999), applied to the smallest constituent covering
   the mention.

A mention that is a single token is its own head, whatever the syntax.
"""

from __future__ import annotations

import re

from .errors import InputError
from .model import Span, Syntax

# Head-percolation rules after Collins (1999), "Head-Driven Statistical Models
# for Natural Language Parsing", PhD thesis, University of Pennsylvania,
# Appendix A (the head table and the special rules for NPs). For each parent
# category: the direction in which the children are scanned ("L": left to
# right, "R": right to left), then a priority list. Each category of the list is
# tried in turn, and the first child of that category in the scan direction is
# the head child; when none matches, the first (non-punctuation) child in the
# scan direction is. NPs have their own procedure (``_np_head_child``); NML and
# NX, the NP-internal nodes of OntoNotes and the Penn Treebank, follow it too.
_TABLE = {
    "ADJP": "L NNS QP NN $ ADVP JJ VBN VBG ADJP JJR NP JJS DT FW RBR RBS SBAR RB",
    "ADVP": "R RB RBR RBS FW ADVP TO CD JJR JJ IN NP JJS NN",
    "CONJP": "R CC RB IN",
    "FRAG": "R",
    "INTJ": "L",
    "LST": "R LS :",
    "NAC": "L NN NNS NNP NNPS NP NAC EX $ CD QP PRP VBG JJ JJS JJR ADJP FW",
    "PP": "R IN TO VBG VBN RP FW",
    "PRN": "L",
    "PRT": "R RP",
    "QP": "L $ IN NNS NN JJ RB DT CD NCD QP JJR JJS",
    "RRC": "R VP NP ADVP ADJP PP",
    "S": "L TO IN VP S SBAR ADJP UCP NP",
    "SBAR": "L WHNP WHPP WHADVP WHADJP IN DT S SQ SINV SBAR FRAG",
    "SBARQ": "L SQ S SINV SBARQ FRAG",
    "SINV": "L VBZ VBD VBP VB MD VP S SINV ADJP NP",
    "SQ": "L VBZ VBD VBP VB MD VP SQ",
    "UCP": "R",
    "VP": "L TO VBD VBN MD VBZ VB VBG VBP VP ADJP NN NNS NP",
    "WHADJP": "L CC WRB JJ ADJP",
    "WHADVP": "R CC WRB",
    "WHNP": "L WDT WP WP$ WHADJP WHPP WHNP",
    "WHPP": "R IN TO FW",
}
_RULES = {label: (row.split()[0], tuple(row.split()[1:])) for label, row in _TABLE.items()}
_NP_LIKE = frozenset({"NP", "NML", "NX"})
# Collins' NP procedure, after the possessive check: (direction, categories)
# tried in order; NML is added to the nominal tags for OntoNotes' NP-internal
# brackets, as NX already is.
_NP_STEPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("R", frozenset({"NN", "NNP", "NNPS", "NNS", "NML", "NX", "POS", "JJR"})),
    ("L", frozenset({"NP"})),
    ("R", frozenset({"$", "ADJP", "PRN"})),
    ("R", frozenset({"CD"})),
    ("R", frozenset({"JJ", "JJS", "RB", "QP"})),
)
# Treebank punctuation tags: never a head when anything else is available
# (Collins removed punctuation before applying the table).
_PUNCTUATION = frozenset({",", ".", ":", "``", "''", "-LRB-", "-RRB-", "HYPH", "NFP"})

PARSE_BIT = re.compile(r"(?:\([^\s()*]+)*\*\)*")


class HeadFinder:
    """Finds mention heads in one document; build it once per document.

    The parse tree is built on first use and kept, so finding the heads of all
    mentions of a document costs one pass over its tokens plus a few steps per
    mention.
    """

    def __init__(self, syntax: Syntax):
        if syntax.dependency_heads is None and syntax.parse is None:
            raise InputError(
                "cannot find mention heads: the syntax has neither dependency heads "
                "nor a CoNLL-2012 parse column"
            )
        self.syntax = syntax
        self._tree: _Tree | None = None

    def head(self, span: Span) -> int:
        """The document position of the head token of ``span``.

        With dependency heads: the token of the span whose head lies outside
        it (the first one if several do; the last token of the span if none
        does, which only a cyclic, malformed tree allows).

        With a parse: the head of the smallest constituent that covers the
        span. If that constituent is larger than the span (the span is not a
        constituent), its head is used when it falls inside the span, and
        otherwise the last token of the span. The last token is also the
        answer when no constituent covers the span (a span across sentences,
        or a sentence without a parse).
        """
        start, end = span
        deps = self.syntax.dependency_heads
        size = len(deps) if deps is not None else len(self.syntax.parse or ())
        if not 0 <= start <= end < size:
            raise InputError(
                f"mention {span} lies outside the document's {size} tokens "
                "(key and response must share the tokens of the syntax)"
            )
        if start == end:
            return start
        if deps is not None:
            for token in range(start, end + 1):
                head = deps[token]
                if head < start or head > end:
                    return token
            return end
        if self._tree is None:
            assert self.syntax.parse is not None
            pos = self.syntax.pos
            self._tree = _Tree(
                self.syntax.parse,
                tuple(pos) if pos is not None else None,
                self.syntax.sentence_starts,
            )
        return self._tree.span_head(start, end)


_LAST: tuple[Syntax, HeadFinder] | None = None


def mention_head(syntax: Syntax, span: Span) -> int:
    """The document position of the head token of ``span`` (see ``HeadFinder.head``).

    Raises ``InputError`` when the syntax has neither
    dependency heads nor a parse column. Calls in a row on the same syntax
    share one ``HeadFinder``.
    """
    global _LAST
    if _LAST is None or _LAST[0] is not syntax:
        _LAST = (syntax, HeadFinder(syntax))
    return _LAST[1].head(span)


def _category(label: str) -> str:
    # Function tags and indices ("NP-SBJ-1", "NP=2") do not change the rules;
    # labels that start with "-" (-NONE-, -LRB-) are kept whole.
    if label.startswith("-"):
        return label
    return re.split(r"[-=]", label, maxsplit=1)[0]


class _Tree:
    """The constituents of a document, from its parse bits.

    Node ``i`` has ``label[i]``, covers tokens ``first[i]..last[i]`` and has
    ``children[i]``: node ids, or ``~t`` for token ``t``.
    """

    def __init__(
        self, parse: tuple[str, ...], pos: tuple[str, ...] | None, sentence_starts: tuple[int, ...]
    ):
        self.pos = pos
        self.label: list[str] = []
        self.first: list[int] = []
        self.last: list[int] = []
        self.parent: list[int] = []
        self.children: list[list[int]] = []
        self.leaf_parent = [-1] * len(parse)
        self._heads: dict[int, int] = {}
        if set(parse) <= {"*", "-"}:
            return  # no constituent (a file whose parse column is empty): no nodes
        starts = set(sentence_starts)
        stack: list[int] = []
        for token, bit in enumerate(parse):
            if (bit == "*" or bit == "-") and token not in starts:
                # A token inside its constituent: by far the most common bit.
                if stack:
                    self.children[stack[-1]].append(~token)
                    self.leaf_parent[token] = stack[-1]
                continue
            if token in starts and stack:
                raise InputError(
                    f"unbalanced parse brackets: {len(stack)} constituent(s) still open "
                    f"where the sentence starting at token {token} begins"
                )
            if bit == "-":
                bit = "*"
            if not PARSE_BIT.fullmatch(bit):
                raise InputError(f"bad parse bit {bit!r} at token {token}")
            star = bit.index("*")
            for label in bit[:star].split("(")[1:]:
                node = len(self.label)
                self.label.append(_category(label))
                self.first.append(token)
                self.last.append(token)
                self.parent.append(stack[-1] if stack else -1)
                self.children.append([])
                if stack:
                    self.children[stack[-1]].append(node)
                stack.append(node)
            if stack:
                self.children[stack[-1]].append(~token)
                self.leaf_parent[token] = stack[-1]
            for _ in range(len(bit) - star - 1):
                if not stack:
                    raise InputError(f"unbalanced parse brackets: ')' without '(' at token {token}")
                self.last[stack.pop()] = token
        if stack:
            raise InputError(f"unbalanced parse brackets: {len(stack)} constituent(s) never closed")

    def span_head(self, start: int, end: int) -> int:
        node = self.leaf_parent[start]
        while node >= 0 and self.last[node] < end:
            node = self.parent[node]
        if node < 0:
            return end
        head = self.node_head(node)
        return head if start <= head <= end else end

    def node_head(self, node: int) -> int:
        head = self._heads.get(node)
        if head is None:
            child = self._head_child(node)
            head = ~child if child < 0 else self.node_head(child)
            self._heads[node] = head
        return head

    def _child_category(self, child: int) -> str:
        if child >= 0:
            return self.label[child]
        return self.pos[~child] if self.pos is not None else ""

    def _head_child(self, node: int) -> int:
        children = self.children[node]
        if len(children) == 1:
            return children[0]
        cats = [self._child_category(c) for c in children]
        label = self.label[node]
        if label in _NP_LIKE:
            return children[_np_head_child(cats)]
        direction, priority = _RULES.get(label, ("L", ()))
        order = range(len(cats)) if direction == "L" else range(len(cats) - 1, -1, -1)
        for wanted in priority:
            for i in order:
                if cats[i] == wanted:
                    return children[i]
        return children[_first_content(cats, order)]


def _np_head_child(cats: list[str]) -> int:
    last = len(cats) - 1
    if cats[last] == "POS":
        return last
    right = range(last, -1, -1)
    for direction, wanted in _NP_STEPS:
        for i in right if direction == "R" else range(len(cats)):
            if cats[i] in wanted:
                return i
    return _first_content(cats, right)


def _first_content(cats: list[str], order: range) -> int:
    for i in order:
        if cats[i] not in _PUNCTUATION:
            return i
    return order[0]
