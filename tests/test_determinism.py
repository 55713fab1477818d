"""Determinism: the same input gives byte-identical output, whatever the hash seed or order.

Python randomises the hashes of strings per process (PYTHONHASHSEED), so any
iteration over a set or dict of document ids, labels or spans-as-strings that
fed a floating-point sum would show up as a last-bit difference between runs.
The CLI is therefore run in subprocesses under several hash seeds and its text,
JSON and per-document CSV outputs compared byte for byte. Corpus sums are
correctly rounded (``math.fsum``), so document order and merging cannot change a
bit either; the corpus here is built so that a left-to-right float sum *would*
change with the order, which makes the check meaningful.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from functools import reduce
from itertools import permutations
from operator import add
from pathlib import Path

import pytest

import corefscore
from corefscore.metrics import REGISTRY
from corefscore.scorer import CorefScorer

from .metrics.test_differential import generate_case

# Every metric that needs nothing beyond spans, and accepts differing mention sets.
METRICS = ",".join(
    n
    for n, m in REGISTRY.items()
    if n not in ("ace-value", "blanc-gold") and "corefud" not in m.requires
)
Corpus = dict[str, list[list[tuple[int, int]]]]
FORMATS = (("text",), ("json", "--per-document"), ("csv", "--per-document"))

_RUN = """
import contextlib, io, sys
from corefscore.cli import main
for fmt in sys.argv[3:]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        argv = ["score", sys.argv[1], sys.argv[2], "-q", "-m", {metrics!r}, "--format"]
        code = main([*argv, *fmt.split()])
    sys.stdout.write(f"== {{fmt}} {{code}}\\n{{out.getvalue()}}")
"""


def _corpus(seeds: range) -> tuple[Corpus, Corpus]:
    key: Corpus = {}
    response: Corpus = {}
    for seed in seeds:
        case = generate_case(seed)
        for doc_id, clusters in case.key.items():
            name = f"bc/doc-{seed}/{doc_id}"  # string ids: hashed differently per process
            key[name] = clusters
            response[name] = case.response.get(doc_id, [])
    return key, response


def _write_jsonl(path: Path, key: Corpus, response: Corpus) -> None:
    lines = []
    for doc_id, clusters in key.items():
        spans = [s for e in [*clusters, *response[doc_id]] for s in e]
        tokens = max((e for _, e in spans), default=0) + 1
        lines.append(
            json.dumps(
                {
                    "doc_key": doc_id,
                    "sentences": [[f"w{i}" for i in range(tokens)]],
                    "clusters": clusters,
                    "predicted_clusters": response[doc_id],
                }
            )
        )
    path.write_text("\n".join(lines) + "\n")


def _run_cli(path: Path, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    script = _RUN.format(metrics=METRICS)
    formats = [" ".join(f) for f in FORMATS]
    done = subprocess.run(
        [sys.executable, "-c", script, str(path), str(path), *formats],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def test_cli_output_is_byte_identical_across_runs_and_hash_seeds(tmp_path: Path) -> None:
    key, response = _corpus(range(40))
    path = tmp_path / "corpus.jsonl"
    _write_jsonl(path, key, response)
    outputs = [(seed, _run_cli(path, seed)) for seed in ("0", "1", "random", "random")]
    first = outputs[0][1]
    for fmt in FORMATS:
        assert f"== {' '.join(fmt)} 0\n" in first, first[:500]
    assert len(first) > 5000
    for seed, output in outputs:
        assert output == first, f"PYTHONHASHSEED={seed} changed the output"
    # ...and the process that ran the tests agrees with the subprocesses.
    result = corefscore.score_files(path, path, metrics=METRICS, per_document=True)
    shown = json.loads(first.split("== json --per-document 0\n", 1)[1].split("\n== ", 1)[0])
    assert shown["metrics"] == json.loads(result.to_json())["metrics"]


def _sensitive_corpus() -> tuple[Corpus, Corpus]:
    """Documents whose B³ numerators, added left to right, give order-dependent floats."""
    rnd = random.Random(7)
    key: Corpus = {}
    response: Corpus = {}
    for d in range(12):
        n = rnd.choice((3, 7, 11, 13))
        mentions = [(i, i) for i in range(n)]
        key[f"d{d}"] = [mentions]
        cut = rnd.randint(1, n - 1)
        response[f"d{d}"] = [mentions[:cut], mentions[cut:], [(n + 5, n + 5)]]
    return key, response


def test_corpus_sums_do_not_depend_on_document_order_to_the_last_bit() -> None:
    key, response = _sensitive_corpus()
    per_document = [CorefScorer(metrics="bcub").update(key[d], response[d])["bcub"][0] for d in key]
    # Left to right, as a loop adds them (sum() itself compensates from Python 3.12 on).
    naive_sums = {reduce(add, order) for order in permutations(per_document[:7])}
    assert len(naive_sums) > 1, "the corpus must be order-sensitive for a plain sum"

    base = corefscore.score(key, response, metrics=METRICS, per_document=True)
    rnd = random.Random(1)
    for _ in range(20):
        order = rnd.sample(list(key), len(key))
        shuffled = corefscore.score(
            {d: key[d] for d in order},
            {d: response[d] for d in reversed(order)},
            metrics=METRICS,
            per_document=True,
        )
        assert shuffled.metrics == base.metrics
        assert shuffled.to_dict()["macro"] == base.to_dict()["macro"]
    assert base["bcub"].recall_num == math.fsum(per_document)


@pytest.mark.parametrize("cut", [1, 5, 11])
def test_merge_of_two_halves_is_bit_identical_to_the_whole(cut: int) -> None:
    key, response = _sensitive_corpus()
    ids = list(key)

    def scorer(chosen: list[str]) -> CorefScorer:
        out = CorefScorer(metrics=METRICS)
        for d in chosen:
            out.update(key[d], response[d], doc_id=d)
        return out

    whole = scorer(ids)
    for merged in (
        scorer(ids[:cut]).merge(scorer(ids[cut:])),
        scorer(ids[cut:]).merge(scorer(ids[:cut])),
    ):
        assert merged.statistics == whole.statistics
        assert merged.compute().metrics == whole.compute().metrics
