"""corefscore.integrations.evaluate: the hub coval module's inputs and keys, the reference numbers.

Offline: tests/integrations/conftest.py sets HF_HUB_OFFLINE, HF_DATASETS_OFFLINE and a
throwaway HF_HOME before evaluate is imported.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

import corefscore
from corefscore import UsageError

from ..conftest import shared_path
from .conftest import sentences

evaluate = pytest.importorskip(
    "evaluate",
    reason="evaluate is not installed (it comes with: pip install 'corefscore[evaluate]')",
)

from corefscore.integrations import evaluate as integration  # noqa: E402

# The example of the hub coval module's docstring (huggingface/evaluate metrics/coval).
WORDS = [
    "bc/cctv/00/cctv_0005   0   0       Thank   VBP  (TOP(S(VP*    thank  01   1    Xu_li  *"
    "           (V*)        *       -",
    "bc/cctv/00/cctv_0005   0   1         you   PRP        (NP*)      -    -   -    Xu_li  *"
    "        (ARG1*)   (ARG0*)   (116)",
    "bc/cctv/00/cctv_0005   0   2    everyone    NN        (NP*)      -    -   -    Xu_li  *"
    "    (ARGM-DIS*)        *    (116)",
    "bc/cctv/00/cctv_0005   0   3         for    IN        (PP*       -    -   -    Xu_li  *"
    "        (ARG2*         *       -",
    "bc/cctv/00/cctv_0005   0   4    watching   VBG   (S(VP*))))   watch  01   1    Xu_li  *"
    "             *)      (V*)      -",
    "bc/cctv/00/cctv_0005   0   5           .     .          *))      -    -   -    Xu_li  *"
    "             *         *       -",
]
COVAL_KEYS = [
    f"{metric}/{what}"
    for metric in ("mentions", "muc", "bcub", "ceafe", "lea")
    for what in ("recall", "precision", "f1")
] + ["conll_score"]


@pytest.fixture(scope="module")
def coref() -> Any:
    assert os.environ.get("HF_HUB_OFFLINE") == "1"
    return evaluate.load(integration.module_path())


def test_loads_offline_from_the_package(coref: Any) -> None:
    assert isinstance(coref, integration.CorefScore)
    assert isinstance(coref, evaluate.Metric)
    assert integration.module_path().endswith(os.path.join("hf_corefscore", "corefscore.py"))
    assert "coval" in coref.inputs_description


def test_the_hub_docstring_example(coref: Any) -> None:
    result = coref.compute(predictions=[WORDS], references=[WORDS])
    # The hub module prints {'mentions/recall': 1.0, [...] 'conll_score': 100.0}.
    assert list(result) == COVAL_KEYS
    assert result == dict.fromkeys(COVAL_KEYS[:-1], 1.0) | {"conll_score": 100.0}


def _lines(rows: list[tuple[str, str]]) -> list[str]:
    return [f"doc 0 {i} {word} NN * - - - - * {coref}" for i, (word, coref) in enumerate(rows)]


def test_conll_lines_small_fixture(coref: Any) -> None:
    # Gold: {the cat, it} {a dog}; predicted: {the cat, it, a dog}, sentence by sentence.
    gold = [
        _lines([("the", "(1"), ("cat", "1)"), ("sat", "-")]),
        _lines([("it", "(1)"), ("saw", "-"), ("a", "(2"), ("dog", "2)")]),
    ]
    predicted = [
        _lines([("the", "(7"), ("cat", "7)"), ("sat", "-")]),
        _lines([("it", "(7)"), ("saw", "-"), ("a", "(7"), ("dog", "7)")]),
    ]
    result = coref.compute(predictions=predicted, references=gold)
    # The same partition as clusters of tokens (the sentences form one document).
    key = {"d": [[(0, 1), (3, 3)], [(5, 6)]]}
    response = {"d": [[(0, 1), (3, 3), (5, 6)]]}
    expected = corefscore.score(key, response, metrics=["mentions", "muc", "bcub", "ceafe", "lea"])
    assert result["muc/recall"] == 1.0 and result["muc/precision"] == 0.5  # 1/1, 1/2
    assert result["bcub/precision"] == pytest.approx(5 / 9, rel=1e-15)  # (2*2/3 + 1/3) / 3
    assert result["ceafe/recall"] == 0.4 and result["ceafe/precision"] == 0.8  # phi4 = 0.8
    for name, score in expected.metrics.items():
        assert (result[f"{name}/recall"], result[f"{name}/precision"], result[f"{name}/f1"]) == (
            score.recall,
            score.precision,
            score.f1,
        )
    assert expected.conll is not None
    assert result["conll_score"] == expected.conll * 100
    # keep_singletons=False drops {a dog} from the gold.
    dropped = coref.compute(predictions=predicted, references=gold, keep_singletons=False)
    assert dropped["mentions/recall"] == 1.0 and dropped["mentions/precision"] == 2 / 3


def _document(name: str, rows: list[tuple[str, str]]) -> list[str]:
    return [f"#begin document ({name}); part 000", *_lines(rows), "#end document"]


def test_documents_marked_in_the_lines(coref: Any) -> None:
    first = _document("a", [("x", "(1)"), ("y", "(1)")])
    second = _document("b", [("z", "(1)"), ("w", "(2)")])
    result = coref.compute(predictions=[first, second], references=[first, second])
    assert result["conll_score"] == 100.0
    # Documents are paired by name: b's gold singletons, merged by the prediction.
    merged = _document("b", [("z", "(1)"), ("w", "(1)")])
    swapped = coref.compute(predictions=[merged, first], references=[first, second], metrics="muc")
    assert (swapped["muc/recall"], swapped["muc/precision"]) == (1.0, 0.5)  # 1/1, 1/2


def test_the_reference_test_case_as_coval_gets_it(coref: Any) -> None:
    folder = shared_path("data", "reference-tests")
    key, response = sentences(folder / "TC-A.key"), sentences(folder / "TC-A-4.response")
    result = coref.compute(predictions=response, references=key)
    # The hub coval module's output on the same input (research notes, section 9), which
    # equals the reference scorer's (v8.01; LEA from its LEA branch): same bits.
    assert result == {
        "mentions/recall": 0.6666666666666666,
        "mentions/precision": 0.5714285714285714,
        "mentions/f1": 0.6153846153846153,
        "muc/recall": 0.3333333333333333,
        "muc/precision": 0.3333333333333333,
        "muc/f1": 0.3333333333333333,
        "bcub/recall": 0.5555555555555556,
        "bcub/precision": 0.4047619047619047,
        "bcub/f1": 0.46831955922865015,
        "ceafe/recall": 0.7333333333333334,
        "ceafe/precision": 0.55,
        "ceafe/f1": 0.6285714285714286,
        "lea/recall": 0.5,
        "lea/precision": 0.2857142857142857,
        "lea/f1": 0.36363636363636365,
        "conll_score": 47.6741440377804,
    }
    assert list(result) == COVAL_KEYS
    dropped = coref.compute(predictions=response, references=key, keep_singletons=False)
    assert dropped["conll_score"] == 44.800000000000004
    assert dropped["bcub/f1"] == 0.4106666666666667
    # The file itself, scored by corefscore: the same numbers.
    whole = corefscore.score_files(folder / "TC-A.key", folder / "TC-A-4.response")
    assert result["bcub/precision"] == whole["bcub"].precision


def test_clusters_per_document(coref: Any) -> None:
    gold = [[[[0, 0], [2, 3]], [[5, 5]]], [[[0, 1], [4, 4], [6, 6]]]]
    predicted = [[[[0, 0], [2, 3], [5, 5]]], [[[0, 1], [4, 4]], [[6, 6], [8, 8]]]]
    result = coref.compute(predictions=predicted, references=gold, metrics="all")
    expected = corefscore.score(
        {"0": gold[0], "1": gold[1]}, {"0": predicted[0], "1": predicted[1]}
    )
    assert result["muc/recall"] == 2 / 3 and result["muc/precision"] == 0.5
    for name, score in expected.metrics.items():
        assert result[f"{name}/f1"] == score.f1
    assert expected.conll is not None
    assert result["conll_score"] == expected.conll * 100
    assert "blanc/f1" in result and "ceafm/f1" in result
    # Streamed in batches, one document first with nothing predicted.
    for g, p in ((gold[1], []), (gold[0], predicted[0])):
        coref.add(prediction=p, reference=g)
    streamed = coref.compute(metrics="muc")
    assert (streamed["muc/recall"], streamed["muc/precision"]) == (1 / 3, 0.5)


def test_options(coref: Any) -> None:
    with pytest.raises(UsageError, match="NP_only=True"):
        coref.compute(predictions=[WORDS], references=[WORDS], NP_only=True)
    with pytest.raises(UsageError, match="remove_nested=True is coval's option"):
        coref.compute(predictions=[WORDS], references=[WORDS], remove_nested=True)
    with pytest.raises(UsageError, match="contradicts"):
        coref.compute(
            predictions=[WORDS], references=[WORDS], keep_singletons=False, singletons="keep"
        )
    with pytest.raises(UsageError, match="unknown option"):
        coref.compute(predictions=[WORDS], references=[WORDS], no_such_option=1)
    with pytest.raises(ValueError, match="Mismatch in the number"):
        coref.compute(predictions=[WORDS], references=[WORDS, WORDS])
    only = coref.compute(predictions=[WORDS], references=[WORDS], metrics=["ceafm", "blanc"])
    assert list(only) == [
        f"{m}/{w}" for m in ("ceafm", "blanc") for w in ("recall", "precision", "f1")
    ]


def test_compute_without_evaluate_plumbing() -> None:
    result = integration.compute([[[(0, 1)]]], [[[(0, 1)]]], metrics="muc")
    assert result == {"muc/recall": 0.0, "muc/precision": 0.0, "muc/f1": 0.0}
