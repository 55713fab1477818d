"""The worked examples of the founding papers, typed in as the project's own test data.

Every example below is a published fact (or an exact fraction hand-derived from one), written
here as a Python literal with a comment naming the paper and the section, figure or table it
comes from. These tests need nothing outside the repository and always run. Only the last
test reads ../shared/data/paper-vectors.json, and it skips when that file is absent.

Papers:

* Luo 2005, "On coreference resolution performance metrics", HLT/EMNLP, ACL H05-1004 (CEAF).
* Moosavi & Strube 2016, "Which coreference evaluation metric do you trust?", ACL, P16-1060 (LEA).
* Luo, Pradhan, Recasens & Hovy 2014, "An extension of BLANC to system mentions", ACL,
  P14-2005 (BLANC for system mentions).
* Test cases of the reference scorer (Pradhan et al. 2014, P14-2006;
  conll/reference-coreference-scorers v8.01, LEA in branch LEA-scorer), some of which are
  examples of Vilain et al. 1995 (MUC).

A paper's mention labels ("1".."9", "A".."C", or a, b, c, ...) become single-token spans (i, i),
numbered in order of first appearance (key first, then response). A cluster written as a string
is one mention per character; a cluster written as a list names its mentions in full.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from fractions import Fraction as Fr

import pytest

import corefscore
from corefscore import BlancScore, MetricScore

Clusters = Sequence[str | Sequence[str]]


# --------------------------------------------------------------------------------------------
# helpers


def _spans(clusters: Clusters, ids: dict[str, int]) -> list[list[tuple[int, int]]]:
    return [[(ids.setdefault(m, len(ids)),) * 2 for m in cluster] for cluster in clusters]


def run(key: Clusters, response: Clusters, metrics: str | None = None) -> corefscore.ScoreResult:
    """Score one document whose mentions are paper labels."""
    ids: dict[str, int] = {}
    key_doc = _spans(key, ids)
    response_doc = _spans(response, ids)
    return corefscore.score({"doc": key_doc}, {"doc": response_doc}, metrics=metrics)


def same(x: float, want: Fr | int) -> bool:
    """``x`` equals the exact value ``want`` (0 is compared exactly)."""
    want = Fr(want)
    if want == 0:
        return x == 0
    return math.isclose(x, float(want), rel_tol=1e-12)


def f1(recall: Fr, precision: Fr) -> Fr:
    return 2 * recall * precision / (recall + precision) if recall + precision else Fr(0)


def check_rpf(score: MetricScore, recall: Fr, precision: Fr, f: Fr, what: str) -> None:
    got = (score.recall, score.precision, score.f1)
    assert same(got[0], recall) and same(got[1], precision) and same(got[2], f), (
        f"{what}: got R, P, F = {got}, want {recall}, {precision}, {f}"
    )


def check_counts(
    score: MetricScore, rn: Fr | int, rd: int, pn: Fr | int, pd: int, what: str
) -> None:
    got = (score.recall_num, score.recall_den, score.precision_num, score.precision_den)
    want = (rn, rd, pn, pd)
    ok = all(same(g, w) for g, w in zip(got, want, strict=True))
    assert ok, f"{what}: counts {got}, want {want}"


def printed(value: Fr | float, text: str) -> bool:
    """``value`` rounded to as many decimals as ``text`` shows equals ``text`` ("0.947", ".947")."""
    decimals = len(text.split(".")[1])
    shown = f"{float(value):.{decimals}f}"
    return shown == text or shown.lstrip("0") == text


def truncated_percent(value: Fr) -> str:
    """A fraction as a percentage truncated to two decimals, as the reference scorer prints."""
    hundredths = math.floor(value * 10000)
    return f"{hundredths // 100}.{hundredths % 100:02d}"


# --------------------------------------------------------------------------------------------
# 1. Luo (2005), Section 3.1, Figure 1, Table 1 and Table 2

# Figure 1: the key (truth) and the system responses (a)-(d); mentions are 1..9, A, B, C.
LUO_KEY = ["12345", "67", "89ABC"]
LUO_RESPONSES = {
    "a": ["12345", "6789ABC"],
    "b": ["1234589ABC", "67"],
    "c": ["123456789ABC"],
    "d": list("123456789ABC"),  # twelve singletons
}

# Table 1, as exact counts: (recall_num, recall_den, precision_num, precision_den, F exact,
# F as printed in Table 1). Luo prints only F, to 3 decimals; the counts and exact fractions
# are re-derived by hand (they agree with paper-vectors.json and docs/metrics.md). For (d) the
# MUC cell is empty ("–") because (d) has no response link: precision is 0/0, which corefscore,
# like the reference scorer, reports as 0 (and F = 0).
LUO_TABLE1: dict[str, dict[str, tuple[Fr | int, int, Fr | int, int, Fr, str | None]]] = {
    "muc": {
        "a": (9, 9, 9, 10, Fr(18, 19), ".947"),
        "b": (9, 9, 9, 10, Fr(18, 19), ".947"),
        "c": (9, 9, 9, 11, Fr(9, 10), ".900"),
        "d": (0, 9, 0, 0, Fr(0), None),
    },
    "bcub": {
        "a": (12, 12, Fr(64, 7), 12, Fr(32, 37), ".865"),
        "b": (12, 12, 7, 12, Fr(14, 19), ".737"),
        "c": (12, 12, Fr(9, 2), 12, Fr(6, 11), ".545"),
        "d": (3, 12, 12, 12, Fr(2, 5), ".400"),
    },
    "ceafm": {  # CEAF with phi_3 (mention-based)
        "a": (10, 12, 10, 12, Fr(5, 6), ".833"),
        "b": (7, 12, 7, 12, Fr(7, 12), ".583"),
        "c": (5, 12, 5, 12, Fr(5, 12), ".417"),
        "d": (3, 12, 3, 12, Fr(1, 4), ".250"),
    },
    "ceafe": {  # CEAF with phi_4 (entity-based)
        "a": (Fr(11, 6), 3, Fr(11, 6), 2, Fr(11, 15), ".733"),
        "b": (Fr(5, 3), 3, Fr(5, 3), 2, Fr(2, 3), ".667"),
        "c": (Fr(10, 17), 3, Fr(10, 17), 1, Fr(5, 17), ".294"),
        "d": (Fr(4, 3), 3, Fr(4, 3), 12, Fr(8, 45), ".178"),
    },
}


@pytest.mark.parametrize("system", sorted(LUO_RESPONSES))
@pytest.mark.parametrize("metric", sorted(LUO_TABLE1))
def test_luo2005_table1(metric: str, system: str) -> None:
    rn, rd, pn, pd, f_exact, shown = LUO_TABLE1[metric][system]
    recall = Fr(rn) / rd
    precision = Fr(pn) / pd if pd else Fr(0)
    # The typed-in table is self-consistent ...
    assert f1(recall, precision) == f_exact
    if shown is not None:
        assert printed(f_exact, shown), (metric, system, f_exact, shown)
    # ... and corefscore reproduces it exactly.
    score = run(LUO_KEY, LUO_RESPONSES[system], metric)[metric]
    what = f"Luo 2005 Table 1, {metric} ({system})"
    check_counts(score, rn, rd, pn, pd, what)
    check_rpf(score, recall, precision, f_exact, what)
    if shown is not None:
        assert printed(score.f1, shown), f"{what}: F {score.f1:.6f} is not {shown}"


# Table 2: recall and precision of B-cube and of both CEAFs for (c) and (d), as printed.
# Every cell is reproducible: phi_1 and phi_2 (Section 2.2) do not appear in the table.
LUO_TABLE2 = {
    "c": {"bcub": ("1.0", "0.375"), "ceafm": ("0.417", "0.417"), "ceafe": ("0.196", "0.588")},
    "d": {"bcub": ("0.25", "1.0"), "ceafm": ("0.250", "0.250"), "ceafe": ("0.444", "0.111")},
}


@pytest.mark.parametrize("system", sorted(LUO_TABLE2))
def test_luo2005_table2(system: str) -> None:
    result = run(LUO_KEY, LUO_RESPONSES[system])
    for metric, (r_text, p_text) in LUO_TABLE2[system].items():
        rn, rd, pn, pd, _, _ = LUO_TABLE1[metric][system]
        assert printed(Fr(rn) / rd, r_text) and printed(Fr(pn) / pd, p_text)
        score = result[metric]
        assert printed(score.recall, r_text), (system, metric, score.recall, r_text)
        assert printed(score.precision, p_text), (system, metric, score.precision, p_text)


def test_luo2005_section3_worked_numbers() -> None:
    """The numbers Luo works out in the text of Section 3.1."""
    # MUC, (c): "100% recall (9 out of 9 reference links are correct) and a 81.2% precision
    # (9 out of 11 system links are correct)". 9/11 is 81.8%; "81.2%" is a misprint in the
    # paper, the counts are what we assert.
    muc = run(LUO_KEY, LUO_RESPONSES["c"], "muc")["muc"]
    check_counts(muc, 9, 9, 9, 11, "Luo 2005 §3.1 MUC (c)")
    assert f"{float(Fr(9, 11)):.1%}" == "81.8%"

    # B-cube precision of (c): 1/12 * (10 * 5/12 + 2 * 2/12) = 0.375.
    bcub_c = run(LUO_KEY, LUO_RESPONSES["c"], "bcub")["bcub"]
    want = Fr(1, 12) * (10 * Fr(5, 12) + 2 * Fr(2, 12))
    assert want == Fr(3, 8)
    assert same(bcub_c.precision, want) and same(bcub_c.recall, 1)
    # B-cube recall of (d): 1/12 * (5 * 1/5 + 2 * 1/2 + 5 * 1/5) = 0.25.
    bcub_d = run(LUO_KEY, LUO_RESPONSES["d"], "bcub")["bcub"]
    want = Fr(1, 12) * (5 * Fr(1, 5) + 2 * Fr(1, 2) + 5 * Fr(1, 5))
    assert want == Fr(1, 4)
    assert same(bcub_d.recall, want) and same(bcub_d.precision, 1)

    # CEAF for (a): {1..5} aligned to {1..5}, {8,9,A,B,C} to {6,7,8,9,A,B,C}, {6,7} unaligned.
    # phi_3: 10 common mentions, recall = precision = 5/6.
    result = run(LUO_KEY, LUO_RESPONSES["a"])
    check_counts(result["ceafm"], 10, 12, 10, 12, "Luo 2005 §3.1 CEAF phi_3 (a)")
    # phi_4: Phi(g*) = 1 + 10/12, F = 2 * (1 + 10/12) / (3 + 2) = 11/15 = 0.733.
    phi = 1 + Fr(10, 12)
    assert 2 * phi / (3 + 2) == Fr(11, 15)
    check_counts(result["ceafe"], phi, 3, phi, 2, "Luo 2005 §3.1 CEAF phi_4 (a)")
    assert same(result["ceafe"].f1, Fr(11, 15))


# Section 2.2: phi_3({a,b,c}, {a,b}) = 2, phi_3({a,b,c}, {a}) = 1,
# phi_4({a,b,c}, {a,b}) = 0.8, phi_4({a,b,c}, {a}) = 0.5. With one entity on each side the
# optimal alignment is that pair, so Phi(g*) is the CEAF numerator. phi_1 (6) and phi_2 (7)
# are tested in tests/metrics/test_ceaf.py.
@pytest.mark.parametrize(("response", "phi3", "phi4"), [("ab", 2, Fr(4, 5)), ("a", 1, Fr(1, 2))])
def test_luo2005_section2_2_similarities(response: str, phi3: int, phi4: Fr) -> None:
    result = run(["abc"], [response], "ceafm,ceafe")
    assert same(result["ceafm"].recall_num, phi3) and same(result["ceafm"].precision_num, phi3)
    assert same(result["ceafe"].recall_num, phi4) and same(result["ceafe"].precision_num, phi4)


# Not printed by Luo (2005): LEA and BLANC for the same partitions, and the CoNLL score.
# LEA and BLANC values are from paper-vectors.json (hand+calc); the CoNLL score is the mean
# of the MUC, B3 and CEAFe F values of Table 1 (as in docs/metrics.md).
LUO_OTHER = {
    "a": {"lea": (1, Fr(13, 18), Fr(26, 31)), "blanc": (Fr(8, 9), Fr(26, 31), Fr(175, 208))},
    "b": {"lea": (1, Fr(29, 54), Fr(58, 83)), "blanc": (Fr(13, 18), Fr(67, 92), Fr(541, 871))},
    "c": {"lea": (1, Fr(7, 22), Fr(14, 29)), "blanc": (Fr(1, 2), Fr(7, 44), Fr(7, 29))},
    "d": {"lea": (0, 0, 0), "blanc": (Fr(1, 2), Fr(15, 44), Fr(15, 37))},
}
LUO_CONLL = {"a": Fr(26843, 31635), "b": Fr(134, 171), "c": Fr(3253, 5610), "d": Fr(26, 135)}


@pytest.mark.parametrize("system", sorted(LUO_RESPONSES))
def test_luo2005_figure1_other_metrics(system: str) -> None:
    result = run(LUO_KEY, LUO_RESPONSES[system])
    for metric, (r, p, f) in LUO_OTHER[system].items():
        check_rpf(result[metric], Fr(r), Fr(p), Fr(f), f"Luo 2005 Fig. 1 ({system}) {metric}")
    parts = [LUO_TABLE1[m][system][4] for m in ("muc", "bcub", "ceafe")]
    assert sum(parts) / 3 == LUO_CONLL[system]
    assert result.conll is not None and same(result.conll, LUO_CONLL[system])


# --------------------------------------------------------------------------------------------
# 2. Moosavi & Strube (2016)

# Section 5, "An Illustrative Example" (the example of Pradhan et al. 2014):
# K = {k1 = {a,b,c}, k2 = {d,e,f,g}},  R = {r1 = {a,b}, r2 = {c,d}, r3 = {f,g,h,i}}.
# e is a twinless key mention, h and i are twinless response mentions.
MS_KEY = ["abc", "defg"]
MS_RESPONSE = ["ab", "cd", "fghi"]


def test_moosavi_strube_2016_lea_example() -> None:
    lea = run(MS_KEY, MS_RESPONSE, "lea")["lea"]
    # resolution-score(k1) = (1+0+0)/3, resolution-score(k2) = (0+0+1)/6;
    # recall = (3 * 1/3 + 4 * 1/6) / (3 + 4) ≈ 0.24.
    recall_num = 3 * Fr(1 + 0 + 0, 3) + 4 * Fr(0 + 0 + 1, 6)
    # precision = (2 * (1+0)/1 + 2 * (0+0)/1 + 4 * (0+1)/6) / (2 + 2 + 4) ≈ 0.33.
    precision_num = 2 * Fr(1 + 0, 1) + 2 * Fr(0 + 0, 1) + 4 * Fr(0 + 1, 6)
    recall, precision = recall_num / 7, precision_num / 8
    assert (recall, precision, f1(recall, precision)) == (Fr(5, 21), Fr(1, 3), Fr(5, 18))
    assert printed(recall, "0.24") and printed(precision, "0.33")
    check_counts(lea, recall_num, 7, precision_num, 8, "Moosavi & Strube 2016 §5 LEA")
    check_rpf(lea, Fr(5, 21), Fr(1, 3), Fr(5, 18), "Moosavi & Strube 2016 §5 LEA")
    assert printed(lea.recall, "0.24") and printed(lea.precision, "0.33")


# The other metrics on the same example. The paper computes only LEA; MUC, B3, CEAFm and
# CEAFe are from paper-vectors.json, mentions and BLANC from docs/metrics.md (all re-derived
# by hand: see the "Running example" there).
MS_OTHER = {
    "mentions": (Fr(6, 7), Fr(3, 4), Fr(4, 5)),
    "muc": (Fr(2, 5), Fr(2, 5), Fr(2, 5)),
    "bcub": (Fr(5, 12), Fr(1, 2), Fr(5, 11)),
    "ceafm": (Fr(4, 7), Fr(1, 2), Fr(8, 15)),
    "ceafe": (Fr(13, 20), Fr(13, 30), Fr(13, 25)),
    "blanc": (Fr(4, 9), Fr(13, 40), Fr(25, 68)),
}


def test_moosavi_strube_2016_example_other_metrics() -> None:
    result = run(MS_KEY, MS_RESPONSE)
    for metric, (r, p, f) in MS_OTHER.items():
        check_rpf(result[metric], r, p, f, f"Moosavi & Strube 2016 §5 example, {metric}")
    check_counts(result["muc"], 2, 5, 2, 5, "muc")
    check_counts(result["bcub"], Fr(35, 12), 7, 4, 8, "bcub")
    check_counts(result["ceafe"], Fr(13, 10), 2, Fr(13, 10), 3, "ceafe")
    blanc = result["blanc"]
    assert isinstance(blanc, BlancScore)
    check_counts(blanc.coref, 2, 9, 2, 8, "blanc coreference links")
    check_counts(blanc.noncoref, 8, 12, 8, 20, "blanc non-coreference links")
    assert same(result.conll or 0.0, Fr(126, 275))


# Section 3.3, Figure 1, Tables 2 and 3: two responses for key entity (1) of Figure 1, the
# eight mentions "The American administration", it1, it2, it3, they1, they2, them, their.
# (The key is that entity alone: this is the only reading that reproduces the MUC column.)
MS_FIG1_KEY = [["administration", "it1", "it2", "it3", "they1", "they2", "them", "their"]]
MS_TABLE2 = {
    "cr1": [["administration", "it1", "it2", "it3"], ["they1", "they2", "them", "their"]],
    "cr2": [["administration", "it1", "it2", "it3"]],
}
# Table 3 (F1 in percent, truncated to two decimals as the reference scorer prints them):
# metric -> (exact F1 of corefscore, printed value).
MS_TABLE3 = {
    "cr1": {
        "muc": (Fr(12, 13), "92.30"),
        "bcub": (Fr(2, 3), "66.66"),
        "ceafm": (Fr(1, 2), "50.00"),
        "ceafe": (Fr(4, 9), "44.44"),
        # The key has a single entity, so it has no non-coreference link and the reference
        # scorer reports the coreference part alone: Fc = 2 * (3/7 * 1) / (3/7 + 1) = 3/5.
        # (A literal reading of Luo et al. 2014, eq. (18), would average in Fn = 0, since the
        # response has non-coreference links, and give 3/10.)
        "blanc": (Fr(3, 5), "60.00"),
    },
    "cr2": {
        "muc": (Fr(3, 5), "60.00"),
        "bcub": (Fr(2, 5), "40.00"),
        "ceafm": (Fr(2, 3), "66.66"),
        "ceafe": (Fr(2, 3), "66.66"),
        # Printed as 32.29, which we cannot reproduce. No link of either side is a
        # non-coreference link, so both the reference scorer and Luo et al. (2014, case (3))
        # give BLANC = Fc with Rc = 6/28, Pc = 1: Fc = 6/17 = 35.29...; the printed value looks
        # like a transposed digit. corefscore's value is asserted.
        "blanc": (Fr(6, 17), "35.29"),
    },
}


# BLANC F under a literal reading of Luo et al. (2014), eq. (18)-(19) and Section 4.1.
MS_TABLE3_BLANC_PAPER_LITERAL = {"cr1": Fr(3, 10), "cr2": Fr(6, 17)}


@pytest.mark.parametrize("response", sorted(MS_TABLE2))
def test_moosavi_strube_2016_table3(response: str) -> None:
    result = run(MS_FIG1_KEY, MS_TABLE2[response])
    for metric, (f_exact, shown) in MS_TABLE3[response].items():
        assert truncated_percent(f_exact) == shown
        assert same(result[metric].f1, f_exact), (response, metric, result[metric].f1)
    blanc = result["blanc"]
    assert isinstance(blanc, BlancScore)
    mentions = {m for c in MS_FIG1_KEY for m in c}
    response_mentions = {m for c in MS_TABLE2[response] for m in c}
    literal = blanc_paper_literal(blanc, mentions, response_mentions)
    assert literal == MS_TABLE3_BLANC_PAPER_LITERAL[response]


def test_moosavi_strube_2016_ceaf_prefers_cr2() -> None:
    """Section 3.3: CEAF prefers cr2 although cr1 makes more correct decisions; the link-based
    metrics (MUC, BLANC) and B3 prefer cr1."""
    cr1 = run(MS_FIG1_KEY, MS_TABLE2["cr1"])
    cr2 = run(MS_FIG1_KEY, MS_TABLE2["cr2"])
    for metric in ("ceafm", "ceafe"):
        assert cr2[metric].f1 > cr1[metric].f1
    for metric in ("muc", "bcub", "blanc"):
        assert cr1[metric].f1 > cr2[metric].f1


# --------------------------------------------------------------------------------------------
# 3. Luo, Pradhan, Recasens & Hovy (2014), BLANC for system mentions


def blanc_paper_literal(
    score: BlancScore, key_mentions: set[str], response_mentions: set[str]
) -> Fr:
    """BLANC F exactly as Luo et al. (2014) define it: eq. (18)-(19) and the boundary cases
    of Section 4.1, computed from corefscore's link counts (which are exact integers)."""
    ck, cr = int(score.coref.recall_den), int(score.coref.precision_den)
    common_c = int(score.coref.recall_num)
    nk, nr = int(score.noncoref.recall_den), int(score.noncoref.precision_den)
    common_n = int(score.noncoref.recall_num)
    if ck == cr == 0 and nk == nr == 0:  # case (1)
        return Fr(int(key_mentions == response_mentions))
    fc = Fr(2 * common_c, ck + cr) if ck + cr else None
    fn = Fr(2 * common_n, nk + nr) if nk + nr else None
    if fc is None:  # case (2)
        assert fn is not None
        return fn
    if fn is None:  # case (3)
        return fc
    return (fc + fn) / 2


# Section 4.2, "Toy Examples". For each: key, response, coreference link counts
# (|Ck ∩ Cr|, |Ck|, |Cr|), non-coreference link counts (|Nk ∩ Nr|, |Nk|, |Nr|),
# (Rc, Pc, Fc), (Rn, Pn, Fn) and the combined BLANC (R, P, F). Where the paper does not print
# a value (the R and P of the combination, the 0/0 parts), it is the reference scorer's, which
# corefscore follows: a 0/0 ratio is 0, and when the key has no coreference link (or no
# non-coreference link) BLANC is the other part alone.
LUO2014_EXAMPLES = {
    # Example 1: key {abc} {d}, response {bc} {de}. Ck = {ab, bc, ac}, Nk = {ad, bd, cd},
    # Cr = {bc, de}, Nr = {bd, be, cd, ce}; Ck ∩ Cr = {bc}, Nk ∩ Nr = {bd, cd};
    # Rc = 1/3, Pc = 1/2, Fc = 2/5; Rn = 2/3, Pn = 2/4, Fn = 4/7; BLANC = 17/35.
    "example 1": (
        ["abc", "d"],
        ["bc", "de"],
        (1, 3, 2),
        (2, 3, 4),
        (Fr(1, 3), Fr(1, 2), Fr(2, 5)),
        (Fr(2, 3), Fr(2, 4), Fr(4, 7)),
        (Fr(1, 2), Fr(1, 2), Fr(17, 35)),
    ),
    # Example 2: key {a}, response {b}: boundary case (1), no link at all: BLANC = 0
    # (the key and response mention sets differ, so the paper's I(Mk = Mr) is 0 as well).
    "example 2": (
        ["a"],
        ["b"],
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
    ),
    # Example 3: key {a}{b}{c}, response {a}{b}{d}: boundary case (2), no coreference link.
    # Nk = {ab, bc, ca}, Nr = {ab, bd, ad}, Nk ∩ Nr = {ab}; Rn = Pn = 1/3; BLANC = Fn = 1/3.
    "example 3": (
        ["a", "b", "c"],
        ["a", "b", "d"],
        (0, 0, 0),
        (1, 3, 3),
        (0, 0, 0),
        (Fr(1, 3), Fr(1, 3), Fr(1, 3)),
        (Fr(1, 3), Fr(1, 3), Fr(1, 3)),
    ),
    # Example 4: key {abc}, response {bc}: boundary case (3), no non-coreference link.
    # Ck = {ab, bc, ca}, Cr = {bc}, Ck ∩ Cr = {bc}; Rc = 1/3, Pc = 1; BLANC = Fc = 2/4 = 1/2.
    "example 4": (
        ["abc"],
        ["bc"],
        (1, 3, 1),
        (0, 0, 0),
        (Fr(1, 3), 1, Fr(1, 2)),
        (0, 0, 0),
        (Fr(1, 3), 1, Fr(1, 2)),
    ),
    # Section 4 (no numbers printed): key {a,b,c} {d,e}, response {b,c} {e,f,g}; "the key
    # coreference link (a,b) is not seen on the response side; ... (c,f) and (f,g) are not in
    # the key". Listing the links: Ck = {ab, ac, bc, de}, Cr = {bc, ef, eg, fg},
    # Nk = {ad, ae, bd, be, cd, ce}, Nr = {be, bf, bg, ce, cf, cg}: Ck ∩ Cr = {bc},
    # Nk ∩ Nr = {be, ce}.
    "section 4": (
        ["abc", "de"],
        ["bc", "efg"],
        (1, 4, 4),
        (2, 6, 6),
        (Fr(1, 4), Fr(1, 4), Fr(1, 4)),
        (Fr(1, 3), Fr(1, 3), Fr(1, 3)),
        (Fr(7, 24), Fr(7, 24), Fr(7, 24)),
    ),
}


@pytest.mark.parametrize("name", sorted(LUO2014_EXAMPLES))
def test_luo2014_blanc_examples(name: str) -> None:
    key, response, c_links, n_links, c_rpf, n_rpf, rpf = LUO2014_EXAMPLES[name]
    blanc = run(key, response, "blanc")["blanc"]
    assert isinstance(blanc, BlancScore)
    what = f"Luo et al. 2014 {name}"
    common, in_key, in_response = c_links
    check_counts(blanc.coref, common, in_key, common, in_response, f"{what}, coreference")
    common, in_key, in_response = n_links
    check_counts(blanc.noncoref, common, in_key, common, in_response, f"{what}, non-coreference")
    check_rpf(blanc.coref, *map(Fr, c_rpf), f"{what}, coreference")
    check_rpf(blanc.noncoref, *map(Fr, n_rpf), f"{what}, non-coreference")
    check_rpf(blanc, *map(Fr, rpf), f"{what}, BLANC")
    # In these examples the reference scorer's rules and the paper's agree.
    key_mentions = {m for c in key for m in c}
    response_mentions = {m for c in response for m in c}
    assert blanc_paper_literal(blanc, key_mentions, response_mentions) == Fr(rpf[2])


# Where the reference scorer (and so corefscore) and a literal reading of Luo et al. (2014,
# Section 4.1) disagree. The scorer decides the boundary cases on the key side only: no key
# coreference link -> BLANC = (Rn, Pn, Fn); no key non-coreference link -> (Rc, Pc, Fc); neither
# -> 0. The paper looks at both sides: Fc alone only when Nk = Nr = ∅ (else Fn = 0 is averaged
# in), Fn alone only when Ck = Cr = ∅, and BLANC = I(Mk = Mr) when there is no link at all.
# Columns: key, response, corefscore's BLANC (R, P, F), the paper-literal F.
LUO2014_DIVERGENCES = {
    # One identical mention on each side: the paper's case (1) gives I(Mk = Mr) = 1.
    "single identical mention": (["a"], ["a"], (0, 0, 0), Fr(1)),
    # Reference test case TC-N-3: an all-singleton key. The scorer gives Fn = 11/13
    # (Rn = 11/15, Pn = 1); the paper's Fc = 2*0/(0 + 4) = 0 is averaged in: 11/26.
    "TC-N-3": (list("abcdef"), ["ab", "cde", "f"], (Fr(11, 15), 1, Fr(11, 13)), Fr(11, 26)),
    # Reference test case TC-M-3: a one-entity key. The scorer gives Fc = 8/19
    # (Rc = 4/15, Pc = 1); the paper averages in Fn = 2*0/(0 + 11) = 0: 4/19.
    "TC-M-3": (["abcdef"], ["ab", "cde", "f"], (Fr(4, 15), 1, Fr(8, 19)), Fr(4, 19)),
}


@pytest.mark.parametrize("name", sorted(LUO2014_DIVERGENCES))
def test_luo2014_boundary_cases_follow_reference_scorer(name: str) -> None:
    key, response, rpf, paper_f = LUO2014_DIVERGENCES[name]
    blanc = run(key, response, "blanc")["blanc"]
    assert isinstance(blanc, BlancScore)
    check_rpf(blanc, *map(Fr, rpf), f"BLANC {name}")
    key_mentions = {m for c in key for m in c}
    response_mentions = {m for c in response for m in c}
    literal = blanc_paper_literal(blanc, key_mentions, response_mentions)
    assert literal == paper_f and literal != Fr(rpf[2])


# --------------------------------------------------------------------------------------------
# 4. A representative handful of further vectors (copied from paper-vectors.json, where they
# were hand-checked). Mostly test cases of the reference scorer (test/TestCases.README and
# test/CorefMetricTestConfig.pm, branch LEA-scorer); TC-J-1, TC-K-1 and TC-L-1 are examples of
# Vilain et al. (1995). x, y, z are twinless response mentions.
# name -> (key, response, {metric: (R, P, F)})

FURTHER_VECTORS: dict[str, tuple[Clusters, Clusters, dict[str, tuple[Fr, Fr, Fr]]]] = {
    # Same as the system-mention example of Pradhan et al. (2014), B3 with no manipulation.
    "TC-A-4": (
        ["a", "bc", "def"],
        ["a", "bcx", "dy", "z"],
        {
            "muc": (Fr(1, 3), Fr(1, 3), Fr(1, 3)),
            "bcub": (Fr(5, 9), Fr(17, 42), Fr(170, 363)),
            "ceafm": (Fr(2, 3), Fr(4, 7), Fr(8, 13)),
            "ceafe": (Fr(11, 15), Fr(11, 20), Fr(22, 35)),
            "lea": (Fr(1, 2), Fr(2, 7), Fr(4, 11)),
            "blanc": (Fr(31, 88), Fr(37, 136), Fr(17, 56)),
        },
    ),
    "TC-A-13": (
        ["a", "bc", "def"],
        ["axycdez"],
        {
            "muc": (Fr(1, 3), Fr(1, 6), Fr(2, 9)),
            "bcub": (Fr(17, 36), Fr(6, 49), Fr(204, 1049)),
            "lea": (Fr(1, 6), Fr(1, 21), Fr(2, 27)),
            "blanc": (Fr(1, 8), Fr(1, 42), Fr(1, 25)),
        },
    ),
    "TC-B-1": (
        ["ab", "cde"],
        ["bcx", "de"],
        {"lea": (Fr(1, 5), Fr(2, 5), Fr(4, 15)), "blanc": (Fr(7, 24), Fr(7, 24), Fr(7, 24))},
    ),
    "TC-M-6": (["abcdef"], ["ab", "cxy", "z"], {"blanc": (Fr(1, 15), Fr(1, 4), Fr(2, 19))}),
    "TC-N-6": (list("abcdef"), ["ab", "cxy", "z"], {"blanc": (Fr(2, 15), Fr(2, 11), Fr(2, 13))}),
    "TC-J-1": (["ABC"], ["AC"], {"muc": (Fr(1, 2), Fr(1), Fr(2, 3))}),
    "TC-K-1": (
        ["BCDEGHJ"],
        ["ABC", "DEF", "GHI"],
        {"muc": (Fr(1, 2), Fr(1, 2), Fr(1, 2)), "lea": (Fr(1, 7), Fr(1, 3), Fr(1, 5))},
    ),
    "TC-L-1": (
        ["ABC", "DEFG"],
        ["AB", "CD", "FGH"],
        {"muc": (Fr(2, 5), Fr(1, 2), Fr(4, 9)), "lea": (Fr(5, 21), Fr(3, 7), Fr(15, 49))},
    ),
    # Pradhan et al. (2014) reference scorer: twinless response mentions cost B3 precision.
    "sysmention_ex2": (["abc"], ["ax", "by", "cz"], {"bcub": (Fr(1, 3), Fr(1, 4), Fr(2, 7))}),
    "sysmention_ex3_spurious_singletons": (
        ["ab"],
        ["ab", "x", "y", "z"],
        {"bcub": (Fr(1), Fr(2, 5), Fr(4, 7))},
    ),
    # Vilain et al. (1995) MUC on the resolution-class example of paper-vectors.json.
    "rc_example_overall": (
        [["m1", "m2", "m3", "m4", "m5"], ["m6", "m7", "m8"], ["m9", "m10"]],
        [["m1", "m4", "m5"], ["m2", "m6", "m8"], ["m3", "m7"], ["m9", "m10"], ["x"]],
        {"muc": (Fr(4, 7), Fr(2, 3), Fr(8, 13))},
    ),
}


@pytest.mark.parametrize("name", sorted(FURTHER_VECTORS))
def test_further_vectors(name: str) -> None:
    key, response, expected = FURTHER_VECTORS[name]
    result = run(key, response)
    for metric, (r, p, f) in expected.items():
        assert f1(r, p) == f or metric == "blanc"  # BLANC F is (Fc + Fn)/2, not 2PR/(P+R)
        check_rpf(result[metric], r, p, f, f"{name} {metric}")


# --------------------------------------------------------------------------------------------
# 5. Every plain vector of ../shared/data/paper-vectors.json (skipped when it is absent)

#: paper-vectors.json metric name -> corefscore metric, for the reference scorer's semantics.
PLAIN_METRICS = {
    "mentions": "mentions",
    "muc": "muc",
    "b3": "bcub",
    "bcub": "bcub",
    "ceaf_phi3": "ceafm",
    "ceafm": "ceafm",
    "ceaf_phi4": "ceafe",
    "ceafe": "ceafe",
    "blanc": "blanc",
    "lea": "lea",
}
#: Sources that describe a variant (B3all, B3_0, B3sys, CEAFsys, MUC-RC, MUC with OPT
#: mentions, anaphor-level scores, CPP, ...) even if the metric field looked plain.
VARIANT_SOURCE_MARKERS = (
    "Stoyanov",
    "Cai & Strube",
    "Reconcile",
    "Rahman",
    "Stanford",
    "corefud",
    "OPT",
    "CPP",
)
#: Fields that only variant vectors carry.
VARIANT_FIELDS = ("optional_key_mentions", "class_members", "all_classes", "mentions")


def _is_plain(vector: dict) -> bool:
    return (
        vector["metric"] in PLAIN_METRICS
        and not any(marker in vector["source"] for marker in VARIANT_SOURCE_MARKERS)
        and not any(field in vector for field in VARIANT_FIELDS)
    )


def test_all_plain_paper_vectors() -> None:
    from tests.conftest import shared_path

    vectors = json.loads(shared_path("data", "paper-vectors.json").read_text())
    plain = [v for v in vectors if _is_plain(v)]
    failures = []
    for v in plain:
        metric = PLAIN_METRICS[v["metric"]]
        score = run(v["key"], v["response"], metric)[metric]
        want = tuple(Fr(v[k]) for k in ("recall", "precision", "f1_exact"))
        got = (score.recall, score.precision, score.f1)
        if not all(same(g, w) for g, w in zip(got, want, strict=True)):
            failures.append(f"{v['name']} {v['metric']}: got {got}, want {want}")
    assert plain, "no plain vector found in paper-vectors.json"
    assert not failures, (
        f"{len(failures)} of {len(plain)} plain reference-scorer vectors disagree "
        f"({len(vectors) - len(plain)} variant vectors skipped):\n" + "\n".join(failures)
    )
