"""Driver run by ``oracle.py`` in a subprocess, with the Python that has the UA scorer.

It is *our* code: it only imports the modules of an unmodified checkout of
juntaoy/universal-anaphora-scorer (the LREC 2022 scorer, "v1"; first argument)
and, when a second argument names a checkout of ufal/corefud-scorer, that
checkout's bundled UA scorer 2.0 engine ("v2"). It calls them as their own
command lines do (``get_coref_infos``, then ``evaluate_documents`` per
metric) and prints full-precision results.

Usage: ``python oracle_driver.py UA_DIR [COREFUD_DIR]`` reads ``{"jobs": [...]}``
from stdin and prints one JSON line per job. A job: ``key``, ``response``,
``engine`` (``v1`` or ``v2``), ``reader`` (``ua`` or ``conll``), and the UA
options ``keep_singletons``, ``keep_split``, ``keep_bridging``,
``keep_non_referring``, ``deixis``, ``min``, ``only_split``, ``importance``.
A result: ``{"ok": true, "metrics": {name: [recall, precision, f1]}, ...}``
(``non-referring``, ``bridging-*`` when asked for) or ``{"ok": false, "error": ...}``.

This file must not import corefscore or anything of the test suite: it runs
under another interpreter.
"""

import contextlib
import io
import json
import sys

NAMES = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")


def metrics_of(evaluator):
    return {
        "muc": evaluator.muc,
        "bcub": evaluator.b_cubed,
        "ceafe": evaluator.ceafe,
        "ceafm": evaluator.ceafm,
        "blanc": [evaluator.blancc, evaluator.blancn],
        "lea": evaluator.lea,
    }


def run_v1(job):
    from coval.eval import evaluator

    with contextlib.redirect_stdout(io.StringIO()):
        if job["reader"] == "conll":
            from coval.conll import reader

            coref = reader.get_coref_infos(
                job["key"], job["response"], False, False, job["keep_singletons"]
            )
            nonref = bridging = None
        else:
            from coval.ua import reader

            coref, nonref, bridging = reader.get_coref_infos(
                job["key"],
                job["response"],
                job["keep_singletons"],
                job["keep_split"],
                job["keep_bridging"],
                job["keep_non_referring"],
                job["deixis"],
                job["min"],
            )
    return evaluator, coref, nonref, bridging


def run_v2(job):
    from scorer.eval import evaluator
    from scorer.ua.reader import UAReader

    reader = UAReader(
        keep_singletons=job["keep_singletons"],
        keep_split_antecedents=job["keep_split"],
        keep_bridging=job["keep_bridging"],
        keep_non_referring=job["keep_non_referring"],
        evaluate_discourse_deixis=job["deixis"],
        match="partial-corefud" if job["min"] else "exact",
    )
    with contextlib.redirect_stdout(io.StringIO()):
        reader.get_coref_infos(job["key"], job["response"])
    coref = reader.doc_discourse_deixis_infos if job["deixis"] else reader.doc_coref_infos
    return evaluator, coref, reader.doc_non_referring_infos, reader.doc_bridging_infos


def run(job):
    evaluator, coref, nonref, bridging = (run_v1 if job["engine"] == "v1" else run_v2)(job)
    out = {}
    for name, metric in metrics_of(evaluator).items():
        recall, precision, f1 = evaluator.evaluate_documents(
            coref,
            metric,
            lea_split_antecedent_importance=job["importance"],
            only_split_antecedent=job["only_split"],
        )
        out[name] = [float(recall), float(precision), float(f1)]
    result = {"ok": True, "metrics": out}
    if job["keep_non_referring"] and nonref is not None:
        out["non-referring"] = [float(x) for x in evaluator.evaluate_non_referrings(nonref)]
    if job["keep_bridging"] and bridging is not None:
        parts = evaluator.evaluate_bridgings(bridging)
        for name, found in zip(("anaphors", "markables", "entities"), parts):
            out["bridging-" + name] = [float(x) for x in found]
    return result


def main():
    sys.path.insert(0, sys.argv[1])
    if len(sys.argv) > 2:
        sys.path.insert(0, sys.argv[2])
    request = json.load(sys.stdin)
    for job in request["jobs"]:
        try:
            line = run(job)
        except Exception as exc:  # the scorer's own failures are results too
            line = {"ok": False, "error": {"type": type(exc).__name__, "message": str(exc)}}
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
