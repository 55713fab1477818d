"""Driver run by ``oracle.py`` in a subprocess, with the Python that has the official scorer.

It is *our* code: it only imports the modules of an unmodified checkout of
ufal/corefud-scorer (given as the first argument) and calls them the way
``corefud-scorer.py`` does (``corefud_to_ua_args`` -> ``ua-scorer.process_arguments``
-> ``CorefUDReader.get_coref_infos`` -> one ``Evaluator`` per metric, documents in
key order, as in ``scorer.eval.evaluator.evaluate_documents``), so that every
metric's raw counts can be reported next to its recall, precision and F1.

Usage: ``python oracle_driver.py SCORER_DIR --probe`` prints the versions as JSON;
``python oracle_driver.py SCORER_DIR`` reads ``{"jobs": [...], "selfcheck": bool}``
from stdin (a job: ``key``, ``response``, ``match``, ``singletons``, ``zeros``) and
prints one JSON line per job: ``{"ok": true, "metrics": {...}, "conll": F}`` or
``{"ok": false, "error": {"type": ..., "message": ...}}``. Floats are printed
with ``repr`` precision (JSON round-trips them exactly).

This file must not import corefscore or anything from the test suite: it runs
under another interpreter.
"""

import contextlib
import gc
import hashlib
import importlib
import importlib.util
import io
import json
import logging
import os
import sys


class _Log(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _load(scorer_dir):
    sys.path.insert(0, scorer_dir)
    spec = importlib.util.spec_from_file_location(
        "corefud_scorer_cli", os.path.join(scorer_dir, "corefud-scorer.py")
    )
    cli = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cli)  # it imports ua-scorer itself
    ua = importlib.import_module("ua-scorer")
    reader = importlib.import_module("scorer.corefud.reader")
    evaluator = importlib.import_module("scorer.eval.evaluator")
    return cli, ua, reader.CorefUDReader, evaluator


def _counts(ev):
    pn, pd, rn, rd = ev.get_counts()
    return {"r_num": float(rn), "r_den": float(rd), "p_num": float(pn), "p_den": float(pd)}


def _metric(evaluator, infos, metric):
    """One metric, computed exactly as evaluate_documents does, with its counts."""
    Evaluator = evaluator.Evaluator
    if isinstance(metric, list):  # BLANC: [blancc, blancn], averaged over the used parts
        evs = [Evaluator(m, beta=1, lea_split_antecedent_importance=1) for m in metric]
        for doc in infos:
            for ev in evs:
                ev.update(infos[doc])
        p, r, f, cnt = 0, 0, 0, 0
        subs = {}
        for ev, m in zip(evs, metric):
            sub = _counts(ev)
            sp, sr, sf = ev.get_prf()
            sub.update(recall=float(sr), precision=float(sp), f1=float(sf))
            _, pd, _, rd = ev.get_counts()
            sub["used"] = not (pd == rd == 0)
            subs[m.__name__] = sub
            if pd == rd == 0:
                continue
            p += sp
            r += sr
            f += sf
            cnt += 1
        rpf = (0, 0, 0) if cnt == 0 else (r / cnt, p / cnt, f / cnt)
        out = {"recall": float(rpf[0]), "precision": float(rpf[1]), "f1": float(rpf[2])}
        out["sub"] = subs
        return out
    ev = Evaluator(metric, beta=1, lea_split_antecedent_importance=1)
    for doc in infos:
        ev.update(infos[doc])
    out = {
        "recall": float(ev.get_recall()),
        "precision": float(ev.get_precision()),
        "f1": float(ev.get_f1()),
    }
    out.update(_counts(ev))
    return out


def score(mods, job, selfcheck=False):
    cli, ua, CorefUDReader, evaluator = mods
    args = {
        "key_file": job["key"],
        "sys_file": job["response"],
        "metrics": ["all"],
        "keep_singletons": job["singletons"] == "keep",
        "match": job["match"],
        "exact_match": False,
        "zero_match_method": job["zeros"],
    }
    ua_args = cli.corefud_to_ua_args(args)
    with contextlib.redirect_stdout(io.StringIO()):
        ua.process_arguments(ua_args)  # expands "all", prints the banner
    reader = CorefUDReader(**ua_args)
    reader.get_coref_infos(job["key"], job["response"])
    infos = reader.doc_coref_infos
    metrics = {}
    conll, parts = 0, 0
    for name, metric in ua_args["metrics"]:
        metrics[name] = _metric(evaluator, infos, metric)
        if name in ("muc", "bcub", "ceafe"):
            conll += metrics[name]["f1"]
            parts += 1
    out = {"ok": True, "metrics": metrics, "documents": [str(d) for d in infos]}
    if parts == 3:
        out["conll"] = float(conll / 3)
    if selfcheck:  # the official function on a fresh reading must give the same bits
        reader2 = CorefUDReader(**ua_args)
        reader2.get_coref_infos(job["key"], job["response"])
        for name, metric in ua_args["metrics"]:
            r, p, f = evaluator.evaluate_documents(
                reader2.doc_coref_infos, metric, beta=1, only_split_antecedent=False
            )
            got = metrics[name]
            if (float(r), float(p), float(f)) != (got["recall"], got["precision"], got["f1"]):
                out["selfcheck"] = f"mismatch in {name}"
                break
        else:
            out["selfcheck"] = "ok"
    return out


def probe(scorer_dir):
    import numpy
    import scipy
    import udapi  # noqa: F401

    try:
        from importlib.metadata import version

        udapi_version = version("udapi")
    except Exception:  # pragma: no cover - metadata missing
        udapi_version = "unknown"
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(scorer_dir):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "tests", "__pycache__"))
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(root, name)
                digest.update(os.path.relpath(path, scorer_dir).encode())
                with open(path, "rb") as f:
                    digest.update(f.read())
    _load(scorer_dir)
    return {
        "python": sys.version.split()[0],
        "udapi": udapi_version,
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "scorer_sha256": digest.hexdigest(),
    }


def main():
    scorer_dir = sys.argv[1]
    out = sys.stdout
    if "--probe" in sys.argv[2:]:
        with contextlib.redirect_stdout(io.StringIO()):
            info = probe(scorer_dir)
        out.write(json.dumps(info) + "\n")
        return 0
    request = json.load(sys.stdin)
    log = _Log()
    root = logging.getLogger()
    root.handlers[:] = [log]
    root.setLevel(logging.WARNING)
    with contextlib.redirect_stdout(io.StringIO()):
        mods = _load(scorer_dir)
    # udapi calls gc.collect() on every file it reads; with the modules' objects
    # frozen, that scans only the current job's objects (no effect on results).
    gc.freeze()
    for job in request["jobs"]:
        log.messages = []
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                result = score(mods, job, request.get("selfcheck", False))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # DataAlignError and CorefFormatError are BaseExceptions
            result = {"ok": False, "error": {"type": type(e).__name__, "message": str(e)}}
        result["warnings"] = len(log.messages)
        result["first_warnings"] = log.messages[:5]
        out.write(json.dumps(result) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
