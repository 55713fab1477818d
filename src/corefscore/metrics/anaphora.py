"""The Universal Anaphora scores beyond identity: non-referring markables and bridging.

They read what the Universal Anaphora format annotates besides entities
(``Document.non_referring``, ``Document.bridging``), as the UA scorer (LREC
2022) scores them; each is recall, precision and F1 over additive counts, so
they sum over documents like every metric:

* ``non-referring``: identifying non-referring markables (expletives, the UA
  format's ``-Pseudo`` entities). A key markable is found when the response
  marks the same span non-referring; recall = found / key markables,
  precision = found / (found + response markables matching no key one).
* ``bridging-anaphors``: recognising bridging anaphors ("the door" of "a
  house"), whatever their antecedent: a key anaphor is found when the
  response has a bridging pair with the same anaphor span.
* ``bridging-markables``: full bridging, markable level: a key pair is right
  when the response pairs the same anaphor with the same antecedent span.
* ``bridging-entities``: full bridging, entity level: as ``bridging-markables``,
  but an antecedent in the same key entity as the key's antecedent is right too.

In the last two, a response pair whose anaphor is not a key anaphor, or whose
antecedent is wrong, counts against precision; a key pair without its
right response pair counts against recall.
"""

from __future__ import annotations

from ..contingency import ContingencyTable
from ..model import Document, Span
from .base import Metric


def non_referring_statistics(table: ContingencyTable) -> tuple[float, ...]:
    """(found, key markables, found, found + response markables matching none)."""
    key, response = _documents(table)
    key_spans = key.non_referring
    response_set = set(response.non_referring)
    key_set = set(key_spans)
    found = sum(1 for span in key_spans if span in response_set)
    extra = sum(1 for span in response.non_referring if span not in key_set)
    return (float(found), float(len(key_spans)), float(found), float(found + extra))


def _pairs(doc: Document) -> dict[Span, Span]:
    # A later pair for the same anaphor replaces the earlier one (as the UA scorer reads it).
    return dict(doc.bridging)


def _bridging(table: ContingencyTable, level: str) -> tuple[float, ...]:
    key, response = _documents(table)
    key_pairs, response_pairs = _pairs(key), _pairs(response)
    entity_of = {span: i for i, entity in enumerate(key.entities) for span in entity}

    def right(key_antecedent: Span, response_antecedent: Span) -> bool:
        if level == "anaphors" or key_antecedent == response_antecedent:
            return True
        if level == "markables":
            return False
        found = entity_of.get(key_antecedent)
        return found is not None and entity_of.get(response_antecedent) == found

    found = sum(
        1
        for anaphor, antecedent in key_pairs.items()
        if anaphor in response_pairs and right(antecedent, response_pairs[anaphor])
    )
    wrong = sum(
        1
        for anaphor, antecedent in response_pairs.items()
        if anaphor not in key_pairs or not right(key_pairs[anaphor], antecedent)
    )
    return (float(found), float(len(key_pairs)), float(found), float(found + wrong))


def _documents(table: ContingencyTable) -> tuple[Document, Document]:
    key, response = table.key, table.response
    if key is None or response is None:  # only built in memory without its documents
        empty = Document("", ())
        return key or empty, response or empty
    return key, response


_UA = "Universal Anaphora scorer (Yu et al. 2022, LREC), as it scores them"

DEFINITIONS: tuple[Metric, ...] = (
    Metric(
        name="non-referring",
        statistics=non_referring_statistics,
        summary="identification of non-referring markables (expletives, UA -Pseudo entities)",
        citation=_UA,
        aliases=("non_referring", "nonref"),
    ),
    Metric(
        name="bridging-anaphors",
        statistics=lambda table: _bridging(table, "anaphors"),
        summary="bridging anaphor recognition (the anaphor, whatever its antecedent)",
        citation=_UA,
    ),
    Metric(
        name="bridging-markables",
        statistics=lambda table: _bridging(table, "markables"),
        summary="full bridging, markable level: anaphor and antecedent span",
        citation=_UA,
    ),
    Metric(
        name="bridging-entities",
        statistics=lambda table: _bridging(table, "entities"),
        summary="full bridging, entity level: anaphor, and an antecedent of the key's entity",
        citation=_UA,
    ),
)

#: What ``bridging`` selects.
BRIDGING = ("bridging-anaphors", "bridging-markables", "bridging-entities")
#: The metrics of this module: they read the anaphora facts, not the entities' table.
NAMES = ("non-referring", *BRIDGING)
