"""Seeded perturbations of CoNLL-U files with CorefUD ``Entity=`` annotations.

:func:`generate` turns a seed into a (key, response) pair for the differential
test against the official CorefUD scorer:

* the key is a real document (GUM, cut to its first 15-30 sentences; one or two
  documents per file), sometimes with syntactic heads added (``heads.py``), or a
  small synthetic document with empty nodes (zeros, with DEPS), since GUM has no
  zero mentions;
* the response is the key with 1-5 perturbations (:data:`OPERATIONS`): dropped and
  added mentions (a new entity, or joined to an existing one), boundaries shifted by
  one node, merged and split entities, discontinuous mentions (``[i/n]`` parts, in
  one sentence or two), changed head indices, moved, missing and added zeros, changed
  DEPS, added and removed empty nodes, swapped zeros, repeated spans (in one entity,
  in two), renamed ids, another ``global.Entity`` layout, an unclosed mention, an
  ``Entity`` on a multiword-token line, a head value on a single-node mention;
* with ``invalid=True`` one deliberate error (:data:`INVALID`) is added on top, for
  the "rejected by both" tests.

Every pair is meant to be valid for the official scorer except the deliberate
errors; the tests still run the oracle on each and keep the pairs it rejects in a
separate list (a perturbation can produce a file the official scorer refuses, e.g. a
head index beyond a shortened mention).

Command line, to reproduce a pair: ``python -m tests.corefud.perturb --seed 17
[--invalid] [--gum KEY.conllu] --out DIR``.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

from .entities import NEWDOC, SENT_ID, Corpus, Mention, Sentence, parse
from .heads import add_syntactic_heads

ETYPES = ("person", "object", "abstract", "place", "event")
DEPRELS = ("nsubj", "obj", "iobj", "obl", "nmod", "advmod", "amod", "det", "dep", "nsubj:pass")
ZERO_RELS = ("nsubj", "obj", "iobj", "nsubj:pass")


@dataclass
class Pair:
    seed: int
    source: str
    key: str
    response: str
    perturbations: list[str] = field(default_factory=list)
    invalid: str | None = None

    def write(self, folder: Path) -> tuple[Path, Path]:
        folder.mkdir(parents=True, exist_ok=True)
        key, response = folder / "key.conllu", folder / "response.conllu"
        key.write_text(self.key, encoding="utf-8")
        response.write_text(self.response, encoding="utf-8")
        info = {k: v for k, v in asdict(self).items() if k not in ("key", "response")}
        (folder / "pair.json").write_text(json.dumps(info, indent=1), encoding="utf-8")
        return key, response

    def describe(self) -> str:
        extra = f"; invalid: {self.invalid}" if self.invalid else ""
        return f"seed {self.seed} ({self.source}): {'; '.join(self.perturbations)}{extra}"


# ------------------------------------------------------------------- sources
@cache
def _gum(path: str) -> Corpus:
    return parse(Path(path).read_text(encoding="utf-8"))


def gum_sample(rng: random.Random, path: Path) -> tuple[Corpus, str]:
    corpus = _gum(str(path))
    ndocs = max(corpus.document_of()) + 1
    docs = sorted(rng.sample(range(ndocs), rng.choice((1, 1, 2))))
    sentences = rng.randint(15, 30)
    names = []
    of = corpus.document_of()
    for d in docs:
        first = of.index(d)
        ident = next(
            (m.group(1) for c in corpus.sentences[first].comments if (m := NEWDOC.match(c))),
            str(d),
        )
        names.append(str(ident))
    return corpus.cut(docs, sentences), f"gum:{'+'.join(names)}:{sentences}"


def _sentence(rng: random.Random, doc: int, index: int) -> Sentence:
    n = rng.randint(3, 8)
    root = rng.randint(1, n)
    attached, heads = [root], {root: 0}
    for w in rng.sample([w for w in range(1, n + 1) if w != root], n - 1):
        heads[w] = rng.choice(attached)
        attached.append(w)
    comments = []
    if index == 0:
        comments.append(f"# newdoc id = doc{doc + 1}")
    comments.append(f"# sent_id = doc{doc + 1}-{index + 1}")
    rows: list[list[str]] = []
    empties: dict[int, int] = {}
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        k = rng.randint(1, n)
        empties[k] = empties.get(k, 0) + 1
    for w in range(1, n + 1):
        rel = "root" if heads[w] == 0 else rng.choice(DEPRELS)
        rows.append(
            [str(w), f"w{w}", "_", "_", "_", "_", str(heads[w]), rel, f"{heads[w]}:{rel}", "_"]
        )
        for j in range(1, empties.get(w, 0) + 1):
            rows.append([f"{w}.{j}", "_", "_", "_", "_", "_", "_", "_", _zero_deps(rng, n), "_"])
    return Sentence(comments, rows)


def _zero_deps(rng: random.Random, words: int) -> str:
    deps = {(rng.randint(1, words), rng.choice(ZERO_RELS)) for _ in range(rng.choice((1, 1, 1, 2)))}
    return "|".join(f"{p}:{r}" for p, r in sorted(deps))


def synthetic(rng: random.Random) -> tuple[Corpus, str]:
    """1-2 documents of 2-5 short sentences with empty nodes, 1-5 entities each."""
    sentences: list[Sentence] = []
    spans: list[tuple[int, int]] = []  # (first sentence, end) of each document
    for d in range(rng.choice((1, 1, 2))):
        start = len(sentences)
        sentences += [_sentence(rng, d, k) for k in range(rng.randint(2, 5))]
        spans.append((start, len(sentences)))
    corpus = Corpus(sentences=sentences, fields="eid-etype-head-other".split("-"))
    next_id = 1
    shared = None  # an eid used in two documents (the scorer splits it per document)
    for start, end in spans:
        eids = [f"e{next_id + i}" for i in range(rng.randint(1, 5))]
        next_id += len(eids)
        if shared and rng.random() < 0.3:
            eids.append(shared)
        shared = eids[0]
        empties = [(s, n) for s, n in corpus.empty_nodes() if start <= s < end]
        for _ in range(rng.randint(2, 10)):
            eid = rng.choice(eids)
            if empties and rng.random() < 0.35:
                s, n = rng.choice(empties)
                corpus.mentions.append(
                    Mention(eid, [(s, n, n)], corpus.new_values(eid, "person"), head=1)
                )
                continue
            s = rng.randrange(start, end)
            a, b = _span(rng, corpus, s)
            m = Mention(eid, [(s, a, b)], corpus.new_values(eid, rng.choice(ETYPES)))
            m.head = _random_head(rng, corpus, m)
            corpus.mentions.append(m)
    return corpus, "synthetic"


# ------------------------------------------------------------------ helpers
def _span(rng: random.Random, c: Corpus, s: int) -> tuple[int, int]:
    size = len(c.sentences[s].nodes)
    a = rng.randrange(size)
    return a, min(size - 1, a + rng.choice((0, 0, 1, 1, 2, 3)))


def _random_head(rng: random.Random, c: Corpus, m: Mention) -> int:
    nodes = m.nodes()
    words = [i + 1 for i, node in enumerate(nodes) if not c.is_empty(node)]
    if words and rng.random() < 0.85:
        return rng.choice(words)
    return rng.randint(1, len(nodes))


def _need_head_field(c: Corpus) -> None:
    if c.head_slot is None:
        at = c.fields.index("etype") + 1 if "etype" in c.fields else c.eid_slot + 1
        c.ensure_field("head", at)


def _entity_choices(c: Corpus, sentence: int) -> list[tuple[int, str]]:
    """Entities that a new mention in this sentence can join (GRP ids are per document)."""
    docs = c.document_of()
    keys = list(c.entities())
    if c.grp:
        keys = [k for k in keys if k[0] == docs[sentence]]
    return keys


def _new_mention(
    rng: random.Random, c: Corpus, s: int, parts: list[tuple[int, int, int]]
) -> tuple[Mention, str]:
    choices = _entity_choices(c, s)
    if choices and rng.random() < 0.6:
        key = rng.choice(choices)
        docs = c.document_of()
        donor = next(m for m in c.mentions if c.entity_key(m, docs) == key)
        m = Mention(donor.eid, parts, list(donor.values))
        how = f"joined to {donor.eid}"
    else:
        eid = c.fresh_eid("n")
        m = Mention(eid, parts, c.new_values(eid, rng.choice(ETYPES)))
        how = f"new entity {eid}"
    if c.head_slot is not None:
        m.head = _random_head(rng, c, m)
    return m, how


def _where(m: Mention) -> str:
    return ",".join(f"s{s}:{a}-{b}" for s, a, b in m.parts)


def _disjoint_discontinuous(c: Corpus, m: Mention) -> bool:
    """No other discontinuous mention of the same entity overlaps this one's range."""
    lo, hi = (m.parts[0][0], m.parts[0][1]), (m.parts[-1][0], m.parts[-1][2])
    docs = c.document_of()
    key = c.entity_key(m, docs)
    for other in c.mentions:
        if other is m or len(other.parts) < 2 or c.entity_key(other, docs) != key:
            continue
        olo, ohi = (other.parts[0][0], other.parts[0][1]), (other.parts[-1][0], other.parts[-1][2])
        if not (ohi < lo or hi < olo):
            return False
    return True


# --------------------------------------------------------------- operations
Op = Callable[[random.Random, Corpus], "str | None"]


def drop_mention(rng: random.Random, c: Corpus) -> str | None:
    if not c.mentions:
        return None
    m = c.mentions.pop(rng.randrange(len(c.mentions)))
    return f"dropped {m.eid}@{_where(m)}"


def add_mention(rng: random.Random, c: Corpus) -> str | None:
    s = rng.randrange(len(c.sentences))
    a, b = _span(rng, c, s)
    m, how = _new_mention(rng, c, s, [(s, a, b)])
    c.mentions.append(m)
    return f"added {_where(m)} ({how})"


def shift_boundary(rng: random.Random, c: Corpus) -> str | None:
    if not c.mentions:
        return None
    m = rng.choice(c.mentions)
    p = rng.randrange(len(m.parts))
    s, a, b = m.parts[p]
    size = len(c.sentences[s].nodes)
    side, delta = rng.choice(("start", "end")), rng.choice((-1, 1))
    a2, b2 = (a + delta, b) if side == "start" else (a, b + delta)
    if not (0 <= a2 <= b2 < size):
        return None
    if p > 0 and m.parts[p - 1][0] == s and a2 <= m.parts[p - 1][2] + 1:
        return None
    if p + 1 < len(m.parts) and m.parts[p + 1][0] == s and b2 >= m.parts[p + 1][1] - 1:
        return None
    m.parts[p] = (s, a2, b2)
    if m.head is not None and m.head > m.size():
        m.head = m.size()
    return f"shifted {side} of {m.eid}@s{s}:{a}-{b} by {delta:+d}"


def merge_entities(rng: random.Random, c: Corpus) -> str | None:
    entities = c.entities()
    keys = list(entities)
    if len(keys) < 2:
        return None
    a, b = rng.sample(keys, 2)
    target = entities[a][0].eid
    for m in entities[b]:
        m.eid = target
    return f"merged {b[1]} into {a[1]}"


def split_entity(rng: random.Random, c: Corpus) -> str | None:
    entities = [e for e in c.entities().values() if len(e) >= 2]
    if not entities:
        return None
    mentions = rng.choice(entities)
    moved = rng.sample(mentions, rng.randint(1, len(mentions) - 1))
    eid = c.fresh_eid("s")
    old = moved[0].eid
    for m in moved:
        m.eid = eid
    return f"split {len(moved)} of {len(mentions)} mentions of {old} into {eid}"


def make_discontinuous(rng: random.Random, c: Corpus) -> str | None:
    _need_head_field(c)
    wide = [m for m in c.mentions if len(m.parts) == 1 and m.parts[0][2] - m.parts[0][1] >= 2]
    if wide and rng.random() < 0.5:
        m = rng.choice(wide)
        s, a, b = m.parts[0]
        g = rng.randint(a + 1, b - 1)
        g2 = min(b - 1, g + rng.choice((0, 0, 1)))
        old = m.parts
        m.parts = [(s, a, g - 1), (s, g2 + 1, b)]
        if not _disjoint_discontinuous(c, m):
            m.parts = old
            return None
        m.head = _random_head(rng, c, m)
        return f"gap {g}-{g2} cut into {m.eid}@s{s}:{a}-{b}"
    docs = c.document_of()
    s = rng.randrange(len(c.sentences))
    size = len(c.sentences[s].nodes)
    if rng.random() < 0.2 and s + 1 < len(c.sentences) and docs[s + 1] == docs[s]:
        # Across sentences, udapi orders a mention's nodes by ord alone, and a closing
        # bracket in the second sentence would be taken for a cross-sentence mention
        # (an error): the part there is a single node (no closing bracket).
        a, b = _span(rng, c, s)
        a2 = rng.randrange(len(c.sentences[s + 1].nodes))
        parts = [(s, a, b), (s + 1, a2, a2)]
    elif size >= 3:
        a = rng.randrange(size - 2)
        b = rng.randint(a, min(a + 2, size - 3))
        a2 = rng.randint(b + 2, size - 1)
        b2 = rng.randint(a2, min(a2 + 2, size - 1))
        parts = [(s, a, b), (s, a2, b2)]
    else:
        return None
    m, how = _new_mention(rng, c, s, parts)
    m.head = _random_head(rng, c, m)
    if not _disjoint_discontinuous(c, m):
        return None
    c.mentions.append(m)
    return f"added discontinuous {_where(m)} ({how})"


def change_head(rng: random.Random, c: Corpus) -> str | None:
    multi = [m for m in c.mentions if m.size() >= 2]
    if not multi:
        return None
    _need_head_field(c)
    m = rng.choice(multi)
    old = m.head
    m.head = 0 if rng.random() < 0.1 else rng.randint(1, m.size())
    return f"head of {m.eid}@{_where(m)} {old} -> {m.head}"


def head_on_single_node(rng: random.Random, c: Corpus) -> str | None:
    single = [m for m in c.mentions if m.size() == 1 and len(m.parts) == 1]
    if not single or c.head_slot is None:
        return None
    m = rng.choice(single)
    m.head = rng.randint(2, 9)
    return f"head value {m.head} on single-node {m.eid}@{_where(m)}"


def repeat_span(rng: random.Random, c: Corpus) -> str | None:
    if not c.mentions:
        return None
    m = rng.choice(c.mentions)
    twin = copy.deepcopy(m)
    if rng.random() < 0.5:
        c.mentions.append(twin)
        return f"repeated {m.eid}@{_where(m)} in its entity"
    choices = [k for k in _entity_choices(c, m.sentence) if k != c.entity_key(m)]
    if choices and rng.random() < 0.7:
        twin.eid = rng.choice(choices)[1]
    else:
        twin.eid = c.fresh_eid("r")
    c.mentions.append(twin)
    return f"repeated {m.eid}@{_where(m)} in entity {twin.eid}"


def drop_entity(rng: random.Random, c: Corpus) -> str | None:
    entities = c.entities()
    if not entities:
        return None
    key = rng.choice(list(entities))
    gone = {id(m) for m in entities[key]}
    c.mentions = [m for m in c.mentions if id(m) not in gone]
    return f"dropped entity {key[1]} ({len(gone)} mentions)"


def rename_ids(rng: random.Random, c: Corpus) -> str | None:
    suffix = rng.choice(("r", "x7", "_b"))
    for m in c.mentions:
        m.eid = m.eid + suffix
    return f"renamed every id (+{suffix})"


def relayout(rng: random.Random, c: Corpus) -> str | None:
    """Another global.Entity layout: GRP -> file-global eids, or head before etype."""
    old = list(c.fields)
    if c.grp:
        docs = c.document_of()
        new = ["eid", "etype", "head", "other"]
        for m in c.mentions:
            values = dict(zip(old, m.values))
            m.eid = f"d{docs[m.sentence] + 1}g{m.eid}"
            m.values = [m.eid, values.get("etype", ""), "", ""]
    else:
        new = ["eid", "head", "etype", "other", "extra"]
        for m in c.mentions:
            values = dict(zip(old, m.values))
            m.values = [m.eid, "", values.get("etype", ""), values.get("other", ""), "q"]
    c.fields = new
    return f"global.Entity {'-'.join(old)} -> {'-'.join(new)}"


def unclosed_mention(rng: random.Random, c: Corpus) -> str | None:
    s = rng.randrange(len(c.sentences))
    n = rng.randrange(len(c.sentences[s].nodes))
    eid = c.fresh_eid("u")
    values = c.new_values(eid, "object")
    if c.head_slot is not None:
        values[c.head_slot] = "1"
    c.extras[(s, n)] = c.extras.get((s, n), "") + "(" + "-".join(values)
    return f"unclosed mention {eid} at s{s}:{n}"


def entity_on_mwt(rng: random.Random, c: Corpus) -> str | None:
    mwts = [
        (s, r)
        for s, sent in enumerate(c.sentences)
        for r, row in enumerate(sent.rows)
        if "-" in row[0]
    ]
    if not mwts:
        return None
    s, r = rng.choice(mwts)
    row = c.sentences[s].rows[r]
    eid = c.fresh_eid("w")
    values = c.new_values(eid, "object")
    item = "Entity=(" + "-".join(values) + ")"
    row[9] = item if row[9] == "_" else row[9] + "|" + item
    return f"Entity on the multiword token s{s}:{row[0]}"


# zeros ----------------------------------------------------------------------
def _single_zeros(c: Corpus) -> list[Mention]:
    return [m for m in c.mentions if m.size() == 1 and c.is_empty(m.parts[0][:2])]


def move_zero(rng: random.Random, c: Corpus) -> str | None:
    zeros = _single_zeros(c)
    empties = c.empty_nodes()
    if not zeros or len(empties) < 2:
        return None
    m = rng.choice(zeros)
    s, n, _ = m.parts[0]
    docs = c.document_of()
    same = [e for e in empties if e != (s, n) and e[0] == s]
    other = [e for e in empties if e != (s, n) and docs[e[0]] == docs[s]]
    pool = same if same and rng.random() < 0.7 else other
    if not pool:
        return None
    s2, n2 = rng.choice(pool)
    m.parts = [(s2, n2, n2)]
    return f"moved zero {m.eid} s{s}:{n} -> s{s2}:{n2}"


def remove_zero(rng: random.Random, c: Corpus) -> str | None:
    zeros = c.zeros()
    if not zeros:
        return None
    m = c.mentions.pop(rng.choice(zeros))
    return f"removed zero {m.eid}@{_where(m)}"


def add_zero(rng: random.Random, c: Corpus) -> str | None:
    empties = c.empty_nodes()
    if not empties:
        return None
    s, n = rng.choice(empties)
    m, how = _new_mention(rng, c, s, [(s, n, n)])
    m.head = 1 if c.head_slot is not None else None
    c.mentions.append(m)
    return f"added zero s{s}:{n} ({how})"


def swap_zeros(rng: random.Random, c: Corpus) -> str | None:
    zeros = _single_zeros(c)
    pairs = [(a, b) for a in zeros for b in zeros if a.sentence == b.sentence and a.eid < b.eid]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    a.eid, b.eid = b.eid, a.eid
    a.values, b.values = b.values, a.values
    return f"swapped zeros {a.eid} and {b.eid} in s{a.sentence}"


def change_deps(rng: random.Random, c: Corpus) -> str | None:
    empties = c.empty_nodes()
    if not empties:
        return None
    s, n = rng.choice(empties)
    row = c.sentences[s].node_row(n)
    words = sum(1 for r in c.sentences[s].rows if r[0].isdigit())
    old = row[8]
    how = rng.random()
    if how < 0.4 and old != "_":
        deps = [d.split(":", 1) for d in old.split("|")]
        p, _ = rng.choice(deps)
        deps = [[q, rng.choice(ZERO_RELS) if q == p else r] for q, r in deps]
        new = "|".join(f"{q}:{r}" for q, r in sorted(deps, key=lambda d: int(float(d[0]))))
    elif how < 0.7 and old != "_":
        extra = f"{rng.randint(1, words)}:{rng.choice(ZERO_RELS)}"
        parts = sorted(set([*old.split("|"), extra]), key=lambda d: float(d.split(":")[0]))
        new = "|".join(parts)
    else:
        new = _zero_deps(rng, words)
    row[8] = new
    return f"DEPS of s{s}:{row[0]} {old} -> {new}"


def add_empty_node(rng: random.Random, c: Corpus) -> str | None:
    s = rng.randrange(len(c.sentences))
    sent = c.sentences[s]
    words = [r[0] for r in sent.rows if r[0].isdigit()]
    k = rng.choice(words)
    ids = [r[0] for r in sent.rows]
    j = 1 + sum(1 for i in ids if i.startswith(f"{k}."))
    nodes = [sent.rows[r][0] for r in sent.nodes]
    pos = nodes.index(k) + j  # after word k and its empty nodes
    deps = _zero_deps(rng, len(words))
    c.insert_node(s, pos, [f"{k}.{j}", "_", "_", "_", "_", "_", "_", "_", deps, "_"])
    return f"added empty node s{s}:{k}.{j} ({deps})"


def remove_empty_node(rng: random.Random, c: Corpus) -> str | None:
    empties = c.empty_nodes()
    if not empties:
        return None
    s, n = rng.choice(empties)
    sent = c.sentences[s]
    ident = sent.node_row(n)[0]
    word, _, number = ident.partition(".")
    # Later empty nodes of the same word are renumbered (k.3 -> k.2), and DEPS
    # that name them follow; a DEPS naming the removed node itself forbids it.
    rename = {}
    for r in sent.rows:
        w, _, k = r[0].partition(".")
        if w == word and k and int(k) > int(number):
            rename[r[0]] = f"{w}.{int(k) - 1}"
    for r in sent.rows:
        if r[8] != "_" and any(d.split(":", 1)[0] == ident for d in r[8].split("|")):
            return None
    c.remove_node(s, n)
    for r in sent.rows:
        if r[0] in rename:
            r[0] = rename[r[0]]
        if r[8] != "_":
            deps = [d.split(":", 1) for d in r[8].split("|")]
            r[8] = "|".join(f"{rename.get(p, p)}:{rel}" for p, rel in deps)
    return f"removed empty node s{s}:{ident}"


OPERATIONS: dict[str, tuple[Op, float]] = {
    "drop_mention": (drop_mention, 3),
    "add_mention": (add_mention, 3),
    "shift_boundary": (shift_boundary, 3),
    "merge_entities": (merge_entities, 1.5),
    "split_entity": (split_entity, 1.5),
    "discontinuous": (make_discontinuous, 1.5),
    "change_head": (change_head, 2.5),
    "head_on_single_node": (head_on_single_node, 0.3),
    "repeat_span": (repeat_span, 1.5),
    "drop_entity": (drop_entity, 1),
    "rename_ids": (rename_ids, 0.3),
    "relayout": (relayout, 0.5),
    "unclosed_mention": (unclosed_mention, 0.3),
    "entity_on_mwt": (entity_on_mwt, 0.3),
}
ZERO_OPERATIONS: dict[str, tuple[Op, float]] = {
    "move_zero": (move_zero, 3),
    "remove_zero": (remove_zero, 2),
    "add_zero": (add_zero, 2),
    "swap_zeros": (swap_zeros, 1.5),
    "change_deps": (change_deps, 2),
    "add_empty_node": (add_empty_node, 1),
    "remove_empty_node": (remove_empty_node, 1),
}
# Text-level operations (unclosed mention) must come after node insertions/removals.
LAST = ("unclosed_mention",)


# ------------------------------------------------------------------ invalid
def _rows(c: Corpus) -> list[tuple[int, list[str]]]:
    return [(s, r) for s, sent in enumerate(c.sentences) for r in sent.rows if r[0].isdigit()]


def inv_head_beyond_mention(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    multi = [m for m in c.mentions if m.size() >= 2]
    if not multi:
        return None
    _need_head_field(c)
    m = rng.choice(multi)
    m.head = m.size() + rng.randint(1, 3)
    return f"head {m.head} beyond {m.eid}@{_where(m)} ({m.size()} nodes)"


def inv_head_not_integer(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    _need_head_field(c)
    bad = rng.choice(("abc", ""))
    slot = c.head_slot
    assert slot is not None
    for s, sent in enumerate(c.sentences):
        for n in range(len(sent.nodes)):
            if any(p[:2] == (s, n) for m in c.mentions for p in m.parts):
                values = c.new_values(c.fresh_eid("h"), "object")
                values[slot] = bad
                c.extras[(s, n)] = c.extras.get((s, n), "") + "(" + "-".join(values) + ")"
                return f"head value {bad!r} at s{s}:{n}"
    return None


def inv_closing_without_opening(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    s = rng.randrange(len(c.sentences))
    n = rng.randrange(len(c.sentences[s].nodes))
    eid = c.fresh_eid("zz")
    c.extras[(s, n)] = c.extras.get((s, n), "") + f"{eid})"
    return f"closing {eid}) without an opening at s{s}:{n}"


def inv_cross_sentence(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    docs = c.document_of()
    s = rng.randrange(len(c.sentences) - 1) if len(c.sentences) > 1 else 0
    if s + 1 >= len(c.sentences) or docs[s + 1] != docs[s]:
        return None
    n = rng.randrange(len(c.sentences[s].nodes))
    eid = c.fresh_eid("x")
    values = c.new_values(eid, "object")
    if c.head_slot is not None:
        values[c.head_slot] = "1"
    c.extras[(s, n)] = c.extras.get((s, n), "") + "(" + "-".join(values)
    c.extras[(s + 1, 0)] = c.extras.get((s + 1, 0), "") + f"{eid})"
    return f"mention {eid} from s{s}:{n} to s{s + 1}:0"


def inv_form(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    s, row = rng.choice(_rows(c))
    row[1] = row[1] + "X"
    return f"FORM of s{s}:{row[0]} changed"


def inv_sent_id(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    s = rng.randrange(len(c.sentences))
    sent = c.sentences[s]
    sent.comments = [
        f"# sent_id = {m.group(1)}_changed" if (m := SENT_ID.match(x)) else x for x in sent.comments
    ]
    return f"sent_id of s{s} changed"


def inv_duplicate_sent_id(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    if len(c.sentences) < 2:
        return None
    s = rng.randrange(len(c.sentences) - 1)
    ident = c.sentences[s].sent_id
    nxt = c.sentences[s + 1]
    nxt.comments = [f"# sent_id = {ident}" if SENT_ID.match(x) else x for x in nxt.comments]
    return f"sent_id of s{s + 1} = that of s{s}"


def inv_newdoc_id(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    starts = [s for s, sent in enumerate(c.sentences) if sent.newdoc]
    s = rng.choice(starts)
    sent = c.sentences[s]
    sent.comments = [f"# newdoc id = other{s}" if NEWDOC.match(x) else x for x in sent.comments]
    return f"newdoc id of s{s} changed"


def inv_no_newdoc(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    for sent in c.sentences:
        sent.comments = [x for x in sent.comments if not NEWDOC.match(x)]
    return "every # newdoc removed"


def inv_missing_document(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    docs = c.document_of()
    if max(docs) < 1:
        return None
    keep = [s for s, d in enumerate(docs) if d < max(docs)]
    cut = c.cut(list(range(max(docs))), len(c.sentences))
    c.sentences, c.mentions, c.extras = cut.sentences, cut.mentions, {}
    return f"last document removed ({len(keep)} sentences left)"


def inv_head_column(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    s, row = rng.choice(_rows(c))
    row[6] = str(len(c.sentences[s].rows) + 7)
    return f"HEAD of s{s}:{row[0]} out of range"


def inv_forbidden_eid(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    if not c.mentions:
        return None
    m = rng.choice(c.mentions)
    old = m.eid
    for x in c.mentions:
        if x.eid == old:
            x.eid = old + "=q"
    return f"id {old} -> {old}=q"


def inv_malformed_deps(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    if not c.mentions:
        return None
    m = rng.choice(c.mentions)
    s, n = c.head_node(m)
    row = c.sentences[s].node_row(n)
    row[8] = rng.choice(("nsubj", "99:nsubj"))
    return f"DEPS {row[8]!r} on the head of {m.eid}@{_where(m)}"


def inv_zero_without_deps(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    key_zero_sentences = {key.head_node(key.mentions[i])[0] for i in key.zeros()}
    zeros = [i for i in c.zeros() if c.head_node(c.mentions[i])[0] in key_zero_sentences]
    if not zeros:
        return None
    s, n = c.head_node(c.mentions[rng.choice(zeros)])
    c.sentences[s].node_row(n)[8] = "_"
    return f"DEPS '_' on zero s{s}:{n}"


def inv_discontinuous_no_head(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    s = rng.randrange(len(c.sentences))
    size = len(c.sentences[s].nodes)
    if size < 3:
        return None
    eid = c.fresh_eid("dh")
    m = Mention(eid, [(s, 0, 0), (s, size - 1, size - 1)], c.new_values(eid, "object"))
    c.mentions.append(m)  # head None: no head value on the single-node last part
    return f"discontinuous {eid}@{_where(m)} without a head value"


def inv_no_global_entity(rng: random.Random, key: Corpus, c: Corpus) -> str | None:
    if not c.mentions:
        return None
    c.header = False
    return "no # global.Entity"


Invalid = Callable[[random.Random, Corpus, Corpus], "str | None"]
INVALID: dict[str, Invalid] = {
    "head_beyond_mention": inv_head_beyond_mention,
    "head_not_integer": inv_head_not_integer,
    "closing_without_opening": inv_closing_without_opening,
    "cross_sentence": inv_cross_sentence,
    "form": inv_form,
    "sent_id": inv_sent_id,
    "duplicate_sent_id": inv_duplicate_sent_id,
    "newdoc_id": inv_newdoc_id,
    "no_newdoc": inv_no_newdoc,
    "missing_document": inv_missing_document,
    "head_column": inv_head_column,
    "forbidden_eid": inv_forbidden_eid,
    "malformed_deps": inv_malformed_deps,
    "zero_without_deps": inv_zero_without_deps,
    "discontinuous_no_head": inv_discontinuous_no_head,
    "no_global_entity": inv_no_global_entity,
}


# ---------------------------------------------------------------- generation
def generate(seed: int, *, invalid: bool = False, gum: Path | None = None) -> Pair:
    """The pair of a seed (deterministic for a given GUM file, or without one)."""
    rng = random.Random(f"corefud-perturb:{seed}:{invalid}")
    if gum is not None and rng.random() < 0.6:
        key, source = gum_sample(rng, gum)
        if rng.random() < 0.5:
            key, source = add_syntactic_heads(key), source + ":heads"
    else:
        key, source = synthetic(rng)
    response = key.copy()
    ops = dict(OPERATIONS)
    if key.empty_nodes() and source == "synthetic":
        ops.update(ZERO_OPERATIONS)
    elif key.empty_nodes():
        ops.update({k: v for k, v in ZERO_OPERATIONS.items() if k in ("add_zero", "change_deps")})
    names = list(ops)
    weights = [ops[n][1] for n in names]
    done: list[str] = []
    chosen = rng.choices(names, weights, k=rng.randint(1, 5))
    chosen.sort(key=lambda n: n in LAST)
    for name in chosen:
        desc = ops[name][0](rng, response)
        if desc:
            done.append(f"{name}: {desc}")
    bad = None
    if invalid:
        kinds = list(INVALID)
        rng.shuffle(kinds)
        for kind in kinds:
            desc = INVALID[kind](rng, key, response)
            if desc:
                bad = f"{kind}: {desc}"
                break
    return Pair(seed, source, key.render(), response.render(), done, bad)


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - a manual tool
    ap = argparse.ArgumentParser(description="write the perturbed pair of a seed")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--invalid", action="store_true")
    ap.add_argument("--gum", type=Path, help="GUM key CoNLL-U file to cut documents from")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    pair = generate(a.seed, invalid=a.invalid, gum=a.gum)
    key, response = pair.write(a.out)
    print(pair.describe())
    print(key)
    print(response)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

__all__ = ["INVALID", "OPERATIONS", "ZERO_OPERATIONS", "Pair", "generate"]
