"""Agreement with the Universal Anaphora scorer (the optional oracle of ``oracle.py``).

* its own test cases: the CoNLL-format reference cases of its ``tests/`` and the
  plural cases of ``plural-tests/``, scored with ``--compat ua`` (every metric, full
  precision) and, for the split-antecedent cases, by default against its 2.0 engine
  (which fixed the LREC 2022 scorer's LEA, docs/compatibility.md);
* fixtures of our own with bridging, discourse deixis, non-referring markables,
  MIN spans and missing documents;
* random documents with split antecedents (plurals of plurals too), non-referring
  markables, bridging, multi-token and nested markables, written as UA files and
  read back by corefscore's reader.

Without the oracle everything here skips, saying how to install it; the
hand-checked cases that always run are in tests/metrics/test_split_antecedents.py,
tests/metrics/test_anaphora.py and tests/io/test_ua.py.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from corefscore import score_files

from . import oracle

pytestmark = pytest.mark.skipif(oracle.location() is None, reason=oracle.INSTALL)

SIX = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
# The 2.0 engine fixed LEA; BLANC with split antecedents stays order-dependent in both
# (docs/compatibility.md), so by default it is checked against the definitions instead
# (tests/metrics/test_split_antecedents.py).
DEFAULT_AGAINST_V2 = ("muc", "bcub", "ceafe", "ceafm", "lea")
TRIALS = 200 if os.environ.get("COREFSCORE_TEST_PROFILE") == "nightly" else 40


def close(ours: list[float], theirs: list[float]) -> bool:
    return all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(ours, theirs))


def corefscore_scores(key: Path, response: Path, **options: Any) -> dict[str, list[float]]:
    result = score_files(key, response, **options)
    return {m: [s.recall, s.precision, s.f1] for m, s in result.metrics.items()}


def compare(
    ours: dict[str, list[float]], theirs: dict[str, Any], names: tuple[str, ...]
) -> list[str]:
    assert theirs["ok"], theirs
    return [
        f"{name}: corefscore {ours[name]} UA {theirs['metrics'][name]}"
        for name in names
        if not close(ours[name], theirs["metrics"][name])
    ]


# ---------------------------------------------------------------------------------------------
# Its own test cases


def scorer_dir() -> Path:
    found = oracle.location()
    assert found is not None
    return found[0]


def reference_pairs() -> list[tuple[Path, Path]]:
    tests = scorer_dir() / "tests"
    return [
        (tests / f"{r.name.split('-')[0]}-{r.name.split('-')[1]}.key", r)
        for r in sorted(tests.glob("TC-*.response"))
    ]


def test_its_reference_test_cases() -> None:
    pairs = reference_pairs()
    results = oracle.run([oracle.Job(str(k), str(r), reader="conll") for k, r in pairs])
    problems: dict[str, list[str]] = {}
    for (key, response), theirs in zip(pairs, results):
        ours = corefscore_scores(key, response, compat="ua", metrics=",".join(SIX))
        found = compare(ours, theirs, SIX)
        if found:
            problems[response.name] = found
    # TC-A-8 and TC-A-9 nest markables written "(1(3" with no "|" between them,
    # which the UA scorer's CoNLL reader (coval's) reads as one mention, with its
    # own warning; its unit tests leave these two cases out. Every other case agrees.
    assert set(problems) == {"TC-A-8.response", "TC-A-9.response"}, problems
    assert len(pairs) == 34 + 2  # with TC-A-8 and TC-A-9, which have no unit test


def plural_pairs() -> list[tuple[Path, Path]]:
    tests = scorer_dir() / "plural-tests"
    return [(tests / f"TC-{r.name[3:5]}.key", r) for r in sorted(tests.glob("TC-P*.sys"))]


@pytest.mark.parametrize("only", [False, True], ids=["scores", "only-split"])
def test_its_plural_test_cases(only: bool) -> None:
    pairs = plural_pairs()
    assert len(pairs) == 15
    jobs = [oracle.Job(str(k), str(r), only_split=only) for k, r in pairs]
    problems = []
    split = "only" if only else "keep"
    for (key, response), theirs in zip(pairs, oracle.run(jobs)):
        ours = corefscore_scores(
            key, response, compat="ua", metrics=",".join(SIX), split_antecedents=split
        )
        problems += [f"{response.name} {p}" for p in compare(ours, theirs, SIX)]
    assert not problems


@pytest.mark.skipif(
    not oracle.has_v2(), reason="the UA scorer 2.0 engine (corefud-scorer) is absent"
)
def test_its_plural_test_cases_by_default_equal_the_2_0_engine() -> None:
    pairs = plural_pairs()
    jobs = [oracle.Job(str(k), str(r), engine="v2") for k, r in pairs]
    problems = []
    for (key, response), theirs in zip(pairs, oracle.run(jobs)):
        ours = corefscore_scores(key, response, metrics=",".join(DEFAULT_AGAINST_V2))
        problems += [f"{response.name} {p}" for p in compare(ours, theirs, DEFAULT_AGAINST_V2)]
    assert not problems


# ---------------------------------------------------------------------------------------------
# UA files of our own


@dataclass
class Markable:
    span: tuple[int, int]
    entity: str
    element_of: list[str] = field(default_factory=list)
    min: tuple[int, int] | None = None


@dataclass
class UADocument:
    name: str
    words: list[str]
    markables: list[Markable]
    bridging: list[tuple[int, int]] = field(default_factory=list)  # markable indices
    deixis: list[Markable] = field(default_factory=list)


COLUMNS = (
    "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
    "BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM"
)


def cells(markables: list[Markable], n: int, prefix: str) -> list[str]:
    """The bracket cells of one markable column (spans nest or are disjoint)."""
    opens: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    closes = [0] * n
    for k, m in enumerate(markables):
        start, end = m.span
        attributes = f"EntityID={m.entity}|MarkableID={prefix}{k}"
        if m.element_of:
            attributes += "|ElementOf=" + ",".join(m.element_of)
        if m.min is not None:
            attributes += f"|Min={m.min[0] + 1}" + (
                f",{m.min[1] + 1}" if m.min[1] != m.min[0] else ""
            )
        if start == end:
            opens[start].append((0, f"({attributes})"))
        else:
            opens[start].append((end - start, f"({attributes}"))
            closes[end] += 1
    out = []
    for t in range(n):
        # Longer markables open first: the stack closes the innermost first.
        text = ")" * closes[t] + "".join(c for _, c in sorted(opens[t], key=lambda o: -o[0]))
        out.append(text or "_")
    return out


def write_ua(path: Path, documents: list[UADocument]) -> Path:
    lines = [COLUMNS]
    for doc in documents:
        n = len(doc.words)
        identity = cells(doc.markables, n, "m")
        deixis = cells(doc.deixis, n, "d")
        bridging = ["_"] * n
        for anaphor, antecedent in doc.bridging:
            start = doc.markables[anaphor].span[0]
            cell = f"(MarkableID=m{anaphor}|MentionAnchor=m{antecedent})"
            bridging[start] = cell if bridging[start] == "_" else bridging[start] + cell
        lines += [f"# newdoc id = {doc.name}", f"# sent_id = {doc.name}-1"]
        for t, word in enumerate(doc.words):
            fields = [str(t + 1), word, *["_"] * 8, identity[t], bridging[t], deixis[t], "_", "_"]
            lines.append("\t".join(fields))
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def random_spans(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """Disjoint spans of 1-3 tokens, some with a one-token span nested inside."""
    spans: list[tuple[int, int]] = []
    t = 0
    while t < n:
        if rng.random() < 0.6:
            end = min(n - 1, t + rng.choice((0, 0, 0, 1, 2)))
            spans.append((t, end))
            if end > t and rng.random() < 0.3:
                spans.append((end, end))
            t = end + 1
        else:
            t += 1
    return spans


def random_document(rng: random.Random, name: str, n: int) -> UADocument:
    spans = random_spans(rng, n)
    labels = [str(rng.randrange(1, 6)) for _ in spans]
    for k in range(len(labels)):
        if rng.random() < 0.1:
            labels[k] = f"{90 + k}-Pseudo"  # a non-referring markable, alone in its entity
    markables = [Markable(s, e) for s, e in zip(spans, labels)]
    referring = sorted({m.entity for m in markables if not m.entity.endswith("-Pseudo")})
    # Plurals: an entity whose split antecedent is two or three others; a member may
    # itself be plural (its own members are used), never in a cycle.
    for plural in referring:
        if rng.random() < 0.35:
            members = [e for e in referring if e < plural]
            rng.shuffle(members)
            for member in members[: rng.choice((2, 2, 3))]:
                first = next(m for m in markables if m.entity == member)
                first.element_of.append(plural)
    bridging = []
    for anaphor in range(len(markables)):
        if rng.random() < 0.15 and anaphor > 0:
            bridging.append((anaphor, rng.randrange(anaphor)))
    return UADocument(name, [f"w{t}" for t in range(n)], markables, bridging)


def perturbed(rng: random.Random, doc: UADocument) -> UADocument:
    markables = []
    for m in doc.markables:
        roll = rng.random()
        if roll < 0.1:
            continue  # missed
        entity = m.entity
        if roll < 0.3 and not entity.endswith("-Pseudo"):
            entity = str(rng.randrange(1, 6))
        elif roll < 0.35:
            entity = f"{80 + len(markables)}-Pseudo"
        # A plural's label is above its members' (as in the key): never a cycle,
        # which the UA scorer would loop on forever.
        above = [] if entity.endswith("-Pseudo") else [str(x) for x in range(int(entity) + 1, 6)]
        element_of = [e for e in m.element_of if e in above]
        if rng.random() < 0.2:
            element_of = [rng.choice(above)] if above and not element_of else []
        markables.append(Markable(m.span, entity, element_of))
    # Keep the bridging pairs whose markables survived, some with another antecedent.
    index = {m.span: k for k, m in enumerate(markables)}
    bridging = []
    for anaphor, antecedent in doc.bridging:
        a = index.get(doc.markables[anaphor].span)
        b = index.get(doc.markables[antecedent].span)
        if a is not None and b is not None:
            if rng.random() < 0.3 and a > 0:
                b = rng.randrange(a)
            bridging.append((a, b))
    return replace(doc, markables=markables, bridging=bridging)


def random_pair(tmp_path: Path, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    keys = [random_document(rng, f"doc{d}", rng.randrange(6, 30)) for d in range(3)]
    responses = [perturbed(rng, doc) for doc in keys]
    return write_ua(tmp_path / f"{seed}.key", keys), write_ua(tmp_path / f"{seed}.sys", responses)


ANAPHORA = ("non-referring", "bridging-anaphors", "bridging-markables", "bridging-entities")


def test_random_documents(tmp_path: Path) -> None:
    pairs = [random_pair(tmp_path, seed) for seed in range(TRIALS)]
    jobs = [
        oracle.Job(str(k), str(r), keep_bridging=True, keep_non_referring=True) for k, r in pairs
    ]
    jobs += [oracle.Job(str(k), str(r), only_split=True) for k, r in pairs]
    results = oracle.run(jobs)
    problems = []
    for (key, response), theirs, only in zip(
        pairs + pairs, results, [False] * len(pairs) + [True] * len(pairs)
    ):
        if only:
            ours = corefscore_scores(
                key, response, compat="ua", metrics=",".join(SIX), split_antecedents="only"
            )
            names: tuple[str, ...] = SIX
        else:
            ours = corefscore_scores(
                key, response, compat="ua", metrics=",".join((*SIX, *ANAPHORA))
            )
            names = SIX + ANAPHORA
        problems += [f"{key.name} only={only} {p}" for p in compare(ours, theirs, names)]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.skipif(
    not oracle.has_v2(), reason="the UA scorer 2.0 engine (corefud-scorer) is absent"
)
def test_random_documents_by_default_equal_the_2_0_engine(tmp_path: Path) -> None:
    pairs = [random_pair(tmp_path, seed) for seed in range(TRIALS)]
    results = oracle.run([oracle.Job(str(k), str(r), engine="v2") for k, r in pairs])
    problems = []
    for (key, response), theirs in zip(pairs, results):
        ours = corefscore_scores(key, response, metrics=",".join(DEFAULT_AGAINST_V2))
        problems += [f"{key.name} {p}" for p in compare(ours, theirs, DEFAULT_AGAINST_V2)]
    assert not problems, "\n".join(problems[:20])


def test_lea_importance(tmp_path: Path) -> None:
    pairs = [random_pair(tmp_path, seed) for seed in range(10)]
    jobs = [oracle.Job(str(k), str(r), importance=w) for k, r in pairs for w in (0.5, 2.0)]
    problems = []
    for job, theirs in zip(jobs, oracle.run(jobs)):
        ours = corefscore_scores(
            Path(job.key),
            Path(job.response),
            compat="ua",
            metrics="lea",
            split_importance=job.importance,
        )
        problems += compare(ours, theirs, ("lea",))
    assert not problems


def deixis_pair(tmp_path: Path) -> tuple[Path, Path]:
    words = "John left Mary . That annoyed her . Bill left too , and this hurt ; that too".split()
    key = UADocument(
        "dd",
        words,
        [Markable((0, 0), "1"), Markable((2, 2), "2"), Markable((6, 6), "2")],
        deixis=[
            Markable((0, 2), "1-DD"),
            Markable((4, 4), "1-DD"),
            Markable((8, 10), "2-DD"),
            Markable((14, 14), "2-DD"),
            Markable((16, 16), "1-DD"),
        ],
    )
    response = replace(
        key,
        deixis=[
            Markable((0, 3), "1"),
            Markable((4, 4), "1"),
            Markable((8, 10), "2"),
            Markable((14, 14), "2"),
            Markable((16, 16), "2"),
        ],
    )
    return write_ua(tmp_path / "dd.key", [key]), write_ua(tmp_path / "dd.sys", [response])


def test_discourse_deixis(tmp_path: Path) -> None:
    key, response = deixis_pair(tmp_path)
    (theirs,) = oracle.run([oracle.Job(str(key), str(response), deixis=True)])
    ours = corefscore_scores(
        key, response, compat="ua", metrics=",".join(SIX), layer="discourse_deixis"
    )
    assert not compare(ours, theirs, SIX)


def test_a_missing_response_document_is_left_out_as_the_ua_scorer_does(tmp_path: Path) -> None:
    rng = random.Random(7)
    keys = [random_document(rng, f"doc{d}", 20) for d in range(3)]
    key = write_ua(tmp_path / "k", keys)
    response = write_ua(tmp_path / "r", [perturbed(rng, keys[0]), perturbed(rng, keys[2])])
    (theirs,) = oracle.run([oracle.Job(str(key), str(response))])
    ours = corefscore_scores(key, response, compat="ua", metrics=",".join(SIX))
    assert not compare(ours, theirs, SIX)
    # By default the missing document is scored as all missed: recall is lower.
    default = corefscore_scores(key, response, metrics="muc")
    assert default["muc"][0] < ours["muc"][0]
