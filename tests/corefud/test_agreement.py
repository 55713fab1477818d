"""corefscore's CorefUD mode against the official CorefUD scorer (ufal/corefud-scorer v1.2).

Every comparison covers all 12 combinations match={exact,partial,head} x
singletons={keep,drop} x zeros={dependent,linear}, every metric (muc bcub ceafe
ceafm blanc lea mor zero: recall, precision, F1, and numerators/denominators where
both sides have them) and the CoNLL score, at 1e-9.

a. Hand-made fixtures (``tests/data/corefud/cases``) with the official output
   recorded in ``expected.json`` (``record_fixtures.py``): no oracle needed. Also the
   command line (``--format json``, ``--preset crac``, one-line rejections).
b. The official scorer's own test files (``tests/tests-corefud`` of its checkout).
c. The GUM pairs (key_gum vs resp_xrenner, CoNLL-U; ../shared), as given and with
   syntactic heads added (``heads.py``).
d. Seeded perturbations of GUM documents and of synthetic documents with zeros
   (``perturb.py``): 30 pairs, 500 with ``COREFSCORE_TEST_PROFILE=nightly``.
e. Inputs the official scorer rejects: corefscore must raise InputError; where the
   official scorer crashes instead (``oracle.classify``), the test is an xfail, except
   for the deliberate differences of ``differences.py`` (docs/compatibility.md):
   fixtures corefscore scores as the official scorer scores their repaired copy, and
   fixtures it refuses in one line where the official scorer guesses.

b-e need the oracle (``oracle.py``: COREFSCORE_COREFUD_SCORER/COREFSCORE_COREFUD_PYTHON)
and skip without it. Every call into corefscore's CorefUD mode skips with "corefscore
has no CorefUD mode yet" until corefscore accepts ``compat="corefud"``; the tests that
check the oracle, the fixtures and the generators themselves run regardless.

In CI the GUM tests run the test split in 6 combinations (dependent zeros: GUM has no
zero mention, so linear gives the same numbers) and the heads variant in 2; the
nightly profile (or ``COREFSCORE_COREFUD_GUM=all``) runs all 3 splits x 12
combinations x 2 variants.
"""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ..conftest import NIGHTLY, SHARED
from . import harness, oracle, perturb
from .conftest import LazyResults
from .differences import CRASH_POLICY, REFUSED, SCORED_AS_REPAIRED, SCORED_BY_HAND
from .entities import FormatError, parse
from .heads import add_heads_to_file

COMBOS = oracle.COMBINATIONS
CRAC = oracle.CRAC


def _cid(combo: tuple[str, str, str]) -> str:
    return oracle.combo_id(combo)


# =====================================================================================
# a. hand-made fixtures (recorded official output; no oracle needed)
# =====================================================================================
CASE_NAMES = sorted(p.name for p in harness.CASES.iterdir() if (p / "expected.json").exists())


@cache
def expected(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((harness.CASES / case / "expected.json").read_text("utf-8"))
    return data


@cache
def repaired(case: str) -> dict[str, Any]:
    path = harness.CASES / case / "repaired" / "expected.json"
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def test_every_deliberate_difference_has_its_fixture() -> None:
    for case in SCORED_AS_REPAIRED:
        assert all(v["ok"] for v in repaired(case)["combinations"].values()), case
        assert any(not v["ok"] for v in expected(case)["combinations"].values()), case
    for case in REFUSED:
        assert all(v["ok"] for v in expected(case)["combinations"].values()), case


def _paths(case: str) -> tuple[Path, Path]:
    return harness.CASES / case / "key.conllu", harness.CASES / case / "response.conllu"


def _crash_mark(error: dict[str, str]) -> list[pytest.MarkDecorator]:
    """An xfail for a crash corefscore has no documented answer to (CRASH_POLICY)."""
    kind, why = oracle.classify(error)
    if kind != "crash" or why in CRASH_POLICY:
        return []
    return [
        pytest.mark.xfail(
            strict=False,
            reason=f"the official scorer crashes ({why}: {error['type']}); corefscore's "
            "answer is not documented yet",
        )
    ]


def _fixture_params() -> list[Any]:
    params = []
    for case in CASE_NAMES:
        for combo in COMBOS:
            entry = expected(case)["combinations"][_cid(combo)]
            marks = []
            deliberate = case in SCORED_AS_REPAIRED or case in REFUSED or case in SCORED_BY_HAND
            if not entry["ok"] and not deliberate:
                marks += _crash_mark(entry["error"])
            params.append(pytest.param(case, combo, id=f"{case}-{_cid(combo)}", marks=marks))
    return params


def test_fixtures_are_there() -> None:
    assert len(CASE_NAMES) >= 40
    for case in CASE_NAMES:
        data = expected(case)
        assert set(data["combinations"]) == {_cid(c) for c in COMBOS}, case
        assert data["about"], case


@pytest.mark.parametrize(("case", "combo"), _fixture_params())
def test_fixture_agrees(
    case: str, combo: tuple[str, str, str], request: pytest.FixtureRequest
) -> None:
    key, response = _paths(case)
    entry = expected(case)["combinations"][_cid(combo)]
    if case in REFUSED:
        harness.require_corefud()
        with pytest.raises(harness.input_error(), match=re.escape(REFUSED[case])):
            harness.score_ours(key, response, *combo)
        return
    if case in SCORED_BY_HAND:
        result = harness.score_ours(key, response, *combo)
        for metric, counts in SCORED_BY_HAND[case][combo[0]].items():
            got = result.metrics[metric]
            assert (
                got.recall_num,
                got.recall_den,
                got.precision_num,
                got.precision_den,
            ) == counts, (metric, combo)
        assert any("across sentences" in w for w in result.warnings)
        return
    if case in SCORED_AS_REPAIRED and not entry["ok"]:
        # What the official scorer gives when the same content is written so it reads it.
        entry = repaired(case)["combinations"][_cid(combo)]
        assert entry["ok"], entry
    if not entry["ok"]:
        harness.expect_rejection(
            request, entry["error"], lambda: harness.score_ours(key, response, *combo)
        )
        return
    ours = harness.as_dict(harness.score_ours(key, response, *combo))
    diffs = harness.compare(ours, entry)
    assert not diffs, harness.report(f"{case} {_cid(combo)}", ours, entry, diffs)


@pytest.mark.parametrize("case", [c for c in CASE_NAMES if "derivation" in expected(c)])
def test_fixture_hand_derivation(case: str) -> None:
    """The hand derivations (exact fractions) agree with the recorded official numbers."""
    derivation = expected(case)["derivation"]
    for cid in derivation["applies_to"]:
        entry = expected(case)["combinations"][cid]
        for metric, fractions in derivation["fractions"].items():
            if metric == "conll":
                assert abs(Fraction(fractions) - Fraction(entry["conll"])) < 1e-12, (cid, metric)
                continue
            for field, value in fractions.items():
                got = entry["metrics"][metric][field]
                assert abs(Fraction(value) - Fraction(got)) < 1e-12, (
                    cid,
                    metric,
                    field,
                    value,
                    got,
                )


def test_fixture_oracle_reproduces_recorded_numbers(corefud_oracle: oracle.Oracle) -> None:
    """The installed oracle gives exactly the recorded numbers (or errors)."""
    jobs = [j for case in CASE_NAMES for j in oracle.jobs_for(*_paths(case))]
    results = corefud_oracle.run(jobs)
    bad = []
    for job, got in zip(jobs, results):
        case = job.key.parent.name
        want = expected(case)["combinations"][_cid((job.match, job.singletons, job.zeros))]
        if want["ok"] != got["ok"]:
            bad.append(f"{case} {job}: ok {want['ok']} -> {got['ok']}")
        elif not want["ok"]:
            if want["error"] != got["error"]:
                bad.append(f"{case}: {want['error']} -> {got['error']}")
        elif want["metrics"] != got["metrics"] or want.get("conll") != got.get("conll"):
            bad.append(f"{case} {_cid((job.match, job.singletons, job.zeros))}: numbers differ")
    assert not bad, "\n".join(bad)


def test_fixture_rewriting_keeps_the_official_numbers(
    corefud_oracle: oracle.Oracle, tmp_path: Path
) -> None:
    """entities.py reads and rewrites the fixtures without changing what the scorer reads."""
    jobs, wants = [], []
    for case in CASE_NAMES:
        if not all(e["ok"] for e in expected(case)["combinations"].values()):
            continue
        key, response = _paths(case)
        try:
            texts = [parse(p.read_text("utf-8")).render() for p in (key, response)]
        except FormatError:
            continue  # e.g. 24_short_lines: lines of fewer than 10 columns
        folder = tmp_path / case
        folder.mkdir()
        (folder / "key.conllu").write_text(texts[0], "utf-8")
        (folder / "response.conllu").write_text(texts[1], "utf-8")
        for combo in COMBOS:
            jobs.append(oracle.Job(folder / "key.conllu", folder / "response.conllu", *combo))
            wants.append((case, combo))
    results = corefud_oracle.run(jobs)
    bad = []
    for (case, combo), got in zip(wants, results):
        want = expected(case)["combinations"][_cid(combo)]
        if not got["ok"] or got["metrics"] != want["metrics"]:
            bad.append(f"{case} {_cid(combo)}: {got.get('error')}")
    assert len(wants) >= 12 * 25
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------- command line
CLI_CASES = [
    "06_zeros_moved",
    "17_pradhan2014_example",
    "19_grp_two_documents",
    "20_zeros_dependent_deps",
]
CLI_COMBOS = [
    ("head", "drop", "dependent"),
    ("exact", "keep", "linear"),
    ("partial", "keep", "dependent"),
]


@pytest.mark.parametrize("combo", CLI_COMBOS, ids=_cid)
@pytest.mark.parametrize("case", CLI_CASES)
def test_cli_json_agrees(case: str, combo: tuple[str, str, str]) -> None:
    harness.require_cli_corefud()
    code, out, err = harness.run_cli(harness.cli_args(*_paths(case), *combo))
    assert code == 0, err
    ours = harness.json_as_dict(json.loads(out))
    entry = expected(case)["combinations"][_cid(combo)]
    diffs = harness.compare(ours, entry)
    assert not diffs, harness.report(f"CLI {case} {_cid(combo)}", ours, entry, diffs)


@pytest.mark.parametrize("case", CLI_CASES)
def test_cli_preset_crac(case: str) -> None:
    harness.require_cli_corefud()
    key, response = _paths(case)
    argv = ["score", str(key), str(response), "--compat", "corefud", "--preset", "crac"]
    code, out, err = harness.run_cli([*argv, "--format", "json", "-m", ",".join(oracle.METRICS)])
    assert code == 0, err
    ours = harness.json_as_dict(json.loads(out))
    entry = expected(case)["combinations"][_cid(CRAC)]
    diffs = harness.compare(ours, entry)
    assert not diffs, harness.report(f"CLI --preset crac {case}", ours, entry, diffs)


def _rejected_cases() -> list[Any]:
    params = []
    for case in CASE_NAMES:
        entry = expected(case)["combinations"][_cid(CRAC)]
        if not entry["ok"] and case not in SCORED_AS_REPAIRED and case not in SCORED_BY_HAND:
            kind, why = oracle.classify(entry["error"])
            if kind == "crash" and CRASH_POLICY.get(why) == "scored":
                continue
            params.append(pytest.param(case, id=case, marks=_crash_mark(entry["error"])))
    return params


@pytest.mark.parametrize("case", _rejected_cases())
def test_cli_rejects_in_one_line(case: str) -> None:
    harness.require_cli_corefud()
    key, response = _paths(case)
    code, _, err = harness.run_cli(
        ["score", str(key), str(response), "--compat", "corefud", "--preset", "crac"]
    )
    assert code == 1, f"exit {code}; stderr: {err!r}"
    assert len(err.strip().splitlines()) == 1, err


# =====================================================================================
# b. the official scorer's own test files
# =====================================================================================
def _official_pairs() -> list[tuple[str, Path, Path]]:
    where = oracle.locate()
    if isinstance(where, str):
        return []
    base = where[0] / "tests" / "tests-corefud"
    pairs = []
    for response in sorted(base.rglob("*.response")):
        key = response.with_name(re.sub(r"-\d+$", "", response.stem) + ".key")
        if key.exists():
            pairs.append((f"{response.parent.relative_to(base)}/{response.stem}", key, response))
    return pairs


OFFICIAL = _official_pairs()


def _official_params() -> list[Any]:
    if not OFFICIAL:
        return [pytest.param(None, None, id="no-oracle")]
    return [
        pytest.param(name, combo, id=f"{name}-{_cid(combo)}")
        for name, _, _ in OFFICIAL
        for combo in COMBOS
    ]


@pytest.fixture(scope="session")
def official_results(corefud_oracle: oracle.Oracle) -> LazyResults:
    return LazyResults(corefud_oracle, [j for _, k, r in OFFICIAL for j in oracle.jobs_for(k, r)])


def test_official_test_files_found() -> None:
    if not OFFICIAL:
        pytest.skip(oracle.INSTALL)
    # exact-match TC-A..O, head-match, partial-corefud-match, zeros: 100 pairs at 4fd7b0e
    folders = {name.split("/")[0] for name, _, _ in OFFICIAL}
    assert {"exact-match", "head-match", "partial-corefud-match", "zeros"} <= folders
    assert len(OFFICIAL) >= 100


@pytest.mark.parametrize(("name", "combo"), _official_params())
def test_official_test_file_agrees(
    name: str | None, combo: tuple[str, str, str] | None, request: pytest.FixtureRequest
) -> None:
    if name is None or combo is None:
        pytest.skip(oracle.INSTALL)
    harness.require_corefud()
    results: LazyResults = request.getfixturevalue("official_results")
    key, response = next((k, r) for n, k, r in OFFICIAL if n == name)
    official = results.get(oracle.Job(key, response, *combo))
    if not official["ok"]:
        harness.expect_rejection(
            request, official["error"], lambda: harness.score_ours(key, response, *combo)
        )
        return
    ours = harness.as_dict(harness.score_ours(key, response, *combo))
    diffs = harness.compare(ours, official)
    assert not diffs, harness.report(f"{name} {_cid(combo)}", ours, official, diffs)


# =====================================================================================
# c. GUM (../shared), as given and with syntactic heads
# =====================================================================================
GUM = SHARED / "data" / "real" / "gum"
GUM_ALL = NIGHTLY or os.environ.get("COREFSCORE_COREFUD_GUM") == "all"
GUM_SPLITS = ("test", "dev", "test2")
VARIANTS = ("plain", "heads")
CLI_MODES = {  # the official CLI outputs kept in ../shared/data/real/gum/expected
    "exact": ("exact", "drop", "dependent"),
    "exact_singletons": ("exact", "keep", "dependent"),
    "head": ("head", "drop", "dependent"),
    "partial": ("partial", "drop", "dependent"),
}
GUM_CI = {
    ("test", "plain"): [
        *CLI_MODES.values(),
        ("head", "keep", "dependent"),
        ("partial", "keep", "dependent"),
    ],
    ("test", "heads"): [("head", "drop", "dependent"), ("partial", "drop", "dependent")],
}


def _gum_selected(split: str, variant: str, combo: tuple[str, str, str]) -> bool:
    return GUM_ALL or combo in GUM_CI.get((split, variant), [])


def _gum_params() -> list[Any]:
    params = []
    for split in GUM_SPLITS:
        for variant in VARIANTS:
            for combo in COMBOS:
                marks = []
                if not _gum_selected(split, variant, combo):
                    marks.append(
                        pytest.mark.skip(
                            reason="not in the CI selection: COREFSCORE_TEST_PROFILE=nightly "
                            "or COREFSCORE_COREFUD_GUM=all runs it"
                        )
                    )
                params.append(
                    pytest.param(
                        split, variant, combo, id=f"{split}-{variant}-{_cid(combo)}", marks=marks
                    )
                )
    return params


@pytest.fixture(scope="session")
def gum_files(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[Path, Path]]:
    """(split, variant) -> (key, response); the heads variant is written on demand."""
    return _GumFiles(tmp_path_factory)  # type: ignore[return-value]


class _GumFiles(dict):  # type: ignore[type-arg]
    def __init__(self, factory: pytest.TempPathFactory):
        super().__init__()
        self.factory = factory

    def __missing__(self, item: tuple[str, str]) -> tuple[Path, Path]:
        split, variant = item
        pairs = GUM / "pairs"
        key, response = pairs / f"{split}.key_gum.conllu", pairs / f"{split}.resp_xrenner.conllu"
        if not key.exists():
            pytest.skip(f"shared data not available: {key} (set COREFSCORE_SHARED to its folder)")
        if variant == "heads":
            folder = self.factory.mktemp(f"gum-heads-{split}")
            key = add_heads_to_file(key, folder / key.name)
            response = add_heads_to_file(response, folder / response.name)
        self[item] = (key, response)
        return key, response


@pytest.fixture(scope="session")
def gum_results(
    corefud_oracle: oracle.Oracle, gum_files: dict[tuple[str, str], tuple[Path, Path]]
) -> LazyResults:
    if not (GUM / "pairs").exists():
        pytest.skip(f"shared data not available: {GUM} (set COREFSCORE_SHARED to its folder)")
    jobs = [
        oracle.Job(*gum_files[(split, variant)], *combo)
        for split in GUM_SPLITS
        for variant in VARIANTS
        for combo in COMBOS
        if _gum_selected(split, variant, combo)
    ]
    return LazyResults(corefud_oracle, jobs)


@pytest.mark.parametrize(("split", "variant", "combo"), _gum_params())
def test_gum_agrees(
    split: str, variant: str, combo: tuple[str, str, str], request: pytest.FixtureRequest
) -> None:
    harness.require_corefud()
    results: LazyResults = request.getfixturevalue("gum_results")
    key, response = request.getfixturevalue("gum_files")[(split, variant)]
    official = results.get(oracle.Job(key, response, *combo))
    assert official["ok"], official
    ours = harness.as_dict(harness.score_ours(key, response, *combo))
    diffs = harness.compare(ours, official)
    assert not diffs, harness.report(f"GUM {split} {variant} {_cid(combo)}", ours, official, diffs)


def _printed(text: str) -> dict[str, tuple[str, str, str]]:
    found = re.findall(
        r"^(\w+)\nRecall: ([\d.]+)  Precision: ([\d.]+)  F1: ([\d.]+)$", text, re.MULTILINE
    )
    return {name: (r, p, f) for name, r, p, f in found}


@pytest.mark.parametrize("mode", list(CLI_MODES))
@pytest.mark.parametrize("split", GUM_SPLITS)
def test_gum_oracle_prints_what_the_official_cli_printed(
    split: str, mode: str, request: pytest.FixtureRequest
) -> None:
    """The oracle driver's numbers, printed as the CLI prints them, equal the kept CLI outputs."""
    if not _gum_selected(split, "plain", CLI_MODES[mode]):
        pytest.skip("not in the CI selection: COREFSCORE_TEST_PROFILE=nightly runs it")
    path = GUM / "expected" / f"corefud-scorer.{split}.key_gum.resp_xrenner.{mode}.txt"
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    results: LazyResults = request.getfixturevalue("gum_results")
    key, response = request.getfixturevalue("gum_files")[(split, "plain")]
    got = results.get(oracle.Job(key, response, *CLI_MODES[mode]))
    want = _printed(path.read_text("utf-8"))
    assert set(want) == set(oracle.METRICS)
    for name, (r, p, f) in want.items():
        m = got["metrics"][name]
        mine = tuple("%.2f" % (x * 100) for x in (m["recall"], m["precision"], m["f1"]))
        assert mine == (r, p, f), name
    conll = re.search(r"^CoNLL score: ([\d.]+)$", path.read_text("utf-8"), re.MULTILINE)
    assert conll and "%.2f" % (got["conll"] * 100) == conll.group(1)


def test_gum_heads_variant_changes_head_matching(request: pytest.FixtureRequest) -> None:
    """With syntactic heads, head matching finds more (GUM's key heads are first words)."""
    results: LazyResults = request.getfixturevalue("gum_results")
    files = request.getfixturevalue("gum_files")
    plain = results.get(oracle.Job(*files[("test", "plain")], *CRAC))
    heads = results.get(oracle.Job(*files[("test", "heads")], *CRAC))
    assert plain["ok"] and heads["ok"]
    assert heads["conll"] > plain["conll"] + 0.05


# =====================================================================================
# d. randomized differential test (seeded perturbations), e. rejected inputs
# =====================================================================================
N_VALID = 500 if NIGHTLY else 30
N_INVALID = 200 if NIGHTLY else 16


class PerturbedPairs:
    """The first N_VALID pairs the oracle accepts and N_INVALID deliberately invalid pairs."""

    def __init__(self, oracle_: oracle.Oracle, folder: Path, gum: Path | None):
        self.oracle = oracle_
        self.folder = folder
        self.gum = gum
        self._valid: list[tuple[perturb.Pair, Path, Path, list[dict[str, Any]]]] | None = None
        self._invalid: list[tuple[perturb.Pair, Path, Path, list[dict[str, Any]]]] | None = None
        self.rejected_valid: list[tuple[perturb.Pair, Path, Path, list[dict[str, Any]]]] = []

    def _run(
        self, seeds: list[int], invalid: bool
    ) -> list[tuple[perturb.Pair, Path, Path, list[dict[str, Any]]]]:
        pairs = [perturb.generate(s, invalid=invalid, gum=self.gum) for s in seeds]
        files = [
            p.write(self.folder / f"{'invalid' if invalid else 'valid'}-{p.seed}") for p in pairs
        ]
        jobs = [j for k, r in files for j in oracle.jobs_for(k, r)]
        results = self.oracle.run(jobs)
        return [
            (p, k, r, results[12 * i : 12 * i + 12])
            for i, (p, (k, r)) in enumerate(zip(pairs, files))
        ]

    def valid(self, i: int) -> tuple[perturb.Pair, Path, Path, list[dict[str, Any]]]:
        if self._valid is None:
            accepted: list[tuple[perturb.Pair, Path, Path, list[dict[str, Any]]]] = []
            seed = 0
            while len(accepted) < N_VALID and seed < 3 * N_VALID + 10:
                batch = list(range(seed, seed + N_VALID - len(accepted)))
                seed = batch[-1] + 1
                for item in self._run(batch, invalid=False):
                    (accepted if all(r["ok"] for r in item[3]) else self.rejected_valid).append(
                        item
                    )
            self._valid = accepted
        if i >= len(self._valid):
            pytest.fail(
                f"only {len(self._valid)} of the generated pairs were accepted by the oracle"
            )
        return self._valid[i]

    def invalid(self, j: int) -> tuple[perturb.Pair, Path, Path, list[dict[str, Any]]]:
        if self._invalid is None:
            self._invalid = self._run(list(range(N_INVALID)), invalid=True)
        return self._invalid[j]


@pytest.fixture(scope="session")
def perturbed(
    corefud_oracle: oracle.Oracle, tmp_path_factory: pytest.TempPathFactory
) -> PerturbedPairs:
    gum = GUM / "pairs" / "test.key_gum.conllu"
    return PerturbedPairs(
        corefud_oracle, tmp_path_factory.mktemp("corefud-perturbed"), gum if gum.exists() else None
    )


def _save_mismatch(
    factory: pytest.TempPathFactory, pair: perturb.Pair, detail: dict[str, Any]
) -> Path:
    kind = "invalid" if pair.invalid else "valid"
    folder = factory.mktemp(f"corefud-mismatch-{kind}-seed{pair.seed}-{detail['combination']}-")
    pair.write(folder)
    (folder / "mismatch.json").write_text(json.dumps(detail, indent=1), "utf-8")
    return folder


def _compare_pair(
    pair: perturb.Pair,
    key: Path,
    response: Path,
    results: list[dict[str, Any]],
    factory: pytest.TempPathFactory,
) -> list[str]:
    failures = []
    for combo, official in zip(COMBOS, results):
        if not official["ok"]:
            continue
        ours = harness.as_dict(harness.score_ours(key, response, *combo))
        diffs = harness.compare(ours, official)
        if diffs:
            detail = {
                "pair": pair.describe(),
                "combination": _cid(combo),
                "differences": diffs,
                "corefscore": ours,
                "official": official,
            }
            folder = _save_mismatch(factory, pair, detail)
            again = f"python -m tests.corefud.perturb --seed {pair.seed}"
            if pair.invalid:
                again += " --invalid"
            if "gum:" in pair.source:
                again += f" --gum {GUM / 'pairs' / 'test.key_gum.conllu'}"
            failures.append(
                harness.report(
                    f"{pair.describe()}\ncombination {_cid(combo)}", ours, official, diffs
                )
                + f"\nsaved in {folder}; regenerate: {again} --out DIR"
            )
    return failures


@pytest.mark.parametrize("index", range(N_VALID))
def test_differential(
    index: int, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    harness.require_corefud()
    pair, key, response, results = request.getfixturevalue("perturbed").valid(index)
    failures = _compare_pair(pair, key, response, results, tmp_path_factory)
    assert not failures, "\n\n".join(failures)


#: Invalid perturbations that corefscore scores on purpose (differences.py): the warning
#: it must give.
INVALID_SCORED = {
    "no_global_entity": "without a '# global.Entity' declaration",
    "cross_sentence": "across sentences",
}


def _check_scored_invalid(
    kind: str,
    pair: perturb.Pair,
    key: Path,
    response: Path,
    request: pytest.FixtureRequest,
    factory: pytest.TempPathFactory,
) -> None:
    """corefscore scores the pair with a warning, or (no_global_entity, when the
    attributes are not in CorefUD's order) refuses a head that is no number; a pair
    without its declaration scores as the official scorer scores it with the default
    declaration added."""
    for combo in COMBOS:
        try:
            result = harness.score_ours(key, response, *combo)
        except harness.input_error() as error:
            assert kind == "no_global_entity" and "is not a number" in str(error), error
            return
        assert any(INVALID_SCORED[kind] in w for w in result.warnings), (kind, result.warnings)
    if kind != "no_global_entity":
        return  # no repair says the same thing: tests/corefud/differences.py
    folder = factory.mktemp("corefud-repaired")
    repaired = []
    for path in (key, response):
        text = path.read_text("utf-8")
        if "global.Entity" not in text:
            text = re.sub(
                r"^(# newdoc[^\n]*\n)",
                r"\1# global.Entity = eid-etype-head-other\n",
                text,
                count=1,
                flags=re.M,
            )
        repaired.append(folder / path.name)
        repaired[-1].write_text(text, "utf-8")
    corefud_oracle: oracle.Oracle = request.getfixturevalue("corefud_oracle")
    results = corefud_oracle.run(oracle.jobs_for(*repaired))
    failures = _compare_pair(pair, key, response, results, factory)
    assert not failures, "\n\n".join(failures)


def _check_rejected(
    pair: perturb.Pair, key: Path, response: Path, results: list[dict[str, Any]],
    request: pytest.FixtureRequest, factory: pytest.TempPathFactory,
) -> None:  # fmt: skip
    # Combinations the official scorer accepts are compared first (e.g. a zero without
    # DEPS only breaks the dependent method); then every rejection must be one.
    failures = _compare_pair(pair, key, response, results, factory)
    assert not failures, "\n\n".join(failures)
    kind = (pair.invalid or "").split(":")[0]
    if kind == "head_not_integer" and "head value ''" in (pair.invalid or ""):
        # An empty head value is no head (differences.py, case 42): scored.
        for combo in COMBOS:
            harness.score_ours(key, response, *combo)
        return
    if kind in INVALID_SCORED:
        _check_scored_invalid(kind, pair, key, response, request, factory)
        return
    errors = [(combo, r["error"]) for combo, r in zip(COMBOS, results) if not r["ok"]]
    for combo, error in errors:
        crash, why = oracle.classify(error)
        policy = CRASH_POLICY.get(why) if crash == "crash" else "refused"
        if policy == "scored":
            harness.score_ours(key, response, *combo)  # documented: scored, no exception
            continue
        if policy is None:
            harness.mark_if_crash(request, error)
        try:
            harness.score_ours(key, response, *combo)
        except harness.input_error():
            continue
        pytest.fail(
            f"{pair.describe()}\ncombination {_cid(combo)}: the official scorer refuses "
            f"({error['type']}: {error['message'][:200]}), corefscore scored it"
        )


@pytest.mark.parametrize("index", range(N_INVALID))
def test_rejected_perturbation(
    index: int, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    harness.require_corefud()
    pair, key, response, results = request.getfixturevalue("perturbed").invalid(index)
    _check_rejected(pair, key, response, results, request, tmp_path_factory)


def test_rejected_during_generation(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Pairs meant to be valid that the oracle rejected (kept out of test_differential)."""
    harness.require_corefud()
    pool: PerturbedPairs = request.getfixturevalue("perturbed")
    pool.valid(0)
    if not pool.rejected_valid:
        pytest.skip("the oracle accepted every generated pair")
    for pair, key, response, results in pool.rejected_valid:
        _check_rejected(pair, key, response, results, request, tmp_path_factory)


def test_perturbed_pairs_are_mostly_valid(request: pytest.FixtureRequest) -> None:
    """The generator works: the oracle accepts the pairs meant to be valid, rejects the others."""
    pool: PerturbedPairs = request.getfixturevalue("perturbed")
    pool.valid(0)
    assert len(pool.rejected_valid) <= N_VALID // 10, [
        p.describe() for p, *_ in pool.rejected_valid
    ]
    rejected = sum(not all(r["ok"] for r in pool.invalid(j)[3]) for j in range(N_INVALID))
    assert rejected >= N_INVALID * 0.8
