"""A small reader and writer of CoNLL-U files with CorefUD ``Entity=`` annotations.

Used by the CorefUD test harness only (``perturb.py``, ``heads.py``): it is not
corefscore's reader and shares nothing with it. It reads what the official
scorer (through udapi 0.5.2) reads, for the well-formed files the harness
generates, following the format rules of the research notes (NOTES.md §b):

* A sentence is a block of comment lines and token lines; a *node* is a word
  line (integer ID) or an empty node line (``n.k``), in file order; multiword
  token lines (``n-m``) are kept but carry no mention.
* MISC ``Entity`` is cut into chunks ``(eid-values...`` (opening),
  ``(eid-values...)`` (single node) and ``eid)`` (closing). Closing pops the
  most recently opened mention of that entity (a per-entity stack); the mention
  then holds every node from its opening node to the closing node, empty nodes
  included.
* The values of an opening chunk are zipped with the ``# global.Entity`` fields
  (split on ``-``); ``eid`` or ``GRP`` names the entity (``GRP`` ids are local to
  a ``# newdoc`` document), ``head`` is the 1-based index of the head among the
  mention's nodes (empty nodes count).
* A discontinuous mention writes ``eid[i/n]`` on each of its ``n`` parts; its
  head is the value written on the last part.

A mention is kept as a list of parts ``(sentence, first node, last node)``
(indices into :attr:`Sentence.nodes`), so that the writer can put the brackets
back in an order that the stack discipline reads as intended: at one node,
closings of mentions opened earlier (latest opened first), then single-node
mentions, then openings (the one that ends last first).
"""

from __future__ import annotations

import copy
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

CHUNK = re.compile(r"(\([^()]+\)?|[^()]+\))")
DISCONTINUOUS = re.compile(r"^([^[]+)\[(\d+)/(\d+)\]$")
GLOBAL_ENTITY = re.compile(r"^# global\.Entity\s*=\s*(\S+)")
NEWDOC = re.compile(r"^# newdoc(?:\s+id\s*=\s*(.+))?$")
SENT_ID = re.compile(r"^# sent_id\s*=?\s*(\S+)")
DEFAULT_FIELDS = "eid-etype-head-other"


class FormatError(ValueError):
    """A file this small reader does not understand (it is not meant for bad input)."""


@dataclass
class Sentence:
    comments: list[str]
    rows: list[list[str]]  # 10 columns each

    @property
    def nodes(self) -> list[int]:
        """Row indices of the words and empty nodes, in file order."""
        return [i for i, row in enumerate(self.rows) if "-" not in row[0]]

    def node_row(self, node: int) -> list[str]:
        return self.rows[self.nodes[node]]

    @property
    def newdoc(self) -> bool:
        return any(NEWDOC.match(c) for c in self.comments)

    @property
    def sent_id(self) -> str | None:
        for c in self.comments:
            m = SENT_ID.match(c)
            if m:
                return m.group(1)
        return None

    def is_empty(self, node: int) -> bool:
        return "." in self.node_row(node)[0]


@dataclass
class Mention:
    eid: str  # as written (an eid or a GRP value), without any [i/n] suffix
    parts: list[tuple[int, int, int]]  # (sentence, first node, last node)
    values: list[str]  # the opening chunk's values, aligned with the fields
    head: int | None = None  # the head index written on the (last) opening chunk

    @property
    def sentence(self) -> int:
        return self.parts[0][0]

    def nodes(self) -> list[tuple[int, int]]:
        """The mention's nodes (sentence, node), in order, as the scorer collects them."""
        out: list[tuple[int, int]] = []
        for s, a, b in self.parts:
            for n in range(a, b + 1):
                if (s, n) not in out:
                    out.append((s, n))
        return out

    def size(self) -> int:
        return len(self.nodes())


@dataclass
class Corpus:
    """A CoNLL-U file: sentences (with their comments) and the mentions over them."""

    sentences: list[Sentence]
    fields: list[str]
    mentions: list[Mention] = field(default_factory=list)
    strip_links: bool = False  # drop SplitAnte= and Bridge= from MISC when writing
    # Raw chunks appended to a node's Entity value when writing, outside the model
    # (an unclosed mention, a bracket that crosses sentences...): (sentence, node) -> text.
    extras: dict[tuple[int, int], str] = field(default_factory=dict)
    header: bool = True  # write the # global.Entity line

    # ------------------------------------------------------------------ fields
    @property
    def grp(self) -> bool:
        return "GRP" in self.fields

    @property
    def eid_slot(self) -> int:
        return self.fields.index("GRP" if self.grp else "eid")

    @property
    def head_slot(self) -> int | None:
        return self.fields.index("head") if "head" in self.fields else None

    def document_of(self) -> list[int]:
        """The document index (0-based; -1 before the first ``# newdoc``) of each sentence."""
        out, doc = [], -1
        for s in self.sentences:
            if s.newdoc:
                doc += 1
            out.append(doc)
        return out

    def entity_key(self, m: Mention, docs: list[int] | None = None) -> tuple[int, str]:
        """The entity a mention belongs to: GRP ids are per document, eids per file."""
        if self.grp:
            docs = docs if docs is not None else self.document_of()
            return (docs[m.sentence], m.eid)
        return (0, m.eid)

    def entities(self) -> dict[tuple[int, str], list[Mention]]:
        docs = self.document_of()
        out: dict[tuple[int, str], list[Mention]] = defaultdict(list)
        for m in self.mentions:
            out[self.entity_key(m, docs)].append(m)
        return dict(out)

    def ensure_field(self, name: str, position: int | None = None) -> int:
        """Add a ``global.Entity`` field (shifting every mention's values); its slot."""
        if name in self.fields:
            return self.fields.index(name)
        pos = len(self.fields) if position is None else min(position, len(self.fields))
        self.fields.insert(pos, name)
        for m in self.mentions:
            if len(m.values) > pos:
                m.values.insert(pos, "")
        return pos

    def copy(self) -> Corpus:
        return copy.deepcopy(self)

    def fresh_eid(self, hint: str = "n") -> str:
        used = {m.eid for m in self.mentions}
        i = 1
        while f"{hint}{i}" in used:
            i += 1
        return f"{hint}{i}"

    def new_values(self, eid: str, etype: str = "x") -> list[str]:
        values = [""] * len(self.fields)
        values[self.eid_slot] = eid
        if "etype" in self.fields:
            values[self.fields.index("etype")] = etype
        return values

    # ------------------------------------------------------------- node edits
    def zeros(self) -> list[int]:
        """Indices of the mentions whose head is an empty node."""
        return [i for i, m in enumerate(self.mentions) if self.is_empty(self.head_node(m))]

    def head_node(self, m: Mention) -> tuple[int, int]:
        nodes = m.nodes()
        if len(nodes) == 1 or not m.head:
            return nodes[0]
        return nodes[min(m.head, len(nodes)) - 1]

    def is_empty(self, node: tuple[int, int]) -> bool:
        return self.sentences[node[0]].is_empty(node[1])

    def empty_nodes(self) -> list[tuple[int, int]]:
        return [
            (s, n)
            for s, sent in enumerate(self.sentences)
            for n in range(len(sent.nodes))
            if sent.is_empty(n)
        ]

    def insert_node(self, sentence: int, node: int, row: list[str]) -> None:
        """Insert a node line as node ``node`` of a sentence (right after node ``node - 1``)."""
        sent = self.sentences[sentence]
        at = sent.nodes[node - 1] + 1 if node > 0 else 0
        sent.rows.insert(at, row)
        for m in self.mentions:
            m.parts = [
                (s, a + (s == sentence and a >= node), b + (s == sentence and b >= node))
                for s, a, b in m.parts
            ]

    def remove_node(self, sentence: int, node: int) -> None:
        """Delete a node line; mentions starting or ending there are dropped."""
        sent = self.sentences[sentence]
        del sent.rows[sent.nodes[node]]
        kept = []
        for m in self.mentions:
            if any(s == sentence and node in (a, b) for s, a, b in m.parts):
                continue
            m.parts = [
                (s, a - (s == sentence and a > node), b - (s == sentence and b > node))
                for s, a, b in m.parts
            ]
            if m.head is not None and m.head > m.size():
                m.head = m.size()
            kept.append(m)
        self.mentions = kept

    # -------------------------------------------------------------- selection
    def cut(self, documents: list[int], max_sentences: int) -> Corpus:
        """The first ``max_sentences`` sentences of the given documents (0-based).

        Mentions with a part outside the kept sentences are dropped; the first kept
        sentence gets a ``# global.Entity`` line if it has none.
        """
        docs = self.document_of()
        keep: list[int] = []
        for d in documents:
            keep += [i for i, x in enumerate(docs) if x == d][:max_sentences]
        remap = {old: new for new, old in enumerate(keep)}
        out = Corpus(
            sentences=[copy.deepcopy(self.sentences[i]) for i in keep],
            fields=list(self.fields),
            strip_links=True,
        )
        for m in self.mentions:
            if all(s in remap for s, _, _ in m.parts):
                m2 = copy.deepcopy(m)
                m2.parts = [(remap[s], a, b) for s, a, b in m.parts]
                out.mentions.append(m2)
        return out

    # ---------------------------------------------------------------- writing
    def chunks(self) -> dict[tuple[int, int], str]:
        """The ``Entity`` value of every annotated node."""
        closings: dict[tuple[int, int], list[tuple[int, int, str]]] = defaultdict(list)
        singles: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
        openings: dict[tuple[int, int], list[tuple[int, int, str]]] = defaultdict(list)
        hslot = self.head_slot
        for order, m in enumerate(self.mentions):
            n = len(m.parts)
            for i, (s, a, b) in enumerate(m.parts):
                label = m.eid if n == 1 else f"{m.eid}[{i + 1}/{n}]"
                values = list(m.values)
                while len(values) <= self.eid_slot:
                    values.append("")
                values[self.eid_slot] = label
                if hslot is not None:
                    if m.head is not None:
                        while len(values) <= hslot:
                            values.append("")
                        values[hslot] = str(m.head)
                    elif len(values) > hslot:
                        del values[hslot:]
                opening = "(" + "-".join(values)
                if a == b:
                    singles[(s, a)].append((order, opening + ")"))
                else:
                    openings[(s, a)].append((-b, order, opening))
                    closings[(s, b)].append((-a, -order, label + ")"))
        out: dict[tuple[int, int], str] = {}
        for key in set(closings) | set(singles) | set(openings) | set(self.extras):
            parts = [c for _, _, c in sorted(closings.get(key, []))]
            parts += [c for _, c in sorted(singles.get(key, []))]
            parts += [c for _, _, c in sorted(openings.get(key, []))]
            extra = self.extras.get(key, "")
            # A closing chunk right after an opening one would be read as part of it.
            out[key] = "".join(parts) + extra if extra.startswith("(") else extra + "".join(parts)
        return out

    def render(self) -> str:
        chunks = self.chunks()
        lines: list[str] = []
        header = f"# global.Entity = {'-'.join(self.fields)}"
        for si, sent in enumerate(self.sentences):
            comments = [c for c in sent.comments if not GLOBAL_ENTITY.match(c)]
            if si == 0 and self.header:
                at = next((i + 1 for i, c in enumerate(comments) if NEWDOC.match(c)), 0)
                comments.insert(at, header)
            lines += comments
            nodes = {row: n for n, row in enumerate(sent.nodes)}
            for ri, row in enumerate(sent.rows):
                row = list(row)
                if ri in nodes:
                    row[9] = _misc_with_entity(
                        row[9], chunks.get((si, nodes[ri])), self.strip_links
                    )
                lines.append("\t".join(row))
            lines.append("")
        return "\n".join(lines) + "\n"


def _misc_with_entity(misc: str, entity: str | None, strip_links: bool) -> str:
    items = [] if misc == "_" else misc.split("|")
    drop = ("Entity=", "SplitAnte=", "Bridge=") if strip_links else ("Entity=",)
    at = next((i for i, x in enumerate(items) if x.startswith("Entity=")), 0)
    items = [x for x in items if not x.startswith(drop)]
    if entity:
        items.insert(min(at, len(items)), "Entity=" + entity)
    return "|".join(items) if items else "_"


# -------------------------------------------------------------------- reading
def _misc_entity(misc: str) -> str | None:
    value = None
    if misc != "_":
        for item in misc.split("|"):
            if item.startswith("Entity="):
                value = item[len("Entity=") :]  # the last one wins, as in udapi
    return value


def split_sentences(text: str) -> list[Sentence]:
    sentences: list[Sentence] = []
    comments: list[str] = []
    rows: list[list[str]] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line == "":
            if rows:
                sentences.append(Sentence(comments, rows))
            elif comments:
                raise FormatError("a block of comments without token lines")
            comments, rows = [], []
        elif line.startswith("#") and not rows:
            comments.append(line)
        else:
            cols = line.split("\t")
            if len(cols) != 10:
                raise FormatError(f"not 10 columns: {line!r}")
            rows.append(cols)
    if rows:
        sentences.append(Sentence(comments, rows))
    return sentences


def parse(text: str) -> Corpus:
    """Read a CoNLL-U text into sentences and mentions (udapi's reading, see above)."""
    sentences = split_sentences(text)
    spec = None
    for sent in sentences:
        for c in sent.comments:
            m = GLOBAL_ENTITY.match(c)
            if m:
                spec = m.group(1)
    corpus = Corpus(sentences=sentences, fields=(spec or DEFAULT_FIELDS).split("-"))
    if "GRP" not in corpus.fields and "eid" not in corpus.fields:
        raise FormatError("global.Entity without eid")
    docs = corpus.document_of()
    eslot, hslot = corpus.eid_slot, corpus.head_slot
    unfinished: dict[tuple[int, str], list[tuple[Mention, int | None]]] = defaultdict(list)
    discontinuous: dict[tuple[int, str], list[Mention]] = defaultdict(list)
    for si, sent in enumerate(sentences):
        scope = docs[si] if corpus.grp else 0
        for ni, ri in enumerate(sent.nodes):
            value = _misc_entity(sent.rows[ri][9])
            if not value:
                continue
            for chunk in (c for c in CHUNK.split(value) if c):
                opening, closing = chunk[0] == "(", chunk[-1] == ")"
                body = chunk.strip("()")
                if not opening and not closing:
                    continue
                if not opening:
                    dm = DISCONTINUOUS.match(body)
                    eid = dm.group(1) if dm else body
                    stack = unfinished[(scope, eid)]
                    if not stack:
                        raise FormatError(f"{body} closed but not opened")
                    mention, head = stack.pop()
                    s, a, _ = mention.parts[-1]
                    if s != si:
                        raise FormatError(f"{body}: a mention across sentences")
                    mention.parts[-1] = (s, a, ni)
                    if dm is None or dm.group(2) == dm.group(3):
                        mention.head = head
                    continue
                values = body.split("-")
                label = values[eslot] if len(values) > eslot else None
                if not label:
                    raise FormatError(f"no eid in {body}")
                head = None
                if hslot is not None and len(values) > hslot:
                    head = int(values[hslot])
                dm = DISCONTINUOUS.match(label)
                eid = dm.group(1) if dm else label
                if dm and dm.group(2) != "1":
                    opened = [p[0] for p in unfinished[(scope, eid)]]
                    mention = next(x for x in discontinuous[(scope, eid)] if x not in opened)
                    mention.parts.append((si, ni, ni))
                    if closing and dm.group(2) == dm.group(3):
                        discontinuous[(scope, eid)].pop()
                        mention.head = head
                else:
                    values[eslot] = eid
                    mention = Mention(eid=eid, parts=[(si, ni, ni)], values=values)
                    if closing and not dm:
                        mention.head = head  # written back; a single node's head is ignored
                    corpus.mentions.append(mention)
                    if dm:
                        discontinuous[(scope, eid)].append(mention)
                if not closing:
                    unfinished[(scope, eid)].append((mention, head))
    unclosed = {id(mention) for stack in unfinished.values() for mention, _ in stack}
    corpus.mentions = [m for m in corpus.mentions if id(m) not in unclosed]  # udapi drops them
    for m in corpus.mentions:
        if m.head is not None and m.size() > 1 and m.head > m.size():
            raise FormatError(f"head {m.head} beyond a mention of {m.size()} nodes")
    return corpus


def iter_trees(corpus: Corpus) -> Iterator[tuple[int, dict[str, str]]]:
    """(sentence index, {word ID: HEAD}) for every sentence (regular words only)."""
    for si, sent in enumerate(corpus.sentences):
        yield si, {r[0]: r[6] for r in sent.rows if r[0].isdigit()}
