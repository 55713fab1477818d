"""MetricScore, the result of every metric: made from counts as by its constructor."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corefscore.metrics.base import BlancScore, MetricScore, f_measure, ratio, score_counts

# Counts as metrics sum them: integers, or fractions of similarities (not a subnormal
# denominator, whose ratio overflows and makes F1 a NaN, unequal to itself).
_COUNT = st.one_of(st.integers(0, 50), st.floats(1e-3, 50))


def assert_same_record(made: MetricScore, built: MetricScore) -> None:
    """``made`` (without ``__init__``) is the record its constructor made (``built``):
    type, fields and their order, equality, hash, repr, pickling, JSON form, frozenness."""
    assert type(made) is type(built)
    assert vars(made) == vars(built)
    assert list(vars(made)) == [f.name for f in dataclasses.fields(type(built))]
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert pickle.loads(pickle.dumps(made)) == built
    assert made.to_dict() == built.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.recall = 0.0  # type: ignore[misc]


@given(_COUNT, _COUNT, _COUNT, _COUNT)
def test_from_counts_is_the_record_its_constructor_makes(
    recall_num: float, recall_den: float, precision_num: float, precision_den: float
) -> None:
    # from_counts sets the fields without __init__ (it runs for every metric of every
    # result): nothing else may differ, and a new field or __post_init__ would show here.
    made = MetricScore.from_counts(recall_num, recall_den, precision_num, precision_den)
    recall, precision = ratio(recall_num, recall_den), ratio(precision_num, precision_den)
    built = MetricScore(
        recall,
        precision,
        f_measure(recall, precision),
        float(recall_num),
        float(recall_den),
        float(precision_num),
        float(precision_den),
    )
    assert_same_record(made, built)
    # The default combination of a metric's statistics makes it the same way.
    counts = (recall_num, recall_den, precision_num, precision_den)
    assert_same_record(score_counts(counts), built)


def test_from_counts_of_a_subclass_runs_its_constructor() -> None:
    score = BlancScore.from_counts(1, 2, 3, 4)
    assert type(score) is BlancScore
    assert (score.recall, score.precision) == (0.5, 0.75)
    assert score.coref == MetricScore(0.0, 0.0, 0.0, 0, 0, 0, 0)  # its default


@given(_COUNT, _COUNT, _COUNT, _COUNT)
def test_blanc_combined_is_the_record_its_constructor_makes(
    recall: float, precision: float, num: float, den: float
) -> None:
    # combined() also skips __init__ (one per BLANC result and document).
    coref = MetricScore.from_counts(num, den, num, den)
    noncoref = MetricScore.from_counts(den, num, num, den)
    f1 = f_measure(recall, precision)
    made = BlancScore.combined(recall, precision, f1, coref, noncoref)
    built = BlancScore(
        recall=recall,
        precision=precision,
        f1=f1,
        recall_num=recall,
        recall_den=1,
        precision_num=precision,
        precision_den=1,
        coref=coref,
        noncoref=noncoref,
    )
    assert_same_record(made, built)


def test_combined_of_a_subclass_runs_its_constructor() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked(BlancScore):
        def __post_init__(self) -> None:
            object.__setattr__(self, "recall_den", 2.0)

    part = MetricScore.from_counts(1, 2, 1, 2)
    score = Checked.combined(0.5, 0.5, 0.5, part, part)
    assert type(score) is Checked and score.recall_den == 2.0
