"""Writing the canonical corpus as Universal Anaphora (UA) CoNLL-U Plus files.

The output is what the UA scorer (v1 and v2) and ``corefscore.io.ua`` read:

* ``# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC
  IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM`` once at the top,
  ``# newdoc id`` per document, ``# sent_id`` (the source's, else
  ``DOCID-N``) per sentence and a blank line after each; sentences are the
  syntax's when the document has them, else the document is one sentence;
* 15 tab-separated columns: ID (1, 2, ... in each sentence), FORM (the words,
  white space in them written ``_`` since the UA scorer splits lines on it;
  else ``_``), IDENTITY and BRIDGING; every other column ``_``. A document
  without any token gets one token ``_``: the UA readers keep only documents
  that have one;
* a markable is ``(EntityID=X|MarkableID=Y...)`` on its one token, or
  ``(EntityID=X|MarkableID=Y...`` on its first and a ``)`` on its last token,
  each ``)`` closing the markable opened last. A cell holds its closers, then
  its openers, the longest first, so that markables nest on that stack;
  markables that cross cannot be written;
* a mention's attributes: ``EntityID`` (the entity's label when all labels are
  distinct ids that the format can hold, else 1, 2, ...), ``MarkableID``
  (the UA reader's ids when the document's ``annotations`` carry them and
  still match its mentions, else ``markable_1``, ``markable_2``, ... in
  reading order), ``Min=a`` or ``Min=a,b`` (the MIN span as 1-based token
  positions in the document) and ``ElementOf=P[,Q]`` on every mention of an
  entity that is a member of the split antecedent of plural entity P (a
  member that is none of the document's entities is written as an entity of
  its own; a member with a split antecedent of its own is read back as its
  members, since UA readers expand ElementOf, which the warnings count);
  then the other attributes the UA reader kept (``SemType=...``);
* each non-referring span is a markable of an entity of its own,
  ``EntityID=N-Pseudo`` (the reader's id, when it is known);
* a discontinuous mention is one MarkableID opened once per part, the
  attributes on the first part (as the UA guidelines write it). A markable
  that crosses another is written so too, in parts that nest, which
  ``corefscore.io.ua`` and the UA scorer v2 read back as one contiguous
  markable (adjacent parts join); the UA scorer v1 keeps only the last part
  of a markable written in parts, which the warnings count;
* a bridging pair is ``(MarkableID=anaphor|MentionAnchor=antecedent)`` in the
  BRIDGING cell of the anaphor's first token, both ids those of the
  markables with those spans.

A document read from the UA discourse-deixis layer has its markables written
to the DISCOURSE_DEIXIS column instead.

What the format cannot hold goes through ``Losses``: a bridging pair whose
anaphor or antecedent is no markable, and a second bridging pair of one
anaphor (the UA scorer keeps one per anaphor) are refused unless losses are
allowed (then dropped and counted). Heads, optional flags, mention levels,
entity types, MIN spans outside their mention and white space inside word
forms are dropped with a count.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterator
from typing import TextIO

from ..errors import InputError
from ..model import Corpus, Document, Span
from .lossy import Losses, drop_mention_facts, refuse_bridging, split_members
from .ua import UABridge, UAMarkable

#: The columns of the UA CoNLL-U Plus format, in order.
COLUMNS = (
    "ID",
    "FORM",
    "LEMMA",
    "UPOS",
    "XPOS",
    "FEATS",
    "HEAD",
    "DEPREL",
    "DEPS",
    "MISC",
    "IDENTITY",
    "BRIDGING",
    "DISCOURSE_DEIXIS",
    "REFERENCE",
    "NOM_SEM",
)
_IDENTITY = COLUMNS.index("IDENTITY")
_BRIDGING = COLUMNS.index("BRIDGING")
_DEIXIS = COLUMNS.index("DISCOURSE_DEIXIS")
_PSEUDO = "-Pseudo"
# An id the attribute syntax can hold: no separator of a cell ("(", ")",
# "|", "="), of ElementOf lists (","), nor white space.
_ID = re.compile(r"[^\s()|=,]+")
_SPACE = re.compile(r"\s")


def write_ua(corpus: Corpus, stream: TextIO, *, losses: Losses) -> None:
    """Write ``corpus`` as UA CoNLL-U Plus (see the module docstring for the layout)."""
    stream.write("# global.columns = " + " ".join(COLUMNS) + "\n")
    for doc in corpus:
        stream.writelines(_document_lines(doc, losses))


class _Markable:
    """One markable to write: a mention or a non-referring span."""

    __slots__ = (
        "attributes",
        "element_of",
        "entity_id",
        "line",
        "markable_id",
        "min",
        "ranges",
        "reader_id",
    )

    def __init__(self, ranges: tuple[Span, ...], entity_id: str, line: int | None):
        self.ranges = ranges
        self.entity_id = entity_id
        self.line = line
        self.min: Span | None = None
        self.element_of: tuple[str, ...] = ()
        self.attributes: tuple[str, ...] = ()
        self.reader_id: str | None = None
        self.markable_id = ""

    @property
    def span(self) -> Span:
        return (self.ranges[0][0], self.ranges[-1][1])

    def opening(self, first: bool) -> str:
        items = [f"EntityID={self.entity_id}", f"MarkableID={self.markable_id}"]
        if first:
            if self.min is not None:
                a, b = self.min[0] + 1, self.min[1] + 1
                items.append(f"Min={a}" if a == b else f"Min={a},{b}")
            if self.element_of:
                items.append("ElementOf=" + ",".join(self.element_of))
            items.extend(self.attributes)
        return "(" + "|".join(items)


def ua_entity_ids(doc: Document) -> list[str]:
    """UA EntityIDs for ``doc``'s entities: its labels if they can be, else 1, 2, ..."""
    labels = list(doc.labels)
    if len(set(labels)) == len(labels) and all(_valid_entity_id(x) for x in labels):
        return labels
    return [str(i + 1) for i in range(len(labels))]


def _valid_entity_id(value: str) -> bool:
    return bool(_ID.fullmatch(value)) and not value.endswith(_PSEUDO)


def _reader_records(
    doc: Document,
) -> tuple[tuple[tuple[UAMarkable, ...], ...], tuple[UAMarkable, ...], tuple[UABridge, ...]]:
    """The UA reader's records of ``doc`` (``corefscore.io.ua``), each part only
    when it still matches the document: its markables per entity (for the
    leading entities), its non-referring markables, its bridging pairs."""
    annotations = doc.annotations
    markables = annotations.get("ua_markables")
    if not (
        isinstance(markables, tuple)
        and len(markables) <= len(doc.entities)
        and all(
            isinstance(group, tuple)
            and len(group) == len(doc.entities[e])
            and all(isinstance(r, UAMarkable) and r.entity_id == doc.labels[e] for r in group)
            for e, group in enumerate(markables)
        )
    ):
        markables = ()
    others = annotations.get("ua_non_referring")
    if not (
        isinstance(others, tuple)
        and len(others) == len(doc.non_referring)
        and all(isinstance(r, UAMarkable) for r in others)
    ):
        others = ()
    bridges = annotations.get("ua_bridging")
    if not (
        isinstance(bridges, tuple)
        and len(bridges) == len(doc.bridging)
        and all(isinstance(r, UABridge) for r in bridges)
    ):
        bridges = ()
    return markables, others, bridges


def _markables(doc: Document, losses: Losses) -> list[_Markable]:
    """Every markable of ``doc`` (a document with its split members as entities),
    mentions first, in entity order, then the non-referring spans."""
    doc, members = split_members(doc)
    ids = ua_entity_ids(doc)
    element_of: dict[int, list[str]] = {}
    nested = 0
    for plural, named in members.items():
        for m in named:
            element_of.setdefault(m, []).append(ids[plural])
            nested += bool(doc.split_antecedents[m])
    if nested:
        # UA's ElementOf is transitive (the UA scorer expands it); CorefUD's SplitAnte is not.
        losses.note(
            "split-antecedent member(s) with a split antecedent of their own, which UA "
            "readers replace by its members",
            nested,
        )
    records, others, _ = _reader_records(doc)
    out: list[_Markable] = []
    outside = 0
    for e, entity in enumerate(doc.entities):
        for k, span in enumerate(entity):
            parts = doc.pieces[e][k] if doc.pieces else None
            markable = _Markable(parts or (span,), ids[e], doc.line_of(e, k))
            min_span = doc.min_span_of(e, k)
            if min_span is not None and not (span[0] <= min_span[0] <= min_span[1] <= span[1]):
                outside += 1
                min_span = None
            markable.min = min_span
            markable.element_of = tuple(element_of.get(e, ()))
            if e < len(records):
                markable.reader_id = records[e][k].markable_id
                markable.attributes = records[e][k].attributes
            out.append(markable)
    if outside:
        losses.drop_fact("MIN spans outside their mention", outside)
    used = {r.entity_id for r in others if r.entity_id.endswith(_PSEUDO)}
    number = len(doc.entities)
    for i, span in enumerate(doc.non_referring):
        record = others[i] if others else None
        if (
            record is not None
            and record.entity_id.endswith(_PSEUDO)
            and _ID.fullmatch(record.entity_id)
        ):
            entity_id = record.entity_id
        else:
            # Each its own entity: the UA scorer scores one markable per Pseudo entity.
            number += 1
            while f"{number}{_PSEUDO}" in used:
                number += 1
            entity_id = f"{number}{_PSEUDO}"
            used.add(entity_id)
        markable = _Markable((span,), entity_id, record.line if record is not None else None)
        if record is not None:
            markable.reader_id = record.markable_id
            markable.attributes = record.attributes
            markable.min = record.min
        out.append(markable)
    return out


def _nested_parts(markables: list[_Markable]) -> list[list[Span]]:
    """Each markable's bracketed parts: its ranges, cut where they would cross.

    A cell's closers come before its openers, so a part may open on the
    token where another closes; otherwise a part opened inside another must
    close no later than it. A range that would close later is cut at that
    token and goes on from the next one, as a further part of its markable.
    """
    pending = [
        (start, -end, i) for i, markable in enumerate(markables) for start, end in markable.ranges
    ]
    heapq.heapify(pending)
    parts: list[list[Span]] = [[] for _ in markables]
    open_ends: list[int] = []  # the ends of the parts open at this point, innermost last
    while pending:
        start, negative_end, i = heapq.heappop(pending)
        end = -negative_end
        if start < end:
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
            if open_ends and open_ends[-1] < end:
                heapq.heappush(pending, (open_ends[-1] + 1, -end, i))
                end = open_ends[-1]
            open_ends.append(end)
        parts[i].append((start, end))
    return parts


def _number(markables: list[_Markable]) -> list[_Markable]:
    """Give every markable its MarkableID; the markables in reading order."""
    order = sorted(
        range(len(markables)),
        key=lambda i: (markables[i].ranges[0][0], -markables[i].ranges[0][1], i),
    )
    reader_ids = [m.reader_id for m in markables if m.reader_id is not None]
    keep = len(set(reader_ids)) == len(reader_ids) and all(_ID.fullmatch(x) for x in reader_ids)
    used = set(reader_ids) if keep else set()
    n = 0
    for i in order:
        markable = markables[i]
        if keep and markable.reader_id is not None:
            markable.markable_id = markable.reader_id
            continue
        n += 1
        while f"markable_{n}" in used:
            n += 1
        markable.markable_id = f"markable_{n}"
    return [markables[i] for i in order]


def _bridging_cells(
    doc: Document, markables: list[_Markable], losses: Losses
) -> dict[int, list[str]]:
    """BRIDGING items by token: each pair at its anaphor's first token."""
    by_span: dict[Span, _Markable] = {}
    for markable in markables:
        by_span.setdefault(markable.span, markable)
    _, _, records = _reader_records(doc)
    cells: dict[int, list[str]] = {}
    anaphors: set[str] = set()
    for i, (anaphor, antecedent) in enumerate(doc.bridging):
        source, anchor = by_span.get(anaphor), by_span.get(antecedent)
        if source is None or anchor is None:
            which = "anaphor" if source is None else "antecedent"
            refuse_bridging(doc, i, f"its {which} is no markable of the document", losses)
            continue
        if source.markable_id in anaphors:
            refuse_bridging(
                doc, i, "its anaphor has another antecedent, and the UA scorer keeps one", losses
            )
            continue
        anaphors.add(source.markable_id)
        items = [f"MarkableID={source.markable_id}", f"MentionAnchor={anchor.markable_id}"]
        if records:
            items.extend(records[i].attributes)
        cells.setdefault(source.ranges[0][0], []).append("(" + "|".join(items) + ")")
    return cells


def _document_lines(doc: Document, losses: Losses) -> Iterator[str]:
    drop_mention_facts(doc, losses, ("heads", "optional flags", "mention levels"))
    types = sum(1 for t in doc.entity_types if t is not None)
    if types:
        losses.drop_fact("entity types", types)
    markables = _number(_markables(doc, losses))
    parts = _nested_parts(markables)
    several = sum(1 for p in parts if len(p) > 1)
    if several:
        losses.note(
            "markable(s) written in parts (discontinuous, or crossing another markable), "
            "which the UA scorer v1 reads as their last part only",
            several,
        )
    deixis = doc.annotations.get("ua_layer") == "discourse_deixis"
    bridging = _bridging_cells(doc, markables, losses)

    syntax = doc.syntax
    words = syntax.words if syntax is not None else None
    last = max((end for p in parts for _, end in p), default=-1)
    if words is not None and last >= len(words):
        raise InputError(
            f"document {doc.doc_id!r} has a markable ending at token {last} but only "
            f"{len(words)} words",
            path=doc.source,
        )
    n_tokens = len(words) if words is not None else max(last + 1, doc.token_count or 0)
    closers = [0] * max(n_tokens, 1)
    openers: list[list[tuple[int, int, str]]] = [[] for _ in range(max(n_tokens, 1))]
    for order, (markable, ranges) in enumerate(zip(markables, parts)):
        for part, (start, end) in enumerate(ranges):
            text = markable.opening(part == 0)
            if start == end:
                text += ")"
            else:
                closers[end] += 1
            # The longest first, so that shorter ones, opened later, close first.
            openers[start].append((-end, order, text))

    starts = sorted({s for s in (syntax.sentence_starts if syntax else ()) if 0 < s < n_tokens})
    starts.insert(0, 0)
    sentence_ids = syntax.sentence_ids if syntax is not None else ()
    if len(sentence_ids) != len(starts) or any(not x or _SPACE.search(x) for x in sentence_ids):
        sentence_ids = ()
    spaced = 0
    yield f"# newdoc id = {doc.doc_id}\n"
    for s, begin in enumerate(starts):
        stop = starts[s + 1] if s + 1 < len(starts) else max(n_tokens, 1)
        yield f"# sent_id = {sentence_ids[s] if sentence_ids else f'{doc.doc_id}-{s + 1}'}\n"
        for t in range(begin, stop):
            form = words[t] if words is not None and t < len(words) else "_"
            if _SPACE.search(form):
                spaced += 1
                form = _SPACE.sub("_", form)
            cell = ")" * closers[t] + "".join(text for *_, text in sorted(openers[t])) or "_"
            fields = [str(t - begin + 1), form or "_"] + ["_"] * (len(COLUMNS) - 2)
            fields[_DEIXIS if deixis else _IDENTITY] = cell
            if t in bridging:
                fields[_BRIDGING] = "".join(bridging[t])
            yield "\t".join(fields) + "\n"
        yield "\n"
    if spaced:
        losses.drop_fact("white space inside word forms (written as '_')", spaced)


__all__ = ["COLUMNS", "ua_entity_ids", "write_ua"]
