"""Trust by default: the reference scorer's numbers without options, safe pairing, tokens.

The fixtures are small files of our own; their expected TOTALS are what the
reference scorer v8.01 (``perl scorer.pl all KEY RESPONSE none``) printed for
them, with its ``version:`` and ``Repeated mention`` lines left out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import corefscore
from corefscore import InputError, UsageError
from corefscore.cli import main

# "saw" is a twinless span in two response entities; "her" and "She" are key
# mentions repeated in two response entities each.
KEY = (
    "#begin document (fx); part 000\n"
    "fx\t0\t0\tJohn\t(1)\n"
    "fx\t0\t1\tsaw\t-\n"
    "fx\t0\t2\tMary\t(2)\n"
    "fx\t0\t3\tand\t-\n"
    "fx\t0\t4\the\t(1)\n"
    "fx\t0\t5\twaved\t-\n"
    "fx\t0\t6\tto\t-\n"
    "fx\t0\t7\ther\t(2)\n"
    "fx\t0\t8\tsister\t(3\n"
    "fx\t0\t9\tAnn\t3)\n"
    "\n"
    "fx\t0\t0\tShe\t(3)\n"
    "fx\t0\t1\tsmiled\t-\n"
    "#end document\n"
)
RESPONSE = (
    "#begin document (fx); part 000\n"
    "fx\t0\t0\tJohn\t(1)\n"
    "fx\t0\t1\tsaw\t(4)|(5)\n"
    "fx\t0\t2\tMary\t(1)\n"
    "fx\t0\t3\tand\t-\n"
    "fx\t0\t4\the\t(1)\n"
    "fx\t0\t5\twaved\t-\n"
    "fx\t0\t6\tto\t-\n"
    "fx\t0\t7\ther\t(2)|(4)\n"
    "fx\t0\t8\tsister\t(3\n"
    "fx\t0\t9\tAnn\t3)\n"
    "\n"
    "fx\t0\t0\tShe\t(2)|(3)\n"
    "fx\t0\t1\tsmiled\t-\n"
    "#end document\n"
)
REFERENCE_ALL = (
    "\n"
    "METRIC muc:\n"
    "\n"
    "====== TOTALS =======\n"
    "Identification of Mentions: Recall: (6 / 6) 100%\tPrecision: (6 / 7) 85.71%\tF1: 92.3%\n"
    "--------------------------------------------------------------------------\n"
    "Coreference: Recall: (1 / 3) 33.33%\tPrecision: (1 / 3) 33.33%\tF1: 33.33%\n"
    "--------------------------------------------------------------------------\n"
    "\n"
    "METRIC bcub:\n"
    "\n"
    "====== TOTALS =======\n"
    "Identification of Mentions: Recall: (6 / 6) 100%\tPrecision: (6 / 7) 85.71%\tF1: 92.3%\n"
    "--------------------------------------------------------------------------\n"
    "Coreference: Recall: (4 / 6) 66.66%\tPrecision: (4.16666666666667 / 8) 52.08%\tF1: 58.47%\n"
    "--------------------------------------------------------------------------\n"
    "\n"
    "METRIC ceafm:\n"
    "\n"
    "====== TOTALS =======\n"
    "Identification of Mentions: Recall: (6 / 6) 100%\tPrecision: (6 / 7) 85.71%\tF1: 92.3%\n"
    "--------------------------------------------------------------------------\n"
    "Coreference: Recall: (4 / 6) 66.66%\tPrecision: (4 / 8) 50%\tF1: 57.14%\n"
    "--------------------------------------------------------------------------\n"
    "\n"
    "METRIC ceafe:\n"
    "\n"
    "====== TOTALS =======\n"
    "Identification of Mentions: Recall: (6 / 6) 100%\tPrecision: (6 / 7) 85.71%\tF1: 92.3%\n"
    "--------------------------------------------------------------------------\n"
    "Coreference: Recall: (1.96666666666667 / 3) 65.55%\t"
    "Precision: (1.96666666666667 / 5) 39.33%\tF1: 49.16%\n"
    "--------------------------------------------------------------------------\n"
    "\n"
    "METRIC blanc:\n"
    "\n"
    "====== TOTALS =======\n"
    "Identification of Mentions: Recall: (6 / 6) 100%\tPrecision: (6 / 7) 85.71%\tF1: 92.3%\n"
    "--------------------------------------------------------------------------\n"
    "\n"
    "Coreference:\n"
    "Coreference links: Recall: (1 / 3) 33.33%\tPrecision: (1 / 4) 25%\tF1: 28.57%\n"
    "--------------------------------------------------------------------------\n"
    "Non-coreference links: Recall: (10 / 12) 83.33%\tPrecision: (10 / 19) 52.63%\tF1: 64.51%\n"
    "--------------------------------------------------------------------------\n"
    "BLANC: Recall: (0.583333333333333 / 1) 58.33%\t"
    "Precision: (0.388157894736842 / 1) 38.81%\tF1: 46.54%\n"
    "--------------------------------------------------------------------------\n"
)


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(KEY)
    response.write_text(RESPONSE)
    return key, response


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_default_perl_output_is_the_reference_byte_for_byte(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = pair
    code, out, err = run(
        ["score", str(key), str(response), "--format", "perl", "-m", "muc,bcub,ceafm,ceafe,blanc"],
        capsys,
    )
    assert code == 0
    assert out == REFERENCE_ALL
    # One warning line for the document, saying what was done.
    assert err == (
        "corefscore: warning: document '(fx); part 000': repeated spans, handled as the "
        "reference scorer does; response 2 spans (7, 7), (10, 10) of key mentions: later "
        "copies dropped; response twinless span (1, 1): every copy kept\n"
    )


def test_other_duplicate_policies_are_options(pair: tuple[Path, Path]) -> None:
    key, response = pair
    reference = corefscore.score_files(key, response, metrics="bcub")
    first = corefscore.score_files(key, response, metrics="bcub", duplicates="first")
    # The reference keeps both copies of the twinless "saw": 8 response mentions.
    assert (reference["bcub"].precision_den, first["bcub"].precision_den) == (8, 7)
    assert "|dups:reference|" in reference.signature and "|dups:first|" in first.signature


def test_a_repeated_key_span_is_scored_by_default_and_refused_when_strict(
    tmp_path: Path,
) -> None:
    key = tmp_path / "key.conll"
    key.write_text("#begin document d\nd\t(1)|(2)\nd\t(1)\nd\t(2)\n#end document\n")
    # As the reference scorer: every key copy kept, the response's later copy of a
    # key mention dropped: MUC recall 0 / 2, precision 0 / 1 (perl scorer.pl muc).
    result = corefscore.score_files(key, key, metrics="muc")
    muc = result["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (0, 2, 0, 1)
    with pytest.raises(InputError, match="repeated in key document 'd'"):
        corefscore.score_files(key, key, duplicates="strict")


def test_printed_digits_are_the_reference_digits(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = pair
    _, out, _ = run(["score", str(key), str(response), "-m", "bcub"], capsys)
    # 4/6 prints as 66.66 (truncated, as scorer.pl and published tables), not 66.67.
    assert out.splitlines()[3].split()[:4] == ["B3", "66.66", "52.08", "58.47"]
    _, out, _ = run(
        ["score", str(key), str(response), "-m", "bcub", "--round", "half-even", "--digits", "3"],
        capsys,
    )
    assert out.splitlines()[3].split()[:4] == ["B3", "66.667", "52.083", "58.480"]
    _, out, _ = run(["score", str(key), str(response), "-m", "bcub", "--digits", "0"], capsys)
    assert out.splitlines()[3].split()[:4] == ["B3", "66", "52", "58"]
    code, _, err = run(["score", str(key), str(response), "--digits", "99"], capsys)
    assert code == 2 and "--digits 99 must be between 0 and 12" in err


def _conllu(doc: str) -> str:
    rows = "John saw Mary and he waved to her sister Ann".split()
    lines = [f"# newdoc id = {doc}", "# sent_id = 1"]
    for i, word in enumerate(rows, 1):
        misc = {1: "Entity=(e1)", 5: "Entity=(e1)"}.get(i, "_")
        lines.append(f"{i}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{misc}")
    lines += ["", "# sent_id = 2", "1\tShe\t_\t_\t_\t_\t_\t_\t_\t_",
              "2\tsmiled\t_\t_\t_\t_\t_\t_\t_\t_", ""]  # fmt: skip
    return "\n".join(lines) + "\n"


def test_ids_pair_across_formats_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = tmp_path / "key.conllu", tmp_path / "response.conll"
    key.write_text(_conllu("fx"))
    response.write_text(RESPONSE)
    code, out, err = run(["score", str(key), str(response), "--format", "json"], capsys)
    assert code == 0
    assert "1 document id(s) paired by name across formats, e.g. key 'fx' with response " in err
    assert json.loads(out)["metrics"]["mentions"]["recall_num"] == 2


def test_nothing_pairs_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(KEY)
    response.write_text(RESPONSE.replace("(fx); part 000", "(other); part 000"))
    code, out, err = run(["score", str(key), str(response)], capsys)
    assert (code, out) == (1, "")
    assert err == (
        f"corefscore: error: {response}: no response document pairs with a key document (key "
        "ids e.g. '(fx); part 000'; response ids e.g. '(other); part 000'): the files are not "
        "the same documents, or their ids differ\n"
    )


def test_a_missing_key_document_is_named(tmp_path: Path) -> None:
    key = tmp_path / "key.conll"
    key.write_text(KEY + KEY.replace("(fx)", "(gx)"))
    response = tmp_path / "response.conll"
    response.write_text(RESPONSE)
    result = corefscore.score_files(key, response)
    assert (
        "1 key document(s) not in the response, scored as all missed: '(gx); part 000'"
        in result.warnings
    )


def test_a_deleted_token_line_is_an_error_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "key.conll"
    key.write_text(KEY)
    response = tmp_path / "response.conll"
    response.write_text(RESPONSE.replace("fx\t0\t3\tand\t-\n", ""))
    code, out, err = run(["score", str(key), str(response)], capsys)
    assert (code, out) == (1, "")
    assert err == (
        f"corefscore: error: {response}:5: document '(fx); part 000': key and response tokens "
        "differ (key 12 tokens, response 11, first at sentence 1, token 3 (key 'and', "
        "response 'he')); both must have the same tokens\n"
    )


def test_the_columnar_engine_sends_reference_repeats_to_the_object_engine(
    pair: tuple[Path, Path],
) -> None:
    key, response = pair
    objects = corefscore.score_files(key, response)
    from corefscore.io import read_mentions

    tables = read_mentions(key, side="key"), read_mentions(response, side="response")
    assert corefscore.score_corpora(*tables).metrics == objects.metrics
    with pytest.raises(UsageError, match="needs engine='objects'"):
        corefscore.score_corpora(*tables, engine="columnar")


def test_resampling_has_a_fixed_default_seed(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = pair
    argv = ["score", str(key), str(response), "--bootstrap", "50", "--format", "json"]
    _, first, _ = run(argv, capsys)
    _, second, _ = run(argv, capsys)
    assert first == second
    assert "|bootstrap:50@95%,seed=0|" in json.loads(first)["signature"]
