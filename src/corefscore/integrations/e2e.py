"""``CorefEvaluator``: a drop-in for the class of e2e-coref's ``metrics.py``, with
the reference scorer's numbers.

e2e-coref (Lee et al. 2017) and the repositories that copy its ``metrics.py``
(mandarjoshi90/coref, lxucs/coref-hoi, s2e-coref; AllenNLP's
``ConllCorefScores`` has the same formulas) evaluate during training with a
``CorefEvaluator``. Replace its import with::

    from corefscore.integrations.e2e import CorefEvaluator

and every call stays the same: ``update(predicted, gold, mention_to_predicted,
mention_to_gold)`` once per document, then ``get_f1()`` (the CoNLL F1, a
fraction), ``get_prf()``, ``get_precision()``, ``get_recall()``, and
``evaluators`` (MUC, B³, CEAFe) with the same methods. No torch is needed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..evaluation import Evaluation
from ..metrics import CONLL_PARTS, MetricScore
from ..model import ClusterInput, document_from_clusters

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..evaluation import EvaluationOptions
    from ..pipeline import Statistics

#: The original's metric functions, by the corefscore name of the metric they compute.
_ORIGINAL_NAMES = {"muc": "muc", "b_cubed": "bcub", "bcub": "bcub", "ceafe": "ceafe"}


def f1(p_num: float, p_den: float, r_num: float, r_den: float, beta: float = 1) -> float:
    """e2e-coref's module-level F-beta of counts (0 when precision and recall are 0)."""
    p = 0 if p_den == 0 else p_num / float(p_den)
    r = 0 if r_den == 0 else r_num / float(r_den)
    return 0 if p + r == 0 else (1 + beta * beta) * p * r / (beta * beta * p + r)


class Evaluator:
    """One metric's accumulated counts, as e2e-coref's ``Evaluator``.

    ``metric`` is ``"muc"``, ``"bcub"`` (or ``"b_cubed"``) or ``"ceafe"``
    (or any corefscore metric with recall and precision counts), or the
    original's function of that name. ``p_num``,
    ``p_den``, ``r_num`` and ``r_den`` are the summed counts, correctly
    rounded sums (``math.fsum``) of the documents' counts.
    """

    def __init__(self, metric: str | Callable[..., Any], beta: float = 1, **options: Any) -> None:
        if callable(metric):  # the original's metric functions: muc, b_cubed, ceafe
            metric = str(getattr(metric, "__name__", metric))
        name = _ORIGINAL_NAMES.get(metric, metric)
        self.evaluation = Evaluation.create(metrics=name, **options)
        (self._metric,) = self.evaluation.metrics
        self.metric = self._metric.name
        self.beta = beta
        self._counts: list[tuple[float, ...]] = []
        self._summed: tuple[float, ...] | None = None
        self.warnings: list[str] = []

    def update(
        self,
        predicted: ClusterInput,
        gold: ClusterInput,
        mention_to_predicted: Mapping[Any, Any] | None = None,
        mention_to_gold: Mapping[Any, Any] | None = None,
    ) -> None:
        """Add one document: its predicted and gold clusters (the mention maps are not needed)."""
        stats = _score(predicted, gold, self.evaluation, len(self._counts), self.warnings)
        self._add(stats[self.metric])

    def _add(self, counts: tuple[float, ...]) -> None:
        self._counts.append(counts)
        self._summed = None

    def _score(self) -> MetricScore:
        if self._summed is None:
            import math

            columns = zip(*self._counts)
            self._summed = tuple(math.fsum(c) for c in columns) or (0.0,) * self._metric.width
        return self._metric.combine(self._summed)

    @property
    def r_num(self) -> float:
        """Summed recall numerator."""
        return self._score().recall_num

    @property
    def r_den(self) -> float:
        """Summed recall denominator."""
        return self._score().recall_den

    @property
    def p_num(self) -> float:
        """Summed precision numerator."""
        return self._score().precision_num

    @property
    def p_den(self) -> float:
        """Summed precision denominator."""
        return self._score().precision_den

    def get_f1(self) -> float:
        """F1 (F-beta with ``beta``) of the summed counts."""
        score = self._score()
        if self.beta == 1:
            return score.f1
        return f1(*self.get_counts(), beta=self.beta)

    def get_recall(self) -> float:
        """Recall of the summed counts (0 when there is nothing to recall)."""
        return self._score().recall

    def get_precision(self) -> float:
        """Precision of the summed counts (0 when nothing was predicted)."""
        return self._score().precision

    def get_prf(self) -> tuple[float, float, float]:
        """(precision, recall, F1), in the original's order."""
        return self.get_precision(), self.get_recall(), self.get_f1()

    def get_counts(self) -> tuple[float, float, float, float]:
        """(p_num, p_den, r_num, r_den)."""
        score = self._score()
        return score.precision_num, score.precision_den, score.recall_num, score.recall_den


class CorefEvaluator:
    """MUC, B³ and CEAFe over documents, e2e-coref's ``CorefEvaluator`` with the
    reference scorer's numbers.

    Same constructor, methods and argument types as the original:
    ``update(predicted, gold, mention_to_predicted, mention_to_gold)`` per
    document, where ``predicted`` and ``gold`` are clusters, each a tuple of
    ``(start, end)`` spans (inclusive), and the two ``mention_to_*`` maps are
    accepted and not needed; ``get_f1()``, ``get_precision()`` and
    ``get_recall()`` are the means over MUC, B³ and CEAFe (so ``get_f1()`` is
    the CoNLL F1, as a fraction), ``get_prf()`` returns (precision, recall,
    F1), and ``evaluators`` holds the three metrics' ``Evaluator``. Keyword
    options of ``corefscore.score`` (``duplicates=``, ``singletons=``...)
    may be given; by default the reference scorer's evaluation.

    How the numbers differ from the original's (which agree with the
    reference scorer only when neither side has singletons nor repeated
    spans, as on CoNLL-2012 data; on the reference scorer's 36 test cases
    the original gets B³ right in 14, CEAFe in 17, the CoNLL score in 13):

    * B³: the original skips clusters of one mention on both sides, in
      numerators and denominators, and gives no credit for a mention whose
      gold cluster is a singleton. Here singletons count as in the reference
      scorer.
    * CEAFe: the original removes predicted singletons but keeps gold ones.
      Here both are kept.
    * MUC: the same counts, except with repeated spans, which the original
      counts twice and the duplicates policy (``duplicates=``) handles here.
    * Sums: the original adds counts in document order (CEAFe's alignment by
      ``linear_assignment``); here they are correctly rounded sums, so the
      result does not depend on the order of documents.
    * Like the original, numbers are unrounded fractions, where the
      reference scorer prints percentages truncated to two decimals.
    """

    def __init__(self, **options: Unpack[EvaluationOptions]) -> None:
        if "metrics" in options:
            raise UsageError("CorefEvaluator computes MUC, B3 and CEAFe; metrics= is not an option")
        self.evaluation = Evaluation.of(None, {**options, "metrics": CONLL_PARTS})
        self.evaluators = [Evaluator(name, **options) for name in CONLL_PARTS]
        self.warnings: list[str] = []
        self._documents = 0

    def update(
        self,
        predicted: ClusterInput,
        gold: ClusterInput,
        mention_to_predicted: Mapping[Any, Any] | None = None,
        mention_to_gold: Mapping[Any, Any] | None = None,
    ) -> None:
        """Add one document's predicted and gold clusters (the mention maps are not needed)."""
        stats = _score(predicted, gold, self.evaluation, self._documents, self.warnings)
        self._documents += 1
        for evaluator in self.evaluators:
            evaluator._add(stats[evaluator.metric])

    def get_f1(self) -> float:
        """The mean F1 of MUC, B³ and CEAFe: the CoNLL F1 (a fraction)."""
        return _mean(e.get_f1() for e in self.evaluators)

    def get_recall(self) -> float:
        """The mean recall of MUC, B³ and CEAFe."""
        return _mean(e.get_recall() for e in self.evaluators)

    def get_precision(self) -> float:
        """The mean precision of MUC, B³ and CEAFe."""
        return _mean(e.get_precision() for e in self.evaluators)

    def get_prf(self) -> tuple[float, float, float]:
        """(precision, recall, F1), means over MUC, B³ and CEAFe, in the original's order."""
        return self.get_precision(), self.get_recall(), self.get_f1()


def _mean(values: Iterable[float]) -> float:
    # As the original (and corefscore's CoNLL score): sum(), then divide.
    items = list(values)
    return sum(items) / len(items)


def _score(
    predicted: ClusterInput,
    gold: ClusterInput,
    evaluation: Evaluation,
    index: int,
    warnings: list[str],
) -> Statistics:
    from ..engines.objects import score_pair

    name = f"doc{index}"
    key = document_from_clusters(name, gold, side="key")
    response = document_from_clusters(name, predicted, side="response")
    return score_pair(key, response, evaluation, warnings)


__all__ = ["CorefEvaluator", "Evaluator", "f1"]
