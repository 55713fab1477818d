"""Regenerate expected.json: the reference scorer's real outputs on these fixtures.

    COREFSCORE_PERL_SCORER=/path/to/reference-coreference-scorers/scorer.pl \\
    COREFSCORE_PERL_SCORER_LEA=/path/to/LEA-scorer-branch/scorer.pl \\
    python tests/data/scorer_pl/capture.py

Each run is ``perl SCORER ARGS`` in this folder (file arguments are relative to
it), stdout and stderr captured apart (or merged, for ``merged`` runs). The
module path in the version line and in die messages is written as
``<scorer>/lib/CorScorer.pm`` and ``lib/CorScorer.pm`` (what ``perl
scorer.pl`` run inside the scorer's folder prints). Several documents are
listed in Perl's hash order, which is random per process: runs that list
documents use a ``PERL_HASH_SEED`` (with ``PERL_PERTURB_KEYS=0``) under which
that order is the files' order, and runs that do not are checked to give the
same bytes under several seeds.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

METRICS = ["muc", "bcub", "ceafm", "ceafe", "blanc", "all"]
ALPHA = "(alpha); part 000"

# (name, args, options); options: lea (LEA branch), merged (stderr into stdout)
RUNS: list[tuple[str, list[str], dict[str, bool]]] = []


def add(name: str, *args: str, lea: bool = False, merged: bool = False) -> None:
    RUNS.append((name, list(args), {"lea": lea, "merged": merged}))


for m in METRICS:
    add(f"three_{m}_none", m, "three.key", "three.response", "none")
    add(f"three_{m}_omitted", m, "three.key", "three.response")
    add(f"three_{m}_docid", m, "three.key", "three.response", ALPHA)
    add(f"three_{m}_nosuchdoc", m, "three.key", "three.response", "nosuch")
    add(f"repeats_{m}_none", m, "repeats.key", "repeats.response", "none")
    add(f"repeats_{m}_omitted", m, "repeats.key", "repeats.response")
    add(f"spaces_{m}_omitted", m, "spaces.key", "spaces.response")
for m in ["muc", "bcub", "ceafe", "lea", "all", "blanc"]:
    add(f"lea_three_{m}_none", m, "three.key", "three.response", "none", lea=True)
    add(f"lea_three_{m}_omitted", m, "three.key", "three.response", lea=True)
    add(f"lea_repeats_{m}_docid", m, "repeats.key", "repeats.response", "(rep); part 000", lea=True)
add("lea_usage", lea=True)
add("lea_ebcub", "ebcub", "repeats.key", "repeats.response", "none", lea=True)
add("lea_metric_LEA", "LEA", "three.key", "three.response", "none", lea=True)
# argv
add("usage_noargs")
add("usage_1arg", "muc")
add("usage_2args", "muc", "three.key")
add("usage_2args_badmetric", "foo", "three.key")
for bad in ["foo", "lea", "xmuc", "", " muc"]:
    add(
        f"invalid_metric_{bad.strip() or 'empty'}{'_space' if bad.startswith(' ') else ''}",
        bad,
        "three.key",
        "three.response",
        "none",
    )
add("invalid_metric_missing_files", "foo", "missing.key", "missing.response")
for variant in ["MUC", "Muc", "BCUB", "CEAFM", "CeafE", "Blanc", "BLANC"]:
    add(f"case_{variant}_none", variant, "three.key", "three.response", "none")
add("case_MUC_omitted", "MUC", "three.key", "three.response")
add("case_Blanc_docid", "Blanc", "three.key", "three.response", ALPHA)
for unknown in ["ALL", "All", "mucx", "muc2", "blancx", "bcubed"]:
    add(f"unknown_{unknown}_none", unknown, "repeats.key", "repeats.response", "none")
add("unknown_ALL_omitted", "ALL", "three.key", "three.response")
add("unknown_mucx_docid", "mucx", "three.key", "three.response", ALPHA)
add("unknown_mucx_nosuchdoc", "mucx", "three.key", "three.response", "nosuch")
add("unknown_mucx_empty_key", "mucx", "empty.conll", "three.response", "none")
add("five_args", "muc", "three.key", "three.response", "none", "extra")
add("six_args_docid", "ceafe", "three.key", "three.response", ALPHA, "x", "y")
add("docid_NONE", "muc", "three.key", "three.response", "NONE")
add("docid_emptystring", "muc", "three.key", "three.response", "")
add("docid_no_part", "muc", "three.key", "three.response", "(alpha)")
add("docid_only_in_key", "bcub", "three.key", "three.response", "(gamma); part 000")
add("docid_only_in_response", "bcub", "three.key", "three.response", "(delta); part 000")
# files
for m in ["muc", "blanc", "all"]:
    add(f"missing_key_{m}_none", m, "missing.key", "three.response", "none")
    add(f"missing_response_{m}_omitted", m, "three.key", "missing.response")
    add(f"missing_response_{m}_docid", m, "three.key", "missing.response", ALPHA)
add("missing_key_docid", "muc", "missing.key", "three.response", ALPHA)
add("key_is_directory", "muc", ".", "three.response", "none")
add("response_is_directory_mucx", "mucx", "three.key", ".", "none")
add("empty_key_none", "muc", "empty.conll", "three.response", "none")
add("empty_key_omitted", "blanc", "empty.conll", "three.response")
add("empty_response_omitted", "ceafe", "three.key", "empty.conll")
add("same_file_twice", "all", "three.key", "three.key", "none")
add("swapped", "bcub", "three.response", "three.key", "none")
add("spaced_file_names", "muc", " three.key", "<three.response ", "none")
# repeated mentions and the refusal
for m in ["muc", "ceafm", "all"]:
    add(f"rep6_{m}_none", m, "rep6.key", "rep6.response", "none")
    add(f"rep11_{m}_none", m, "rep11.key", "rep11.response", "none")
add("rep11_bcub_omitted", "bcub", "rep11.key", "rep11.response")
add("rep6_all_omitted", "all", "rep6.key", "rep6.response")
add("rep6_all_docid", "all", "rep6.key", "rep6.response", "(many); part 000")
add("rep11_muc_none_merged", "muc", "rep11.key", "rep11.response", "none", merged=True)
add("rep6_all_none_merged", "all", "rep6.key", "rep6.response", "none", merged=True)
# parse errors
add("bad_close_muc_none", "muc", "bad_close.key", "three.response", "none")
add("bad_close_all_omitted", "all", "bad_close.key", "three.response")
add("bad_close_docid", "ceafm", "three.key", "bad_close.key", "(bad); part 000")
add("unclosed_muc_omitted", "muc", "unclosed.key", "three.response")
add("unclosed_response_none", "bcub", "three.key", "unclosed.key", "none")
add("unclosed_merged", "muc", "unclosed.key", "three.response", merged=True)
# more than PerlIO's 8 KiB of stdout before the die (merged, part of it comes out first)
add("big_bad_muc_omitted", "muc", "big.key", "big_bad.response")
for m in ["muc", "blanc", "all"]:
    add(f"noend_{m}_none", m, "noend.key", "noend.response", "none")
add("noend_blanc_omitted", "blanc", "noend.key", "noend.response")
add("noend_ceafe_docid", "ceafe", "noend.key", "noend.response", "(noend); part 000")


def perl(scorer: Path, args: list[str], *, merged: bool, seed: int) -> tuple[bytes, bytes, int]:
    # PERL_HASH_SEED is read as hexadecimal; spread the seeds over its range.
    env = dict(os.environ, PERL_HASH_SEED=f"{seed * 0x9E3779B1 % 2**32:08x}", PERL_PERTURB_KEYS="0")
    p = subprocess.run(
        ["perl", str(scorer), *args],
        cwd=HERE,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merged else subprocess.PIPE,
    )
    lib = str(scorer.parent / "lib").encode()
    real = os.path.realpath(scorer.parent / "lib").encode()

    def clean(data: bytes) -> bytes:
        data = re.sub(rb"version: (\S+) " + re.escape(real), rb"version: \1 <scorer>/lib", data)
        return data.replace(lib + b"/CorScorer.pm", b"lib/CorScorer.pm")

    return clean(p.stdout), clean(p.stderr or b""), p.returncode


def file_order(path: Path) -> list[bytes]:
    names = re.findall(rb"^#\s*begin document (.*?)\r?$", path.read_bytes(), re.MULTILINE)
    return list(dict.fromkeys(names))


def capture(name: str, args: list[str], options: dict[str, bool]) -> dict[str, object]:
    variable = "COREFSCORE_PERL_SCORER_LEA" if options["lea"] else "COREFSCORE_PERL_SCORER"
    scorer = Path(os.environ[variable])
    key = HERE / args[1].strip().lstrip("<").strip() if len(args) > 2 else None
    wanted = file_order(key) if key is not None and key.is_file() else []
    if len(wanted) <= 1:
        return _record(args, options, perl(scorer, args, merged=options["merged"], seed=0))
    if len(args) == 3:  # documents are listed: find a hash order that is the file order
        for seed in range(200):
            out = perl(scorer, args, merged=options["merged"], seed=seed)
            lines = [line for line in out[0].split(b"\n") if line.startswith(b"====> ")]
            shown = [line[6:-1] for line in lines[0::2]]
            if shown == (wanted * 10)[: len(shown)]:
                return _record(args, options, out)
        raise SystemExit(f"{name}: no seed lists the documents in file order")
    outputs = {perl(scorer, args, merged=options["merged"], seed=seed) for seed in range(5)}
    if len(outputs) != 1:
        raise SystemExit(f"{name}: the output depends on Perl's hash order")
    return _record(args, options, outputs.pop())


def _record(
    args: list[str], options: dict[str, bool], out: tuple[bytes, bytes, int]
) -> dict[str, object]:
    return {
        "args": args,
        "lea": options["lea"],
        "merged": options["merged"],
        "stdout": out[0].decode("utf-8"),
        "stderr": out[1].decode("utf-8"),
        "rc": out[2],
    }


def main() -> None:
    for var in ("COREFSCORE_PERL_SCORER", "COREFSCORE_PERL_SCORER_LEA"):
        if var not in os.environ:
            raise SystemExit(f"set {var} to a reference scorer.pl")
    runs = {name: capture(name, args, options) for name, args, options in RUNS}
    text = json.dumps({"about": __doc__.split("\n\n")[0].strip(), "runs": runs}, indent=1)
    (HERE / "expected.json").write_text(text + "\n", encoding="utf-8")
    print(f"{len(runs)} runs written to {HERE / 'expected.json'}", file=sys.stderr)


if __name__ == "__main__":
    main()
