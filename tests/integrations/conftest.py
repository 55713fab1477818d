"""Helpers of the integration tests; Hugging Face libraries kept offline and out of ~/.cache."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from corefscore.io import read_corpus

from ..conftest import SHARED

# Before anything imports evaluate/datasets (they read these once): no network, and
# a throwaway cache, so that the tests work offline and leave the user's cache alone.
if "evaluate" not in sys.modules and "datasets" not in sys.modules:
    for _name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE"):
        os.environ[_name] = "1"
    if "HF_HOME" not in os.environ:
        os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="corefscore-hf-")
        atexit.register(shutil.rmtree, os.environ["HF_HOME"], ignore_errors=True)

REFERENCE_TESTS = SHARED / "data" / "reference-tests"
CASES_FILE = REFERENCE_TESTS / "expected.json"
CASES: dict[str, Any] = json.loads(CASES_FILE.read_text())["cases"] if CASES_FILE.exists() else {}
GUM = SHARED / "data" / "real" / "gum" / "pairs"

Clusters = list[tuple[tuple[int, int], ...]]


def document_pairs(key_path: Path, response_path: Path) -> Iterator[tuple[str, Clusters, Clusters]]:
    """(doc id, gold clusters, predicted clusters) of every key document, as e2e builds them.

    A key document missing from the response has no predicted cluster.
    """
    key = read_corpus(key_path, side="key")
    response = read_corpus(response_path, side="response")
    for doc in key:
        other = response.documents.get(doc.doc_id)
        predicted = [tuple(e) for e in other.entities] if other is not None else []
        yield doc.doc_id, [tuple(e) for e in doc.entities], predicted


def sentences(path: Path) -> list[list[str]]:
    """A CoNLL file as the hub coval module's input: sentences of lines, no comment lines."""
    out: list[list[str]] = []
    current: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if current:
                out.append(current)
                current = []
            continue
        current.append(line)
    if current:
        out.append(current)
    return out
