"""Writing the canonical corpus as CoNLL-2012 coreference files."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from ..model import Corpus, Document, Span
from .lossy import MENTION_FACTS, Losses, drop_mention_facts, token_count

_NUMBER = re.compile(r"\d+")


def conll_entity_ids(doc: Document) -> list[str]:
    """Entity ids for CoNLL: the source labels if all are distinct integers, else 0, 1, ..."""
    labels = list(doc.labels)
    if all(_NUMBER.fullmatch(x) for x in labels) and len(set(labels)) == len(labels):
        return [str(int(x)) for x in labels]
    return [str(i) for i in range(len(labels))]


def crossing_same_entity(entity: tuple[Span, ...]) -> list[tuple[Span, Span]]:
    """Spans of one entity that cross an earlier one, which CoNLL brackets cannot tell apart.

    Each item is (earlier span, crossing span); dropping every crossing span
    leaves spans that nest or are disjoint.
    """
    spans = sorted(set(entity), key=lambda s: (s[0], -s[1]))
    stack: list[Span] = []
    crossing: list[tuple[Span, Span]] = []
    for span in spans:
        while stack and stack[-1][1] < span[0]:
            stack.pop()
        if stack and stack[-1][1] < span[1]:
            crossing.append((stack[-1], span))
            continue
        stack.append(span)
    return crossing


def write_conll(corpus: Corpus, stream: TextIO, *, losses: Losses) -> None:
    """Write ``corpus`` in the CoNLL-2012 layout (12 columns, coreference last).

    Words, POS and sentence breaks come from each document's syntax when it has
    them; otherwise words are ``_`` and the document is one sentence. What
    CoNLL cannot hold goes through ``losses``: a discontinuous mention or two
    crossing mentions of one entity are refused unless losses are allowed
    (then dropped and counted); heads, MIN spans, optional flags, mention
    levels and entity types have no column and are dropped with a count.
    """
    for doc in corpus:
        stream.writelines(_document_lines(doc, losses))


def _document_lines(doc: Document, losses: Losses) -> Iterator[str]:
    ids = conll_entity_ids(doc)
    syntax = doc.syntax
    words = syntax.words if syntax is not None and syntax.words is not None else None
    pos = syntax.pos if syntax is not None and syntax.pos is not None else None
    n_tokens = token_count(doc)
    drop_mention_facts(doc, losses, MENTION_FACTS)
    if doc.entity_types:
        count = sum(1 for t in doc.entity_types if t is not None)
        if count:
            losses.drop_fact("entity types", count)
    cells: list[list[tuple[int, int, str]]] = [[] for _ in range(n_tokens)]
    for e, entity in enumerate(doc.entities):
        skip: set[Span] = set()
        for earlier, span in crossing_same_entity(entity):
            losses.refuse(
                "crossing mentions of one entity",
                f"document {doc.doc_id!r}, entity {doc.labels[e]}: {earlier} and {span} "
                "cross, and CoNLL brackets of one id cannot tell them apart",
                path=doc.source,
                line=doc.line_of(e, entity.index(span)),
            )
            skip.add(span)
        for k, span in enumerate(entity):
            if doc.pieces and doc.pieces[e][k] is not None:
                losses.refuse(
                    "discontinuous mentions",
                    f"document {doc.doc_id!r}, entity {doc.labels[e]}: mention {span} is "
                    "discontinuous, which CoNLL-2012 cannot hold",
                    path=doc.source,
                    line=doc.line_of(e, k),
                )
                continue
            if span in skip:
                continue
            start, end = span
            if start == end:
                cells[start].append((1, 0, f"({ids[e]})"))
            else:
                # Longer mentions open first and close last, so brackets nest.
                cells[start].append((0, -end, f"({ids[e]}"))
                cells[end].append((2, -start, f"{ids[e]})"))
    starts = set(syntax.sentence_starts) if syntax is not None and syntax.sentence_starts else {0}
    name = doc.doc_id.split(";")[0].strip().strip("()") or "-"
    part_match = re.search(r"part\s+(\d+)", doc.doc_id)
    part = int(part_match.group(1)) if part_match else 0
    yield f"#begin document {doc.doc_id}\n"
    within = 0
    for token in range(n_tokens):
        if token in starts and token:
            yield "\n"
            within = 0
        word = words[token] if words is not None else "_"
        tag = pos[token] if pos is not None else "-"
        coref = "|".join(item for *_, item in sorted(cells[token])) or "-"
        yield f"{name}\t{part}\t{within}\t{word}\t{tag}\t-\t-\t-\t-\t-\t*\t{coref}\n"
        within += 1
    yield "#end document\n"
