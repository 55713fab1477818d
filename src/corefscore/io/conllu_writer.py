"""Writing the canonical corpus as CorefUD CoNLL-U files.

The output is what ``corefscore.io.conllu`` (and udapi) read back:

* ``# global.Entity = eid-etype-head-other`` once at the top, ``# newdoc id``
  per document, ``# sent_id`` (the source's, else ``DOCID-N``) and ``# text``
  per sentence;
* 10 columns: ID (a CoNLL-U source's node IDs, empty nodes included; else
  1, 2, ...), FORM (the words or ``_``), ``_``, UPOS (the POS column or
  ``_``), ``_``, FEATS (the source's or ``_``), HEAD (sentence-relative, 0 for
  a root; ``_`` on an empty node or without dependency heads), DEPREL
  (``root`` for HEAD 0, ``dep`` otherwise, since the model keeps no relation
  labels; ``_`` without heads), DEPS (a CoNLL-U source's enhanced
  dependencies, where every node they name is written; else ``_``), and MISC
  holding ``Entity=`` (or ``_``) and a CoNLL-U source's other MISC items;
* entity ids are the source labels when all are distinct valid CorefUD ids
  that do not start with a digit, ``e`` + label when all are distinct digit
  strings (CoNLL ids, GUM groups), else ``e1``, ``e2``, ... in entity order;
* an opening bracket carries ``eid-etype-head``, trailing empty attributes
  left out; ``head`` is the 1-based position of the mention's head among its
  tokens (all parts of a discontinuous mention);
* on a token, closings come first, the mention opened last closing first;
  then openings, the longest first, so that mentions of one entity nest as
  the reader's per-id stacks expect; single-token chunks come after the
  openings, or first when the token opens nothing (udapi's canonical order,
  which GUM follows: ``(e7-person)e6)e5)``); a discontinuous mention's parts are
  bracketed ``(e5[1/2]-...`` ... ``e5[1/2])`` ... ``(e5[2/2]`` ...
  ``e5[2/2])``, the attributes on part 1, and the head again on the last part
  (where udapi reads it).

What the format cannot hold goes through ``Losses``:
two crossing mentions of one entity (the closing bracket cannot say which one
it ends), or overlapping discontinuous mentions of one entity with the same
number of parts, are refused unless losses are allowed (then dropped and
counted). MIN spans, optional flags, mention levels, heads outside their
mention, entity types with characters an attribute cannot hold and HEADs
outside their sentence are dropped with a count. Non-referring markables
have no place in CorefUD: refused, like crossing mentions.

A document read from CoNLL-U keeps each token's MISC column: every item but
``Entity=`` (rewritten from the mentions) is written back as read, in its
place, ``SplitAnte`` and ``Bridge`` included (so its ``split_antecedents``
and ``bridging``, read from them, are not written a second time). Any other
document has its split antecedents and bridging pairs written from those
fields, as udapi writes them: ``SplitAnte=e1<e3,e2<e3`` on the first word of
plural entity e3, a member that is none of the document's entities written
as an entity of its own; ``Bridge=e1<e3`` on the anaphor's first word (e3 the
anaphor's entity, e1 the antecedent's). A bridging pair whose anaphor or
antecedent is no mention of an entity, or whose two mentions are of one
entity, is refused; one that CoNLL-U reads back with other mentions
(``corefscore.io.conllu.bridging_mentions``: CorefUD links entities) is
written and counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from ..model import Corpus, Document, Span
from .conll_writer import crossing_same_entity
from .conllu import bridging_mentions
from .lossy import (
    Losses,
    drop_mention_facts,
    refuse_bridging,
    refuse_non_referring,
    split_members,
    token_count,
)

_DIGITS = re.compile(r"[0-9]+")
# What the reader accepts as an id, minus a leading digit (which marks a
# CoNLL or GUM number that gets the conventional ``e`` prefix).
_VALID_EID = re.compile(r"[^-=|\s()\[\]0-9][^-=|\s()\[\]]*")
# An attribute value may not hold the separators of the Entity= syntax.
_BAD_ATTRIBUTE = re.compile(r"[-=|\s()\[\]]")
_WHITESPACE = re.compile(r"[\t\n\r]")


def conllu_entity_ids(doc: Document) -> list[str]:
    """CorefUD entity ids for ``doc``'s entities, in entity order."""
    labels = list(doc.labels)
    distinct = len(set(labels)) == len(labels)
    if distinct and all(_VALID_EID.fullmatch(x) for x in labels):
        return labels
    if distinct and all(_DIGITS.fullmatch(x) for x in labels):
        return ["e" + x for x in labels]
    return [f"e{i + 1}" for i in range(len(labels))]


def write_conllu(corpus: Corpus, stream: TextIO, *, losses: Losses) -> None:
    """Write ``corpus`` as CorefUD CoNLL-U (see the module docstring for the layout)."""
    stream.write("# global.Entity = eid-etype-head-other\n")
    for doc in corpus:
        stream.writelines(_document_lines(doc, losses))


# A bracket on a token: ((kind, order, entity, mention), text).
_Bracket = tuple[tuple[int, int, int, int], str]
_CLOSE, _OPEN, _SINGLE = 0, 1, 2


def _brackets(cell: list[_Bracket]) -> str:
    """The Entity= value of one token, in udapi's canonical chunk order.

    Closings precede openings (else ``(e2e1)`` could not be parsed); a
    single-token chunk follows the openings when there are any, else precedes
    the closings (udapi's Rules 1-4: ``e1)(e3(e2)``, ``(e3)e1)``).
    """
    ordered = sorted(cell)
    if any(kind == _OPEN for (kind, *_), _ in ordered):
        return "".join(text for _, text in ordered)
    singles = [text for (kind, *_), text in ordered if kind == _SINGLE]
    closings = [text for (kind, *_), text in ordered if kind == _CLOSE]
    return "".join(singles + closings)


def _document_lines(doc: Document, losses: Losses) -> Iterator[str]:
    syntax = doc.syntax
    misc = syntax.misc if syntax is not None else None
    refuse_non_referring(doc, losses)
    members: dict[int, list[int]] = {}
    if misc is None:
        doc, members = split_members(doc)
    ids = conllu_entity_ids(doc)
    words = syntax.words if syntax is not None else None
    pos = syntax.pos if syntax is not None else None
    dep = syntax.dependency_heads if syntax is not None else None
    n_tokens = token_count(doc)
    drop_mention_facts(doc, losses, ("MIN spans", "optional flags", "mention levels"))
    kept_lines = set(syntax.token_lines or ()) if syntax is not None and misc else set()
    for what in ("bridging", "split_antecedents"):
        # Read from CoNLL-U, they stay in the MISC of their token; only those on
        # an empty node that is not a token here are lost.
        lost = [line for line, _ in doc.annotations.get(what, ()) if line not in kept_lines]
        if lost:
            losses.drop_fact(what.replace("_", " ") + " links", len(lost))
    renamed = {label: eid for label, eid in zip(doc.labels, ids) if label != eid}
    types = _entity_types(doc, losses)
    cells: list[list[_Bracket]] = [[] for _ in range(n_tokens)]
    skipped: set[tuple[int, int]] = set()
    for e, entity in enumerate(doc.entities):
        skip = set(_unwritable(doc, e, losses))
        for k, span in enumerate(entity):
            if k in skip:
                skipped.add((e, k))
                continue
            parts = doc.pieces[e][k] if doc.pieces else None
            ranges = parts if parts is not None else (span,)
            head = _head_position(doc, e, k, ranges, losses)
            attributes = [types[e] or "", str(head) if head is not None else ""]
            while attributes and not attributes[-1]:
                attributes.pop()
            for i, (start, end) in enumerate(ranges):
                key = ids[e] + (f"[{i + 1}/{len(ranges)}]" if parts is not None else "")
                if i == 0:
                    opening = "(" + "-".join([key, *attributes])
                elif i == len(ranges) - 1 and head is not None:
                    # udapi reads a discontinuous mention's head from its last part.
                    opening = f"({key}--{head}"
                else:
                    opening = "(" + key
                if start == end:
                    cells[start].append(((_SINGLE, 0, e, k), opening + ")"))
                else:
                    # Longer mentions open first and the later-opened close first, so
                    # mentions of one id nest on the reader's stack.
                    cells[start].append(((_OPEN, -end, e, k), opening))
                    cells[end].append(((_CLOSE, -start, e, k), key + ")"))
    links = _links(doc, ids, members, skipped, losses) if misc is None else {}
    starts = _sentence_starts(doc, n_tokens)
    # The source's sentence ids, when it gave every sentence one: the CorefUD
    # evaluation aligns key and response by them.
    source_ids = syntax.sentence_ids if syntax is not None else ()
    if len(source_ids) != len(starts) or any(not x or _WHITESPACE.search(x) for x in source_ids):
        source_ids = ()
    feats = syntax.feats if syntax is not None else None
    # A CoNLL-U source's node IDs (empty nodes ``5.1`` among them when they were
    # read as tokens) and enhanced dependencies, which name nodes by those IDs.
    node_ids = syntax.node_ids if syntax is not None else None
    if node_ids is not None and len(node_ids) != n_tokens:
        node_ids = None
    enhanced = syntax.deps if node_ids is not None and syntax is not None else None
    yield f"# newdoc id = {doc.doc_id}\n"
    for s, begin in enumerate(starts):
        stop = starts[s + 1] if s + 1 < len(starts) else n_tokens
        forms = [_clean(words[t]) if words is not None else "_" for t in range(begin, stop)]
        ids = list(node_ids[begin:stop]) if node_ids is not None else []
        if not ids or len(set(ids)) != len(ids):
            ids = [str(i) for i in range(1, stop - begin + 1)]
        is_empty = ["." in x for x in ids]
        known = {*ids, "0"}
        text = " ".join(f for f, empty in zip(forms, is_empty) if not empty)
        yield f"# sent_id = {source_ids[s] if source_ids else f'{doc.doc_id}-{s + 1}'}\n"
        yield f"# text = {text}\n"
        outside = unknown = 0
        for t in range(begin, stop):
            i = t - begin
            upos = _clean(pos[t]) if pos is not None else "_"
            head_col = deprel = "_"
            if dep is not None and not is_empty[i]:
                target = dep[t]
                if target < 0:
                    head_col, deprel = "0", "root"
                elif begin <= target < stop:
                    head_col, deprel = ids[target - begin], "dep"
                else:
                    outside += 1
            deps_col = "_"
            if enhanced is not None and enhanced[t] != "_":
                if all(item.partition(":")[0] in known for item in enhanced[t].split("|")):
                    deps_col = _clean(enhanced[t])
                else:
                    unknown += 1
            brackets = _brackets(cells[t])
            if misc is not None:
                misc_col = _misc_column(misc[t], brackets, renamed)
            else:
                misc_col = _new_misc_column(brackets, links.get(t, {}))
            feat = _clean(feats[t]) if feats is not None else "_"
            fields = (ids[i], forms[i], "_", upos, "_", feat, head_col, deprel, deps_col)
            yield "\t".join((*fields, misc_col)) + "\n"
        if unknown:
            losses.drop_fact("enhanced dependencies naming a node not written", unknown)
        if outside:
            losses.drop_fact("dependency heads outside their sentence", outside)
        yield "\n"


def _links(
    doc: Document,
    ids: list[str],
    members: dict[int, list[int]],
    skipped: set[tuple[int, int]],
    losses: Losses,
) -> dict[int, dict[str, list[str]]]:
    """The ``SplitAnte`` and ``Bridge`` links of a document not read from CoNLL-U,
    by token and key (see the module docstring)."""
    out: dict[int, dict[str, list[str]]] = {}
    lost = 0
    for e, named in members.items():
        written = [span for k, span in enumerate(doc.entities[e]) if (e, k) not in skipped]
        if not written or not named:
            lost += 1
            continue
        token = min(span[0] for span in written)
        out.setdefault(token, {}).setdefault("SplitAnte", []).extend(
            f"{ids[m]}<{ids[e]}" for m in named
        )
    if lost:
        losses.drop_fact("split antecedents of entities with no mention written", lost)
    entity_of: dict[Span, int] = {}
    for e, entity in enumerate(doc.entities):
        for k, span in enumerate(entity):
            if (e, k) not in skipped:
                entity_of.setdefault(span, e)
    inexact = 0
    for i, (anaphor, antecedent) in enumerate(doc.bridging):
        a, b = entity_of.get(anaphor), entity_of.get(antecedent)
        if a is None or b is None:
            which = "anaphor" if a is None else "antecedent"
            why = f"its {which} is no mention of an entity, and CorefUD links entities"
            refuse_bridging(doc, i, why, losses)
            continue
        if a == b:
            why = "both are mentions of one entity, which a CorefUD Bridge cannot link"
            refuse_bridging(doc, i, why, losses)
            continue
        if bridging_mentions(doc.entities[a], anaphor[0], doc.entities[b]) != (anaphor, antecedent):
            inexact += 1
        out.setdefault(anaphor[0], {}).setdefault("Bridge", []).append(f"{ids[b]}<{ids[a]}")
    if inexact:
        losses.drop_fact(
            "the exact mentions of bridging links that read back as other mentions of "
            "their entities",
            inexact,
        )
    return out


def _new_misc_column(brackets: str, links: dict[str, list[str]]) -> str:
    """MISC of a token not read from CoNLL-U: Entity=, SplitAnte=, Bridge=, by name (as udapi)."""
    items = {key: ",".join(values) for key, values in links.items()}
    if brackets:
        items["Entity"] = brackets
    return "|".join(f"{key}={items[key]}" for key in sorted(items, key=str.lower)) or "_"


def _misc_column(original: str, brackets: str, renamed: dict[str, str]) -> str:
    """A token's MISC as read, with its ``Entity=`` item rewritten to ``brackets``.

    Every other item stays, in its place; ``SplitAnte`` and ``Bridge`` name
    entities, so they follow any entity id the writer had to change. A new
    ``Entity=`` item goes where udapi, which orders items by name, would put it.
    """
    items = [] if original == "_" else original.split("|")
    out: list[str] = []
    placed = not brackets
    for item in items:
        key, _, value = item.partition("=")
        if key == "Entity":
            if not placed:
                out.append("Entity=" + brackets)
                placed = True
        elif renamed and key in ("SplitAnte", "Bridge"):
            out.append(f"{key}={_renamed_links(value, renamed)}")
        else:
            out.append(item)
    if not placed:
        at = next((i for i, item in enumerate(out) if item.lower() > "entity"), len(out))
        out.insert(at, "Entity=" + brackets)
    return "|".join(out) if out else "_"


def _renamed_links(value: str, renamed: dict[str, str]) -> str:
    """``SplitAnte``/``Bridge`` links ``e1<e3,e2<e3:part`` with renamed entity ids."""
    links = []
    for link in value.split(","):
        source, sep, rest = link.partition("<")
        target, colon, relation = rest.partition(":")
        links.append(
            renamed.get(source, source) + sep + renamed.get(target, target) + colon + relation
        )
    return ",".join(links)


def _unwritable(doc: Document, e: int, losses: Losses) -> list[int]:
    """Positions of entity ``e``'s mentions that brackets cannot tell apart; refused."""
    entity = doc.entities[e]
    skip: list[int] = []
    contiguous = [k for k in range(len(entity)) if not doc.pieces or doc.pieces[e][k] is None]
    spans = [entity[k] for k in contiguous]
    for earlier, span in crossing_same_entity(tuple(spans)):
        k = entity.index(span)
        losses.refuse(
            "crossing mentions of one entity",
            f"document {doc.doc_id!r}, entity {doc.labels[e]}: {earlier} and {span} cross, "
            "and CoNLL-U brackets of one id cannot tell them apart",
            path=doc.source,
            line=doc.line_of(e, k),
        )
        skip.extend(j for j in contiguous if entity[j] == span)
    # The reader completes a discontinuous mention of an entity before it can
    # start the next one with the same number of parts.
    busy: dict[int, int] = {}
    order = sorted(
        (k for k in range(len(entity)) if doc.pieces and doc.pieces[e][k] is not None),
        key=lambda k: entity[k],
    )
    for k in order:
        parts = doc.pieces[e][k]
        assert parts is not None
        start, end = entity[k]
        if busy.get(len(parts), -1) >= start:
            losses.refuse(
                "overlapping discontinuous mentions of one entity",
                f"document {doc.doc_id!r}, entity {doc.labels[e]}: discontinuous mention "
                f"{entity[k]} overlaps another one with {len(parts)} parts, which CoNLL-U "
                "part markers cannot tell apart",
                path=doc.source,
                line=doc.line_of(e, k),
            )
            skip.append(k)
            continue
        busy[len(parts)] = end
    return skip


def _head_position(
    doc: Document, e: int, k: int, ranges: tuple[Span, ...], losses: Losses
) -> int | None:
    head = doc.head_of(e, k)
    if head is None:
        return None
    offset = 0
    for start, end in ranges:
        if start <= head <= end:
            return offset + head - start + 1
        offset += end - start + 1
    losses.drop_fact("heads outside their mention", 1)
    return None


def _entity_types(doc: Document, losses: Losses) -> list[str | None]:
    types: list[str | None] = (
        list(doc.entity_types) if doc.entity_types else [None] * len(doc.entities)
    )
    bad = 0
    for i, etype in enumerate(types):
        if etype is not None and (not etype or _BAD_ATTRIBUTE.search(etype)):
            types[i] = None
            bad += 1
    if bad:
        losses.drop_fact("entity types with characters a CoNLL-U attribute cannot hold", bad)
    return types


def _sentence_starts(doc: Document, n_tokens: int) -> list[int]:
    given = doc.syntax.sentence_starts if doc.syntax is not None else ()
    starts = sorted({s for s in given if 0 < s < n_tokens} | {0})
    return starts if n_tokens else []


def _clean(value: str) -> str:
    # A tab or line break would break the line; an empty column is invalid.
    return _WHITESPACE.sub(" ", value) or "_"


__all__ = ["conllu_entity_ids", "write_conllu"]
