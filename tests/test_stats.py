"""Bootstrap intervals, paired significance tests and rankings (corefscore.stats)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.errors import UsageError
from corefscore.report.stats import format_bootstrap, format_ranking, format_significance
from corefscore.scorer import CorefScorer, read_pair
from corefscore.stats import (
    _resample_counts,
    all_swap_patterns,
    approximate_randomization,
    bootstrap,
    compare_systems,
    exact_randomization,
    holm,
    paired_bootstrap,
    swap_differences,
)

from .conftest import shared_path

Stats = dict[str, dict[str, tuple[float, ...]]]

PERFECT = (1.0, 1.0, 1.0, 1.0)  # R = P = F1 = 1
MISSED = (0.0, 1.0, 0.0, 1.0)  # R = P = F1 = 0


def muc(*docs: tuple[float, ...]) -> Stats:
    return {f"d{i}": {"muc": doc} for i, doc in enumerate(docs)}


# ----------------------------------------------------------------- bootstrap


def test_identical_documents_give_a_degenerate_interval() -> None:
    # Every resample has the same proportions: R = 1/2, P = 1, F1 = 2/3.
    result = bootstrap(muc(*[(1, 2, 1, 1)] * 3), n=200, seed=0)
    r = result["muc"]
    assert (r.recall.low, r.recall.estimate, r.recall.high) == (0.5, 0.5, 0.5)
    assert r.precision.low == r.precision.high == 1.0
    assert r.f1.low == pytest.approx(2 / 3) and r.f1.high == pytest.approx(2 / 3)
    assert result.conll is None


def test_two_documents_interval_by_hand() -> None:
    # Resamples of {perfect, missed}: F1 = 1, 1/2, 0 with probability 1/4, 1/2, 1/4.
    # A 40% interval (30th..70th percentile) lies inside the 1/2 mass; a 99% one
    # reaches both ends.
    stats = muc(PERFECT, MISSED)
    narrow = bootstrap(stats, n=2000, ci=40, seed=3)["muc"].f1
    assert (narrow.low, narrow.estimate, narrow.high) == (0.5, 0.5, 0.5)
    wide = bootstrap(stats, n=2000, ci=99, seed=3)["muc"].f1
    assert (wide.low, wide.high) == (0.0, 1.0)


def test_resample_counts_draw_every_resample_with_corpus_size() -> None:
    counts = _resample_counts(np.random.default_rng(1), 500, 7)
    assert counts.shape == (500, 7)
    assert (counts.sum(axis=1) == 7).all()
    # Each document is drawn once per resample on average.
    assert counts.mean() == pytest.approx(1.0)


def test_bootstrap_is_deterministic_given_seed() -> None:
    stats = muc((3, 4, 3, 5), (2, 2, 2, 3), (1, 3, 1, 1), (0, 2, 0, 1), (5, 6, 4, 4))
    first = bootstrap(stats, n=300, seed=11)
    assert first == bootstrap(stats, n=300, seed=11)
    assert first != bootstrap(stats, n=300, seed=12)


def test_bootstrap_point_estimate_and_conll_match_the_scorer() -> None:
    key = {f"d{i}": [[(0, 0), (2, 2), (4, 4)], [(6, 6), (8, 8)]] for i in range(4)}
    response = {
        "d0": [[(0, 0), (2, 2)], [(4, 4), (6, 6), (8, 8)]],
        "d1": [[(0, 0), (2, 2), (4, 4), (6, 6)]],
        "d2": [[(0, 0), (2, 2), (4, 4)], [(6, 6), (8, 8)]],
        "d3": [[(0, 0)], [(2, 2), (8, 8)]],
    }
    scorer = CorefScorer()  # seven metrics, BLANC's 8 columns included
    for doc_id in key:
        scorer.update(key[doc_id], response[doc_id], doc_id=doc_id)
    corpus = scorer.compute()
    result = bootstrap(scorer.document_statistics, n=100, seed=0)
    assert set(result.metrics) == set(corpus.metrics)
    for name, score in corpus.metrics.items():
        iv = result[name]
        assert (iv.recall.estimate, iv.precision.estimate, iv.f1.estimate) == (
            score.recall,
            score.precision,
            score.f1,
        )
        assert iv.f1.low <= iv.f1.high
    # muc, bcub and ceafe are among the defaults, so the CoNLL score is there too.
    assert result.conll is not None and result.conll.estimate == corpus.conll


def test_bootstrap_rejects_bad_options() -> None:
    with pytest.raises(UsageError):
        bootstrap(muc(PERFECT), ci=100)
    with pytest.raises(UsageError):
        bootstrap(muc(PERFECT), n=0)
    with pytest.raises(UsageError):
        bootstrap({})
    with pytest.raises(UsageError):
        bootstrap({"d": {"muc": (1.0, 2.0)}})  # wrong width


doc_counts = st.tuples(
    st.integers(1, 20), st.integers(0, 20), st.integers(1, 20), st.integers(0, 20)
).map(lambda t: (float(min(t[1], t[0])), float(t[0]), float(min(t[3], t[2])), float(t[2])))


@settings(max_examples=40, deadline=None)
@given(st.lists(doc_counts, min_size=10, max_size=40), st.integers(0, 2**32 - 1))
def test_interval_contains_point_estimate(docs: list[tuple[float, ...]], seed: int) -> None:
    result = bootstrap(muc(*docs), n=400, seed=seed)
    for iv in (result["muc"].recall, result["muc"].precision, result["muc"].f1):
        assert iv.low - 1e-12 <= iv.estimate <= iv.high + 1e-12
        assert 0.0 <= iv.low <= iv.high <= 1.0


# ----------------------------------------------------------------- randomization


def test_own_three_document_example_by_hand() -> None:
    # A is perfect on three documents, B gets nothing. Swapping k documents
    # gives F1(A) - F1(B) = (3 - k)/3 - k/3; only k = 0 and k = 3 reach the
    # observed |1|, so the exact p = 2/8.
    a, b = muc(PERFECT, PERFECT, PERFECT), muc(MISSED, MISSED, MISSED)
    diffs = swap_differences(a, b, all_swap_patterns(3))["muc"]
    swapped = all_swap_patterns(3).sum(axis=1)
    assert [Fraction(d).limit_denominator(100) for d in diffs] == [
        Fraction(3 - 2 * int(k), 3) for k in swapped
    ]
    result = exact_randomization(a, b)
    assert result["muc"].p_value == 0.25
    assert (result["muc"].score_a, result["muc"].score_b) == (1.0, 0.0)
    assert result.trials == 8


def test_one_differing_document_is_never_significant() -> None:
    # Only d0 differs: every swap pattern gives |difference| = observed, p = 1,
    # for the exact test and for every approximate trial.
    a = muc(PERFECT, (1, 2, 1, 2), MISSED)
    b = muc(MISSED, (1, 2, 1, 2), MISSED)
    assert exact_randomization(a, b)["muc"].p_value == 1.0
    assert approximate_randomization(a, b, trials=50, seed=0)["muc"].p_value == 1.0


def _shared_example() -> tuple[Stats, Stats, dict[str, object]]:
    data = json.loads(shared_path("data", "significance-examples.json").read_text())
    a = muc(*[tuple(float(x) for x in doc) for doc in data["system_A_per_doc"]])
    b = muc(*[tuple(float(x) for x in doc) for doc in data["system_B_per_doc"]])
    return a, b, data


def test_shared_significance_example_all_patterns() -> None:
    a, b, data = _shared_example()
    patterns = data["patterns"]
    assert isinstance(patterns, list)
    swaps = np.array([p["swap_pattern"] for p in patterns], dtype=np.float64)
    assert (swaps == all_swap_patterns(3)).all()
    diffs = swap_differences(a, b, swaps)["muc"]
    for got, pattern in zip(diffs, patterns, strict=True):
        assert got == pytest.approx(float(Fraction(pattern["diff"])), abs=1e-15)
    result = exact_randomization(a, b)["muc"]
    assert Fraction(result.p_value) == Fraction(str(data["exact_p"])) == Fraction(1, 2)
    assert result.score_a == pytest.approx(float(Fraction(str(data["F_A"]))))
    assert result.score_b == pytest.approx(float(Fraction(str(data["F_B"]))))


def test_shared_significance_example_approximate() -> None:
    a, b, _ = _shared_example()
    trials = 20000
    p = approximate_randomization(a, b, trials=trials, seed=5)["muc"].p_value
    # (c + 1) / (T + 1) with c ~ Binomial(T, 1/2): within 5 standard deviations.
    assert abs(p - 0.5) < 5 * (0.25 / trials) ** 0.5
    assert (p * (trials + 1)).is_integer() or abs(p * (trials + 1) - round(p * (trials + 1))) < 1e-6


def test_randomization_is_deterministic_and_symmetric() -> None:
    a = muc((3, 4, 3, 5), (2, 2, 2, 3), (1, 3, 1, 1), (4, 9, 4, 6), (2, 5, 1, 3))
    b = muc((2, 4, 2, 4), (2, 2, 2, 2), (0, 3, 0, 1), (6, 9, 6, 7), (1, 5, 1, 2))
    first = approximate_randomization(a, b, trials=2000, seed=9)
    assert first == approximate_randomization(a, b, trials=2000, seed=9)
    swapped = approximate_randomization(b, a, trials=2000, seed=9, names=("B", "A"))
    # Swapping the roles maps every pattern to its complement: same count.
    assert swapped["muc"].p_value == first["muc"].p_value
    assert swapped["muc"].difference == -first["muc"].difference


def test_paired_tests_refuse_unpaired_documents() -> None:
    with pytest.raises(UsageError):
        approximate_randomization(muc(PERFECT), muc(PERFECT, MISSED))
    with pytest.raises(UsageError):
        exact_randomization(muc(*[PERFECT] * 21), muc(*[MISSED] * 21))


def test_paired_bootstrap_identical_systems_and_clear_difference() -> None:
    a = muc(*[PERFECT] * 30)
    # Identical systems: δ = 0 and every |δ_i - 0| >= 0, so p = 1.
    assert paired_bootstrap(a, a, trials=100, seed=0)["muc"].p_value == 1.0
    # A perfect on 30 documents vs nothing: every δ_i = 1 = δ, so |δ_i - δ| = 0 < 1
    # and p = 1 / (T + 1).
    result = paired_bootstrap(a, muc(*[MISSED] * 30), trials=999, seed=0)
    assert result["muc"].p_value == 1 / 1000


pair_docs = st.lists(st.tuples(doc_counts, doc_counts), min_size=1, max_size=15)


@settings(max_examples=40, deadline=None)
@given(pair_docs, st.integers(0, 2**32 - 1))
def test_p_values_are_in_unit_interval(
    docs: list[tuple[tuple[float, ...], ...]], seed: int
) -> None:
    a = muc(*[d[0] for d in docs])
    b = muc(*[d[1] for d in docs])
    for result in (
        approximate_randomization(a, b, trials=200, seed=seed),
        paired_bootstrap(a, b, trials=200, seed=seed),
    ):
        p = result["muc"].p_value
        assert 1 / 201 <= p <= 1.0
    if len(docs) <= 10:
        p_exact = exact_randomization(a, b)["muc"].p_value
        # The identity and the full swap always reach the observed |difference|.
        assert 2 / 2 ** len(docs) <= p_exact <= 1.0


# ----------------------------------------------------------------- Holm and ranking


def test_holm_adjusted_p_values_by_hand() -> None:
    # Sorted: .005*4 = .02, .01*3 = .03, .03*2 = .06, .04*1 = .04 -> max(.06, .04).
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.6]) == [1.0, 1.0]
    assert holm([]) == []


def test_ranking_shares_a_rank_when_not_significant() -> None:
    # Eight documents, exact test. s1 perfect; s2 misses one document (p = 1 vs
    # s1); s3 misses all. p(s1, s3) = 2/256, p(s2, s3) = 4/256 (k = 0 or 7 of
    # the 7 differing documents, times 2 for the identical one).
    # Holm over three pairs: 3 * 1/128 = .0234, 2 * 1/64 = .03125, 1.
    s1 = muc(*[PERFECT] * 8)
    s2 = muc(*[PERFECT] * 7, MISSED)
    s3 = muc(*[MISSED] * 8)
    ranking = compare_systems({"s3": s3, "s2": s2, "s1": s1}, metric="muc", test="exact")
    assert [(s.name, s.rank) for s in ranking.systems] == [("s1", 1), ("s2", 1), ("s3", 3)]
    assert [s.score for s in ranking.systems] == [1.0, 7 / 8, 0.0]
    p13, p23, p12 = ranking.pair("s1", "s3"), ranking.pair("s2", "s3"), ranking.pair("s1", "s2")
    assert (p13.p_value, p23.p_value, p12.p_value) == (1 / 128, 1 / 64, 1.0)
    assert (p13.p_holm, p23.p_holm, p12.p_holm) == (3 / 128, 1 / 32, 1.0)
    assert (p13.significant, p23.significant, p12.significant) == (True, True, False)
    assert (p23.a, p23.b) == ("s2", "s3")


def test_ranking_rule_needs_significance_against_the_whole_group() -> None:
    # s2 is half perfect: p(s1, s2) = p(s2, s3) = 2/16, p(s1, s3) = 2/256. Only
    # s1-s3 is significant after Holm, so s3 stays in the group of s2: rank 1.
    s1 = muc(*[PERFECT] * 8)
    s2 = muc(*[PERFECT] * 4, *[MISSED] * 4)
    s3 = muc(*[MISSED] * 8)
    ranking = compare_systems({"s1": s1, "s2": s2, "s3": s3}, metric="muc", test="exact")
    assert ranking.pair("s1", "s2").p_holm == 0.25
    assert ranking.pair("s1", "s3").significant
    assert [s.rank for s in ranking.systems] == [1, 1, 1]
    # With alpha = 0.3 every pair is significant: ranks 1, 2, 3.
    loose = compare_systems({"s1": s1, "s2": s2, "s3": s3}, metric="muc", test="exact", alpha=0.3)
    assert [s.rank for s in loose.systems] == [1, 2, 3]


def test_ranking_ties_in_score_are_ordered_by_name_and_share_the_rank() -> None:
    same = muc(PERFECT, MISSED, (1, 2, 1, 2))
    ranking = compare_systems({"b": same, "a": same}, metric="muc", trials=100, seed=0)
    assert [(s.name, s.rank) for s in ranking.systems] == [("a", 1), ("b", 1)]
    assert ranking.pairs[0].p_value == 1.0


def test_compare_systems_rejects_bad_options() -> None:
    one = muc(PERFECT)
    with pytest.raises(UsageError):
        compare_systems({"a": one}, metric="muc")
    with pytest.raises(UsageError):
        compare_systems({"a": one, "b": one}, metric="muc", test="t-test")
    with pytest.raises(UsageError):
        compare_systems({"a": one, "b": one}, metric="conll")  # no bcub/ceafe statistics


# ----------------------------------------------------------------- formatting


def test_formats() -> None:
    s1 = muc(*[PERFECT] * 8)
    s2 = muc(*[PERFECT] * 7, MISSED)
    ranking = compare_systems({"s1": s1, "s2": s2}, metric="muc", test="exact")
    text = format_ranking(ranking)
    assert "100.00 (1)" in text and "87.50 (1)" in text
    assert json.loads(format_ranking(ranking, "json"))["systems"][1] == {
        "name": "s2",
        "score": 0.875,
        "rank": 1,
    }
    assert format_ranking(ranking, "csv").splitlines()[1] == "1,s1,100.00 (1)"
    assert "| 1 | s2 | 87.50 (1) |" in format_ranking(ranking, "markdown")
    assert "1 & s1 & 100.00 (1) \\\\" in format_ranking(ranking, "latex")
    sig = exact_randomization(s1, s2, names=("s1", "s2"))
    assert format_significance(sig, "csv").splitlines()[1] == "MUC,100.00,87.50,12.50,1"
    assert json.loads(format_significance(sig, "json"))["tests"]["muc"]["p_value"] == 1.0
    boot = bootstrap(muc(*[(1, 2, 1, 1)] * 3), n=10, seed=0)
    assert format_bootstrap(boot, "csv").splitlines()[1].startswith("MUC,50.00,50.00,50.00,100.00")
    assert json.loads(format_bootstrap(boot, "json"))["seed"] == 0
    with pytest.raises(UsageError):
        format_bootstrap(boot, "html")


# ----------------------------------------------------------------- real outputs


def _wiki_statistics(
    folder: Path, key: str, system: str
) -> dict[str, dict[str, tuple[float, ...]]]:
    key_corpus, response = read_pair(
        folder / f"{key}.wiki-grounded-output.conll",
        folder / f"{system}.wiki-grounded-output.conll",
    )
    # aralikatte repeats 36 spans; "first" keeps the first copy on either side.
    scorer = CorefScorer(metrics="all", duplicates="first")
    for doc_id, doc in key_corpus.documents.items():
        scorer.update_document(doc, response.documents[doc_id])
    return scorer.document_statistics


def test_wiki_demonstration() -> None:
    """lee vs clark, scored against aralikatte's output as a pseudo-key (there is no
    gold key): CoNLL, MUC, CEAFm and CEAFe differences are significant, B3, LEA and BLANC not."""
    folder = shared_path("data", "real", "model_based_coref_wiki", "response")
    systems = {s: _wiki_statistics(folder, "aralikatte", s) for s in ("clark", "lee")}
    ar = approximate_randomization(
        systems["lee"], systems["clark"], trials=1000, seed=1, names=("lee", "clark")
    )
    assert ar.documents == 100
    assert round(100 * ar["conll"].difference, 2) == 1.83
    # mentions (p close to 0.05) is not pinned.
    significant = {m: t.p_value <= 0.05 for m, t in ar.tests.items() if m != "mentions"}
    assert significant == {
        "muc": True,
        "bcub": False,
        "ceafm": True,
        "ceafe": True,
        "blanc": False,
        "lea": False,
        "conll": True,
    }
    assert ar["conll"].p_value < 0.03 and ar["bcub"].p_value > 0.1
    ranking = compare_systems(systems, metric="conll", trials=1000, seed=1)
    assert [(s.name, s.rank) for s in ranking.systems] == [("lee", 1), ("clark", 2)]
    by_lea = compare_systems(systems, metric="lea", trials=1000, seed=1, metrics="all")
    assert [(s.name, s.rank) for s in by_lea.systems] == [("lee", 1), ("clark", 1)]
    ci = bootstrap(systems["lee"], n=1000, seed=1)
    assert ci.conll is not None and ci.conll.low < ci.conll.estimate < ci.conll.high
    # The difference of 1.83 points is smaller than either system's CI width.
    assert ci.conll.high - ci.conll.low > 0.0183


def test_cli_bootstrap_and_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from corefscore import cli

    examples = Path(__file__).resolve().parents[1] / "examples"
    key, response = str(examples / "key.conll"), str(examples / "response.conll")
    args = ["score", key, response, "-m", "conll", "--bootstrap", "200", "--seed", "3"]
    assert cli.main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "|bootstrap:200@95%,seed=3|" in data["signature"]
    muc = data["bootstrap"]["metrics"]["muc"]["f1"]
    assert muc["low"] <= data["metrics"]["muc"]["f1"] <= muc["high"]
    assert cli.main(args) == 0
    assert "95% bootstrap confidence intervals" in capsys.readouterr().out
    # The same output twice is a system compared with itself: nothing is significant.
    copy = tmp_path / "copy.conll"
    copy.write_text(Path(response).read_text())
    assert cli.main(["compare", key, response, str(copy), "--seed", "1", "--format", "json"]) == 0
    ranking = json.loads(capsys.readouterr().out)
    assert [s["rank"] for s in ranking["systems"]] == [1, 1]
    assert cli.main(["compare", key, response]) == 2


def test_cli_bad_bootstrap_and_plot_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from corefscore import cli

    examples = Path(__file__).resolve().parents[1] / "examples"
    key, response = str(examples / "key.conll"), str(examples / "response.conll")
    assert cli.main(["score", key, response, "--bootstrap", "0"]) == 2
    assert "--bootstrap needs N >= 1" in capsys.readouterr().err
    missing = tmp_path / "no-such-dir" / "plot.svg"
    assert cli.main(["lab", "split-entities", "-m", "muc", "--plot", str(missing)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"corefscore: error: {missing}: cannot write") and err.count("\n") == 1
    assert not missing.parent.exists()


def test_gum_demonstration(capsys: pytest.CaptureFixture[str]) -> None:
    """GUM test (30 documents) as the key: xrenner's output against the OntoGUM
    re-annotation of the same texts, every metric tested, ranked by CoNLL and by LEA."""
    import json

    from corefscore import cli

    pairs = shared_path("data", "real", "gum", "pairs")
    systems = [str(pairs / "test.resp_xrenner.conll"), str(pairs / "test.key_ontogum.conll")]
    args = ["compare", str(pairs / "test.key_gum.conll"), *systems, "--duplicates", "first"]
    args += ["--trials", "1000", "--seed", "1", "-q", "--format", "json"]
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        args += ["-m", name]
    assert cli.main(args) == 0
    ranking = json.loads(capsys.readouterr().out)
    assert [(s["name"], s["rank"]) for s in ranking["systems"]] == [
        ("key_ontogum", 1),
        ("resp_xrenner", 2),
    ]
    scores = {s["name"]: s for s in ranking["systems"]}
    assert ranking["documents"] == 30
    # CoNLL 32.07 is the reference scorer's figure for xrenner on GUM test (--duplicates first).
    assert round(100 * ranking["scores"]["resp_xrenner"]["conll"], 2) == 32.07
    assert round(100 * ranking["scores"]["key_ontogum"]["lea"], 2) == 51.68
    (pair,) = ranking["pairs"]
    assert pair["a"] == "key_ontogum" and pair["p_value"] == pytest.approx(1 / 1001)
    assert set(ranking["scores"]["resp_xrenner"]) == {
        "mentions",
        "muc",
        "bcub",
        "ceafm",
        "ceafe",
        "blanc",
        "lea",
        "conll",
    }
    assert scores["resp_xrenner"]["rank"] == 2
    assert "|dups:first|test:ar:1000,seed=1,alpha=0.05,holm|" in ranking["signature"]


def test_system_names_keep_what_tells_files_apart() -> None:
    from corefscore.cli import system_names

    assert system_names(["a/test.resp_xrenner.conll", "a/test.key_ontogum.conll"]) == [
        "resp_xrenner",
        "key_ontogum",
    ]
    wiki = ["r/lee.wiki-grounded-output.conll", "r/clark.wiki-grounded-output.conll"]
    assert system_names(wiki) == ["lee", "clark"]
    assert system_names(["lee/out.conll", "clark/out.conll"]) == ["lee/out", "clark/out"]
    assert system_names(["x/out.conll", "x/out.conll"]) == ["x/out", "x/out-2"]
    assert system_names(["only.conll"]) == ["only"]


def test_compare_names_option(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from corefscore import cli

    examples = Path(__file__).resolve().parents[1] / "examples"
    key, response = str(examples / "key.conll"), str(examples / "response.conll")
    base = ["compare", key, response, key, "--trials", "200", "--seed", "1"]
    assert cli.main([*base, "--names", "sys,oracle", "--format", "json"]) == 0
    ranking = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in ranking["systems"]] == ["oracle", "sys"]
    assert cli.main([*base, "--names", "one"]) == 2
    assert "--names needs 2 distinct" in capsys.readouterr().err
