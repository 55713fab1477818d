"""corefscore's side of the CorefUD agreement tests, and the comparison with the oracle.

Every call into corefscore's CorefUD mode goes through :func:`score_ours` (library)
or :func:`run_cli` (command line). Until corefscore accepts ``compat="corefud"``
(``--compat corefud``) they skip with :data:`NO_MODE`, so the harness stays green
and turns into real tests when the mode lands.

The API used (the lead's specification):

* ``corefscore.score_files(key, response, compat="corefud", matching=M,
  singletons=S, zeros=Z, metrics=[...])``, M in exact/partial/head, S in keep/drop,
  Z in dependent/linear;
* ``result.metrics[name]`` with ``recall``, ``precision``, ``f1`` (fractions) and
  ``recall_num``/``recall_den``/``precision_num``/``precision_den``, for ``muc bcub
  ceafe ceafm blanc lea mor zero``; BLANC's ``recall``/``precision``/``f1`` are the
  combined values (its parts, if exposed as ``coref``/``noncoref``, are compared with
  the official ``blancc``/``blancn``); ``result.conll`` = mean F1 of MUC, B³, CEAFe;
* ``corefscore score KEY RESP --compat corefud --match M --singletons S --zeros Z
  --format json`` (the same numbers under ``"metrics"``), ``--preset crac`` = head,
  drop, dependent;
* inputs the official scorer rejects raise ``corefscore.errors.InputError`` (exit 1,
  one line).
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from . import oracle
from .differences import CRASH_POLICY

TOLERANCE = 1e-9
NO_MODE = "corefscore has no CorefUD mode yet"
DATA = Path(__file__).resolve().parents[1] / "data" / "corefud"
CASES = DATA / "cases"
PROBE = CASES / "17_pradhan2014_example" / "key.conllu"
COUNTS = (
    ("r_num", "recall_num"),
    ("r_den", "recall_den"),
    ("p_num", "precision_num"),
    ("p_den", "precision_den"),
)
BLANC_PARTS = (("blancc", "coref"), ("blancn", "noncoref"))


# ------------------------------------------------------------------ support
def _mentions_compat(error: BaseException) -> bool:
    return "compat" in str(error) or "zeros" in str(error)


@cache
def corefud_support() -> str | None:
    """None if corefscore has a CorefUD mode, else why not."""
    import corefscore

    try:
        if "compat" in inspect.signature(corefscore.score_files).parameters:
            return None
    except (TypeError, ValueError):  # pragma: no cover - not introspectable
        pass
    try:
        from corefscore import evaluation

        options = getattr(evaluation, "EvaluationOptions", None)
        if options is not None and "compat" in getattr(options, "__annotations__", {}):
            return None
    except ImportError:  # pragma: no cover
        pass
    try:
        corefscore.score_files(
            PROBE, PROBE, compat="corefud", matching="head", singletons="drop", zeros="dependent"
        )
    except Exception as e:  # an unknown option: UsageError / TypeError
        if _mentions_compat(e) or isinstance(e, TypeError):
            return f"{NO_MODE} ({type(e).__name__}: {str(e)[:100]})"
    return None


def require_corefud() -> None:
    reason = corefud_support()
    if reason:
        pytest.skip(reason)


def input_error() -> type[BaseException]:
    from corefscore.errors import InputError

    return InputError


# ---------------------------------------------------------------- scoring
def score_ours(key: Path, response: Path, match: str, singletons: str, zeros: str) -> Any:
    """corefscore's CorefUD result (skips when there is no CorefUD mode)."""
    require_corefud()
    import corefscore

    return corefscore.score_files(
        key,
        response,
        compat="corefud",
        matching=match,
        singletons=singletons,
        zeros=zeros,
        metrics=list(oracle.METRICS),
    )


def _score_dict(score: Any) -> dict[str, float]:
    d = {"recall": float(score.recall), "precision": float(score.precision), "f1": float(score.f1)}
    for ours_name, theirs in COUNTS:
        d[ours_name] = float(getattr(score, theirs))
    return d


def as_dict(result: Any) -> dict[str, Any]:
    """A corefscore result in the oracle's layout."""
    metrics: dict[str, Any] = {}
    for name in oracle.METRICS:
        score = result.metrics[name]
        d = _score_dict(score)
        if name == "blanc":
            for key, _ in COUNTS:
                d.pop(key)  # combined values over a denominator of 1: not the official counts
            parts = {
                o: getattr(score, a) for o, a in BLANC_PARTS if getattr(score, a, None) is not None
            }
            if parts:
                d["sub"] = {o: _score_dict(p) for o, p in parts.items()}
        metrics[name] = d
    return {"ok": True, "metrics": metrics, "conll": result.conll}


def json_as_dict(payload: dict[str, Any]) -> dict[str, Any]:
    """The ``--format json`` output in the oracle's layout."""
    metrics: dict[str, Any] = {}
    for name in oracle.METRICS:
        m = payload["metrics"][name]
        d = {k: m[k] for k in ("recall", "precision", "f1")}
        if name != "blanc":
            for ours_name, theirs in COUNTS:
                d[ours_name] = m[theirs]
        else:
            parts = {o: m[a] for o, a in BLANC_PARTS if isinstance(m.get(a), dict)}
            if parts:
                d["sub"] = {
                    o: {
                        **{k: p[k] for k in ("recall", "precision", "f1")},
                        **{x: p[y] for x, y in COUNTS},
                    }
                    for o, p in parts.items()
                }
        metrics[name] = d
    conll = payload["metrics"].get("conll")
    return {
        "ok": True,
        "metrics": metrics,
        "conll": conll["f1"] if isinstance(conll, dict) else conll,
    }


def _close(a: float, b: float) -> bool:
    return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= TOLERANCE


def compare(ours: dict[str, Any], official: dict[str, Any]) -> list[str]:
    """Every field where corefscore and the official scorer differ by more than 1e-9."""
    diffs: list[str] = []

    def check(label: str, mine: Any, theirs: Any) -> None:
        if mine is None or theirs is None:
            if mine is not theirs:
                diffs.append(f"{label}: ours={mine!r} official={theirs!r}")
            return
        if not _close(float(mine), float(theirs)):
            diff = float(mine) - float(theirs)
            diffs.append(f"{label}: ours={mine!r} official={theirs!r} (diff {diff:.3g})")

    for name, theirs in official["metrics"].items():
        mine = ours["metrics"].get(name)
        if mine is None:
            diffs.append(f"{name}: missing in corefscore's result")
            continue
        for field in ("recall", "precision", "f1", "r_num", "r_den", "p_num", "p_den"):
            if field in theirs and field in mine:
                check(f"{name}.{field}", mine[field], theirs[field])
        for part, sub in theirs.get("sub", {}).items():
            if part in mine.get("sub", {}):
                for field in ("recall", "precision", "f1", "r_num", "r_den", "p_num", "p_den"):
                    check(f"{name}.{part}.{field}", mine["sub"][part][field], sub[field])
    if "conll" in official:
        check("conll", ours.get("conll"), official["conll"])
    return diffs


def report(
    what: str, ours: dict[str, Any] | None, official: dict[str, Any], diffs: list[str]
) -> str:
    shown = {
        k: official[k] for k in ("metrics", "conll", "documents", "first_warnings") if k in official
    }
    return (
        f"{what}: {len(diffs)} difference(s)\n  "
        + "\n  ".join(diffs[:40])
        + f"\ncorefscore: {json.dumps(ours, sort_keys=True)}"
        + f"\nofficial:   {json.dumps(shown, sort_keys=True)}"
    )


# ---------------------------------------------------------------- rejections
def expect_rejection(
    request: pytest.FixtureRequest, error: dict[str, str], run: Callable[[], Any]
) -> None:
    """corefscore must reject what the official scorer rejects (InputError).

    Where the official scorer *crashes* (``oracle.classify``), corefscore may score
    instead once the lead has documented its behaviour; until then the test is an
    xfail (not strict): an InputError passes (XPASS), scoring is XFAIL.
    """
    require_corefud()
    kind, why = oracle.classify(error)
    policy = CRASH_POLICY.get(why) if kind == "crash" else "refused"
    if policy == "scored":
        run()  # must score: no exception
        return
    if policy is None:
        mark_if_crash(request, error)
    with pytest.raises(input_error()):
        run()


def mark_if_crash(request: pytest.FixtureRequest, error: dict[str, str]) -> None:
    """An xfail (not strict) when the official scorer crashed rather than rejected."""
    kind, why = oracle.classify(error)
    if kind == "crash":
        request.applymarker(
            pytest.mark.xfail(
                strict=False,
                reason=f"the official scorer crashes ({why}: {error['type']}: "
                f"{error['message'][:80]}); corefscore's behaviour is not documented yet",
            )
        )


# ------------------------------------------------------------------- CLI
def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``corefscore`` in process: (exit code, stdout, stderr)."""
    from corefscore import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def cli_args(key: Path, response: Path, match: str, singletons: str, zeros: str) -> list[str]:
    return [
        "score", str(key), str(response), "--compat", "corefud", "--match", match,
        "--singletons", singletons, "--zeros", zeros, "--format", "json",
        "-m", ",".join(oracle.METRICS),
    ]  # fmt: skip


@cache
def cli_support() -> str | None:
    code, _, err = run_cli(cli_args(PROBE, PROBE, "head", "drop", "dependent"))
    if code == 2 and any(flag in err for flag in ("--compat", "--zeros", "compat")):
        return f"{NO_MODE} on the command line ({err.strip()[:100]})"
    return None


def require_cli_corefud() -> None:
    require_corefud()
    reason = cli_support()
    if reason:
        pytest.skip(reason)
