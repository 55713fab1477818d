"""build_result: the ScoreResult of the documents' statistics, made as its constructor would."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corefscore import Evaluation
from corefscore.metrics.base import MetricScore
from corefscore.result import ScoreResult, build_result, conll_score

_COUNTS = st.tuples(*[st.integers(0, 30)] * 4)
_EVALUATIONS = [Evaluation.create(), Evaluation.create(metrics=["muc", "lea"])]


@given(
    st.sampled_from(_EVALUATIONS),
    st.dictionaries(st.text("abc", min_size=1, max_size=3), _COUNTS, min_size=1, max_size=3),
    st.booleans(),
    st.lists(st.text(max_size=5), max_size=2),
)
def test_build_result_makes_the_record_its_constructor_makes(
    evaluation: Evaluation,
    counts: dict[str, tuple[int, int, int, int]],
    per_document: bool,
    warnings: list[str],
) -> None:
    # build_result sets the fields without __init__ (score() makes one per call):
    # nothing else may differ, and a new field or __post_init__ would show here.
    statistics = {
        doc_id: {
            m.name: (tuple(map(float, c)) * 2 if m.width == 8 else tuple(map(float, c)))
            for m in evaluation.metrics
        }
        for doc_id, c in counts.items()
    }
    made = build_result(
        evaluation, statistics, warnings=warnings, per_document=per_document, options={"x": 1}
    )
    built = ScoreResult(
        metrics=made.metrics,
        conll=made.conll,
        signature=evaluation.signature(),
        options={**evaluation.to_dict(), "x": 1},
        documents=made.documents,
        warnings=tuple(warnings),
        document_statistics=statistics,
    )
    assert type(made) is ScoreResult
    assert vars(made) == vars(built)
    assert list(vars(made)) == [f.name for f in dataclasses.fields(ScoreResult)]
    assert made == built and repr(made) == repr(built)
    assert made.to_dict() == built.to_dict()
    assert pickle.loads(pickle.dumps(made)) == built
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.conll = 0.0  # type: ignore[misc]
    if "ceafe" in made.metrics:
        assert made.conll == conll_score(made.metrics)
    # Statistics that are tuples of floats already are taken as they stand.
    vouched = build_result(
        evaluation,
        statistics,
        warnings=warnings,
        per_document=per_document,
        options={"x": 1},
        floats=True,
    )
    assert vouched.to_dict() == made.to_dict() and vouched == made


def test_conll_score_is_the_mean_f1_of_muc_bcub_and_ceafe_when_all_are_there() -> None:
    def f1(value: float) -> MetricScore:
        return MetricScore(value, value, value, 0, 0, 0, 0)

    scores = {"muc": f1(0.5), "bcub": f1(0.25), "ceafe": f1(0.125), "lea": f1(1.0)}
    assert conll_score(scores) == (0.5 + 0.25 + 0.125) / 3
    del scores["bcub"]
    assert conll_score(scores) is None
    assert conll_score({}) is None
