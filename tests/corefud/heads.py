"""Set every mention's head index from the UD dependency tree.

The head of a mention is its word whose HEAD lies outside the mention (the
syntactic head of the span). When several words qualify (a span that is not a
subtree), the one closest to the root wins, then the first; empty nodes have no
HEAD and are never chosen; a mention of empty nodes only keeps its head. The
index written is the head's 1-based position among the mention's nodes, empty
nodes included (how the official scorer counts it).

A ``global.Entity`` without a ``head`` field (GUM's key:
``GRP-etype-infstat-...``) gets one after ``etype``; every mention's values are
shifted accordingly.

``python -m tests.corefud.heads IN OUT`` writes the transformed file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .entities import Corpus, parse


def _depth(word: str, heads: dict[str, str]) -> int:
    depth, seen = 0, set()
    while word in heads and word not in seen:
        seen.add(word)
        word = heads[word]
        depth += 1
    return depth


def syntactic_head(corpus: Corpus, mention_index: int) -> int | None:
    """The 1-based index of the mention's syntactic head among its nodes (None: no word)."""
    nodes = corpus.mentions[mention_index].nodes()
    trees = {
        s: {row[0]: row[6] for row in corpus.sentences[s].rows if row[0].isdigit()}
        for s in {s for s, _ in nodes}
    }
    ids = [(s, corpus.sentences[s].node_row(n)[0]) for s, n in nodes]
    inside = set(ids)
    best: tuple[int, int] | None = None  # (depth, position)
    for pos, (s, word) in enumerate(ids):
        if not word.isdigit():
            continue  # an empty node: no HEAD
        if (s, trees[s].get(word, "0")) in inside:
            continue
        candidate = (_depth(word, trees[s]), pos)
        if best is None or candidate < best:
            best = candidate
    return None if best is None else best[1] + 1


def add_syntactic_heads(corpus: Corpus) -> Corpus:
    out = corpus.copy()
    if "head" not in out.fields:
        at = out.fields.index("etype") + 1 if "etype" in out.fields else out.eid_slot + 1
        out.ensure_field("head", at)
    for i, m in enumerate(out.mentions):
        head = syntactic_head(out, i)
        if head is not None:
            m.head = head
    return out


def add_heads_to_text(text: str) -> str:
    return add_syntactic_heads(parse(text)).render()


def add_heads_to_file(source: Path, target: Path) -> Path:
    target.write_text(add_heads_to_text(source.read_text(encoding="utf-8")), encoding="utf-8")
    return target


if __name__ == "__main__":  # pragma: no cover - a manual tool
    add_heads_to_file(Path(sys.argv[1]), Path(sys.argv[2]))
