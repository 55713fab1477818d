"""Non-referring markables and bridging (corefscore.metrics.anaphora), and the UA
evaluation end to end on a small Universal Anaphora file of our own.

The file: "John met Mary . They bought a house . The door was red . It rained .
John liked it . The roof leaked ." The key: "They" has the split antecedent
{John}, {Mary}; "It" (rained) is non-referring; "The door" and "The roof" are
bridging anaphors of "a house" / "it". The response misses John's coreference,
makes the second "it" non-referring and links two bridging anaphors wrongly.
The expected numbers are the UA scorer's (LREC 2022) on these files, as the
oracle tests (tests/ua) check on random files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corefscore import score_files
from corefscore.evaluation import Evaluation
from corefscore.model import Corpus, Document
from corefscore.pipeline import evaluate

WORDS = (
    "John met Mary . They bought a house . The door was red . It rained . "
    "John liked it . The roof leaked ."
).split()
HEADER = (
    "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
    "BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM"
)
# Token number (1-based) -> (IDENTITY, BRIDGING) of each side.
KEY = {
    1: ("(EntityID=1|MarkableID=m1|ElementOf=3)", "_"),
    3: ("(EntityID=2|MarkableID=m2|ElementOf=3)", "_"),
    5: ("(EntityID=3|MarkableID=m3)", "_"),
    7: ("(EntityID=4|MarkableID=m4", "_"),
    8: (")", "_"),
    10: ("(EntityID=5|MarkableID=m5", "(MarkableID=m5|Rel=poss|MentionAnchor=m4)"),
    11: (")", "_"),
    15: ("(EntityID=6-Pseudo|MarkableID=m6)", "_"),
    18: ("(EntityID=1|MarkableID=m7)", "_"),
    20: ("(EntityID=4|MarkableID=m8)", "_"),
    22: ("(EntityID=7|MarkableID=m9", "(MarkableID=m9|Rel=poss|MentionAnchor=m8)"),
    23: (")", "_"),
}
RESPONSE = {
    **KEY,
    18: ("(EntityID=8|MarkableID=m7)", "(MarkableID=m7|MentionAnchor=m2)"),
    20: ("(EntityID=9-Pseudo|MarkableID=m8)", "_"),
    22: ("(EntityID=7|MarkableID=m9", "(MarkableID=m9|MentionAnchor=m4)"),
}


def write(path: Path, cells: dict[int, tuple[str, str]]) -> Path:
    lines = [HEADER, "# newdoc id = fx1"]
    for t, word in enumerate(WORDS, 1):
        identity, bridging = cells.get(t, ("_", "_"))
        lines.append("\t".join([str(t), word, *["_"] * 8, identity, bridging, "_", "_", "_"]))
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    return path


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    return write(tmp_path / "fx1.key", KEY), write(tmp_path / "fx1.sys", RESPONSE)


ANAPHORA = "non-referring,bridging"


def test_non_referring_and_bridging_scores(pair: tuple[Path, Path]) -> None:
    result = score_files(*pair, metrics=ANAPHORA)
    found = {m: (s.recall, s.precision) for m, s in result.metrics.items()}
    # Non-referring: the key's "It" is found (1/1); the response's "it" is extra (1/2).
    assert found["non-referring"] == (1.0, 0.5)
    # Anaphors: the key's two are found (2/2); "John" is an extra anaphor (2/3).
    assert found["bridging-anaphors"] == (1.0, pytest.approx(2 / 3))
    # "The roof" -> "a house" instead of "it": wrong span (1/2, 1/3), right entity (2/2, 2/3).
    assert found["bridging-markables"] == (0.5, pytest.approx(1 / 3))
    assert found["bridging-entities"] == (1.0, pytest.approx(2 / 3))


def test_the_ua_evaluation_at_full_precision(pair: tuple[Path, Path]) -> None:
    result = score_files(*pair, compat="ua")
    got = {m: (s.recall, s.precision, s.f1) for m, s in result.metrics.items()}
    assert got["muc"] == (pytest.approx(1 / 6), 0.5, pytest.approx(0.25))
    assert got["bcub"] == (0.625, 1.0, pytest.approx(0.7692307692307693))
    assert got["ceafm"][2] == 0.7999999999999998  # the UA scorer's bits
    assert got["blanc"][2] == pytest.approx(0.4)
    assert got["lea"][:2] == (pytest.approx(0.4074074074074074), 0.5)
    assert result.conll == pytest.approx(0.6089743589743589, abs=1e-15)


def test_split_antecedents_only_and_drop(pair: tuple[Path, Path]) -> None:
    only = score_files(*pair, compat="ua", split_antecedents="only")
    # Key {{John, John}, {Mary}} against response {{John}, {Mary}}: B3 of the members.
    assert only.metrics["bcub"].recall == pytest.approx(0.5)
    assert only.metrics["bcub"].precision == 1.0
    assert only.metrics["muc"].f1 == pytest.approx(0.5)
    dropped = score_files(*pair, compat="ua", split_antecedents="drop")
    assert dropped.metrics["muc"].recall == 0.0  # "They" alone: no link left to find
    assert "anaphora:split-drop" in dropped.signature


def test_metrics_without_anaphora_score_zero() -> None:
    doc = Document("d", (((0, 0), (2, 2)),))
    result = evaluate(Corpus({"d": doc}), Corpus({"d": doc}), Evaluation.create(metrics=ANAPHORA))
    assert all(s.f1 == 0.0 and s.recall_den == 0.0 for s in result.metrics.values())


def test_a_later_pair_of_the_same_anaphor_replaces_the_earlier() -> None:
    key = Document("d", (((0, 0),), ((3, 3),)), bridging=(((3, 3), (1, 1)), ((3, 3), (0, 0))))
    response = Document("d", (((0, 0),), ((3, 3),)), bridging=(((3, 3), (0, 0)),))
    result = evaluate(
        Corpus({"d": key}), Corpus({"d": response}), Evaluation.create(metrics="bridging")
    )
    assert result.metrics["bridging-markables"].f1 == 1.0
