"""A deliberately naive re-implementation of the CoNLL reference scorer v8.01.

Written from the behaviour description in ``../shared/spec/reference-scorer.md``
(§3 mention matching and de-duplication, §4 metrics incl. LEA from the LEA
branch, §6 BLANC totals), for differential tests of corefscore's closed-form
metric code. It works the way the reference scorer does: mentions become
integer ids, and every metric loops over mentions, pairs of mentions and sets
of links. Nothing here is fast or clever on purpose, and nothing is shared with
``corefscore``.

A document is a list of entities, an entity a list of ``(start, end)`` spans,
both in file order. Empty entities are dropped first (the reference scorer's
reader cannot produce one, and corefscore drops them on input).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

Span = tuple[int, int]
Clusters = Sequence[Sequence[Span]]
Stats = tuple[float, ...]

METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


@dataclass
class Chains:
    """Both sides of one document after mention matching, as lists of mention ids."""

    key: list[list[int]]
    response: list[list[int]]
    matched: int  # key spans found in the response
    key_spans: int  # distinct key spans
    response_spans: int  # distinct response spans, after removing repeats of key spans


def _clean(clusters: Clusters) -> list[list[Span]]:
    return [[(int(s), int(e)) for s, e in entity] for entity in clusters if len(entity) > 0]


def dedupe_first(clusters: Clusters) -> list[list[Span]]:
    """Keep the first occurrence of every span (entity order, then mention order).

    This is what corefscore's ``default`` (response) and ``first`` (both sides)
    policies promise; entities left empty are removed.
    """
    seen: set[Span] = set()
    out: list[list[Span]] = []
    for entity in _clean(clusters):
        kept = []
        for span in entity:
            if span not in seen:
                seen.add(span)
                kept.append(span)
        if kept:
            out.append(kept)
    return out


def identify_mentions(key: Clusters, response: Clusters) -> Chains:
    """Mention ids as the reference scorer's ``IdentifMentions`` assigns them (spec §3)."""
    key_entities = _clean(key)
    response_entities = _clean(response)

    # Key: one id per occurrence, the span keeps the last one; every copy stays.
    next_id = 0
    key_id: dict[Span, int] = {}
    for entity in key_entities:
        for span in entity:
            key_id[span] = next_id
            next_id += 1
    key_chains = [[key_id[span] for span in entity] for entity in key_entities]

    # Response, first pass: a second occurrence of a key-matching span is removed.
    matched: set[Span] = set()
    kept_entities: list[list[Span]] = []
    for entity in response_entities:
        kept = []
        for span in entity:
            if span in key_id:
                if span in matched:
                    continue  # "Repeated mention in the response"
                matched.add(span)
            kept.append(span)
        if kept:  # entities emptied by the removal are deleted
            kept_entities.append(kept)

    # Twinless spans get new ids; their repeats are kept and share the id.
    twinless_id: dict[Span, int] = {}
    response_chains: list[list[int]] = []
    for entity in kept_entities:
        ids = []
        for span in entity:
            if span in key_id:
                ids.append(key_id[span])
            else:
                if span not in twinless_id:
                    twinless_id[span] = next_id
                    next_id += 1
                ids.append(twinless_id[span])
        response_chains.append(ids)

    return Chains(
        key=key_chains,
        response=response_chains,
        matched=len(matched),
        key_spans=len(key_id),
        response_spans=len(matched) + len(twinless_id),
    )


def _last_entity(chains: list[list[int]]) -> dict[int, int]:
    """id -> index of the last entity containing it (the reference's ``Indexa``)."""
    where: dict[int, int] = {}
    for index, entity in enumerate(chains):
        for mention in entity:
            where[mention] = index
    return where


def mentions(c: Chains) -> Stats:
    return (c.matched, c.key_spans, c.matched, c.response_spans)


def muc(c: Chains) -> Stats:
    key_of = _last_entity(c.key)
    correct = 0
    for entity in c.response:
        for i in range(len(entity)):
            ki = key_of.get(entity[i])
            if ki is None:
                continue
            for j in range(i + 1, len(entity)):
                if key_of.get(entity[j]) == ki:
                    correct += 1
                    break
    recall_den = sum(len(k) - 1 for k in c.key if len(k) > 0)
    precision_den = sum(len(r) - 1 for r in c.response if len(r) > 0)
    return (correct, recall_den, correct, precision_den)


def bcub(c: Chains) -> Stats:
    key_of = _last_entity(c.key)
    recall_num = 0.0
    precision_num = 0.0
    for r in c.response:
        for mention in r:
            ki = key_of.get(mention)
            k = c.key[ki] if ki is not None else []
            common = 0
            for other in r:
                if other in k:
                    common += 1
            precision_num += common / len(r)
            if len(k) > 0:
                recall_num += common / len(k)
    recall_den = sum(len(k) for k in c.key)
    precision_den = sum(len(r) for r in c.response)
    return (recall_num, recall_den, precision_num, precision_den)


def phi3(k: list[int], r: list[int]) -> Fraction:
    return Fraction(sum(1 for mention in k if mention in r))


def phi4(k: list[int], r: list[int]) -> Fraction:
    return 2 * phi3(k, r) / (len(k) + len(r))


def ceaf_numerators(c: Chains, phi: Callable[[list[int], list[int]], Fraction]) -> list[float]:
    """The CEAF numerator of every optimal alignment, as the reference would add it up.

    All one-to-one assignments of key rows to columns are tried (columns beyond the
    response entities are the reference's padding, cost 1, i.e. similarity 0); the
    optimum is found in exact arithmetic. The numerator of an assignment is
    ``Σ (1 - (1 - φ))`` over key entities in key order, in floating point. Distinct
    optimal assignments can give sums that differ in the last bits; they are all
    returned (first found first), without repeats.
    """
    n_key, n_response = len(c.key), len(c.response)
    if n_key == 0 or n_response == 0:
        return [0.0]
    size = max(n_key, n_response)
    best_value: Fraction | None = None
    best: list[tuple[int, ...]] = []
    for columns in permutations(range(size), n_key):
        value = sum(
            (phi(c.key[i], c.response[j]) for i, j in enumerate(columns) if j < n_response),
            Fraction(0),
        )
        if best_value is None or value > best_value:
            best_value, best = value, [columns]
        elif value == best_value:
            best.append(columns)
    totals: list[float] = []
    for columns in best:
        total = 0.0
        for i, j in enumerate(columns):
            similarity = float(phi(c.key[i], c.response[j])) if j < n_response else 0.0
            cost = 1 - similarity
            total += 1 - cost
        if total not in totals:
            totals.append(total)
    return totals


def ceafm(c: Chains) -> Stats:
    total = ceaf_numerators(c, phi3)[0]
    return (total, sum(len(k) for k in c.key), total, sum(len(r) for r in c.response))


def ceafe(c: Chains) -> Stats:
    total = ceaf_numerators(c, phi4)[0]
    n_key = sum(1 for k in c.key if len(k) > 0)
    n_response = sum(1 for r in c.response if len(r) > 0)
    return (total, n_key, total, n_response)


def _link(a: int, b: int) -> tuple[int, int]:
    return (min(a, b), max(a, b))


def blanc_links(chains: list[list[int]]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(coreference links, non-coreference links) of one side, as sets of id pairs."""
    coref: set[tuple[int, int]] = set()
    noncoref: set[tuple[int, int]] = set()
    for entity in chains:
        for i in range(len(entity)):
            for j in range(i + 1, len(entity)):
                coref.add(_link(entity[i], entity[j]))
    for a in range(len(chains)):
        for b in range(a + 1, len(chains)):
            for x in chains[a]:
                for y in chains[b]:
                    noncoref.add(_link(x, y))
    return coref, noncoref


def blanc(c: Chains) -> Stats:
    """(|C_k∩C_r|, |C_k|, |C_k∩C_r|, |C_r|, |N_k∩N_r|, |N_k|, |N_k∩N_r|, |N_r|)."""
    ck, nk = blanc_links(c.key)
    cr, nr = blanc_links(c.response)
    coref, noncoref = len(ck & cr), len(nk & nr)
    return (coref, len(ck), coref, len(cr), noncoref, len(nk), noncoref, len(nr))


def _lea_side(a_side: list[list[int]], b_side: list[list[int]]) -> tuple[float, int]:
    b_of = _last_entity(b_side)
    score = 0.0
    importance = 0
    for a in a_side:
        size = len(a)
        if size == 1:
            links = 1
            bi = b_of.get(a[0])
            resolved = 1 if bi is not None and len(b_side[bi]) == 1 else 0
        else:
            links = size * (size - 1) // 2
            resolved = 0
            for i in range(size):
                for j in range(i + 1, size):
                    bi = b_of.get(a[i])
                    bj = b_of.get(a[j])
                    if bi is not None and bi == bj:
                        resolved += 1
        score += (resolved / links) * size
        importance += size
    return score, importance


def lea(c: Chains) -> Stats:
    recall_num, recall_den = _lea_side(c.key, c.response)
    precision_num, precision_den = _lea_side(c.response, c.key)
    return (recall_num, recall_den, precision_num, precision_den)


_FUNCTIONS = {
    "mentions": mentions,
    "muc": muc,
    "bcub": bcub,
    "ceafm": ceafm,
    "ceafe": ceafe,
    "blanc": blanc,
    "lea": lea,
}


def score_document(key: Clusters, response: Clusters) -> dict[str, Stats]:
    """One document's raw statistics, reference-scorer style, for every metric."""
    chains = identify_mentions(key, response)
    return {name: _FUNCTIONS[name](chains) for name in METRICS}


def score_corpus(key: Mapping[str, Clusters], response: Mapping[str, Clusters]) -> dict[str, Stats]:
    """Statistics summed over the key documents (a missing response document is empty;
    response-only documents are ignored). Sums are correctly rounded (``math.fsum``)."""
    per_document = [score_document(key[d], response.get(d, [])) for d in key]
    totals: dict[str, Stats] = {}
    for name in METRICS:
        width = 8 if name == "blanc" else 4
        totals[name] = tuple(
            math.fsum(stats[name][i] for stats in per_document) for i in range(width)
        )
    return totals


def blanc_totals(counts: Stats) -> tuple[float, float, float]:
    """Combined BLANC (recall, precision, F1) from the 8 summed link counts (spec §4/§6)."""
    nrc, drc, npc, dpc, nrn, drn, npn, dpn = counts
    rc = nrc / drc if drc else -1
    rn = nrn / drn if drn else -1
    pc = npc / dpc if dpc else 0
    pn = npn / dpn if dpn else 0
    fc = 2 * pc * rc / (pc + rc) if pc + rc != 0 else 0
    fn = 2 * pn * rn / (pn + rn) if pn + rn != 0 else 0
    if rc == -1 and rn == -1:
        return (0.0, 0.0, 0.0)
    if rc == -1:
        return (rn, pn, fn)
    if rn == -1:
        return (rc, pc, fc)
    return ((rc + rn) / 2, (pc + pn) / 2, (fc + fn) / 2)


# ---------------------------------------------------------------------------------------------
# A literal reader (spec §2), so the oracle can be checked against the reference's outputs on
# its own test files without depending on corefscore's reader.

_BEGIN = re.compile(r"^#\s*begin document (.*?)$")
_END = re.compile(r"#\s*end document")
_PASSES = (
    ("double", re.compile(r"\((\d+\+\d)\)")),
    ("single", re.compile(r"\((\d+)\)")),
    ("open", re.compile(r"\((\d+)")),
    ("close", re.compile(r"(\d+)\)")),
)


def read_conll_naive(text: str) -> dict[str, list[list[Span]]]:
    """``{doc_id: entities}`` as the reference's ``GetCoreference`` reads a CoNLL file.

    Entities in order of first sighting of their number, mentions in order of
    completion; coordinates are indices of the non-blank lines of the document.
    """
    documents: dict[str, list[list[Span]]] = {}
    doc_id: str | None = None
    order: list[str] = []
    entities: dict[str, list[Span]] = {}
    stacks: dict[str, list[int]] = {}
    token = 0
    for raw in text.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        if doc_id is None:
            begin = _BEGIN.match(line)
            if begin:
                doc_id, order, entities, stacks, token = begin.group(1), [], {}, {}, 0
            continue
        if _END.search(line):
            documents[doc_id] = [entities[n] for n in order if entities[n]]
            doc_id = None
            continue
        if line.strip() == "":
            continue
        fields = line.split("\t")
        while len(fields) > 1 and fields[-1] == "":
            fields.pop()  # Perl's split drops trailing empty fields
        column = fields[-1]
        if column != "_":
            for kind, pattern in _PASSES:
                while True:
                    found = pattern.search(column)
                    if found is None:
                        break
                    column = column[: found.start()] + column[found.end() :]
                    if kind == "double":
                        continue
                    number = found.group(1)
                    if number not in entities:
                        order.append(number)
                        entities[number] = []
                    if kind == "single":
                        entities[number].append((token, token))
                    elif kind == "open":
                        stacks.setdefault(number, []).append(token)
                    else:
                        entities[number].append((stacks[number].pop(), token))
        token += 1
    return documents
