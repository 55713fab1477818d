"""The metric-behaviour lab: generators, the papers' stated facts, the authors' inputs."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corefscore.analysis.lab import (
    EXPERIMENTS,
    EXTRAS,
    PAPER_KEY_SIZES,
    SPLITS,
    LabCase,
    applicable_metrics,
    coreference_links,
    correct_link_ratio,
    extra_mention_response,
    format_lab,
    paper_key,
    run_experiment,
    score_case,
    split_response,
)
from corefscore.errors import UsageError
from corefscore.io import read_corpus
from corefscore.model import Span

from ..conftest import shared_path

Entities = Sequence[Sequence[Span]]


def cases(name: str) -> dict[str, LabCase]:
    return {c.x: c for c in EXPERIMENTS[name].cases()}


# --- the key and the generators -----------------------------------------------


def test_paper_key_is_the_one_of_section_7() -> None:
    key = paper_key()
    assert sorted((len(e) for e in key), reverse=True) == [20, 10, 10, 5, 5, 5, 4] + [2] * 10
    assert sum(len(e) for e in key) == 79
    # 190 + 2 * 45 + 3 * 10 + 6 + 10 * 1 coreferent pairs.
    assert coreference_links(key) == 326
    assert len({m for e in key for m in e}) == 79


def test_every_experiment_builds_its_x_axis() -> None:
    assert [c.x for c in EXPERIMENTS["split-entities"].cases()] == list(SPLITS)
    assert [c.x for c in EXPERIMENTS["extra-mentions"].cases()] == list(EXTRAS)
    assert list(cases("luo2005-figure1")) == ["a", "b", "c", "d"]
    for name in (
        "correct-links",
        "correct-links-with-wrong",
        "resolve-decreasing",
        "resolve-increasing",
        "mention-identification",
    ):
        assert [c.value for c in EXPERIMENTS[name].cases()] == [0, 20, 40, 60, 80, 100]


def test_correct_link_ratios_are_the_nominal_ones() -> None:
    # 66, 136, 196, 262 of 326 pairs: 20.2%, 41.7%, 60.1%, 80.4%.
    for name in ("correct-links", "correct-links-with-wrong"):
        got = [round(correct_link_ratio(c) * 326) for c in EXPERIMENTS[name].cases()]
        assert got == [0, 66, 136, 196, 262, 326]


def test_wrong_links_never_link_coreferent_mentions() -> None:
    for case in EXPERIMENTS["correct-links-with-wrong"].cases():
        assert {m for e in case.response for m in e} == {m for e in case.key for m in e}
        # Every mention outside the correct part is linked to someone.
        assert all(len(e) >= 2 for e in case.response)
    for case in EXPERIMENTS["mention-identification"].cases():
        assert correct_link_ratio(case) == 0
        assert all(len(e) >= 2 for e in case.response)


def test_mention_identification_counts() -> None:
    got = [sum(len(e) for e in c.response) for c in EXPERIMENTS["mention-identification"].cases()]
    assert got == [0, 16, 32, 47, 63, 79]


def test_resolve_orders() -> None:
    dec = [sorted(len(e) for e in c.response) for c in EXPERIMENTS["resolve-decreasing"].cases()]
    inc = [sorted(len(e) for e in c.response) for c in EXPERIMENTS["resolve-increasing"].cases()]
    assert dec[1] == [10, 10, 20]
    assert dec[2] == [4, 5, 5, 5, 10, 10, 20]
    assert inc[1] == [2, 2, 2]
    assert inc[4] == [2] * 10 + [4, 5, 5, 5]
    assert [len(r) for r in dec] == [len(r) for r in inc] == [0, 3, 7, 10, 14, 17]


def test_bad_labels_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        split_response("7-7")  # no entity of 14
    with pytest.raises(UsageError):
        split_response("20")  # one part is no split
    with pytest.raises(UsageError):
        extra_mention_response("2-3")
    with pytest.raises(UsageError):
        extra_mention_response("x-2")
    with pytest.raises(UsageError):
        run_experiment("no-such-thing")


@given(st.lists(st.integers(min_value=1, max_value=8), min_size=2, max_size=4))
def test_split_response_is_a_refinement(parts: list[int]) -> None:
    size = sum(parts)
    key = paper_key((3, size, 2))
    response = split_response("-".join(map(str, parts)), key)
    assert sorted(len(e) for e in response) == sorted([3, 2, *parts])
    assert {m for e in response for m in e} == {m for e in key for m in e}
    where = {m: i for i, e in enumerate(key) for m in e}
    assert all(len({where[m] for m in e}) == 1 for e in response)


# --- Luo 2005, Tables 1 and 2 ----------------------------------------------------


def test_luo2005_table1_values() -> None:
    result = run_experiment("luo2005-figure1")
    table1 = {  # MUC, B-cube, CEAF phi3, CEAF phi4 as printed (3 decimals); (d) MUC is "-"
        "a": (0.947, 0.865, 0.833, 0.733),
        "b": (0.947, 0.737, 0.583, 0.667),
        "c": (0.900, 0.545, 0.417, 0.294),
        "d": (None, 0.400, 0.250, 0.178),
    }
    for x, expected in table1.items():
        for metric, value in zip(("muc", "bcub", "ceafm", "ceafe"), expected, strict=True):
            if value is not None:
                assert round(result.score(x, metric).f1, 3) == value, (x, metric)
    assert result.score("d", "muc").recall_den == 9
    assert result.score("d", "muc").precision_den == 0


def test_luo2005_table1_orderings() -> None:
    result = run_experiment("luo2005-figure1")
    for metric in ("bcub", "ceafm", "ceafe"):
        f = result.f1(metric)
        assert f[0] > f[1] > f[2] > f[3], metric  # a > b > c > d, "as desired"
    muc = result.f1("muc")
    assert muc[0] == muc[1] > muc[2]  # MUC cannot tell (a) from (b)


def test_luo2005_table2_recall_precision() -> None:
    result = run_experiment("luo2005-figure1")
    exact = {
        ("c", "bcub"): (Fraction(1), Fraction(3, 8)),
        ("d", "bcub"): (Fraction(1, 4), Fraction(1)),
        ("c", "ceafm"): (Fraction(5, 12), Fraction(5, 12)),
        ("d", "ceafm"): (Fraction(1, 4), Fraction(1, 4)),
        ("c", "ceafe"): (Fraction(10, 51), Fraction(10, 17)),  # .196 / .588
        ("d", "ceafe"): (Fraction(4, 9), Fraction(1, 9)),  # .444 / .111
    }
    for (x, metric), (r, p) in exact.items():
        s = result.score(x, metric)
        assert s.recall == pytest.approx(float(r), abs=1e-12)
        assert s.precision == pytest.approx(float(p), abs=1e-12)


def test_luo2005_against_paper_vectors() -> None:
    vectors = json.loads(shared_path("data", "paper-vectors.json").read_text())
    names = {
        "muc": "muc",
        "b3": "bcub",
        "ceaf_phi1": "ceaf-phi1",
        "ceaf_phi2": "ceaf-phi2",
        "ceaf_phi3": "ceafm",
        "ceaf_phi4": "ceafe",
        "lea": "lea",
        "blanc": "blanc",
    }
    result = run_experiment("luo2005-figure1", metrics=list(names.values()))
    checked = 0
    for v in vectors:
        if not v["name"].startswith("luo2005_fig1_") or v["metric"] not in names:
            continue
        s = result.score(v["name"][-1], names[v["metric"]])
        assert s.recall == pytest.approx(float(Fraction(v["recall"])), abs=1e-12)
        assert s.precision == pytest.approx(float(Fraction(v["precision"])), abs=1e-12)
        assert s.f1 == pytest.approx(float(Fraction(v["f1_exact"])), abs=1e-12)
        checked += 1
    assert checked == 32


# --- Moosavi & Strube 2016, §7 -------------------------------------------------


def test_section_7_1_only_muc_and_lea_give_zero_without_correct_links() -> None:
    result = run_experiment("correct-links-with-wrong")
    zero = {m for m in result.metrics if result.score("0%", m).f1 == 0}
    assert zero == {"muc", "lea"}
    # CEAFe drops from 0% to 20% correct links (25.33 -> 21.83 here).
    assert result.score("20%", "ceafe").f1 < result.score("0%", "ceafe").f1
    # With wrong links BLANC is at least 20 points above every other metric.
    for row in result.rows[:-1]:
        blanc = row.scores["blanc"]
        assert blanc is not None
        others = [s.f1 for m, s in row.scores.items() if s and m not in ("blanc", "mentions")]
        assert blanc.f1 - max(others) >= 0.20, row.x


def test_section_7_1_figure2_values() -> None:
    result = run_experiment("correct-links")
    # 20%: one response entity of 12 mentions of the 20-entity. B3 recall = 12*12/20/79.
    s = result.score("20%", "bcub")
    assert s.recall == pytest.approx(144 / 20 / 79) and s.precision == 1
    assert result.score("20%", "muc").recall == pytest.approx(11 / 62)
    # BLANC (coreference links 66/326 recalled, no non-coreference link) = 0.1684,
    # a little above B3 (0.1671): the paper's "BLANC <= B3 and LEA" is not exact here.
    assert result.score("20%", "blanc").f1 == pytest.approx((2 * 66 / (326 + 66)) / 2)
    assert result.score("20%", "blanc").f1 > s.f1


def test_section_7_2_entity_order() -> None:
    dec = run_experiment("resolve-decreasing")
    inc = run_experiment("resolve-increasing")
    # (1) CEAFe does not see the sizes of the resolved entities.
    assert dec.f1("ceafe") == inc.f1("ceafe")
    assert dec.score("20%", "ceafe").f1 == pytest.approx(2 * 3 / (17 + 3))
    # (2) B3, CEAFm and LEA agree.
    for result in (dec, inc):
        for b, m, lea in zip(result.f1("bcub"), result.f1("ceafm"), result.f1("lea"), strict=True):
            assert b == pytest.approx(m) and m == pytest.approx(lea)
    # (3) BLANC follows the number of links: 3 of 326 coreference links and 12 of
    # the key's 2755 non-coreference links give 1.35%, against 14.12% for B3.
    expected = (2 * 3 / (326 + 3) + 2 * 12 / (2755 + 12)) / 2
    assert inc.score("20%", "blanc").f1 == pytest.approx(expected)
    assert round(100 * expected, 2) == 1.35


def test_section_7_3_split_rankings() -> None:
    result = run_experiment("split-entities")

    def f(metric: str, x: str) -> float:
        return result.score(x, metric).f1

    # (1) MUC sees only the number of splits.
    assert len({f("muc", x) for x in ("18-2", "3-2", "2-2", "16-4", "10-10")}) == 1
    assert len({f("muc", x) for x in ("5-3-2", "9-9-2", "9-5-6")}) == 1
    assert f("muc", "18-2") == pytest.approx(2 * 61 / 62 / (1 + 61 / 62))
    # (2) CEAFe does not tell 2-2 from 10-10, nor 9-9-2 from 9-5-6.
    assert f("ceafe", "2-2") == pytest.approx(f("ceafe", "10-10"))
    assert f("ceafe", "9-9-2") == pytest.approx(f("ceafe", "9-5-6"))
    # 16 entities exact plus phi4(4, 2) = 2/3, over 17 key and 18 response entities.
    assert f("ceafe", "2-2") == pytest.approx(2 * (16 + 2 / 3) / (17 + 18))
    # (3) The stated rankings.
    assert f("bcub", "18-2") > f("bcub", "5-3-2") > f("bcub", "16-4")
    assert f("blanc", "5-3-2") > f("blanc", "18-2") > f("blanc", "16-4")
    for ceaf in ("ceafm", "ceafe"):
        assert f(ceaf, "18-2") > f(ceaf, "16-4") > f(ceaf, "5-3-2")
    assert f("lea", "18-2") > f("lea", "16-4") > f("lea", "5-3-2")


@pytest.mark.parametrize("n", sorted(set(PAPER_KEY_SIZES)))
@pytest.mark.parametrize("k", [1, 2, 3, 5, 10])
def test_section_7_4_lea_error_of_extra_mentions(k: int, n: int) -> None:
    """LEA's precision loss for k extra mentions in an entity of n is
    (n + k)(1 - n(n - 1) / ((n + k)(n + k - 1))), which is 2 for k = 1."""
    case = LabCase("x", None, paper_key(), extra_mention_response(f"{k}-{n}"))
    s = score_case(case, ["lea"])["lea"]
    assert s is not None
    error = s.precision_den - s.precision_num
    expected = (n + k) * (1 - Fraction(n * (n - 1), (n + k) * (n + k - 1)))
    assert error == pytest.approx(float(expected))
    assert s.precision_den == 79 + k and s.recall == 1
    if k == 1:
        assert error == pytest.approx(2)
        assert s.precision == pytest.approx(78 / 80)


def test_section_7_4_extra_mention_observations() -> None:
    result = run_experiment("extra-mentions")

    def f(metric: str, x: str) -> float:
        return result.score(x, metric).f1

    # (2) except for CEAFe, every metric ranks 3-10 worst (ties allowed: MUC, CEAFm).
    for metric in ("muc", "bcub", "ceafm", "blanc", "lea"):
        assert f(metric, "3-10") == pytest.approx(min(result.f1(metric))), metric  # type: ignore[type-var]
    # (3) CEAFe ranks 2-0 and 3-0 worst.
    worst = min(f("ceafe", x) for x in EXTRAS)
    assert {x for x in EXTRAS if f("ceafe", x) == pytest.approx(worst)} == {"2-0", "3-0"}
    # (4) only LEA finds 2-0 less harmful than 1-2 and 1-10 ...
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
        assert not (f(metric, "2-0") > f(metric, "1-2") and f(metric, "2-0") > f(metric, "1-10"))
    assert f("lea", "2-0") > f("lea", "1-2") == f("lea", "1-10")  # ... and ties all 1-n
    # (1) MUC and CEAFm have the fewest distinct values.
    distinct = {
        m: len({round(v, 12) for v in result.f1(m) if v is not None})
        for m in result.metrics
        if m != "mentions"
    }
    assert distinct["muc"] == distinct["ceafm"] == min(distinct.values()) == 3


def test_section_7_5_mention_identification() -> None:
    result = run_experiment("mention-identification")
    for row in result.rows:
        assert row.scores["muc"] is not None and row.scores["muc"].f1 == 0
        assert row.scores["lea"] is not None and row.scores["lea"].f1 == 0
    for metric in ("bcub", "ceafm", "ceafe"):
        assert all(v is not None and v > 0 for v in result.f1(metric)[1:]), metric
    assert result.score("100%", "bcub").f1 > 0.2


# --- the LEA authors' own inputs --------------------------------------------------


def _entities(path: object) -> tuple[tuple[Span, ...], ...]:
    corpus = read_corpus(str(path), format="conll")
    (doc,) = list(corpus)
    return doc.entities


def _signature(key: Entities, response: Entities) -> tuple[object, ...]:
    """The pair up to renaming mentions and entities (one colour-refinement round).

    Each key entity is described by its size and the sizes of the pieces the
    response cuts it into; each response entity by the descriptions of the key
    entities it draws from and how many of its mentions are outside the key.
    """
    where = {m: i for i, e in enumerate(key) for m in e}
    pieces: list[Counter[int]] = [Counter() for _ in key]
    for r in response:
        inside = Counter(where[m] for m in r if m in where)
        for i, count in inside.items():
            pieces[i][count] += 1
    key_desc = [(len(e), tuple(sorted(pieces[i].items()))) for i, e in enumerate(key)]
    resp_desc = []
    for r in response:
        inside = Counter(where[m] for m in r if m in where)
        resp_desc.append(
            (
                tuple(sorted((key_desc[i], c) for i, c in inside.items())),
                sum(1 for m in r if m not in where),
            )
        )
    return tuple(sorted(key_desc)), tuple(sorted(resp_desc))


_AUTHORS = [
    ("correct_links", "{}.response", "correct-links", ["20", "40", "60", "80"]),
    ("correct_entities", "dec{}.response", "resolve-decreasing", ["20", "40", "60", "80"]),
    ("correct_entities", "inc{}.response", "resolve-increasing", ["20", "40", "60", "80"]),
    (
        "split",
        "{}.response",
        "split-entities",
        ["18-2", "3-2", "2-2", "16-4", "10-10", "5-3-2", "9-9-2", "9-5-6"],
    ),
    ("extra_mention", "{}.response", "extra-mentions", list(EXTRAS)),
]


@pytest.mark.parametrize(("folder", "pattern", "experiment", "labels"), _AUTHORS)
def test_generators_match_the_authors_inputs(
    folder: str, pattern: str, experiment: str, labels: list[str]
) -> None:
    base = shared_path("data", "reference-tests", "lea-analysis", folder)
    their_key = _entities(base / "key")
    generated = cases(experiment)
    for label in labels:
        ours = generated[label if label in generated else f"{label}%"]
        assert _signature(ours.key, ()) == _signature(their_key, ())
        theirs = _entities(base / pattern.format(label))
        assert _signature(ours.key, ours.response) == _signature(their_key, theirs), label
        # Equal partitions, equal scores: read from their file, built by ours.
        mine = score_case(ours, list(applicable_metrics()))
        other = score_case(LabCase(label, None, their_key, theirs), list(applicable_metrics()))
        for metric, s in mine.items():
            o = other[metric]
            assert (s is None) == (o is None)
            if s is not None and o is not None:
                assert s.f1 == pytest.approx(o.f1, abs=1e-12), (label, metric)


def test_extra_mention_generator_matches_every_authors_file() -> None:
    base = shared_path("data", "reference-tests", "lea-analysis", "extra_mention")
    their_key = _entities(base / "key")
    labels = sorted(p.name.removesuffix(".response") for p in base.glob("*.response"))
    assert len(labels) == 21
    for label in labels:
        ours = extra_mention_response(label)
        assert _signature(paper_key(), ours) == _signature(
            their_key, _entities(base / f"{label}.response")
        ), label


def test_wrong_link_layouts_agree_with_the_authors_where_layout_does_not_matter() -> None:
    """The authors' wrong-link layout is hand-made; ours is a rule. MUC, B3 and
    LEA only see which key entities each wrong entity draws one mention from,
    so they agree; CEAF and BLANC depend on the layout (see the docs)."""
    base = shared_path("data", "reference-tests", "lea-analysis", "correct_links")
    their_key = _entities(base / "key")
    generated = cases("correct-links-with-wrong")
    for pct in ("00", "20", "40", "60", "80"):
        theirs = LabCase(
            pct, None, their_key, _entities(base / f"{pct}-incorrect_links_included.response")
        )
        ours = generated[f"{int(pct)}%"]
        assert round(correct_link_ratio(theirs) * 326) == round(correct_link_ratio(ours) * 326)
        metrics = ["mentions", "muc", "bcub", "lea"]
        a, b = score_case(ours, metrics), score_case(theirs, metrics)
        for m in metrics:
            assert a[m].f1 == pytest.approx(b[m].f1, abs=1e-12), (pct, m)


# --- outputs ----------------------------------------------------------------------


def test_csv_and_json_outputs() -> None:
    result = run_experiment("split-entities", metrics=["muc", "lea"])
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert len(rows) == 16
    first = rows[0]
    assert (first["experiment"], first["x"], first["metric"]) == ("split-entities", "18-2", "muc")
    assert float(first["recall"]) == pytest.approx(61 / 62)
    data = json.loads(result.to_json())
    assert data["metrics"] == ["muc", "lea"]
    assert data["rows"][0]["scores"]["muc"]["precision"] == 1
    assert format_lab(result, "json") == result.to_json()
    assert format_lab(result, "csv") == result.to_csv()
    text = format_lab(result)
    assert "18-2" in text and "99.19" in text
    with pytest.raises(UsageError):
        format_lab(result, "xml")


def test_metric_selection_skips_what_needs_extra_facts() -> None:
    result = run_experiment("extra-mentions", metrics=["muc", "ace-value", "blanc-gold"])
    assert result.metrics == ("muc", "blanc-gold")
    assert "ace-value" in result.skipped
    # blanc-gold refuses responses whose mentions differ from the key's.
    assert all(v is None for v in result.f1("blanc-gold"))
    split = run_experiment("split-entities", metrics=["blanc-gold", "blanc"])
    assert split.f1("blanc-gold") == pytest.approx(split.f1("blanc"))
    assert "ceaf-phi1" in applicable_metrics() and "ace-value" not in applicable_metrics()


def test_every_applicable_metric_runs_on_every_experiment() -> None:
    for name in EXPERIMENTS:
        result = run_experiment(name, metrics=list(applicable_metrics()))
        assert len(result.rows) == len(EXPERIMENTS[name].cases())
        for metric in ("muc", "lea", "ceaf-phi1", "bcub-sys", "lea-uniform"):
            assert all(v is not None and 0 <= v <= 1 for v in result.f1(metric)), (name, metric)
