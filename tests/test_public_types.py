"""The public dataclasses can be introspected with their types.

Tools that turn results into other objects (``typing.get_type_hints``,
serialisers built on it) resolve each field's annotation in the class's module.
Some classes are created on first use in modules of their own, to keep start-up
short: their modules must still hold every name their annotations use.
"""

from __future__ import annotations

import dataclasses
import typing

import pytest

import corefscore
from corefscore import model
from corefscore.metrics import ceaf
from corefscore.regimes import EvaluationSetup

PUBLIC = [
    corefscore.ScoreResult,
    corefscore.DocumentResult,
    corefscore.MetricScore,
    corefscore.BlancScore,
    corefscore.Corpus,
    corefscore.Document,
    corefscore.Evaluation,
    EvaluationSetup,
    model.Entity,
    model.Syntax,
    ceaf.EntityAlignment,
    ceaf.AlignedPair,
]


@pytest.mark.parametrize("cls", PUBLIC, ids=lambda cls: cls.__name__)
def test_every_field_type_resolves(cls: type) -> None:
    hints = typing.get_type_hints(cls)
    assert dataclasses.is_dataclass(cls)
    assert {f.name for f in dataclasses.fields(cls)} <= set(hints)


def test_classes_made_on_first_use_keep_their_public_names() -> None:
    assert model.Entity.__name__ == "Entity"
    assert ceaf.EntityAlignment is ceaf.__getattr__("EntityAlignment")
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        ceaf.__getattr__("Nothing")
