"""Split antecedents in the coreference metrics (Paun, Yu, Moosavi & Poesio 2022).

A plural mention such as "they" in "John met Mary. They ..." refers to John and
Mary together: its entity has a *split antecedent*, the set of the entities
{John}, {Mary} (``Document.split_antecedents``). Paun et al. score it by
adding to that entity one extra mention, a *split-antecedent mention*, that
stands for the whole set, and by letting such a mention meet the other side's
split-antecedent mentions with a partial credit:

1. **Alignment.** For each metric, every key split antecedent is compared with
   every response split antecedent by *that metric* run on the two sets of
   member entities as if they were two small documents (MUC also counts its
   singletons there: a one-mention member scores 1 of 1 when the other side
   has it alone too). A one-to-one assignment of largest total F1 pairs them
   (``scipy.optimize.linear_sum_assignment``, as the UA scorer). An aligned
   pair's recall is its credit on the recall side, its precision on the
   precision side, and its F1 in CEAF and BLANC; an unaligned split antecedent
   has no credit.
2. **Scoring.** Each split-antecedent mention counts as one mention of its
   entity (entity sizes include it) and is found in the entity of its aligned
   partner, with its credit instead of 1: B³ adds the credit to that entity's
   overlap, MUC charges 1 - credit instead of a whole partition when the partner's
   entity is already among the partitions, CEAF adds the F1 credit to the
   similarity of the pair of entities, LEA and BLANC credit each link to the
   split-antecedent mention with its credit (a link between two credited
   mentions with the product of the credits).

LEA weighs an entity that has a split antecedent by ``split_importance``
(default 1, the paper's parameter) on top of its size. Entities of one side
whose split antecedents are the same set are one entity (as in the UA
scorer). With ``split_antecedents="only"`` each metric reports the alignment
itself: the summed statistics of the aligned pairs over those of all split
antecedents (the UA scorer's ``only_split_antecedent``).

The formulas are closed forms over each entity's overlap counts, so no pair
of mentions is enumerated; ``docs/metrics.md`` has a worked example.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._record import record, replace
from ..errors import UsageError, option
from ..model import Document, Span, SplitAntecedent
from .anaphora import NAMES as ANAPHORA

if TYPE_CHECKING:
    from ..evaluation import Evaluation
    from ..pipeline import Statistics

#: What ``split_antecedents`` may be: score them (the UA scorer's default),
#: leave them out, or score only their alignment.
POLICIES = ("keep", "drop", "only")
#: The metrics with a split-antecedent formula.
SPLIT_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")

# A credit: the other side's entity that holds the aligned partner, and the score.
_Credit = tuple[int, float]


@record()
class Side:
    """One side of a document pair: entities (their ordinary mentions) with the
    split antecedent of each (``None`` for most), entities of the same split
    antecedent merged."""

    entities: list[list[Span]]
    splits: list[SplitAntecedent | None]
    #: With ``compat="ua"``: for each entity with a split antecedent, its mentions
    #: that the UA scorer lists before the split-antecedent mention (``_ua_before``).
    before: list[frozenset[Span] | None] | None = None

    def __post_init__(self) -> None:
        # A span in two entities: the later one wins, as in the UA scorer's maps.
        self.entity_of: dict[Span, int] = {
            span: i for i, entity in enumerate(self.entities) for span in entity
        }
        self.sizes = [len(e) + (s is not None) for e, s in zip(self.entities, self.splits)]
        # Every metric asks for the same overlaps: found once per other side.
        self._shared: dict[int, list[dict[int, int]]] = {}
        # What CEAF's alignment derives from the cells it aligns against the other
        # side (their components), kept by those cells: CEAFm and CEAFe align the
        # same ones but for a new cell that a credit may add.
        self._ceaf_memos: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[str, object]] = {}

    @classmethod
    def of(cls, doc: Document, *, ua_order: bool = False) -> Side:
        splits = doc.split_antecedents or (None,) * len(doc.entities)
        entities: list[list[Span]] = []
        kept: list[SplitAntecedent | None] = []
        sources: list[list[Sequence[Span]]] = []
        merged: dict[SplitAntecedent, int] = {}
        for entity, split in zip(doc.entities, splits):
            into = merged.get(split) if split is not None else None
            if into is None:
                if split is not None:
                    merged[split] = len(entities)
                entities.append(list(entity))
                kept.append(split)
                sources.append([entity])
            else:
                seen = set(entities[into])
                entities[into].extend(s for s in entity if s not in seen)
                sources[into].append(entity)
        before = None
        if ua_order:
            before = [
                _ua_before(parts, split) if split is not None else None
                for parts, split in zip(sources, kept)
            ]
        return cls(entities, kept, before)

    def split_entities(self) -> list[int]:
        """The entities with a split antecedent, in entity order."""
        return [i for i, s in enumerate(self.splits) if s is not None]

    def overlaps(self, other: Side) -> list[dict[int, int]]:
        """For each entity, how many of its mentions each of ``other``'s entities
        holds. Each metric takes the whole list once (a call per entity and
        metric cost 3 % of scoring a document with split antecedents)."""
        shared = self._shared.get(id(other))
        if shared is None:
            found = other.entity_of
            shared = self._shared[id(other)] = []
            for entity in self.entities:
                counts: dict[int, int] = {}
                for span in entity:
                    j = found.get(span)
                    if j is not None:
                        counts[j] = counts.get(j, 0) + 1
                shared.append(counts)
        return shared


def without_split_antecedents(doc: Document) -> Document:
    """``doc`` with no split antecedent (``split_antecedents="drop"``)."""
    return replace(doc, split_antecedents=()) if doc.split_antecedents else doc


def check_metrics(evaluation: Evaluation) -> None:
    """Refuse ``split_antecedents="only"`` with a metric that has no split formula."""
    if evaluation.split_antecedents == "only":
        other = [m.name for m in evaluation.metrics if m.name not in SPLIT_METRICS]
        if other:
            raise UsageError(
                f"{option('split_antecedents', 'only')} scores the split-antecedent "
                f"alignment with {', '.join(SPLIT_METRICS)}; not with {', '.join(other)}"
            )


# --------------------------------------------------------------------------------------------
# Step 1: the alignment


@record(frozen=True)
class Alignment:
    """The credits of one metric's alignment of split antecedents, and its statistics.

    ``recall``: key entity -> (response entity of its partner, recall of the
    pair); ``precision``: response entity -> (key entity, precision);
    ``f1``: key entity -> (response entity, F1). Only positive credits are
    kept. ``statistics``: (recall numerator, recall denominator, precision
    numerator, precision denominator) of the aligned pairs over all split
    antecedents, for ``split_antecedents="only"``.
    """

    recall: dict[int, _Credit]
    precision: dict[int, _Credit]
    f1: dict[int, _Credit]
    statistics: tuple[float, float, float, float]


_NO_ALIGNMENT = Alignment({}, {}, {}, (0.0, 0.0, 0.0, 0.0))


def _ratio(num: float, den: float) -> float:
    return 0.0 if num == 0 else num / den


def _f1(recall: float, precision: float) -> float:
    return 0.0 if recall + precision == 0 else 2 * precision * recall / (precision + recall)


class Pairs:
    """The split antecedents of one document pair, for every metric's alignment:
    each side's (an empty stand-in for a side without any), the pairs that share
    a member mention (two that share none score 0 by every metric, so a document
    with many plurals costs what its overlaps cost, not the product of their
    numbers), and each split antecedent's members as a small ``Side``."""

    def __init__(self, key: Side, response: Side) -> None:
        self.key_entities = key.split_entities()
        self.response_entities = response.split_entities()
        empty: SplitAntecedent = frozenset()
        self.key_sets = [key.splits[i] or empty for i in self.key_entities] or [empty]
        self.response_sets = [response.splits[j] or empty for j in self.response_entities] or [
            empty
        ]
        holders: dict[Span, list[int]] = {}
        for b, members in enumerate(self.response_sets):
            for member in members:
                for span in member:
                    holders.setdefault(span, []).append(b)
        self.near: list[tuple[int, int]] = []
        for a, members in enumerate(self.key_sets):
            found = {b for member in members for span in member for b in holders.get(span, ())}
            self.near += [(a, b) for b in sorted(found)]
        self._sides: dict[SplitAntecedent, Side] = {}

    def side(self, members: SplitAntecedent) -> Side:
        found = self._sides.get(members)
        if found is None:
            found = self._sides[members] = Side(
                [list(e) for e in sorted(members)], [None] * len(members)
            )
        return found


def align(
    part: str,
    key: Side,
    response: Side,
    *,
    identical_credit: bool = True,
    pairs: Pairs | None = None,
) -> Alignment:
    """The alignment of the split antecedents of ``key`` and ``response`` by metric
    ``part`` (a metric name, or ``blanc-c`` / ``blanc-n`` for BLANC's two parts).

    With ``identical_credit``, two identical split antecedents score 1 even where
    the metric counts nothing on their members (BLANC's coreference part when
    every member has one mention), so that a perfect response scores 1; the UA
    scorer scores 0 there, and then finds such a mention by its identity.
    ``pairs``: the pair's ``Pairs``, shared by the metrics (made if not given).
    """
    if not key.split_entities() and not response.split_entities():
        return _NO_ALIGNMENT
    found_pairs = pairs if pairs is not None else Pairs(key, response)
    key_sets, response_sets = found_pairs.key_sets, found_pairs.response_sets
    counts = {
        (a, b): _member_statistics(
            part, found_pairs.side(key_sets[a]), found_pairs.side(response_sets[b])
        )
        for a, b in found_pairs.near
    }
    scores: dict[tuple[int, int], tuple[float, float, float]] = {}
    for (a, b), (rn, rd, pn, pd) in counts.items():
        if identical_credit and rd == pd == 0 and key_sets[a] == response_sets[b]:
            scores[(a, b)] = (1.0, 1.0, 1.0)
            continue
        recall, precision = _ratio(rn, rd), _ratio(pn, pd)
        scores[(a, b)] = (recall, precision, _f1(recall, precision))
    assigned = _assignment(len(key_sets), len(response_sets), scores)
    key_entities, response_entities = found_pairs.key_entities, found_pairs.response_entities
    credits: tuple[dict[int, _Credit], dict[int, _Credit], dict[int, _Credit]] = ({}, {}, {})
    for a, b in assigned:
        found = scores.get((a, b))
        if found is None or a >= len(key_entities) or b >= len(response_entities):
            continue  # nothing shared, or the empty stand-in: no credit
        i, j = key_entities[a], response_entities[b]
        for credit, score, owner, partner in zip(credits, found, (i, j, i), (j, i, j)):
            if score > 0:
                credit[owner] = (partner, score)
    zero = (0.0, 0.0, 0.0, 0.0)
    statistics = (
        float(sum(counts.get(pair, zero)[0] for pair in assigned)),
        float(sum(_own_total(part, k) for k in key_sets)),
        float(sum(counts.get(pair, zero)[2] for pair in assigned)),
        float(sum(_own_total(part, r) for r in response_sets)),
    )
    return Alignment(*credits, statistics)


def _own_total(part: str, members: SplitAntecedent) -> float:
    """The denominator of one side of metric ``part`` on a split antecedent's
    members: it depends on that side alone."""
    sizes = [len(m) for m in members]
    if part == "muc":  # with the alignment's singletons: 1 each
        return float(sum(n - 1 if n > 1 else 1 for n in sizes))
    if part == "ceafe":
        return float(len(sizes))
    if part in ("bcub", "ceafm", "lea"):
        return float(sum(sizes))
    links = sum(n * (n - 1) / 2 for n in sizes)
    if part == "blanc-c":
        return links
    total = sum(sizes)
    return total * (total - 1) / 2 - links


# Up to this many pairs of split antecedents in a document, the assignment is
# solved on the whole matrix, as the UA scorer solves it (the same call, so the
# same choice among equally good assignments); beyond, per group of split
# antecedents that share mentions.
_WHOLE = 4096


def _assignment(
    rows: int, cols: int, scores: dict[tuple[int, int], tuple[float, float, float]]
) -> list[tuple[int, int]]:
    """The one-to-one pairs of largest total F1 (``scores[pair][2]``; 0 elsewhere)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    def solve(row_ids: list[int], col_ids: list[int]) -> list[tuple[int, int]]:
        f1 = np.zeros((len(row_ids), len(col_ids)))
        where = {b: k for k, b in enumerate(col_ids)}
        for k, a in enumerate(row_ids):
            for b in col_ids:
                found = scores.get((a, b))
                if found is not None:
                    f1[k, where[b]] = found[2]
        found_rows, found_cols = linear_sum_assignment(-f1)
        return [(row_ids[r], col_ids[c]) for r, c in zip(found_rows.tolist(), found_cols.tolist())]

    if rows * cols <= _WHOLE:
        return solve(list(range(rows)), list(range(cols)))
    # Groups: connected components of the pairs that share a mention.
    parent = list(range(rows + cols))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = x = parent[parent[x]]
        return x

    for a, b in scores:
        ra, rb = find(a), find(rows + b)
        if ra != rb:
            parent[ra] = rb
    groups: dict[int, tuple[set[int], set[int]]] = {}
    for a, b in scores:
        group = groups.setdefault(find(a), (set(), set()))
        group[0].add(a)
        group[1].add(b)
    pairs: list[tuple[int, int]] = []
    for row_ids, col_ids in groups.values():
        pairs += solve(sorted(row_ids), sorted(col_ids))
    return pairs


def _member_statistics(
    part: str, key_side: Side, response_side: Side
) -> tuple[float, float, float, float]:
    """(recall num, den, precision num, den) of metric ``part`` on two sets of
    member entities scored as two small documents."""
    no_credit: dict[int, _Credit] = {}
    if part == "muc":
        rn, rd = _muc(key_side, response_side, no_credit, singletons=True)
        pn, pd = _muc(response_side, key_side, no_credit, singletons=True)
        return rn, rd, pn, pd
    if part in ("blanc-c", "blanc-n"):
        stats = _blanc(key_side, response_side, no_credit, no_credit)
        c_or_n = stats[:4] if part == "blanc-c" else stats[4:]
        return c_or_n[0], c_or_n[1], c_or_n[2], c_or_n[3]
    return _STATISTICS[part](key_side, response_side, _NO_ALIGNMENT, 1.0)


# --------------------------------------------------------------------------------------------
# Step 2: the metrics with split-antecedent mentions


def _muc(
    side: Side, other: Side, credits: dict[int, _Credit], *, singletons: bool = False
) -> tuple[float, float]:
    """MUC's (numerator, denominator) of ``side`` against ``other``: each entity's
    links kept, with a split-antecedent mention in its partner's partition."""
    num = den = 0.0
    overlaps = side.overlaps(other)
    for i, entity in enumerate(side.entities):
        size = side.sizes[i]
        if size == 1:
            if singletons:
                # In the alignment only: a singleton is 1 of 1 when alone on both sides.
                den += 1
                j = other.entity_of.get(entity[0]) if entity else None
                num += 1.0 if j is not None and other.sizes[j] == 1 else 0.0
            continue
        if size == 0:
            continue
        partitions = overlaps[i]
        unmapped = len(entity) - sum(partitions.values())
        num_i: float = size - unmapped - len(partitions)
        if side.splits[i] is not None:
            credit = credits.get(i)
            num_i -= 1 - credit[1] if credit is not None and credit[0] in partitions else 1
        num += num_i
        den += size - 1
    return num, den


def _bcub(side: Side, other: Side, credits: dict[int, _Credit]) -> tuple[float, float]:
    num = den = 0.0
    for i, shared in enumerate(side.overlaps(other)):
        overlap: dict[int, float] = dict(shared)
        credit = credits.get(i) if side.splits[i] is not None else None
        if credit is not None:
            overlap[credit[0]] = overlap.get(credit[0], 0) + credit[1]
        size = side.sizes[i]
        num += sum(v * v for v in overlap.values()) / size
        den += size
    return num, den


def _lea(
    side: Side, other: Side, credits: dict[int, _Credit], importance: float
) -> tuple[float, float]:
    """LEA with singleton self-links; a link to the split-antecedent mention
    counts its credit; an entity with a split antecedent weighs ``importance``
    times its size. With the UA scorer's order (``side.before``), a link between
    mentions listed on either side of a credited split-antecedent mention
    counts the credit too, as the UA scorer computes it."""
    num = den = 0.0
    overlaps = side.overlaps(other)
    for i, entity in enumerate(side.entities):
        size = side.sizes[i]
        weight = importance * size if side.splits[i] is not None else size
        if size == 1:
            j = other.entity_of.get(entity[0]) if entity else None
            resolved = 1.0 if j is not None and other.sizes[j] == 1 else 0.0
            links = 1.0
        else:
            credit = credits.get(i) if side.splits[i] is not None else None
            earlier = side.before[i] if side.before is not None and credit else None
            if earlier:
                found = other.entity_of
                first = Counter(found[s] for s in entity if s in found and s in earlier)
                later = Counter(found[s] for s in entity if s in found and s not in earlier)
                resolved = float(
                    sum(n * (n - 1) // 2 for n in first.values())
                    + sum(n * (n - 1) // 2 for n in later.values())
                )
                assert credit is not None
                resolved += credit[1] * sum(n * later.get(j, 0) for j, n in first.items())
                shared: dict[int, int] = dict(first + later)
            else:
                shared = overlaps[i]
                resolved = float(sum(n * (n - 1) // 2 for n in shared.values()))
            if credit is not None:
                resolved += credit[1] * shared.get(credit[0], 0)
            links = size * (size - 1) / 2
        num += weight * resolved / links
        den += weight
    return num, den


def _ceaf(
    key: Side, response: Side, credits: dict[int, _Credit], *, by_entities: bool
) -> tuple[float, float, float, float]:
    """CEAF φ3 (``by_entities`` False) or φ4 with split-antecedent credits."""
    from ..contingency import ListTable
    from .ceaf import _list_alignment

    shared: dict[tuple[int, int], float] = {}
    for i, overlap in enumerate(key.overlaps(response)):
        for j, n in overlap.items():
            shared[(i, j)] = float(n)
        credit = credits.get(i) if key.splits[i] is not None else None
        if credit is not None:
            shared[(i, credit[0])] = shared.get((i, credit[0]), 0.0) + credit[1]
    rows = [i for i, _ in shared]
    cols = [j for _, j in shared]
    weights = list(shared.values())
    if by_entities:
        weights = [2 * w / (key.sizes[i] + response.sizes[j]) for (i, j), w in zip(shared, weights)]
    # The alignment's own rules on lists (corefscore.metrics.ceaf): the table's
    # cells are the linked pairs; their counts do not matter to it.
    table = ListTable(
        key_sizes=key.sizes,
        response_sizes=response.sizes,
        rows=rows,
        cols=cols,
        counts=[],
        response_cells=[],
        key_mentions=sum(key.sizes),
        response_mentions=sum(response.sizes),
        matched_mentions=0,
        key=None,
        response=None,
        memo=key._ceaf_memos.setdefault((tuple(rows), tuple(cols)), {}),
    )
    total = 0.0
    for similarity in _list_alignment(table, weights):
        total += 1 - (1 - similarity)
    if by_entities:
        return total, float(len(key.sizes)), total, float(len(response.sizes))
    return total, float(sum(key.sizes)), total, float(sum(response.sizes))


def _blanc(
    key: Side,
    response: Side,
    coref: dict[int, _Credit],
    noncoref: dict[int, _Credit],
    *,
    ua: bool = False,
) -> tuple[float, ...]:
    """BLANC's eight counts with split-antecedent mentions: a link with a credited
    split-antecedent mention counts its credit (its part's F1 alignment).

    ``ua``: as the UA scorer computes them (``key.before`` holds its order): in
    the coreference part a split-antecedent mention listed second in a link is
    looked up as it is, so it counts 1 in the response entity holding an
    identical split antecedent and nothing otherwise; an uncredited one is
    looked up so in both parts.
    """

    def choose2(n: float) -> float:
        return n * (n - 1) / 2

    twin = {s: j for j, s in enumerate(response.splits) if s is not None} if ua else {}
    common_coref = 0.0
    # Each key mention found in the response: (key entity, response entity) -> weight.
    weight_by: dict[tuple[int, int], float] = {}
    overlaps = key.overlaps(response)
    for i, entity in enumerate(key.entities):
        shared = overlaps[i]
        common_coref += sum(n * (n - 1) // 2 for n in shared.values())
        for j, n in shared.items():
            weight_by[(i, j)] = float(n)
        split = key.splits[i]
        if split is None:
            continue
        credit = coref.get(i)
        if not ua:
            if credit is not None:
                common_coref += credit[1] * shared.get(credit[0], 0)
        else:
            assert key.before is not None
            earlier = key.before[i] or frozenset()
            same = twin.get(split)
            if same is not None:
                found = response.entity_of
                common_coref += sum(1 for s in earlier if found.get(s) == same)
            later_by = Counter(
                response.entity_of[s]
                for s in entity
                if s in response.entity_of and s not in earlier
            )
            if credit is not None:
                common_coref += credit[1] * later_by.get(credit[0], 0)
            elif same is not None:
                common_coref += later_by.get(same, 0)
        credit = noncoref.get(i)
        if credit is None and ua and twin.get(split) is not None:
            credit = (twin[split], 1.0)
        if credit is not None:
            weight_by[(i, credit[0])] = weight_by.get((i, credit[0]), 0.0) + credit[1]
    # Pairs across key entities and across response entities, weighted by the
    # product of their weights: inclusion-exclusion over the weight sums.
    total = sum(weight_by.values())
    by_key: dict[int, float] = {}
    by_response: dict[int, float] = {}
    for (i, j), w in weight_by.items():
        by_key[i] = by_key.get(i, 0.0) + w
        by_response[j] = by_response.get(j, 0.0) + w
    squares = sum(w * w for w in weight_by.values())
    common_non = (
        total * total
        - sum(w * w for w in by_key.values())
        - sum(w * w for w in by_response.values())
        + squares
    ) / 2
    key_links = sum(choose2(n) for n in key.sizes)
    response_links = sum(choose2(n) for n in response.sizes)
    key_non = choose2(sum(key.sizes)) - key_links
    response_non = choose2(sum(response.sizes)) - response_links
    return (
        common_coref,
        key_links,
        common_coref,
        response_links,
        common_non,
        key_non,
        common_non,
        response_non,
    )


# --------------------------------------------------------------------------------------------
# compat="ua": the order the UA scorer (LREC 2022) lists an entity's mentions in
#
# With split antecedents, the UA scorer turns every entity into a Python set and
# back into a list, so its mentions come in CPython's set order, which its LEA
# and BLANC depend on (docs/compatibility.md): LEA multiplies the credit of a
# split-antecedent mention into every later link of a mention listed before it,
# and BLANC's coreference part credits a split-antecedent mention only when it
# is listed first in a link. Only the order matters, so it is reproduced by
# building the same set of stand-ins with the UA scorer's hashes.


class _UAMarkable:
    """A stand-in for one of the UA scorer's markables: its hash and equality."""

    __slots__ = ("_hash", "members", "span")

    def __init__(self, span: Span | None, members: SplitAntecedent | None = None) -> None:
        self.span = span
        self.members = members
        if members is None:
            assert span is not None
            self._hash = hash(frozenset(span))
        else:
            self._hash = hash(
                frozenset(tuple(_UAMarkable(s) for s in member) for member in members)
            )

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _UAMarkable):
            return NotImplemented
        if self.members is not None or other.members is not None:
            return self.members == other.members
        return self.span == other.span


def _ua_before(parts: list[Sequence[Span]], split: SplitAntecedent) -> frozenset[Span]:
    """The mentions of a merged entity (``parts``: the entities merged, in order)
    that the UA scorer lists before its split-antecedent mention."""
    found: set[_UAMarkable] = set()
    for part in parts:
        # Each entity's mentions, then its split-antecedent mention, into one set.
        found.update([*(_UAMarkable(span) for span in part), _UAMarkable(None, split)])
    listed = list(found)
    position = next(k for k, m in enumerate(listed) if m.members is not None)
    return frozenset(m.span for m in listed[:position] if m.span is not None)


def _pair(
    recall: tuple[float, float], precision: tuple[float, float]
) -> tuple[float, float, float, float]:
    return (*recall, *precision)


_STATISTICS = {
    "muc": lambda k, r, a, w: _pair(_muc(k, r, a.recall), _muc(r, k, a.precision)),
    "bcub": lambda k, r, a, w: _pair(_bcub(k, r, a.recall), _bcub(r, k, a.precision)),
    "lea": lambda k, r, a, w: _pair(_lea(k, r, a.recall, w), _lea(r, k, a.precision, w)),
    "ceafm": lambda k, r, a, w: _ceaf(k, r, a.f1, by_entities=False),
    "ceafe": lambda k, r, a, w: _ceaf(k, r, a.f1, by_entities=True),
}


def split_statistics(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> Statistics:
    """Every metric's statistics on a prepared document pair with split antecedents.

    The metrics without a split formula are computed on the pair without its
    split antecedents (a warning says so once per document).
    """
    ua = evaluation.compat == "ua"
    key_side, response_side = Side.of(key, ua_order=ua), Side.of(response, ua_order=ua)
    pairs = Pairs(key_side, response_side)
    only = evaluation.split_antecedents == "only"
    importance = evaluation.split_importance
    out: Statistics = {}
    plain: list[str] = []
    for metric in evaluation.metrics:
        name = metric.name
        if name == "blanc":
            parts = [
                align(p, key_side, response_side, identical_credit=not ua, pairs=pairs)
                for p in ("blanc-c", "blanc-n")
            ]
            if only and metric.width == 12:
                # The UA scorer's combination also reads the documents' denominators.
                whole = _blanc(key_side, response_side, {}, {})
                out[name] = (*parts[0].statistics, *parts[1].statistics, *whole[1::2])
            elif only:
                out[name] = (*parts[0].statistics, *parts[1].statistics)
            else:
                out[name] = _blanc(key_side, response_side, parts[0].f1, parts[1].f1, ua=ua)
        elif name in _STATISTICS:
            alignment = align(name, key_side, response_side, identical_credit=not ua, pairs=pairs)
            out[name] = (
                alignment.statistics
                if only
                else _STATISTICS[name](key_side, response_side, alignment, importance)
            )
        else:
            plain.append(name)
    if plain:
        from ..engines.objects import plain_statistics

        stripped = (without_split_antecedents(key), without_split_antecedents(response))
        out.update(plain_statistics(*stripped, evaluation, plain))
        # Mentions, non-referring markables and bridging do not involve them.
        left = [n for n in plain if n != "mentions" and n not in ANAPHORA]
        if left:
            warnings.append(
                f"document {key.doc_id!r}: split antecedents left out of "
                f"{', '.join(left)} (no split-antecedent formula)"
            )
    return out
