"""``CorefMetric``: the corefscore metrics as a torchmetrics ``Metric``.

Needs ``torch`` and ``torchmetrics`` (``pip install 'corefscore[torch]'``);
importing this module without them raises ``UsageError``.

```python
from corefscore.integrations.torchmetrics import CorefMetric

metric = CorefMetric(metrics="conll")
metric.update(predicted_clusters, gold_clusters)      # one document, or a list of documents
metric.compute()["conll"]                            # synced over processes under DDP
```
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..evaluation import Evaluation, EvaluationOptions
from ..metrics import MetricSpec
from ..model import ClusterInput, Document, _is_int, _plain, document_from_clusters
from ..result import conll_score
from . import _exact, missing

if TYPE_CHECKING:
    from ..pipeline import Statistics

    # Typed as Any, so that the package type-checks with or without them installed.
    torch: Any
    torchmetrics: Any
else:
    try:
        import torch
        import torchmetrics
    except ImportError as error:
        raise missing("torch", "corefscore.integrations.torchmetrics", error) from error

# Flush a batch's limbs into the state at least this often (limbs stay below 2**53).
_FLUSH_EVERY = 1 << 16


class CorefMetric(torchmetrics.Metric):  # type: ignore[misc]
    """Coreference scores as a torchmetrics ``Metric``, with the numbers of ``CorefScorer``.

    ``CorefMetric(metrics=None, *, evaluation=None, **options)``: ``metrics``
    and the other evaluation options are those of ``corefscore.score``
    (``singletons``, ``duplicates``, ``matching``...; default: the reference
    scorer's seven metrics), or a ready-made ``evaluation``; the remaining
    keywords (``sync_on_compute``, ``process_group``...) go to torchmetrics.

    ``update(preds, target)`` scores one document, or a batch (a list) of
    documents, predicted and gold; a document is a list of clusters in any
    form ``CorefScorer.update`` takes (lists of ``(start, end)`` spans, ends
    inclusive; numpy arrays and integer tensors too). ``compute()`` returns a
    dict of floats: ``"<metric>/recall"``, ``"<metric>/precision"`` and
    ``"<metric>/f1"`` of every metric (fractions in 0..1), and ``"conll"``
    (the mean F1 of MUC, B³ and CEAFe) when those three are computed.

    The state is the additive statistics of the chosen metrics (numerators
    and denominators), each a float64 tensor with ``dist_reduce_fx="sum"``,
    so processes and ``merge_state`` add them. Each statistic is held exactly,
    as ``corefscore.integrations._exact`` limbs (a vector of 66 integers), so
    that the sum does not depend on the number of processes nor on the
    order of documents, and equals, bit for bit, the correctly rounded sum
    (``math.fsum``) that ``CorefScorer`` computes; ``statistics`` decodes
    it. The states therefore stay float64 (``set_dtype`` leaves them alone);
    a device without float64 (Apple MPS) cannot hold them.

    ``warnings`` lists what the duplicates policy said on this process.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(
        self,
        metrics: MetricSpec | Iterable[MetricSpec] | None = None,
        *,
        evaluation: Evaluation | None = None,
        **kwargs: Any,
    ) -> None:
        names = set(EvaluationOptions.__annotations__)
        options = {k: kwargs.pop(k) for k in list(kwargs) if k in names}
        if metrics is not None:
            if evaluation is not None:
                raise UsageError("give either an evaluation or metrics, not both")
            options["metrics"] = metrics
        super().__init__(**kwargs)
        self.evaluation = Evaluation.of(evaluation, options)
        if self.evaluation.scope.cross_document:
            raise UsageError(
                "CorefMetric scores document by document; use score_corpora for "
                "cross-document scoring"
            )
        self._layout: list[tuple[str, tuple[str, ...]]] = []
        seen: set[str] = set()
        for metric in self.evaluation.metrics:
            stem = re.sub(r"\W", "_", metric.name)
            states = tuple(f"{stem}_{i}" for i in range(metric.width))
            if seen.intersection(states):
                raise UsageError(
                    f"metric {metric.name!r}: its state names clash with another metric's"
                )
            seen.update(states)
            self._layout.append((metric.name, states))
            for state in states:
                self.add_state(
                    state,
                    default=torch.zeros(_exact.LIMBS, dtype=torch.float64),
                    dist_reduce_fx="sum",
                )
        self._warnings: list[str] = []
        self._min_span_warned = False
        self._documents_seen = 0

    # -- updating ------------------------------------------------------------------------

    def update(self, preds: Any, target: Any) -> None:
        """Add one document (a list of clusters), or a batch (a list of documents).

        ``preds`` are the predicted clusters, ``target`` the gold ones, in the
        same shape.
        """
        predicted, gold = _batch(preds, target)
        pending = [[0.0] * _exact.LIMBS for _ in range(self._width())]
        for count, (response_clusters, key_clusters) in enumerate(zip(predicted, gold), 1):
            name = f"doc{self._documents_seen}"
            self._documents_seen += 1
            key = document_from_clusters(name, key_clusters, side="key")
            response = document_from_clusters(name, response_clusters, side="response")
            stats = self._score(key, response)
            row = 0
            for metric_name, _ in self._layout:
                for value in stats[metric_name]:
                    _exact.add_into(pending[row], value)
                    row += 1
            if count % _FLUSH_EVERY == 0:
                self._add(pending)
                pending = [[0.0] * _exact.LIMBS for _ in range(self._width())]
        self._add(pending)

    def _score(self, key: Document, response: Document) -> Statistics:
        from ..engines.objects import score_pair
        from ..pipeline import min_span_warning

        if not self._min_span_warned:
            warned = min_span_warning(self.evaluation, (key,))
            if warned is not None:
                self._min_span_warned = True
                self._warnings.append(warned[1])
        return score_pair(key, response, self.evaluation, self._warnings)

    def _width(self) -> int:
        return sum(len(states) for _, states in self._layout)

    def _names(self) -> list[str]:
        return [state for _, states in self._layout for state in states]

    def _add(self, rows: Sequence[Sequence[float]] | None) -> None:
        """Add limb rows to the state, then carry so that every limb stays small."""
        names = self._names()
        current = torch.stack([getattr(self, n) for n in names])
        if rows is not None:
            current = current + torch.tensor(rows, dtype=torch.float64, device=current.device)
        # One pass of carries: limbs back below 2**32 plus what came in from below.
        carry = torch.floor(current / _exact.BASE)
        carry[:, -1] = 0
        current = current - carry * _exact.BASE
        current[:, 1:] += carry[:, :-1]
        for n, limbs in zip(names, torch.unbind(current)):
            setattr(self, n, limbs)

    # -- results -------------------------------------------------------------------------

    @property
    def statistics(self) -> dict[str, tuple[float, ...]]:
        """The summed statistics of this process: metric -> numerators and denominators.

        The same numbers as ``CorefScorer.statistics`` (outside ``compute``,
        before any sync: this process's documents).
        """
        names = self._names()
        rows = torch.stack([getattr(self, n) for n in names]).cpu().tolist() if names else []
        values = iter([_exact.decode(row) for row in rows])
        return {
            metric_name: tuple(next(values) for _ in states) for metric_name, states in self._layout
        }

    def compute(self) -> dict[str, float]:
        """Recall, precision and F1 of every metric, and ``conll``, over every document."""
        statistics = self.statistics
        totals = {m.name: m.combine(statistics[m.name]) for m in self.evaluation.metrics}
        out: dict[str, float] = {}
        for name, score in totals.items():
            out[f"{name}/recall"] = score.recall
            out[f"{name}/precision"] = score.precision
            out[f"{name}/f1"] = score.f1
        conll = conll_score(totals)
        if conll is not None:
            out["conll"] = conll
        return out

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the duplicates policy and the regime said on this process since ``reset``."""
        return tuple(self._warnings)

    # -- torchmetrics plumbing -----------------------------------------------------------

    def reset(self) -> None:
        """Forget every document (and the warnings)."""
        super().reset()
        self._warnings = []
        self._min_span_warned = False

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Update with a batch and return the batch's own scores (torchmetrics' ``forward``).

        torchmetrics resets the metric around the batch; the warnings of earlier
        batches are kept.
        """
        warnings, warned = list(self._warnings), self._min_span_warned
        try:
            return super().forward(*args, **kwargs)
        finally:
            self._warnings = warnings + self._warnings
            self._min_span_warned = warned or self._min_span_warned

    def merge_state(self, incoming_state: Mapping[str, Any] | CorefMetric) -> None:
        """Add another ``CorefMetric``'s state (or a state dict) to this one.

        Unlike torchmetrics' own, the cached ``compute()`` result is dropped, so
        that the next ``compute()`` sees the merged documents.
        """
        if isinstance(incoming_state, CorefMetric):
            if incoming_state.evaluation != self.evaluation:
                raise UsageError(
                    "cannot merge metrics with different metrics, duplicates policy or regime"
                )
            self._warnings.extend(incoming_state._warnings)
            self._min_span_warned = self._min_span_warned or incoming_state._min_span_warned
            self._update_count += incoming_state._update_count
        elif isinstance(incoming_state, Mapping):
            incoming_state = dict(incoming_state)
        super().merge_state(incoming_state)
        self._computed = None
        self._add(None)

    def set_dtype(self, dst_type: Any) -> CorefMetric:
        """Keep the float64 states: they hold exact sums that a narrower type would round."""
        return self


def _document_depth(value: Any, depth: int = 0) -> int | None:
    """How deep documents sit in ``value``: 0 for one document, 1 for a list of them.

    Found from the first non-empty path down to an integer (three levels below
    a document: clusters, mentions, span ends) or a mapping (a cluster with
    ``mentions``, else a mention). ``None`` when everything is empty.
    """
    value = _plain(value)
    if isinstance(value, Mapping):
        return depth - (1 if "mentions" in value else 2)
    if _is_int(value):
        return depth - 3
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        for item in value:
            found = _document_depth(item, depth + 1)
            if found is not None:
                return found
    return None


def _batch(preds: Any, target: Any) -> tuple[list[ClusterInput], list[ClusterInput]]:
    """``preds`` and ``target`` as equally long lists of documents."""
    preds, target = _plain(preds), _plain(target)
    depths = {d for d in (_document_depth(preds), _document_depth(target)) if d is not None}
    if len(depths) > 1:
        raise UsageError(
            "preds and target must have the same shape: both one document (a list of "
            "clusters) or both a batch (a list of documents)"
        )
    depth = depths.pop() if depths else 0
    if depth == 0:
        return [preds], [target]
    if depth != 1 or not isinstance(preds, Sequence) or not isinstance(target, Sequence):
        raise UsageError(
            "expected one document (a list of clusters of (start, end) spans) or a list of "
            "documents, for preds and for target"
        )
    if len(preds) != len(target):
        raise UsageError(
            f"preds has {len(preds)} documents and target {len(target)}; they must pair up"
        )
    return list(preds), list(target)


__all__ = ["CorefMetric"]
