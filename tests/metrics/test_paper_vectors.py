"""Every worked example of ../shared/data/paper-vectors.json that corefscore can compute.

Each vector names a metric, a key and a response over mention names, and the exact recall,
precision and F1 as fractions. A vector is checked when its metric maps to a registered
corefscore metric; otherwise it is skipped with the reason (a metric not implemented, or not
registered yet, or a vector that needs data this harness does not pass on: OPT key mentions,
resolution classes). The whole module skips when ../shared is absent.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

import corefscore
from corefscore.metrics import REGISTRY
from tests.conftest import SHARED, shared_exists, shared_path

VECTORS_FILE = ("data", "paper-vectors.json")

#: paper-vectors.json metric name -> corefscore registry name.
METRIC_NAMES = {
    "mentions": "mentions",
    "muc": "muc",
    "b3": "bcub",
    "ceaf_phi1": "ceaf-phi1",
    "ceaf_phi2": "ceaf-phi2",
    "ceaf_phi3": "ceafm",
    "ceaf_phi4": "ceafe",
    "blanc": "blanc",
    "lea": "lea",
    "lea_importance_uniform": "lea-uniform",
    "b3_all": "bcub-all",
    "b3_0": "bcub-0",
    "b3_sys": "bcub-sys",
    "ceaf_sys_phi3": "ceafm-sys",
    "ceaf_sys_phi4": "ceafe-sys",
    # MUC with STATUS="OPT" key mentions: plain MUC once unfound optional
    # mentions leave the key (corefscore.regimes.drop_unfound_optional).
    "muc_opt": "muc",
}
#: Fields of vectors that need more than key and response clusters (later issues).
LATER_FIELDS = {
    "class_members": "resolution classes: checked in tests/analysis/test_classes.py",
    "mentions": "resolution classes: checked in tests/analysis/test_classes.py",
}
#: Metrics of this project whose vectors must never be skipped as "not registered".
IMPLEMENTED = (
    "mentions",
    "muc",
    "bcub",
    "ceafm",
    "ceafe",
    "blanc",
    "lea",
    "ceaf-phi1",
    "ceaf-phi2",
    "bcub-all",
    "bcub-0",
    "bcub-sys",
    "ceafm-sys",
    "ceafe-sys",
)


def _load() -> list[dict[str, Any]]:
    # Read at collection time only to name the test cases; the test itself goes through
    # shared_path, which skips when the file is absent.
    if not shared_exists(*VECTORS_FILE):
        return []
    vectors: list[dict[str, Any]] = json.loads(SHARED.joinpath(*VECTORS_FILE).read_text())
    return vectors


VECTORS = _load()


def _ids(vectors: Sequence[dict[str, Any]]) -> list[str]:
    names = [f"{v['name']}[{v['metric']}]" for v in vectors]
    seen: Counter[str] = Counter()
    out = []
    for name in names:
        seen[name] += 1
        out.append(name if names.count(name) == 1 else f"{name}#{seen[name]}")
    return out


def skip_reason(vector: dict[str, Any]) -> str | None:
    """Why ``vector`` cannot be checked, or None."""
    for field, what in LATER_FIELDS.items():
        if field in vector:
            return f"{vector['metric']}: {what} ({field!r})"
    metric = METRIC_NAMES.get(vector["metric"])
    if metric is None:
        return f"metric {vector['metric']!r} has no corefscore counterpart"
    if metric not in REGISTRY:
        return f"metric {vector['metric']!r} ({metric}) is not registered in corefscore yet"
    if any(vector.get(k) is None for k in ("recall", "precision", "f1_exact")):
        return f"{vector['metric']}: the vector has no recall/precision/F1"
    return None


def documents(vector: dict[str, Any]) -> tuple[list[list[Any]], ...]:
    """Key and response clusters: each distinct mention name becomes its own token (i, i).

    Key mentions listed in ``optional_key_mentions`` become ``{"span": ..,
    "optional": True}`` mention dicts.
    """
    ids: dict[str, int] = {}
    optional = set(vector.get("optional_key_mentions", ()))

    def mention(name: str, side: str) -> Any:
        span = (ids.setdefault(name, len(ids)),) * 2
        return {"span": span, "optional": True} if side == "key" and name in optional else span

    def side(clusters: Sequence[Sequence[str]], which: str) -> list[list[Any]]:
        return [[mention(m, which) for m in cluster] for cluster in clusters]

    key = side(vector["key"], "key")
    return key, side(vector["response"], "response")


@pytest.mark.parametrize("vector", VECTORS or [None], ids=_ids(VECTORS) or ["absent"])
def test_paper_vector(vector: dict[str, Any] | None) -> None:
    shared_path(*VECTORS_FILE)  # skips when ../shared is absent
    assert vector is not None
    reason = skip_reason(vector)
    if reason is not None:
        pytest.skip(reason)
    metric = METRIC_NAMES[vector["metric"]]
    key, response = documents(vector)
    score = corefscore.score({"doc": key}, {"doc": response}, metrics=[metric])[metric]
    got = (score.recall, score.precision, score.f1)
    want = tuple(Fraction(vector[k]) for k in ("recall", "precision", "f1_exact"))
    assert all(abs(g - float(w)) <= 1e-12 for g, w in zip(got, want, strict=True)), (
        f"{vector['name']} {vector['metric']} ({vector['source']}): "
        f"got R, P, F = {got}, want {want}"
    )


def test_project_metrics_are_registered() -> None:
    # A vector of these metrics must be checked, never skipped as "not registered".
    missing = [m for m in IMPLEMENTED if m not in REGISTRY]
    assert not missing, missing
    assert set(IMPLEMENTED) <= set(METRIC_NAMES.values())


def test_vector_coverage() -> None:
    vectors = json.loads(shared_path(*VECTORS_FILE).read_text())
    checked = [v for v in vectors if skip_reason(v) is None]
    # Every vector of an implemented metric, with nothing beyond key and response, is checked.
    for v in vectors:
        if METRIC_NAMES.get(v["metric"]) in IMPLEMENTED and not set(LATER_FIELDS) & set(v):
            assert v in checked, v["name"]
    assert len(checked) >= 120, len(checked)
