"""Agreement with the CorefUD scorer (ufal/corefud-scorer 4fd7b0e) on real GUM data.

The expected numbers are the CorefUD scorer's own outputs for GUM (key) against
xrenner (response) in ``data/real/gum/expected`` (modes ``exact``,
``exact_singletons`` and ``head``; see ``docs/drafts/corefud-agreement.md``).

Two kinds of assertion:

* corefscore itself (``matching="exact"``, ``duplicates="reference"``) agrees
  with the CorefUD scorer to its printed precision wherever the response has
  no repeated span; every remaining difference is listed with its cause.
* ``_corefud`` below is a small independent model of how the CorefUD scorer
  pairs mentions and counts repeated spans, run on corefscore's reading of
  the same files. It reproduces every printed number of all three modes on
  all three splits except one documented residue (test split, singletons
  kept: B3 and BLANC precision), which shows the listed causes are complete
  elsewhere.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence
from functools import cache
from pathlib import Path

import pytest

import corefscore
from corefscore.io.conllu import read_conllu
from corefscore.model import Corpus, Document

from .conftest import shared_path

SPLITS = ("test", "dev", "test2")
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
MODES = ("exact", "exact_singletons", "head")

Numbers = tuple[float, float, float]  # recall, precision, F1 in percent, as printed


def _gum() -> Path:
    return shared_path("data", "real", "gum")


def _expected(split: str, mode: str) -> dict[str, Numbers]:
    path = _gum() / "expected" / f"corefud-scorer.{split}.key_gum.resp_xrenner.{mode}.txt"
    text = path.read_text(encoding="utf-8")
    found = re.findall(
        r"^(\w+)\nRecall: ([\d.]+)  Precision: ([\d.]+)  F1: ([\d.]+)$", text, re.MULTILINE
    )
    return {name: (float(r), float(p), float(f)) for name, r, p, f in found}


@cache
def _corpora(split: str, empty_nodes: bool) -> tuple[Corpus, Corpus]:
    pairs = _gum() / "pairs"
    key = read_conllu(pairs / f"{split}.key_gum.conllu", empty_nodes=empty_nodes)
    response = read_conllu(pairs / f"{split}.resp_xrenner.conllu", empty_nodes=empty_nodes)
    return key, response


def _printed(recall: float, precision: float, f1: float) -> Numbers:
    return (round(100 * recall, 2), round(100 * precision, 2), round(100 * f1, 2))


def _corefscore(split: str, singletons: str) -> dict[str, Numbers]:
    key, response = _corpora(split, False)
    result = corefscore.score_corpora(
        key,
        response,
        metrics=list(METRICS),
        matching="exact",
        singletons=singletons,
        duplicates="reference",
    )
    return {m: _printed(result[m].recall, result[m].precision, result[m].f1) for m in METRICS}


# ---------------------------------------------------------------------------
# corefscore against the CorefUD scorer, exact matching.
#
# Every difference comes from spans that xrenner put into two entities (8, 9
# and 10 such repeats in test, dev, test2). The CorefUD scorer keeps every
# copy in the response entities and, for recall, looks a key mention up in the
# *last* response entity holding its span; corefscore's ``reference`` policy
# (the CoNLL scorer's) drops later copies of spans that are key mentions and
# keeps twinless repeats. In test all 8 repeats are twinless, so only BLANC's
# precision (which counts the repeated copies' links differently) differs.
# ---------------------------------------------------------------------------

EXACT_DIFFERENCES: dict[tuple[str, str], frozenset[str]] = {
    ("test", "exact"): frozenset({"blanc"}),
    ("test", "exact_singletons"): frozenset({"bcub", "blanc"}),
    ("dev", "exact"): frozenset(METRICS),
    ("dev", "exact_singletons"): frozenset(METRICS),
    ("test2", "exact"): frozenset(METRICS),
    ("test2", "exact_singletons"): frozenset(METRICS),
}


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("mode", ["exact", "exact_singletons"])
def test_corefscore_exact_agrees_except_repeated_response_spans(split: str, mode: str) -> None:
    expected = _expected(split, mode)
    mine = _corefscore(split, "keep" if mode == "exact_singletons" else "drop")
    differing = frozenset(m for m in METRICS if mine[m] != expected[m])
    assert differing == EXACT_DIFFERENCES[(split, mode)]
    for metric in differing:
        # The repeats are a handful of mentions among thousands: small gaps.
        assert all(abs(a - b) <= 0.7 for a, b in zip(mine[metric], expected[metric]))


def test_corefscore_exact_test_split_numbers() -> None:
    # Hand-copied from corefud-scorer.test.key_gum.resp_xrenner.exact.txt.
    mine = _corefscore("test", "drop")
    assert mine["muc"] == (41.16, 80.84, 54.55)
    assert mine["bcub"] == (27.46, 74.55, 40.13)
    assert mine["ceafe"] == (26.69, 48.82, 34.51)
    assert mine["ceafm"] == (35.30, 68.17, 46.52)
    assert mine["lea"] == (24.49, 70.37, 36.34)
    # CorefUD: (30.53, 74.52, 42.09); the twinless repeats count differently.
    assert mine["blanc"] == (30.53, 74.88, 42.12)


def test_corefscore_head_matching_is_not_corefud_head_matching() -> None:
    # The GUM key has no head field, so udapi gives every key mention its first
    # word as head and the CorefUD scorer requires span AND head to agree even
    # for an exact match: its "head" numbers fall below its "exact" ones.
    # corefscore finds key heads in the syntax and pairs equal spans first, so
    # its head matching scores above exact matching.
    key, response = _corpora("test", False)
    head = corefscore.score_corpora(
        key, response, metrics=["muc"], matching="head", singletons="drop"
    )["muc"]
    assert _printed(head.recall, head.precision, head.f1) == (42.10, 83.05, 55.88)
    assert _expected("test", "head")["muc"] == (34.06, 66.90, 45.14)
    assert _expected("test", "exact")["muc"] == (41.16, 80.84, 54.55)


# ---------------------------------------------------------------------------
# An independent model of the CorefUD scorer, to show the causes are complete.
# ---------------------------------------------------------------------------

Mention = Hashable  # a span, or (span, head) under head matching


def _first_seen(corpus: Corpus, per_document: bool) -> dict[tuple[str, str], tuple[int, int, int]]:
    """Where each entity id first occurs in the whole file.

    udapi keeps one entity per id for the whole file and sorts entities by
    their first mention; the scorer then splits them by document but keeps
    that order. xrenner reuses ids in every document, so an entity of a late
    document can sort before one that starts earlier in it. The order matters
    for a repeated span: the scorer looks it up in the last entity holding it.
    The GUM key's ids are GRP ids, which udapi makes unique per document
    (``per_document``).
    """
    first: dict[tuple[str, str], tuple[int, int, int]] = {}
    for d, (doc_id, doc) in enumerate(corpus.documents.items()):
        for label, entity in zip(doc.labels, doc.entities):
            name = (doc_id if per_document else "", label)
            if name not in first:
                start, end = min((s, -e) for s, e in entity)
                first[name] = (d, start, end)
    return first


def _clusters(
    doc: Document,
    head: str | None,
    keep_singletons: bool,
    rank: dict[tuple[str, str], tuple[int, int, int]],
    scope: str,
) -> list[list[Mention]]:
    clusters = []
    order = sorted(range(len(doc.entities)), key=lambda e: rank[(scope, doc.labels[e])])
    for e in order:
        entity = doc.entities[e]
        mentions: list[Mention] = []
        for k, span in enumerate(entity):
            if head is None:
                mentions.append(span)
            elif head == "first":
                # udapi's default head when global.Entity has no head field.
                mentions.append((span, span[0]))
            else:
                mentions.append((span, doc.heads[e][k]))
        mentions = list(dict.fromkeys(mentions))  # the scorer de-duplicates within an entity
        if keep_singletons or len(mentions) > 1:
            clusters.append(mentions)
    return clusters


def _span(m: Mention) -> tuple[int, int]:
    return m if isinstance(m[0], int) else m[0]  # type: ignore[index, return-value]


def _align(keys: set[Mention], responses: set[Mention], head: bool) -> dict[Mention, Mention]:
    """Non-identical twins in both directions (identical ones need no entry)."""
    if not head:
        return {}
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    left_k = sorted(keys - responses, key=_span)
    left_r = sorted(responses - keys, key=_span)
    if not left_k or not left_r:
        return {}
    score = np.zeros((len(left_k), len(left_r)))
    for i, (ks, kh) in enumerate(left_k):  # type: ignore[misc]
        for j, (rs, rh) in enumerate(left_r):  # type: ignore[misc]
            if kh == rh:
                shared = max(0, min(ks[1], rs[1]) - max(ks[0], rs[0]) + 1)
                score[i, j] = shared / (ks[1] - ks[0] + 1)
    rows, cols = linear_sum_assignment(-score)
    aligned: dict[Mention, Mention] = {}
    for i, j in zip(rows, cols):
        if score[i, j] > 0:
            aligned[left_k[i]] = left_r[j]
            aligned[left_r[j]] = left_k[i]
    return aligned


def _index(clusters: Sequence[Sequence[Mention]]) -> dict[Mention, int]:
    return {m: c for c, cluster in enumerate(clusters) for m in cluster}  # last one wins


def _assignment(weights: list[list[float]]) -> float:
    if not weights or not weights[0]:
        return 0.0
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    matrix = np.array(weights)
    rows, cols = linear_sum_assignment(-matrix)
    return float(matrix[rows, cols].sum())


def _doc_counts(
    key: list[list[Mention]], resp: list[list[Mention]], aligned: dict[Mention, Mention]
) -> dict[str, list[float]]:
    key_of, resp_of = _index(key), _index(resp)

    def to(m: Mention) -> Mention:
        return aligned.get(m, m)

    def muc(clusters: list[list[Mention]], other: dict[Mention, int]) -> tuple[float, float]:
        tp = p = 0
        for c in clusters:
            p += len(c) - 1
            linked = {other[to(m)] for m in c if to(m) in other}
            tp += sum(1 for m in c if to(m) in other) - len(linked)
        return tp, p

    def bcub(clusters: list[list[Mention]], other: dict[Mention, int]) -> tuple[float, float]:
        num = den = 0.0
        for c in clusters:
            counts = Counter(other[to(m)] for m in c if to(m) in other)
            num += sum(v * v for v in counts.values()) / len(c)
            den += len(c)
        return num, den

    def lea(
        clusters: list[list[Mention]], other: dict[Mention, int], others: list[list[Mention]]
    ) -> tuple[float, float]:
        num = den = 0.0
        for c in clusters:
            if len(c) == 1:
                m = to(c[0])
                common = 1.0 if m in other and len(others[other[m]]) == 1 else 0.0
                links = 1.0
            else:
                ids = [other.get(to(m)) for m in c]
                common = sum(
                    1
                    for i in range(len(c))
                    for j in range(i + 1, len(c))
                    if ids[i] is not None and ids[i] == ids[j]
                )
                links = len(c) * (len(c) - 1) / 2
            num += len(c) * common / links
            den += len(c)
        return num, den

    def phi3(k: list[Mention], r: list[Mention]) -> float:
        return float(sum(1 for m in r if to(m) in k))

    ceafm = _assignment([[phi3(k, r) for r in resp] for k in key])
    ceafe = _assignment([[2 * phi3(k, r) / (len(k) + len(r)) for r in resp] for k in key])
    # BLANC: the key mentions with a response entity, by (key entity, response entity).
    cells = Counter((c, resp_of[to(m)]) for c, k in enumerate(key) for m in k if to(m) in resp_of)
    per_key, per_resp = Counter(), Counter()
    for (c, s), n in cells.items():
        per_key[c] += n
        per_resp[s] += n
    pairs = lambda n: n * (n - 1) / 2  # noqa: E731
    same = sum(pairs(n) for n in cells.values())
    mapped = sum(cells.values())
    different = (
        pairs(mapped)
        - sum(pairs(n) for n in per_key.values())
        - (sum(pairs(n) for n in per_resp.values()) - same)
    )
    n_key, n_resp = sum(map(len, key)), sum(map(len, resp))
    key_links, resp_links = sum(pairs(len(c)) for c in key), sum(pairs(len(c)) for c in resp)
    return {  # each as (P num, P den, R num, R den)
        "muc": [*muc(resp, key_of), *muc(key, resp_of)],
        "bcub": [*bcub(resp, key_of), *bcub(key, resp_of)],
        "ceafe": [ceafe, len(resp), ceafe, len(key)],
        "ceafm": [ceafm, n_resp, ceafm, n_key],
        "lea": [*lea(resp, key_of, key), *lea(key, resp_of, resp)],
        "blancc": [same, resp_links, same, key_links],
        "blancn": [different, pairs(n_resp) - resp_links, different, pairs(n_key) - key_links],
    }


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def _prf(c: Sequence[float]) -> tuple[float, float, float]:
    p = c[0] / c[1] if c[0] else 0.0
    r = c[2] / c[3] if c[2] else 0.0
    return r, p, _f1(p, r)


def _corefud(split: str, mode: str) -> dict[str, Numbers]:
    key_corpus, resp_corpus = _corpora(split, True)  # the scorer keeps zero mentions
    head = mode == "head"
    totals: dict[str, list[float]] = {}
    key_rank, resp_rank = _first_seen(key_corpus, True), _first_seen(resp_corpus, False)
    keep = mode == "exact_singletons"
    for doc_id, key_doc in key_corpus.documents.items():
        key = _clusters(key_doc, "first" if head else None, keep, key_rank, doc_id)
        resp = _clusters(
            resp_corpus.documents[doc_id], "given" if head else None, keep, resp_rank, ""
        )
        aligned = _align({m for c in key for m in c}, {m for c in resp for m in c}, head)
        for name, counts in _doc_counts(key, resp, aligned).items():
            totals[name] = [a + b for a, b in zip(totals.get(name, [0.0] * 4), counts)]
    out = {m: _printed(*_prf(totals[m])) for m in METRICS if m != "blanc"}
    # BLANC: the means of the coreference and non-coreference R, P and F.
    parts = [_prf(totals[p]) for p in ("blancc", "blancn") if totals[p][1] or totals[p][3]]
    out["blanc"] = _printed(*(sum(x[i] for x in parts) / len(parts) for i in range(3)))
    return out


# Unexplained: with singletons on the test split, B3 (17.45/76.14 against the
# scorer's 17.43/76.12) and BLANC precision (77.64 against 77.59) differ in
# both this model and corefscore; the other 17 mode/split pairs agree exactly.
_UNEXPLAINED = {("test", "exact_singletons")}


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("mode", MODES)
def test_model_of_corefud_scorer_reproduces_every_number(split: str, mode: str) -> None:
    pytest.importorskip("scipy")
    model = _corefud(split, mode)
    expected = {m: _expected(split, mode)[m] for m in METRICS}
    if (split, mode) in _UNEXPLAINED:
        assert {m for m in METRICS if model[m] != expected[m]} == {"bcub", "blanc"}
        assert model["bcub"] == (17.45, 76.14, 28.39)
        assert model["blanc"] == (24.88, 77.64, 33.88)
    else:
        assert model == expected
