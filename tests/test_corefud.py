"""The CorefUD evaluation (corefscore.corefud): options, defaults, output, pairing.

Agreement with the official scorer, fixture by fixture and on GUM at full
precision, is in ``tests/corefud/``; here: what the options do, the printed
outputs of corefud-scorer on GUM digit for digit, and the exact solver of the
one-to-one pairing against SciPy's on the full matrix.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import corefscore
from corefscore import InputError, UsageError, cli, corefud
from corefscore.evaluation import Evaluation
from corefscore.io import read_corefud
from corefscore.metrics.blanc import score, score_corefud

from .conftest import shared_path

CASES = Path(__file__).resolve().parent / "data" / "corefud" / "cases"
ZEROS = CASES / "06_zeros_moved"
PRADHAN = CASES / "17_pradhan2014_example"


def _pair(case: Path) -> tuple[str, str]:
    return str(case / "key.conllu"), str(case / "response.conllu")


# --------------------------------------------------------------------------------------------
# Options and defaults


def test_two_conllu_files_get_the_corefud_evaluation_with_its_defaults() -> None:
    result = corefscore.score_files(*_pair(PRADHAN))
    assert result.options["compat"] == "corefud"
    assert result.options["matching"] == "head"
    assert result.options["key_singletons"] == result.options["response_singletons"] == "drop"
    assert result.options["zeros"] == "dependent"
    assert list(result.metrics) == ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor", "zero"]
    assert "compat:corefud-v1.2" in result.signature
    assert "|zeros:dependent|" in result.signature
    # Key {a b c} {d e f g}, response {a b} {c d} {f g h i}. MUC recall: {a b c} is cut
    # in 2 parts (3 - 2 = 1), {d e f g} in 3 (e is missed; 4 - 3 = 1): 2/5. Precision:
    # {a b} 1, {c d} 0, {f g h i} 4 - 3 = 1: 2/5.
    muc = result["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (2, 5, 2, 5)


def test_compat_conll_gives_the_reference_scorers_evaluation_of_the_same_files() -> None:
    result = corefscore.score_files(*_pair(PRADHAN), compat="conll")
    assert "compat:conll-v8.01" in result.signature
    assert "mentions" in result.metrics and "mor" not in result.metrics


def test_other_formats_stay_with_the_conll_evaluation(tmp_path: Path) -> None:
    key = tmp_path / "key.jsonl"
    key.write_text('{"doc_key": "d1", "sentences": [["a", "b"]], "clusters": [[[0, 0], [1, 1]]]}\n')
    assert "compat:conll-v8.01" in corefscore.score_files(key, key).signature
    with pytest.raises(InputError, match="scores CoNLL-U files, and this response file is jsonl"):
        corefscore.score_files(PRADHAN / "key.conllu", key, compat="corefud")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"matching": "min-span"}, "matching='min-span' is not a CorefUD matching"),
        ({"metrics": "ace-value"}, "metric ace-value: not in the CorefUD evaluation"),
        ({"duplicates": "first"}, "counts a repeated mention once per entity"),
        ({"zeros": "sideways"}, "zeros='sideways' is not a zero matching"),
        ({"gold_mentions": True}, "gold_mentions=True cannot be used with the CorefUD"),
        ({"cross_document": True}, "cross_document=True cannot be used with the CorefUD"),
    ],
)
def test_options_the_corefud_evaluation_lacks_are_refused(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        Evaluation.create(compat="corefud", **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [{"matching": "partial"}, {"zeros": "linear"}, {"metrics": "mor"}, {"metrics": "zero"}],
)
def test_corefud_options_need_the_corefud_evaluation(options: dict[str, object]) -> None:
    with pytest.raises(UsageError, match="add compat='corefud'"):
        Evaluation.create(**options)  # type: ignore[arg-type]


def test_blanc_is_combined_as_corefud_scorer_combines_it() -> None:
    # No key coreference link, three response ones; non-coreference links 3 of 6
    # found, 3 of 3 right. The reference scorer takes the non-coreference part alone;
    # corefud-scorer averages in the coreference part (recall and precision 0).
    stats = (0.0, 0.0, 0.0, 3.0, 3.0, 6.0, 3.0, 3.0)
    assert (score(stats).recall, score(stats).precision) == (0.5, 1.0)
    assert (score_corefud(stats).recall, score_corefud(stats).precision) == (0.25, 0.5)
    assert score_corefud(stats).f1 == float(Fraction(2, 3) / 2)
    assert score_corefud((0.0,) * 8).f1 == 0
    evaluation = Evaluation.create(compat="corefud", metrics="blanc")
    assert evaluation.metrics[0].combine is score_corefud


def test_a_split_antecedent_to_an_undefined_entity_is_scored(tmp_path: Path) -> None:
    # corefud-scorer crashes (KeyError); its evaluation reads no SplitAnte.
    text = (PRADHAN / "key.conllu").read_text()
    changed = text.replace("Entity=(e2-x-1-)\n", "Entity=(e2-x-1-)|SplitAnte=e7<e9\n", 1)
    key = tmp_path / "key.conllu"
    key.write_text(changed)
    assert corefscore.score_files(key, PRADHAN / "key.conllu")["muc"].f1 == 1


def test_the_scorer_class_takes_corefud_documents() -> None:
    key = read_corefud(ZEROS / "key.conllu")
    response = read_corefud(ZEROS / "response.conllu", side="response")
    scorer = corefscore.CorefScorer(compat="corefud", singletons="keep")
    scorer.update_document(key["d1"], response["d1"])
    by_files = corefscore.score_files(*_pair(ZEROS), singletons="keep")
    assert scorer.compute().metrics == by_files.metrics


# --------------------------------------------------------------------------------------------
# Command line


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_defaults_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _pair(ZEROS)
    code, out, _ = _run(capsys, "score", key, response, "--format", "json")
    default = json.loads(out)
    assert code == 0 and set(default["metrics"]) >= {"mor", "zero", "conll"}
    code, out, _ = _run(capsys, "score", key, response, "--format", "json", "--preset", "crac")
    assert json.loads(out)["metrics"] == default["metrics"]
    code, out, _ = _run(capsys, "score", key, response, "--format", "json", "--preset", "crac23")
    assert json.loads(out)["options"]["zeros"] == "linear"
    code, _, err = _run(capsys, "score", key, response, "--preset", "crac22", "--match", "head")
    assert code == 2 and "--preset crac22 sets --match partial" in err


def test_cli_text_rounds_as_corefud_scorer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "score", *_pair(PRADHAN), "-q")
    assert code == 0
    assert "rounded half to even to 2 decimals, as corefud-scorer prints them" in out
    assert re.search(r"^MOR\s", out, re.MULTILINE) and re.search(r"^zero\s", out, re.MULTILINE)


def test_cli_refuses_what_the_corefud_evaluation_cannot_print(
    capsys: pytest.CaptureFixture[str],
) -> None:
    key, response = _pair(PRADHAN)
    code, _, err = _run(capsys, "score", key, response, "--format", "perl")
    assert code == 2 and "--format corefud" in err
    code, _, err = _run(capsys, "score", key, response, "--compat", "conll", "--format", "corefud")
    assert code == 2 and "CorefUD evaluation's output" in err
    code, _, err = _run(capsys, "score", key, response, "--regimes")
    assert code == 2 and "--compat conll" in err
    code, _, err = _run(capsys, "twins", key, response, "--compat", "corefud")
    assert code == 2 and "works on the CoNLL evaluation" in err
    assert _run(capsys, "twins", key, response)[0] == 0  # auto: the CoNLL evaluation


def test_compare_ranks_with_the_corefud_evaluation(capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _pair(PRADHAN)
    code, out, _ = _run(capsys, "compare", key, key, response, "--format", "json", "--trials", "50")
    assert code == 0
    assert "compat:corefud-v1.2" in json.loads(out)["signature"]


# --------------------------------------------------------------------------------------------
# corefud-scorer's printed outputs on GUM


MODES = {
    "exact": ["--match", "exact"],
    "exact_singletons": ["--match", "exact", "--singletons", "keep"],
    "head": [],
    "partial": ["--match", "partial"],
}


@pytest.mark.parametrize("split", ["dev", "test", "test2"])
@pytest.mark.parametrize("mode", list(MODES))
def test_gum_output_is_corefud_scorers_byte_for_byte(
    split: str, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    gum = shared_path("data", "real", "gum")
    expected = gum / "expected" / f"corefud-scorer.{split}.key_gum.resp_xrenner.{mode}.txt"
    official = [
        line
        for line in expected.read_text("utf-8").splitlines(keepends=True)
        if not line.startswith("WARNING:")
    ]
    key = gum / "pairs" / f"{split}.key_gum.conllu"
    response = gum / "pairs" / f"{split}.resp_xrenner.conllu"
    code, out, _ = _run(
        capsys, "score", str(key), str(response), "--format", "corefud", "-q", *MODES[mode]
    )
    assert code == 0
    assert out == "".join(official)


# --------------------------------------------------------------------------------------------
# The one-to-one pairing: exact where unique, SciPy's choice on ties


def _mention(words: list[tuple[int, float]], head: tuple[int, float]) -> corefud.UDMention:
    word_set = frozenset(words)
    return corefud.UDMention(
        words=word_set,
        first=min(words),
        last=max(words),
        head=head,
        zero=False,
        deps=(),
        identity=(word_set, head),
    )


@st.composite
def _mentions(draw: st.DrawFn) -> list[corefud.UDMention]:
    out = []
    for _ in range(draw(st.integers(0, 7))):
        start = draw(st.integers(1, 6))
        size = draw(st.integers(1, 3))
        words = [(1, float(w)) for w in range(start, start + size)]
        out.append(_mention(words, words[draw(st.integers(0, size - 1))]))
    return sorted(out, key=lambda m: m.order)


@given(keys=_mentions(), responses=_mentions(), kind=st.sampled_from(["head", "partial"]))
def test_the_pairing_is_scipys_on_the_full_matrix(
    keys: list[corefud.UDMention], responses: list[corefud.UDMention], kind: str
) -> None:
    from scipy.optimize import linear_sum_assignment

    ours = corefud._assignment(keys, responses, kind)
    if not keys or not responses:
        assert ours == []
        return
    score_of = corefud._head_score if kind == "head" else corefud._partial_score
    sim = np.array([[score_of(k, r) for r in responses] for k in keys])
    rows, cols = linear_sum_assignment(-sim)
    theirs = [(keys[i], responses[j]) for i, j in zip(rows, cols) if sim[i, j] > 0]
    assert ours == theirs


@given(keys=_mentions(), responses=_mentions())
def test_mor_shares_the_words_of_a_maximum_pairing(
    keys: list[corefud.UDMention], responses: list[corefud.UDMention]
) -> None:
    # One stretch: MOR's shortcuts (identical mentions paired first, one pair, one
    # side) give the maximum of the full assignment, as SciPy finds it.
    from scipy.optimize import linear_sum_assignment

    from corefscore.metrics import mor

    region = sorted(
        [(m, True) for m in keys] + [(m, False) for m in responses], key=lambda x: x[0].order
    )
    if not keys or not responses:
        assert mor._region(region) == 0
        return
    shared = np.array([[len(k.words & r.words) for r in responses] for k in keys])
    rows, cols = linear_sum_assignment(shared, maximize=True)
    assert mor._region(region) == shared[rows, cols].sum()


def test_ties_are_left_to_scipy_and_unique_best_pairings_are_not() -> None:
    a = _mention([(1, 1.0), (1, 2.0)], (1, 2.0))
    b = _mention([(1, 2.0), (1, 3.0)], (1, 2.0))
    c = _mention([(1, 2.0)], (1, 2.0))
    before = dict(corefud.ASSIGNMENT_STATS)
    # Two key mentions, one response mention of their head: 1/2 each, a tie.
    assert len(corefud._assignment([a, b], [c], "head")) == 1
    assert corefud.ASSIGNMENT_STATS["scipy"] == before["scipy"] + 1
    # One key, two responses: 1/2 (c) against 1 (a itself, not exact: other head).
    d = _mention([(1, 1.0), (1, 2.0)], (1, 2.0))
    assert corefud._assignment([a], [c, d], "head") == [(a, d)]
    assert corefud.ASSIGNMENT_STATS["scipy"] == before["scipy"] + 1


def test_option_hints_name_keywords_in_the_library_and_flags_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = CASES / "46_reject_missing_document"
    key, response = _pair(missing)
    with pytest.raises(InputError, match="choose compat='conll' to score them") as caught:
        corefscore.score_files(key, response)
    assert "--compat" not in str(caught.value)
    code, _, err = _run(capsys, "score", key, response)
    assert code == 1 and "choose --compat conll to score them" in err
    other = tmp_path / "key.jsonl"
    other.write_text('{"doc_key": "d1", "sentences": [["a"]], "clusters": []}\n')
    with pytest.raises(InputError, match="or choose compat='conll'"):
        corefscore.score_files(PRADHAN / "key.conllu", other, compat="corefud")


def test_a_mention_repeated_in_one_entity_is_counted_once_with_a_warning() -> None:
    # Response e1 holds "a" twice, e6 "j" twice (and e2/e3 share "e"): the same
    # numbers as with each repeat removed, and one warning line that says so.
    case = CASES / "08_repeated_spans"
    result = corefscore.score_files(*_pair(case), singletons="keep")
    said = [w for w in result.warnings if "repeated in one entity" in w]
    assert said == [
        "document 'd1': 2 response mention(s) repeated in one entity; each counted once "
        "(as the CorefUD scorer does)"
    ]
    # The official scorer's recorded numbers for this setting.
    official = json.loads((case / "expected.json").read_text())["combinations"]
    for name, metric in official["head-keep-dependent"]["metrics"].items():
        if name in result.metrics and "r_num" in metric:
            got = result[name]
            assert (got.recall_num, got.recall_den) == pytest.approx(
                (metric["r_num"], metric["r_den"]), abs=1e-9
            ), name


@pytest.mark.parametrize(
    ("deps", "message"),
    [
        ("9:nsubj", r"DEPS item '9:nsubj' of a mention head names node 9, which is not in its"),
        ("2nsubj", r"bad DEPS item '2nsubj' of a mention head"),
        ("x:nsubj", r"bad DEPS item 'x:nsubj'"),
        # The first bad item is the one named, whichever its fault.
        ("9:nsubj|x", r"DEPS item '9:nsubj' .* names node 9"),
        ("2:nsubj|x|9:obj", r"bad DEPS item 'x'"),
        ("2:nsubj|5.1:obj", r"names node 5.1, which is not in its sentence"),
    ],
)
def test_the_deps_of_every_mention_head_are_checked(
    tmp_path: Path, deps: str, message: str
) -> None:
    # "Maria" (line 4) heads a mention and is no zero: its DEPS is still read, as the
    # official scorer reads it, and a bad one is an error at its line. The same
    # value on a word that heads no mention ("came", line 5) is not read.
    case = CASES / "20_zeros_dependent_deps"
    lines = (case / "key.conllu").read_text().splitlines(keepends=True)
    clean = corefscore.score_files(case / "key.conllu", case / "response.conllu")
    for number, good in ((4, "2:nsubj"), (5, "0:root")):
        bad = lines.copy()
        bad[number - 1] = bad[number - 1].replace(f"\t{good}\t", f"\t{deps}\t")
        assert bad != lines
        key = tmp_path / f"key{number}.conllu"
        key.write_text("".join(bad))
        if number == 5:
            assert corefscore.score_files(key, case / "response.conllu").metrics == clean.metrics
            continue
        with pytest.raises(InputError, match=message) as caught:
            corefscore.score_files(key, case / "response.conllu")
        assert caught.value.line == 4


@pytest.mark.parametrize("singletons", ["drop", "keep"])
def test_the_deps_of_a_singletons_head_are_checked_even_when_it_is_dropped(
    tmp_path: Path, singletons: str
) -> None:
    # e2 ("came") is a singleton: dropped before scoring, but read, as the
    # official scorer reads every mention.
    text = (
        "# newdoc id = s\n# global.Entity = eid-etype-head-other\n# sent_id = s-1\n"
        "1\tMaria\t_\t_\t_\t_\t2\tnsubj\t2:nsubj\tEntity=(e1-person-1-)\n"
        "2\tcame\t_\t_\t_\t_\t0\troot\t{deps}\tEntity=(e2-event-1-)\n"
        "3\tshe\t_\t_\t_\t_\t2\tnsubj\t2:nsubj\tEntity=(e1-person-1-)\n\n"
    )
    key, bad = tmp_path / "key.conllu", tmp_path / "bad.conllu"
    key.write_text(text.format(deps="0:root"))
    bad.write_text(text.format(deps="9:root"))
    assert corefscore.score_files(key, key, singletons=singletons)["muc"].f1 == 1.0
    with pytest.raises(InputError, match="names node 9, which is not in its sentence") as caught:
        corefscore.score_files(bad, key, singletons=singletons)
    assert caught.value.line == 5


def test_a_dropped_singleton_across_sentences_is_still_said(tmp_path: Path) -> None:
    # e2 opens in sentence 1 and closes in sentence 2 (the official scorer stops):
    # a warning, whether singletons are kept or dropped.
    path = tmp_path / "key.conllu"
    path.write_text(
        "# newdoc id = s\n# global.Entity = eid-etype-head-other\n# sent_id = s-1\n"
        "1\tMaria\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1-person-1-)\n"
        "2\tcame\t_\t_\t_\t_\t1\tdep\t_\tEntity=(e2-event-1-\n\n"
        "# sent_id = s-2\n"
        "1\tshe\t_\t_\t_\t_\t0\troot\t_\tEntity=e2)(e1-person-1-)\n\n"
    )
    for singletons in ("drop", "keep"):
        result = corefscore.score_files(path, path, singletons=singletons)
        said = [w for w in result.warnings if "across sentences" in w]
        assert [w.split(":")[1].split(",")[0] for w in said] == [
            " 1 key mention(s) across sentences",
            " 1 response mention(s) across sentences",
        ], singletons
