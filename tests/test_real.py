"""Real gold files and real system outputs against the reference scorer's outputs.

Data: ../shared/data/real (see each folder's PROVENANCE.md). Every block of
``--format perl`` output must equal the reference's: same labels, same
denominators, same truncated percentages, numerators within 1e-12 relative.
The 15th significant digit of a float numerator may differ, because the
reference sums documents in Perl's random hash order (its own output varies
there from run to run); corefscore's corpus sums are correctly rounded.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import SHARED, shared_path

REAL = SHARED / "data" / "real"
LINE = re.compile(
    r"^(?P<label>[A-Za-z -]+): Recall: \((?P<rn>\S+) / (?P<rd>\S+)\) (?P<rp>\S+)%\t"
    r"Precision: \((?P<pn>\S+) / (?P<pd>\S+)\) (?P<pp>\S+)%\tF1: (?P<f>\S+)%$"
)


def _blocks(text: str) -> list[str | dict[str, str]]:
    """Output lines, with score lines parsed; version and repeat notices dropped."""
    out: list[str | dict[str, str]] = []
    for line in text.splitlines():
        if line.startswith(("version:", "Repeated mention")):
            continue
        m = LINE.match(line)
        out.append(m.groupdict() if m else line)
    return out


def _same(ours: str, reference: str) -> None:
    a, b = _blocks(ours), _blocks(reference)
    assert len(a) == len(b), "different number of lines"
    for x, y in zip(a, b):
        if isinstance(x, str) or isinstance(y, str):
            assert x == y
            continue
        for key in ("label", "rd", "pd", "rp", "pp", "f"):
            assert x[key] == y[key], (x, y)
        for key in ("rn", "pn"):
            assert math.isclose(float(x[key]), float(y[key]), rel_tol=1e-12), (x, y)


def _score(key: Path, response: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "corefscore", "score", str(key), str(response), *args],
        capture_output=True,
        text=True,
        check=False,
    )


def _gum_cases() -> list[tuple[str, str, str, str]]:
    if not (REAL / "gum" / "expected").exists():
        return []
    cases = []
    pattern = re.compile(r"refscorer_v8\.01\.(\w+)\.(key_\w+)\.(resp_\w+)(?:\.(\w+))?\.txt")
    for path in sorted((REAL / "gum" / "expected").glob("refscorer_v8.01.*.txt")):
        m = pattern.fullmatch(path.name)
        assert m, path.name
        split, key, resp, metric = m.groups()
        text = path.read_text()
        if metric is None and text.count("METRIC ") < 5:
            continue  # the reference aborted part-way ("too many repeated mentions")
        cases.append((path.name, split, key, resp))
    return cases


# Where the reference's own summation order (Perl hash order, random per run)
# printed a 15th digit that the correctly rounded sum does not: the key-vs-key
# CEAFe numerator 689.436388891667 (fsum: ...6675, printed ...668).
ORDER_DIFFERENCES = {"refscorer_v8.01.test.key_gum.resp_ontogum.ceafe.txt"}


@pytest.mark.parametrize(("name", "split", "key", "resp"), _gum_cases())
def test_gum_pairs_default_perl_output(name: str, split: str, key: str, resp: str) -> None:
    """Without any option, ``--format perl`` prints the reference's TOTALS byte for byte."""
    folder = shared_path("data", "real", "gum")
    expected = (folder / "expected" / name).read_text()
    metric = name.split(".")[-2] if name.count(".") == 6 else "muc,bcub,ceafm,ceafe,blanc"
    response_file = resp.replace("resp_ontogum", "key_ontogum")
    proc = _score(
        folder / "pairs" / f"{split}.{key}.conll",
        folder / "pairs" / f"{split}.{response_file}.conll",
        "--format",
        "perl",
        "-m",
        metric,
    )
    assert proc.returncode == 0, proc.stderr
    reference = "".join(
        line
        for line in expected.splitlines(keepends=True)
        if not line.startswith(("version:", "Repeated mention"))
    )
    if name in ORDER_DIFFERENCES:
        assert proc.stdout != reference
        _same(proc.stdout, expected)
    else:
        assert proc.stdout == reference


def test_gum_strict_policy_refuses_repeated_key_spans() -> None:
    folder = shared_path("data", "real", "gum")
    proc = _score(
        folder / "pairs" / "dev.key_ontogum.conll",
        folder / "pairs" / "dev.resp_xrenner.conll",
        "--duplicates",
        "strict",
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert re.match(
        r"corefscore: error: .*dev\.key_ontogum\.conll:3262: span \(629, 636\) repeated in key "
        r"document '\(GUM_bio_emperor\); part 000', in entities \d+ and \d+; use --duplicates",
        lines[0],
    ), lines[0]


@pytest.mark.parametrize("system", ["dutchcoref", "coreawebservice"])
def test_dutch_knack(system: str) -> None:
    folder = shared_path("data", "real", "dutchcoref_knack")
    proc = _score(
        folder / "key" / "knack_file7.gold.conll",
        folder / "response" / f"knack_file7.{system}.conll",
        "--format",
        "perl",
        "-m",
        "muc,bcub,ceafm,ceafe,blanc",
    )
    assert proc.returncode == 0, proc.stderr
    _same(proc.stdout, (folder / "expected" / f"refscorer_v8.01.{system}.txt").read_text())


@pytest.mark.parametrize(("key", "resp"), [("lee", "clark"), ("clark", "lee")])
@pytest.mark.parametrize("variant", ["response_tsv", "response"])
def test_wiki_system_pairs(key: str, resp: str, variant: str) -> None:
    """The tab-separated copies and the original 3-space-separated files score alike."""
    folder = shared_path("data", "real", "model_based_coref_wiki")
    suffix = ".tsv.conll" if variant == "response_tsv" else ".conll"
    proc = _score(
        folder / variant / f"{key}.wiki-grounded-output{suffix}",
        folder / variant / f"{resp}.wiki-grounded-output{suffix}",
        "--format",
        "perl",
        "-m",
        "muc,bcub,ceafm,ceafe,blanc",
    )
    assert proc.returncode == 0, proc.stderr
    _same(
        proc.stdout,
        (folder / "expected" / f"refscorer_v8.01.key_{key}.resp_{resp}.txt").read_text(),
    )


@pytest.mark.parametrize("key", ["lee", "clark"])
def test_wiki_repeated_mentions_scored_with_warning(key: str) -> None:
    """The reference refuses this output (36 repeated mentions); corefscore scores it."""
    folder = shared_path("data", "real", "model_based_coref_wiki")
    expected = (folder / "expected" / f"refscorer_v8.01.key_{key}.resp_aralikatte.txt").read_text()
    assert "refusing to score" in expected
    proc = _score(
        folder / "response_tsv" / f"{key}.wiki-grounded-output.tsv.conll",
        folder / "response_tsv" / "aralikatte.wiki-grounded-output.tsv.conll",
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    assert "repeated spans, handled as the reference scorer does" in proc.stderr
    assert '"muc"' in proc.stdout
