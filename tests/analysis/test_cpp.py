"""Coreference Performance Prediction (Stoyanov et al. 2009, §4.4)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from corefscore.analysis.cpp import (
    CLASSES,
    class_distribution,
    distribution_of,
    leave_one_out,
    lookup,
    pearson,
    predict,
)
from corefscore.errors import InputError, UsageError
from corefscore.report.cpp import format_cpp
from tests.conftest import shared_path


def report(name: str, classes: dict[str, tuple[int, float]], observed: float) -> dict[str, Any]:
    """A classes report in the schema of ``corefscore analyze classes``."""
    total = sum(c for c, _ in classes.values())
    return {
        "corpus": name,
        "classes": {
            c: {
                "count": n,
                "share": n / total,
                "muc_rc": {"recall": f1, "precision": f1, "f1": f1},
                "anaphor": {"recall": f1, "precision": f1, "f1": f1},
            }
            for c, (n, f1) in classes.items()
        },
        "overall": {"muc": {"f1": observed}, "conll": {"f1": observed / 2}},
    }


def test_paper_vector_rc_example_cpp() -> None:
    vectors = json.loads(shared_path("data", "paper-vectors.json").read_text())
    by_name: dict[str, dict[str, Any]] = {}
    for v in vectors:
        if v["metric"].startswith("muc_rc["):
            by_name[v["metric"][7:-1]] = v
    target = next(v for v in vectors if v["name"] == "rc_example_cpp")
    members = next(iter(by_name.values()))["all_classes"]
    classes = {}
    for c in CLASSES:
        entry: dict[str, Any] = {"count": len(members[c])}
        if c in by_name:
            entry["muc_rc"] = {
                "recall": float(Fraction(by_name[c]["recall"])),
                "f1": float(Fraction(by_name[c]["f1_exact"])),
            }
        classes[c] = entry
    measured = {"corpus": "example", "classes": classes}
    prediction = predict([measured], measured)
    assert prediction.value == pytest.approx(float(Fraction(target["f1_exact"])), abs=1e-15)
    assert Fraction(target["f1_exact"]) == Fraction(11, 21)
    assert prediction.uncovered_share == 0.0
    # The vector's note: with MUC-RC recall instead of F1 the prediction is 4/7.
    assert predict([measured], measured, score="muc_rc.recall").value == pytest.approx(4 / 7)
    shares = {t.name: t.share for t in prediction.terms}
    assert shares["PN-n"] == 0.0 and shares["CN-p"] == 0.0
    assert shares["PN-e"] == pytest.approx(1 / 7)


def test_prediction_is_the_share_weighted_sum_of_class_means() -> None:
    a = report("a", {"PN-e": (10, 0.9), "CN-n": (10, 0.2), "U3Pr": (5, 0.5)}, 0.6)
    b = report("b", {"PN-e": (4, 0.7), "CN-n": (0, 0.0), "U3Pr": (5, 0.3)}, 0.5)
    # means: PN-e 0.8; CN-n 0.2 (b has no CN-n anaphor: no score, not 0); U3Pr 0.4
    p = predict([a, b], {"PN-e": 2, "CN-n": 1, "U3Pr": 1})
    assert p.value == pytest.approx(0.5 * 0.8 + 0.25 * 0.2 + 0.25 * 0.4)
    terms = {t.name: t for t in p.terms}
    assert terms["CN-n"].corpora == 1 and terms["PN-e"].corpora == 2
    assert p.measured == ("a", "b")


def test_uncovered_classes_are_renormalised_away() -> None:
    a = report("a", {"PN-e": (10, 0.9), "CN-n": (10, 0.3)}, 0.6)
    p = predict([a], {"PN-e": 0.5, "CN-n": 0.25, "G3Pr": 0.25})
    assert p.uncovered_share == pytest.approx(0.25)
    assert p.raw_value == pytest.approx(0.5 * 0.9 + 0.25 * 0.3)
    assert p.value == pytest.approx((0.5 * 0.9 + 0.25 * 0.3) / 0.75)
    none = predict([a], {"G3Pr": 1.0})
    assert none.value is None and none.uncovered_share == 1.0


def test_leave_one_out_table() -> None:
    reports = {
        "x": report("x", {"PN-e": (3, 0.9), "CN-n": (1, 0.1)}, 0.70),
        "y": report("y", {"PN-e": (1, 0.7), "CN-n": (1, 0.3)}, 0.50),
        "z": report("z", {"PN-e": (1, 0.8), "CN-n": (3, 0.2)}, 0.40),
    }
    table = leave_one_out(reports)
    rows = {r.corpus: r for r in table.rows}
    # x from y,z: means PN-e .75, CN-n .25; shares 3/4, 1/4 -> .625
    assert rows["x"].predicted == pytest.approx(0.625)
    # y from x,z: PN-e .85, CN-n .15; shares 1/2 each -> .5
    assert rows["y"].predicted == pytest.approx(0.5)
    # z from x,y: PN-e .8, CN-n .2; shares 1/4, 3/4 -> .35
    assert rows["z"].predicted == pytest.approx(0.35)
    assert rows["x"].error == pytest.approx(0.625 - 0.70)
    assert table.mean_absolute_error == pytest.approx((0.075 + 0 + 0.05) / 3)
    assert table.correlation == pytest.approx(pearson([0.625, 0.5, 0.35], [0.7, 0.5, 0.4]))
    # by hand: sxy = 49/1200, sxx = 91/2400, syy = 7/150
    assert table.correlation == pytest.approx((49 / 1200) / (91 / 2400 * 7 / 150) ** 0.5)
    assert table.correlation == pytest.approx(0.970725, abs=1e-6)
    conll = leave_one_out(list(reports.values()), observed="overall.conll")
    assert [r.observed for r in conll.rows] == [0.35, 0.25, 0.2]
    with pytest.raises(UsageError):
        leave_one_out({"x": reports["x"]})


def test_gum_genres_synthetic_demonstration() -> None:
    # The GUM procedure with made-up per-genre reports: each genre is predicted
    # from the others, and a genre rich in an easy class is predicted higher.
    genres = {
        "news": report("news", {"PN-e": (60, 0.9), "CN-e": (20, 0.6), "G3Pr": (20, 0.8)}, 0.72),
        "interview": report(
            "interview", {"PN-e": (10, 0.8), "1+2Pr": (60, 0.7), "U3Pr": (30, 0.4)}, 0.55
        ),
        "academic": report(
            "academic", {"CN-e": (50, 0.5), "CN-n": (40, 0.2), "U3Pr": (10, 0.5)}, 0.35
        ),
        "bio": report("bio", {"PN-e": (40, 0.85), "G3Pr": (50, 0.9), "CN-n": (10, 0.3)}, 0.75),
    }
    table = leave_one_out(genres)
    rows = {r.corpus: r for r in table.rows}
    # academic from the others: CN-e .6 (news), CN-n .3 (bio), U3Pr .4 (interview)
    assert rows["academic"].predicted == pytest.approx(0.5 * 0.6 + 0.4 * 0.3 + 0.1 * 0.4)
    # interview: 1+2Pr is in no other genre -> renormalised over PN-e and U3Pr
    assert rows["interview"].uncovered_share == pytest.approx(0.6)
    assert rows["interview"].predicted == pytest.approx((0.1 * 0.875 + 0.3 * 0.5) / 0.4)
    assert table.correlation is not None and table.correlation > 0.8
    text = format_cpp(table)
    assert "academic" in text and "correlation (Pearson) 0.9" in text


def test_lookup_and_distribution_inputs() -> None:
    data = {"overall": {"muc": {"f1": 0.5}, "conll": 0.4, "x": "s"}}
    assert lookup(data, "overall.muc.f1") == 0.5
    assert lookup(data, "overall.muc") == 0.5
    assert lookup(data, "overall.conll") == 0.4
    assert lookup(data, "overall.lea.f1") is None
    with pytest.raises(InputError):
        lookup(data, "overall.x")
    assert distribution_of({"PN-e": 3, "G3Pr": 1}) == {"PN-e": 0.75, "G3Pr": 0.25}
    rep = report("r", {"PN-e": (1, 0.5), "U3Pr": (3, 0.5)}, 0.5)
    assert distribution_of(rep) == {"PN-e": 0.25, "U3Pr": 0.75}
    with pytest.raises(InputError):
        distribution_of({"PN-e": 0})
    with pytest.raises(InputError):
        distribution_of({"classes": []})
    with pytest.raises(UsageError):
        predict([], {"PN-e": 1})


def test_class_distribution_of_a_key_or_a_report() -> None:
    from corefscore.io import read_conll_text

    assert class_distribution({"PN-e": 1, "CN-e": 3}) == {"PN-e": 0.25, "CN-e": 0.75}
    key = read_conll_text(
        "#begin document d\n"
        "d 0 0 John NNP - (1)\nd 0 1 met VBD - -\nd 0 2 Mary NNP - (2)\n\n"
        "d 0 0 He PRP - (1)\nd 0 1 met VBD - -\nd 0 2 her PRP - (2)\n"
        "d 0 3 John NNP - (1)\n#end document\n",
        syntax=True,
    )
    # "He" and "her" are gendered third-person pronouns, the second "John" an exact name match.
    shares = {c: v for c, v in class_distribution(key).items() if v}
    assert shares == pytest.approx({"PN-e": 1 / 3, "G3Pr": 2 / 3})


def test_format_prediction() -> None:
    a = report("a", {"PN-e": (10, 0.9), "CN-n": (10, 0.3)}, 0.6)
    p = predict([a], {"PN-e": 0.5, "CN-n": 0.25, "G3Pr": 0.25})
    text = format_cpp(p)
    assert "PN-e      0.5000  0.9000        1      0.4500" in text
    assert "uncovered share 0.2500" in text
    assert "predicted muc_rc.f1: 0.7000" in text
    data = json.loads(format_cpp(p, "json"))
    assert data["predicted"] == pytest.approx(0.7)
    assert data["classes"]["G3Pr"]["mean"] is None
    with pytest.raises(UsageError):
        format_cpp(p, "xml")
