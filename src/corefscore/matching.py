"""Twin matching: pairing response mentions with key mentions.

Stoyanov et al. (2009) call a key mention and a response mention that
correspond *twins*; a key mention without a twin is *missed* and a response
mention without one is *spurious*. The metrics compare spans exactly, so
``match`` moves every twinned response mention onto its key twin's span
and leaves the metrics unchanged.

Methods (``MATCHINGS``):

``exact``
    Equal spans only (the default, and what the CoNLL reference scorer does).
``head``
    Equal head tokens (Document.heads, else found in the syntax by
    ``corefscore.heads``).
``min-span``
    The MUC-6/7 rule: the response includes the key's MIN span and lies
    within the key's span. A key mention without MIN must match exactly.
``overlap``
    At least one shared token.

Exact matches always come first. The mentions left over are then paired by
the method's criterion, one to one: the pairing has the most twins possible
and, among those, the greatest total token overlap (intersection over union);
remaining ties go to the pairing that keeps document order (earlier key
mentions with earlier response mentions).
"""

from __future__ import annotations

import bisect
import heapq
from collections import Counter
from collections.abc import Callable, Sequence

from ._record import record
from .errors import InputError, UsageError
from .heads import HeadFinder
from .metrics.ceaf import _maximum_assignment
from .model import Document, Span, Syntax

MATCHINGS = ("exact", "head", "min-span", "overlap")

# Token overlap is compared to 1/1024: finer differences are treated as ties
# (and go to document order). Keeping the assignment weights integers makes
# the tie-break exact instead of a matter of floating-point rounding.
_IOU_STEPS = 1024

# A mention: (span, entity, position in entity). Lists of them are kept in
# document order: by span, then entity, then position.
_Mention = tuple[Span, int, int]


@record(frozen=True)
class Twins:
    """The twins of one key/response document pair.

    ``response`` is the response with every twinned mention moved to its key
    twin's span, so that exact-span scoring of ``key`` against it scores the
    matching. ``pairs`` holds (key span, original response span) for every
    twin pair, ordered by key span; ``missed`` the twinless key spans and
    ``spurious`` the twinless response spans (as written), each ordered by
    span. "Document order" everywhere means by start token, then end token.
    """

    key: Document
    response: Document
    pairs: tuple[tuple[Span, Span], ...]
    missed: tuple[Span, ...]
    spurious: tuple[Span, ...]


def check_method(method: str) -> str:
    """``method`` if it is a known matching method, else ``UsageError``."""
    if method not in MATCHINGS:
        raise UsageError(
            f"unknown matching method {method!r}; choose one of {', '.join(MATCHINGS)}"
        )
    return method


def match(key: Document, response: Document, *, method: str = "exact") -> Twins:
    """Pair the mentions of ``response`` with those of ``key`` (see the module docstring)."""
    check_method(method)
    if method == "head":
        # Checked before any matching, so that a missing head column is an
        # error whatever the mentions are.
        finders: dict[int, HeadFinder] = {}
        heads = (
            _head_source(key, None, "key", finders),
            _head_source(response, key.syntax, "response", finders),
        )
    keys = _mentions(key)
    responses = _mentions(response)
    pairs, key_left, response_left = _exact(keys, responses)
    moves: dict[tuple[int, int], Span] = {}
    if method != "exact" and key_left and response_left:
        occupied = {m[0] for m in responses}
        targets: list[_Mention] = []
        shut: list[_Mention] = []
        for mention in key_left:
            # Moving a response mention onto a span the response already has
            # (or onto the same span twice) would repeat a span.
            if mention[0] in occupied:
                shut.append(mention)
            else:
                occupied.add(mention[0])
                targets.append(mention)
        if method == "head":
            key_head, response_head = heads
            edges = _head_candidates(
                [key_head(m) for m in targets], [response_head(m) for m in response_left]
            )
        elif method == "min-span":
            edges = _min_span_candidates([_min_of(key, m) for m in targets], response_left)
        else:
            edges = _overlap_candidates(targets, response_left)
        chosen = _resolve(targets, response_left, edges)
        matched_keys = {i for i, _ in chosen}
        matched_responses = {j for _, j in chosen}
        for i, j in chosen:
            k, r = targets[i], response_left[j]
            pairs.append((k[0], r[0]))
            moves[(r[1], r[2])] = k[0]
        pairs.sort()
        key_left = sorted(shut + [m for i, m in enumerate(targets) if i not in matched_keys])
        response_left = [m for j, m in enumerate(response_left) if j not in matched_responses]
    moved = response.respan(moves)
    if moves:
        _check_no_new_repeats(response, moved)
    return Twins(
        key=key,
        response=moved,
        pairs=tuple(pairs),
        missed=tuple(m[0] for m in key_left),
        spurious=tuple(m[0] for m in response_left),
    )


def _mentions(doc: Document) -> list[_Mention]:
    out = [(span, e, k) for e, entity in enumerate(doc.entities) for k, span in enumerate(entity)]
    out.sort()
    return out


def _exact(
    keys: list[_Mention], responses: list[_Mention]
) -> tuple[list[tuple[Span, Span]], list[_Mention], list[_Mention]]:
    """Pair equal spans; with repeated spans, the n-th copy on each side pair up."""
    available = Counter(m[0] for m in keys)
    taken: Counter[Span] = Counter()
    response_left: list[_Mention] = []
    for mention in responses:
        span = mention[0]
        if taken[span] < available[span]:
            taken[span] += 1
        else:
            response_left.append(mention)
    pairs: list[tuple[Span, Span]] = []
    key_left: list[_Mention] = []
    for mention in keys:
        span = mention[0]
        if taken[span]:
            taken[span] -= 1
            pairs.append((span, span))
        else:
            key_left.append(mention)
    return pairs, key_left, response_left


def _usable(syntax: Syntax | None) -> bool:
    return syntax is not None and (syntax.dependency_heads is not None or syntax.parse is not None)


def _head_source(
    doc: Document, fallback: Syntax | None, side: str, finders: dict[int, HeadFinder]
) -> Callable[[_Mention], int]:
    """The head of each mention of ``doc``: given in the input, else found in the syntax."""
    given = doc.heads
    complete = bool(given) and all(h is not None for entity in given for h in entity)
    syntax = doc.syntax if _usable(doc.syntax) else fallback if _usable(fallback) else None
    if not complete and syntax is None and doc.mention_count:
        extra = " nor does the key" if side == "response" else ""
        raise InputError(
            f"head matching needs the head of every mention, but the {side} document "
            f"{doc.doc_id!r} has no usable syntax{extra}: give a dependency head column, "
            "a CoNLL-2012 parse column, or heads in the input",
            path=doc.source,
        )
    finder = None
    if syntax is not None:
        # Both sides often share the key's syntax: build its tree once.
        finder = finders.get(id(syntax))
        if finder is None:
            finder = finders[id(syntax)] = HeadFinder(syntax)

    def head(mention: _Mention) -> int:
        span, e, k = mention
        value = given[e][k] if given else None
        if value is None:
            assert finder is not None
            value = finder.head(span)
        return value

    return head


def _min_of(doc: Document, mention: _Mention) -> tuple[Span, Span]:
    span, e, k = mention
    least = doc.min_span_of(e, k)
    return span, least if least is not None else span


# Candidate generation. Each returns (key index, response index) pairs and
# never compares all key mentions with all response mentions: the work is
# proportional to the number of candidates (plus sorting).


def _head_candidates(key_heads: list[int], response_heads: list[int]) -> list[tuple[int, int]]:
    by_head: dict[int, list[int]] = {}
    for i, head in enumerate(key_heads):
        by_head.setdefault(head, []).append(i)
    return [(i, j) for j, head in enumerate(response_heads) for i in by_head.get(head, ())]


def _min_span_candidates(
    keys: list[tuple[Span, Span]], responses: Sequence[_Mention]
) -> list[tuple[int, int]]:
    """Response within the key span and containing its MIN span.

    A key's candidates all contain the first token of its MIN span, so keys
    indexed by that token are found with a range search per response.
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i][1])
    min_starts = [keys[i][1][0] for i in order]
    edges: list[tuple[int, int]] = []
    for j, ((rs, re_), _, _) in enumerate(responses):
        lo = bisect.bisect_left(min_starts, rs)
        hi = bisect.bisect_right(min_starts, re_)
        for i in order[lo:hi]:
            (ks, ke), (_, me) = keys[i]
            if ks <= rs and re_ <= ke and me <= re_:
                edges.append((i, j))
    edges.sort()
    return edges


def _overlap_candidates(
    keys: Sequence[_Mention], responses: Sequence[_Mention]
) -> list[tuple[int, int]]:
    """Spans sharing a token: keys starting inside the response, or open at its start.

    Both lists are in document order. Sweeping the responses by start, a heap
    holds the keys begun before the response's start, by end; those ending
    before it are dropped for good, the rest cover the start token.
    """
    key_starts = [m[0][0] for m in keys]
    active: list[tuple[int, int]] = []  # (key end, key index)
    nxt = 0
    edges: list[tuple[int, int]] = []
    for j, ((rs, re_), _, _) in enumerate(responses):
        while nxt < len(keys) and key_starts[nxt] < rs:
            heapq.heappush(active, (keys[nxt][0][1], nxt))
            nxt += 1
        while active and active[0][0] < rs:
            heapq.heappop(active)
        edges.extend((i, j) for _, i in active)
        hi = bisect.bisect_right(key_starts, re_, lo=nxt)
        edges.extend((i, j) for i in range(nxt, hi))
    edges.sort()
    return edges


def _iou(a: Span, b: Span) -> int:
    """Intersection over union of two spans' tokens, in steps of 1/_IOU_STEPS."""
    inter = min(a[1], b[1]) - max(a[0], b[0]) + 1
    if inter <= 0:
        return 0
    union = max(a[1], b[1]) - min(a[0], b[0]) + 1
    return (inter * _IOU_STEPS + union // 2) // union


def _resolve(
    keys: Sequence[_Mention], responses: Sequence[_Mention], edges: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """A one-to-one choice among the candidate ``edges`` (see the module docstring).

    The candidate graph falls apart into connected components (usually a
    single pair); each is solved as a maximum-weight assignment.
    """
    if not edges:
        return []
    n_keys = len(keys)
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for i, j in edges:
        a, b = find(i), find(n_keys + j)
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[int, list[tuple[int, int]]] = {}
    for edge in edges:
        groups.setdefault(find(edge[0]), []).append(edge)
    chosen: list[tuple[int, int]] = []
    for group in groups.values():
        if len(group) == 1:
            chosen.append(group[0])
            continue
        chosen.extend(_assign(keys, responses, group))
    return chosen


def _assign(
    keys: Sequence[_Mention], responses: Sequence[_Mention], group: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Maximum-weight assignment of one component, with integer weights.

    Weight of a candidate pair (row ``a`` of ``n``, column ``b`` of ``m``):
    ``(base + iou) * spread + (n - a) * (m - b)``. ``base`` exceeds the
    largest possible sum of overlaps, so one more twin outweighs any overlap
    gain; ``spread`` exceeds the largest possible sum of the last term, which
    therefore only separates pairings of equal overlap, in favour of the one
    that pairs earlier with earlier (its products are largest when both
    orders agree, by the rearrangement inequality). The sums stay below 2**53,
    so the float solver is exact, for components of up to about 300 mentions
    a side; larger ones (never seen in practice) may break ties differently.
    """
    rows = sorted({i for i, _ in group})
    cols = sorted({j for _, j in group})
    row_of = {i: a for a, i in enumerate(rows)}
    col_of = {j: b for b, j in enumerate(cols)}
    n, m = len(rows), len(cols)
    most = min(n, m)
    base = most * _IOU_STEPS + 1
    spread = n * m * most + 1
    matrix = [[0.0] * m for _ in range(n)]
    for i, j in group:
        a, b = row_of[i], col_of[j]
        weight = (base + _iou(keys[i][0], responses[j][0])) * spread + (n - a) * (m - b)
        matrix[a][b] = float(weight)
    return [(rows[a], cols[b]) for a, b in _maximum_assignment(matrix) if matrix[a][b] > 0]


def _check_no_new_repeats(before: Document, after: Document) -> None:
    """Guard: moving mentions must not create a span that occurs twice."""
    old = Counter(span for entity in before.entities for span in entity)
    new = Counter(span for entity in after.entities for span in entity)
    repeated = [span for span, n in new.items() if n > 1 and n > old[span]]
    if repeated:  # pragma: no cover - one-to-one matching onto free spans rules it out
        raise AssertionError(f"twin matching repeated response spans {sorted(repeated)[:5]}")
