#!/usr/bin/env python3
"""Generate the single-machine scale corpora as mention tables (key and response).

Two corpora, both written as tab-separated mention tables
(``doc_id  start  end  entity_id``, one mention a line; see corefscore.io.mentiontable):

``--mode documents``
    N documents of CoNLL-2012 size, built like ../shared/bench/gen_conll.py
    builds its CoNLL-2012-like corpus: document length lognormal (mean 486
    tokens, sigma 0.8), 0.1195 coreferring key mentions per token (about 58 a
    document), entity sizes P(s) ~ s^-2.15 on [2, 150], no singletons; the
    response splits (p 0.15) and merges (p 0.08) entities, drops (0.12) and
    shifts (0.06) mentions and adds spurious ones (0.12 per key mention).
    Entity ids are per document (score without --cross-document).
``--mode crossdoc``
    The same documents until the key has --mentions mentions, where a share
    of the entities (--p-global) are mentions of corpus-wide entities drawn
    from a Zipf popularity over --global-entities ids, so that entities span
    many documents. The response makes the within-document errors above, and
    cross-document errors that stay mostly local: a document's piece of a
    global entity is left unlinked (--p-xsplit) or linked to another global
    entity (--p-xmerge), and a local entity is sometimes linked to a global one
    (--p-false-link). Entity ids are corpus-wide (score with --cross-document).

Why mention tables rather than CoNLL or jsonlines: 100,000 CoNLL-2012-sized
documents are 50 million token lines (about 3.5 GB per side in CoNLL, 0.3 GB
in jsonlines with sentences); the scorer reads only the mentions, and a
mention table holds exactly those (about 25 bytes a mention), so each side of
either corpus stays a few hundred megabytes and the generator writes it in
about a minute. Everything is driven by one seed.

    python bench/gen_scale.py --mode documents --docs 100000 --out bench/.corpora/scale_docs
    python bench/gen_scale.py --mode crossdoc --mentions 10000000 --out bench/.corpora/scale_xdoc

Writes OUT.key.tsv, OUT.response.tsv and OUT.stats.json.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import math
import random
import sys
from typing import IO

Span = tuple[int, int]


class SizeSampler:
    """Entity sizes with P(s) ~ s^-alpha on [2, smax]."""

    def __init__(self, rng: random.Random, alpha: float, smax: int) -> None:
        self.rng = rng
        self.sizes = list(range(2, smax + 1))
        self.cumulative = list(itertools.accumulate(s**-alpha for s in self.sizes))

    def draw(self, cap: int) -> int:
        total = self.cumulative[-1]
        while True:
            s = self.sizes[bisect.bisect_left(self.cumulative, self.rng.random() * total)]
            if s <= cap:
                return s


class Zipf:
    """Ids 0..n-1 with P(i) ~ (i+1)^-exponent."""

    def __init__(self, rng: random.Random, n: int, exponent: float) -> None:
        self.rng = rng
        self.cumulative = list(itertools.accumulate((i + 1) ** -exponent for i in range(n)))

    def draw(self) -> int:
        return bisect.bisect_left(self.cumulative, self.rng.random() * self.cumulative[-1])


def key_document(
    rng: random.Random, sizes: SizeSampler, a: argparse.Namespace
) -> tuple[int, list[list[Span]]]:
    """Token count and key entities of one document (distinct spans: distinct starts)."""
    mu = math.log(a.tokens_per_doc) - a.doc_len_sigma**2 / 2
    ntok = max(20, int(rng.lognormvariate(mu, a.doc_len_sigma)))
    want = max(2, round(ntok * a.mentions_per_token))
    entity_sizes = []
    left = want
    while left >= 2:
        s = sizes.draw(left)
        entity_sizes.append(s)
        left -= s
    starts = rng.sample(range(ntok), sum(entity_sizes))
    spans = []
    for s in starts:
        length = 1
        while length < a.max_span and rng.random() > a.span_len_p:
            length += 1
        spans.append((s, min(s + length - 1, ntok - 1)))
    entities = []
    k = 0
    for s in entity_sizes:
        entities.append(spans[k : k + s])
        k += s
    return ntok, entities


def response_document(
    rng: random.Random, ntok: int, key: list[list[Span]], a: argparse.Namespace
) -> list[tuple[int, list[Span]]]:
    """Response entities, each with the key entity it mostly comes from (-1: spurious)."""
    pieces: list[tuple[int, list[Span]]] = []
    for origin, entity in enumerate(key):
        entity = list(entity)
        if len(entity) >= 2 and rng.random() < a.p_split:
            rng.shuffle(entity)
            cut = rng.randrange(1, len(entity))
            pieces += [(origin, entity[:cut]), (origin, entity[cut:])]
        else:
            pieces.append((origin, entity))
    rng.shuffle(pieces)
    merged: list[tuple[int, list[Span]]] = []
    i = 0
    while i < len(pieces):
        if i + 1 < len(pieces) and rng.random() < a.p_merge:
            merged.append((pieces[i][0], pieces[i][1] + pieces[i + 1][1]))
            i += 2
        else:
            merged.append(pieces[i])
            i += 1
    key_starts = {s for entity in key for s, _ in entity}
    out: list[tuple[int, list[Span]]] = []
    for origin, entity in merged:
        kept = []
        for start, end in entity:
            if rng.random() < a.p_drop:
                continue
            if rng.random() < a.p_shift and end + 1 < ntok:
                end += 1  # same start, other end: twinless, and no other mention's span
            kept.append((start, end))
        if len(kept) >= 2:
            out.append((origin, kept))
    free = [t for t in range(ntok) if t not in key_starts]
    rng.shuffle(free)
    n_add = sum(1 for _ in range(sum(len(e) for e in key)) if rng.random() < a.p_add)
    while n_add > 0 and free:
        if out and rng.random() < 0.5:
            start = free.pop()
            rng.choice(out)[1].append((start, start))
            n_add -= 1
        elif len(free) >= 2:
            first, second = free.pop(), free.pop()
            out.append((-1, [(first, first), (second, second)]))
            n_add -= 2
        else:
            break
    # Spurious spans start on tokens no key mention starts on, so they are all distinct.
    return out


def write_rows(handle: IO[str], doc_id: str, entities: list[tuple[str, list[Span]]]) -> None:
    handle.write(
        "".join(
            f"{doc_id}\t{start}\t{end}\t{label}\n"
            for label, entity in entities
            for start, end in entity
        )
    )


def generate(a: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(a.seed)
    sizes = SizeSampler(rng, a.entity_alpha, a.max_entity_size)
    zipf = Zipf(rng, a.global_entities, a.zipf_exponent) if a.mode == "crossdoc" else None
    next_key = a.global_entities  # local ids come after the global ones
    next_response = a.global_entities
    stats = {"docs": 0, "tokens": 0, "key_mentions": 0, "response_mentions": 0}
    stats |= {"key_entities_local": 0, "key_pieces_of_global_entities": 0}
    with open(a.out + ".key.tsv", "w") as key_out, open(a.out + ".response.tsv", "w") as resp_out:
        key_out.write("# doc_id\tstart\tend\tentity_id\n")
        resp_out.write("# doc_id\tstart\tend\tentity_id\n")
        d = 0
        while (a.mode == "documents" and d < a.docs) or (
            a.mode == "crossdoc" and stats["key_mentions"] < a.mentions
        ):
            ntok, key = key_document(rng, sizes, a)
            response = response_document(rng, ntok, key, a)
            doc_id = f"doc{d:06d}"
            if zipf is None:
                key_labels = [str(i) for i in range(len(key))]
                response_labels = [str(i) for i in range(len(response))]
            else:
                key_labels = []
                used: set[int] = set()
                for _ in key:
                    g = zipf.draw() if rng.random() < a.p_global else -1
                    if g >= 0 and g not in used:
                        used.add(g)
                        key_labels.append(str(g))
                        stats["key_pieces_of_global_entities"] += 1
                    else:
                        key_labels.append(str(next_key))
                        next_key += 1
                        stats["key_entities_local"] += 1
                response_labels = []
                for origin, _ in response:
                    linked = origin >= 0 and int(key_labels[origin]) < a.global_entities
                    r = rng.random()
                    if linked and r < a.p_xsplit:
                        label = -1
                    elif linked and r < a.p_xsplit + a.p_xmerge:
                        label = zipf.draw()
                    elif linked:
                        label = int(key_labels[origin])
                    elif r < a.p_false_link:
                        label = zipf.draw()
                    else:
                        label = -1
                    if label < 0:
                        label = next_response
                        next_response += 1
                    response_labels.append(str(label))
            write_rows(key_out, doc_id, list(zip(key_labels, key)))
            write_rows(
                resp_out, doc_id, [(lab, e) for lab, (_, e) in zip(response_labels, response)]
            )
            stats["docs"] += 1
            stats["tokens"] += ntok
            stats["key_mentions"] += sum(len(e) for e in key)
            stats["response_mentions"] += sum(len(e) for _, e in response)
            d += 1
    stats["args"] = vars(a)
    with open(a.out + ".stats.json", "w") as handle:
        json.dump(stats, handle, indent=1)
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output prefix")
    ap.add_argument("--mode", choices=("documents", "crossdoc"), required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--docs", type=int, default=100_000, help="documents (--mode documents)")
    ap.add_argument("--mentions", type=int, default=10_000_000, help="key mentions (crossdoc)")
    ap.add_argument("--tokens-per-doc", type=float, default=486.0)
    ap.add_argument("--doc-len-sigma", type=float, default=0.8)
    ap.add_argument("--mentions-per-token", type=float, default=0.1195)
    ap.add_argument("--entity-alpha", type=float, default=2.15)
    ap.add_argument("--max-entity-size", type=int, default=150)
    ap.add_argument("--span-len-p", type=float, default=0.45)
    ap.add_argument("--max-span", type=int, default=12)
    ap.add_argument("--p-split", type=float, default=0.15)
    ap.add_argument("--p-merge", type=float, default=0.08)
    ap.add_argument("--p-drop", type=float, default=0.12)
    ap.add_argument("--p-shift", type=float, default=0.06)
    ap.add_argument("--p-add", type=float, default=0.12)
    ap.add_argument("--global-entities", type=int, default=200_000)
    ap.add_argument("--zipf-exponent", type=float, default=1.0)
    ap.add_argument("--p-global", type=float, default=0.3, help="share of global entity pieces")
    ap.add_argument("--p-xsplit", type=float, default=0.15, help="global piece left unlinked")
    ap.add_argument("--p-xmerge", type=float, default=0.03, help="global piece linked wrongly")
    ap.add_argument("--p-false-link", type=float, default=0.02, help="local entity linked")
    a = ap.parse_args(argv)
    stats = generate(a)
    print(json.dumps({k: v for k, v in stats.items() if k != "args"}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
