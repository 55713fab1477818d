#!/usr/bin/env python3
"""Write the pathological single-document benchmark pairs (CoNLL-2012 layout).

Two shapes, each one document of N tokens with a mention on every token:

* ``one_entity``: the key is a single entity of N one-token mentions. The
  response moves every 10th mention to a second entity, drops every 13th and
  adds a two-token mention (tokens i, i+1, a third entity) where i % 20 == 5.
* ``singletons``: the key is N singleton entities. The response relabels them,
  drops every 13th and adds a two-token singleton where i % 20 == 5.

Sentences are 20 tokens long, so the two-token mentions never cross one.
Deterministic (no randomness): the same N gives the same bytes.

    python bench/gen_pathological.py --shape one_entity --mentions 1000000 --out PREFIX
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from pathlib import Path

SENTENCE = 20
DOC = "pathological/doc_0000"


def one_entity_fields(n: int, response: bool) -> Iterator[str]:
    for i in range(n):
        if not response:
            yield "(0)"
            continue
        items = []
        if i % 13 != 0:
            items.append("(1)" if i % 10 == 0 else "(0)")
        if i % SENTENCE == 5 and i + 1 < n:
            items.append("(2")
        if i % SENTENCE == 6:
            items.append("2)")
        yield "|".join(items) or "-"


def singleton_fields(n: int, response: bool) -> Iterator[str]:
    for i in range(n):
        if not response:
            yield f"({i})"
            continue
        items = []
        if i % 13 != 0:
            items.append(f"({2 * i + 1})")
        if i % SENTENCE == 5 and i + 1 < n:
            items.append(f"({2 * i}")
        if i % SENTENCE == 6:
            items.append(f"{2 * i - 2})")
        yield "|".join(items) or "-"


SHAPES: dict[str, Callable[[int, bool], Iterator[str]]] = {
    "one_entity": one_entity_fields,
    "singletons": singleton_fields,
}


def write(path: Path, fields: Iterator[str]) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(f"#begin document ({DOC}); part 000\n")
        for i, field in enumerate(fields):
            if i and i % SENTENCE == 0:
                out.write("\n")
            word = i % SENTENCE
            out.write(
                f"{DOC}   0   {word}   w{word}   NN   *   -   -   -   Speaker#1   *   {field}\n"
            )
        out.write("\n#end document\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shape", choices=sorted(SHAPES), required=True)
    ap.add_argument("--mentions", type=int, required=True, help="key mentions (= tokens)")
    ap.add_argument("--out", type=Path, required=True, help="writes OUT.key, OUT.response")
    args = ap.parse_args()
    if args.mentions < SENTENCE:
        ap.error(f"--mentions must be at least {SENTENCE}")
    make = SHAPES[args.shape]
    write(Path(f"{args.out}.key"), make(args.mentions, False))
    write(Path(f"{args.out}.response"), make(args.mentions, True))
    stats = {"shape": args.shape, "key_coref_mentions": args.mentions, "key_singletons": 0}
    if args.shape == "singletons":
        stats = {**stats, "key_coref_mentions": 0, "key_singletons": args.mentions}
    Path(f"{args.out}.stats.json").write_text(json.dumps(stats, indent=1) + "\n")


if __name__ == "__main__":
    main()
