"""Coreference Performance Prediction (Stoyanov et al. 2009, §4.4).

The CPP score of a corpus is the share-weighted sum of per-resolution-class
scores measured elsewhere::

    CPP(D) = sum_c p_D(c) * mean_{corpora j} score_j(c)

where ``p_D(c)`` is the proportion of the anaphors of ``D`` in class ``c``
and ``score_j(c)`` the class-``c`` score (MUC-RC F1 by default) measured on
corpus ``j``. The paper predicts each of its six corpora from the other five
and compares with the observed MUC F1 (its Table 6).

Inputs are resolution-class reports as written by
``corefscore analyze classes`` (``{"corpus": ..., "classes": {name: {"count",
"share", "muc_rc": {...}, "anaphor": {...}}}, "overall": {...}}``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .._record import record
from ..errors import InputError, UsageError
from ..model import Corpus
from .classes import CLASSES
from .classes import class_distribution as key_distribution
from .mention_types import PronounLists

CITATION = "Stoyanov et al. 2009, §4.4 (Table 6)"


def lookup(data: Mapping[str, Any], path: str) -> float | None:
    """The number at dotted ``path`` in ``data``, or ``None`` if absent or null.

    A mapping found at the end of the path yields its ``f1`` (so ``overall.conll``
    works whether the CoNLL score is written as a number or as ``{"f1": x}``).
    """
    value: Any = data
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    if isinstance(value, Mapping):
        value = value.get("f1")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{path!r} is {value!r}, not a number")
    return float(value)


def _classes(report: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    classes = report.get("classes")
    if not isinstance(classes, Mapping):
        raise InputError(f"{where}: no 'classes' mapping (is this a resolution-class report?)")
    return classes


def _name(report: Mapping[str, Any], index: int) -> str:
    name = report.get("corpus")
    return str(name) if name is not None else f"corpus {index + 1}"


def distribution_of(data: Mapping[str, Any]) -> dict[str, float]:
    """Class shares from a classes report, or from a flat ``{class: share or count}``.

    Counts are preferred over shares when a report has both, and the result
    is normalised to sum to 1, so counts work as well as proportions.
    """
    raw: dict[str, float] = {}
    if "classes" in data:
        for name, entry in _classes(data, "distribution").items():
            if isinstance(entry, Mapping):
                value = entry.get("count", entry.get("share"))
            else:
                value = entry
            raw[str(name)] = float(value or 0)
    else:
        for name, value in data.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InputError(f"distribution: class {name!r} has {value!r}, not a number")
            raw[str(name)] = float(value)
    if any(v < 0 for v in raw.values()):
        raise InputError("distribution: a class share is negative")
    total = math.fsum(raw.values())
    if total <= 0:
        raise InputError("distribution: no anaphor in any class")
    return {name: value / total for name, value in raw.items()}


def class_distribution(
    key: Corpus | Mapping[str, Any], pronouns: PronounLists | None = None
) -> dict[str, float]:
    """Class shares of a new corpus, from its key alone.

    Given a ``Corpus`` (read with its syntax), its anaphors are
    classified; given a mapping (a loaded JSON: a classes report, or
    ``{class: share}``), the shares are read from it.
    """
    if isinstance(key, Corpus):
        return distribution_of(key_distribution(key, pronouns))
    return distribution_of(key)


@record(frozen=True)
class ClassTerm:
    """One class's part of a prediction."""

    name: str
    share: float
    #: Mean score over the measured corpora that have the class; ``None`` if none has it.
    mean: float | None
    corpora: int

    @property
    def contribution(self) -> float:
        return 0.0 if self.mean is None else self.share * self.mean

    def to_dict(self) -> dict[str, Any]:
        return {
            "share": self.share,
            "mean": self.mean,
            "corpora": self.corpora,
            "contribution": self.contribution,
        }


@record(frozen=True)
class Prediction:
    """A CPP score with the class terms it sums."""

    value: float | None
    score: str
    terms: tuple[ClassTerm, ...]
    #: Share of the new corpus in classes no measured corpus has a score for.
    uncovered_share: float
    measured: tuple[str, ...]

    @property
    def raw_value(self) -> float:
        """The plain sum over covered classes, before renormalisation."""
        return math.fsum(t.contribution for t in self.terms)

    def to_dict(self) -> dict[str, Any]:
        return {
            "analysis": "cpp",
            "citation": CITATION,
            "score": self.score,
            "predicted": self.value,
            "raw_sum": self.raw_value,
            "uncovered_share": self.uncovered_share,
            "measured": list(self.measured),
            "classes": {t.name: t.to_dict() for t in self.terms},
        }


def _ordered(names: Any) -> list[str]:
    rank = {c: i for i, c in enumerate(CLASSES)}
    return sorted(set(names), key=lambda c: (rank.get(c, len(rank)), c))


def class_means(
    measured: Sequence[Mapping[str, Any]], *, score: str = "muc_rc.f1"
) -> dict[str, tuple[float, int]]:
    """Class -> (unweighted mean of ``score`` over the corpora that have it, how many).

    A corpus "has" a class when it counts anaphors in it (or, lacking a
    count, gives a score for it); a class with no anaphors has an undefined
    score, not a score of 0. The mean is over corpora, not anaphors, as in
    the paper ("the mean for the class measured on the other five data sets").
    """
    sums: dict[str, list[float]] = {}
    for i, report in enumerate(measured):
        where = _name(report, i)
        for name, entry in _classes(report, where).items():
            if not isinstance(entry, Mapping):
                raise InputError(f"{where}: class {name!r} is not a mapping")
            count = entry.get("count")
            if count is not None and float(count) <= 0:
                continue
            value = lookup(entry, score)
            if value is not None:
                sums.setdefault(str(name), []).append(value)
    return {c: (math.fsum(v) / len(v), len(v)) for c, v in sums.items()}


def predict(
    measured: Sequence[Mapping[str, Any]],
    distribution: Mapping[str, Any],
    *,
    score: str = "muc_rc.f1",
) -> Prediction:
    """Predict a corpus's score from class scores measured on other corpora.

    ``score`` is the path of the per-class score inside each class entry
    (``muc_rc.f1``, ``muc_rc.recall``, ``anaphor.f1``...). ``distribution`` is
    ``{class: share}`` (or counts, or a whole classes report).

    Classes of the new corpus that no measured corpus has a score for are
    left out and the remaining shares renormalised, i.e. they are predicted
    at the covered classes' weighted mean; ``uncovered_share`` says how much
    was left out (``raw_value`` is the sum without renormalising). When every
    class is uncovered, the value is ``None``.
    """
    if not measured:
        raise UsageError("CPP needs class scores measured on at least one corpus")
    shares = distribution_of(distribution)
    means = class_means(measured, score=score)
    terms = []
    for name in _ordered([*shares, *means]):
        mean, n = means.get(name, (None, 0))
        terms.append(ClassTerm(name, shares.get(name, 0.0), mean, n))
    uncovered = math.fsum(t.share for t in terms if t.mean is None)
    covered = 1.0 - uncovered
    raw = math.fsum(t.contribution for t in terms)
    value = raw / covered if covered > 1e-12 else None
    return Prediction(
        value=value,
        score=score,
        terms=tuple(terms),
        uncovered_share=uncovered,
        measured=tuple(_name(r, i) for i, r in enumerate(measured)),
    )


@record(frozen=True)
class LeaveOneOutRow:
    corpus: str
    predicted: float | None
    observed: float | None
    uncovered_share: float

    @property
    def error(self) -> float | None:
        """Predicted minus observed."""
        if self.predicted is None or self.observed is None:
            return None
        return self.predicted - self.observed

    def to_dict(self) -> dict[str, Any]:
        return {
            "predicted": self.predicted,
            "observed": self.observed,
            "error": self.error,
            "uncovered_share": self.uncovered_share,
        }


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r, or ``None`` for fewer than two points or a constant series."""
    n = len(xs)
    if n < 2 or n != len(ys):
        return None
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / math.sqrt(sxx * syy)


@record(frozen=True)
class LeaveOneOutTable:
    """Predicted vs observed for each corpus (the paper's Table 6)."""

    score: str
    observed_key: str
    rows: tuple[LeaveOneOutRow, ...]

    def _pairs(self) -> tuple[list[float], list[float]]:
        xs: list[float] = []
        ys: list[float] = []
        for r in self.rows:
            if r.predicted is not None and r.observed is not None:
                xs.append(r.predicted)
                ys.append(r.observed)
        return xs, ys

    @property
    def correlation(self) -> float | None:
        """Pearson correlation of predicted and observed scores."""
        return pearson(*self._pairs())

    @property
    def mean_absolute_error(self) -> float | None:
        errors = [abs(r.error) for r in self.rows if r.error is not None]
        return math.fsum(errors) / len(errors) if errors else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "analysis": "cpp-leave-one-out",
            "citation": CITATION,
            "score": self.score,
            "observed": self.observed_key,
            "corpora": {r.corpus: r.to_dict() for r in self.rows},
            "correlation": self.correlation,
            "mean_absolute_error": self.mean_absolute_error,
        }


def leave_one_out(
    reports: Mapping[str, Mapping[str, Any]] | Sequence[Mapping[str, Any]],
    *,
    score: str = "muc_rc.f1",
    observed: str = "overall.muc.f1",
) -> LeaveOneOutTable:
    """Predict each corpus from all the others and set it against its observed score.

    ``reports`` maps corpus names to classes reports (a sequence is named by
    each report's ``corpus``). A corpus's own class distribution (its counts)
    is the one predicted; ``observed`` is the dotted path of its measured
    overall score.
    """
    if isinstance(reports, Mapping):
        named = {str(k): v for k, v in reports.items()}
    else:
        named = {}
        for i, report in enumerate(reports):
            name = _name(report, i)
            if name in named:
                raise InputError(f"two reports are both named {name!r}")
            named[name] = report
    if len(named) < 2:
        raise UsageError("leave-one-out needs reports for at least two corpora")
    rows = []
    for name, report in named.items():
        others = [r for n, r in named.items() if n != name]
        prediction = predict(others, report, score=score)
        rows.append(
            LeaveOneOutRow(
                corpus=name,
                predicted=prediction.value,
                observed=lookup(report, observed),
                uncovered_share=prediction.uncovered_share,
            )
        )
    return LeaveOneOutTable(score=score, observed_key=observed, rows=tuple(rows))


def load_report(text: str, *, path: str | None = None) -> dict[str, Any]:
    """Parse a classes report (or a distribution) from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    if not isinstance(data, dict):
        raise InputError("a classes report must be a JSON object", path=path)
    return data
