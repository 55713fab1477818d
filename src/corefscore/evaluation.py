"""What an evaluation computes: one frozen, validated options object.

Every scoring function, engine and command builds one ``Evaluation``
from its keyword options (or takes one ready-made), validates it once, and
hands it down whole. It is the single source of the result's signature and of
its ``options`` record, so that two results with the same signature were
computed the same way.

```pycon
>>> from corefscore.evaluation import Evaluation
>>> evaluation = Evaluation.create(metrics="conll", singletons="drop")
>>> evaluation.metric_names
('muc', 'bcub', 'ceafe')
>>> evaluation.signature().split("|")[:3]
['metrics:muc+bcub+ceafe', 'match:exact', 'singletons:drop']
```
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from ._record import TypedDict, field, record, replace
from .errors import UsageError, option
from .metrics import Metric, MetricSpec, resolve
from .regimes import EvaluationSetup
from .signature import make_signature

_T = TypeVar("_T")

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: What to do with a span that occurs more than once on one side (see ``corefscore.duplicates``).
DUPLICATE_POLICIES = ("reference", "first", "strict")
#: How entity ids are read in cross-document scoring: corpus-wide, or per document.
ID_SCOPES = ("global", "document")
#: Whose evaluation is reproduced: the CoNLL reference scorer v8.01 (``conll``), or
#: corefud-scorer v1.2 of the CRAC shared tasks on CorefUD (``corefud``, see
#: ``corefscore.corefud``), or the Universal Anaphora scorer (``ua``, the LREC 2022
#: scorer: ``docs/compatibility.md``). ``auto`` (the file functions and the command
#: line): ``corefud`` when key and response are both CoNLL-U, else ``conll``.
COMPATS = ("conll", "corefud", "ua")
#: The duplicates "policy" of the CorefUD evaluation: its own (``corefscore.corefud``).
COREFUD_DUPLICATES = "corefud"
#: How the CorefUD evaluation pairs zeros before the other mentions (the first is the default).
ZERO_METHODS = ("dependent", "linear")


@record(frozen=True)
class Scope:
    """Which partition is scored: each document's (the default) or one of the corpus.

    With ``cross_document`` an entity id names an entity of the whole corpus
    (``key``/``response`` = ``"global"``) or of its own document
    (``"document"``, e.g. a within-document key), and every metric is
    computed once over the single global partition.
    """

    cross_document: bool = False
    key: str = "global"
    response: str = "global"

    def __post_init__(self) -> None:
        for side, value in (("key", self.key), ("response", self.response)):
            if value not in ID_SCOPES:
                raise UsageError(
                    f"{option(f'{side}_scope', value)} is not an entity id scope; "
                    f"choose {' or '.join(ID_SCOPES)}"
                )
        if not self.cross_document and (self.key, self.response) != ("global", "global"):
            raise UsageError(
                f"{option('key_scope')} and {option('response_scope')} need "
                f"{option('cross_document')}"
            )

    @property
    def label(self) -> str | None:
        """The signature's ``scope:`` field (``None`` for per-document scoring)."""
        if not self.cross_document:
            return None
        if (self.key, self.response) == ("global", "global"):
            return "cross-document"
        return f"cross-document(key={self.key},response={self.response})"

    def to_dict(self) -> dict[str, Any]:
        """The scope's part of a result's options record (empty per document)."""
        if not self.cross_document:
            return {}
        return {"cross_document": True, "key_scope": self.key, "response_scope": self.response}


class EvaluationOptions(TypedDict, total=False):
    """The keyword options of every scoring function (see ``Evaluation.create``)."""

    metrics: MetricSpec | Iterable[MetricSpec] | None
    duplicates: str | None
    matching: str | None
    singletons: str | None
    key_singletons: str | None
    response_singletons: str | None
    gold_mentions: bool
    anaphoric_only: bool
    remove_nested: bool
    cross_document: bool
    key_scope: str
    response_scope: str
    compat: str | None
    zeros: str | None
    split_antecedents: str | None
    split_importance: float
    layer: str | None


def default_compat(key_format: str, response_format: str) -> str:
    """The evaluation a pair of files gets when none is chosen: the CorefUD
    evaluation for two CoNLL-U files (the CRAC shared tasks' data and scorer),
    the CoNLL reference scorer's for everything else."""
    return "corefud" if key_format == response_format == "conllu" else "conll"


def default_duplicates(regime: EvaluationSetup, scope: Scope) -> str:
    """The duplicates policy when none is given: the reference scorer's handling
    (``reference``) wherever it is defined, i.e. per document with exact
    matching, so that the default numbers are the reference's; ``first``
    otherwise (cross-document scoring, inexact matching)."""
    if scope.cross_document or regime.matching != "exact":
        return "first"
    return "reference"


def _default_metrics() -> tuple[Metric, ...]:
    return resolve(None)


@record(frozen=True)
class Evaluation:
    """Metrics, duplicates policy, regime (matching included) and scope of one evaluation.

    Build it with ``create`` from keyword options, or directly from its
    parts; either way it is validated on construction, and every engine
    reads the same object.
    """

    metrics: tuple[Metric, ...] = field(default_factory=_default_metrics)
    duplicates: str = "reference"
    regime: EvaluationSetup = field(default_factory=EvaluationSetup)
    scope: Scope = field(default_factory=Scope)
    #: ``conll`` or ``corefud`` (see ``COMPATS``).
    compat: str = "conll"
    #: The CorefUD evaluation's pairing of zeros: ``dependent`` or ``linear``.
    zeros: str = "dependent"
    #: Split antecedents (``corefscore.metrics.split_antecedents``): ``keep``
    #: (scored, the UA scorer's default), ``drop`` or ``only`` (their alignment).
    split_antecedents: str = "keep"
    #: LEA's importance of an entity with a split antecedent, times its size.
    split_importance: float = 1.0
    #: The annotation layer of Universal Anaphora files that is scored:
    #: ``identity`` or ``discourse_deixis`` (``corefscore.io.ua``).
    layer: str = "identity"

    def __post_init__(self) -> None:
        if not self.metrics:
            raise UsageError("no metric selected")
        if self.compat not in COMPATS:
            raise UsageError(
                f"{option('compat', self.compat)} is not an evaluation; choose "
                f"{', '.join(COMPATS)} (or auto, for files)"
            )
        if self.compat == "corefud":
            from .corefud import check_options

            check_options(self)
            return
        self._check_conll()
        self._check_split_antecedents()

    def _check_split_antecedents(self) -> None:
        if self.split_antecedents != "keep":
            # Only then is the module needed (not on every start-up).
            from .metrics.split_antecedents import POLICIES, check_metrics

            if self.split_antecedents not in POLICIES:
                raise UsageError(
                    f"{option('split_antecedents', self.split_antecedents)} is not a "
                    f"split-antecedent policy; choose {', '.join(POLICIES)}"
                )
            check_metrics(self)
        if self.layer not in ("identity", "discourse_deixis"):
            raise UsageError(
                f"{option('layer', self.layer)} is not a layer; choose identity or discourse_deixis"
            )
        importance = self.split_importance
        if isinstance(importance, bool) or not isinstance(importance, (int, float)):
            raise UsageError(f"split_importance must be a number, got {importance!r}")
        if not importance >= 0 or importance == float("inf"):
            raise UsageError(
                f"split_importance must be a finite number at least 0, got {importance!r}"
            )

    def _check_conll(self) -> None:
        corefud_only = [
            name
            for name, used in (
                (option("matching", "partial"), self.regime.matching == "partial"),
                (option("zeros", self.zeros), self.zeros != ZERO_METHODS[0]),
                (option("duplicates", self.duplicates), self.duplicates == COREFUD_DUPLICATES),
            )
            if used
        ] + [f"metric {m.name}" for m in self.metrics if "corefud" in m.requires]
        if corefud_only:
            raise UsageError(
                f"{', '.join(corefud_only)}: only in the CorefUD evaluation; add "
                f"{option('compat', 'corefud')} (CoNLL-U files)"
            )
        if self.duplicates not in DUPLICATE_POLICIES:
            raise UsageError(
                f"unknown duplicates policy {self.duplicates!r}; choose one of "
                f"{', '.join(DUPLICATE_POLICIES)}"
            )
        if self.regime.matching != "exact" and self.duplicates == "reference":
            raise UsageError(
                f"{option('duplicates', 'reference')} reproduces the reference scorer, which "
                f"matches mentions exactly; it cannot be combined with "
                f"{option('matching', self.regime.matching)}"
            )

    @classmethod
    def create(cls, **options: Unpack[EvaluationOptions]) -> Evaluation:
        """An evaluation from the keyword options of the scoring functions.

        ``metrics``: names (see ``corefscore metrics``), ``"conll"``,
        ``"all"`` or ``Metric`` objects (default:
        the reference scorer's seven). ``duplicates``: ``reference``,
        ``first`` or ``strict`` (default: see ``default_duplicates``). Regime options
        (``corefscore.regimes``): ``matching`` (``exact``, ``head``, ``min-span``, ``overlap``),
        ``singletons`` (``keep``/``drop``, for both sides unless
        ``key_singletons``/``response_singletons`` is given),
        ``gold_mentions``, ``anaphoric_only``, ``remove_nested``. Scope:
        ``cross_document`` with ``key_scope``/``response_scope``.

        ``compat="corefud"`` is the CorefUD evaluation of the CRAC shared
        tasks (``corefscore.corefud``): ``matching`` ``exact``, ``partial``
        or ``head`` (default), ``singletons`` (default ``drop``), ``zeros``
        ``dependent`` (default) or ``linear``, and its metrics (default
        ``muc bcub ceafe ceafm blanc lea mor zero``).
        """
        unknown = set(options) - set(EvaluationOptions.__annotations__)
        if unknown:
            raise UsageError(
                f"unknown option(s) {', '.join(sorted(unknown))}; the options are "
                f"{', '.join(EvaluationOptions.__annotations__)}"
            )
        compat = options.get("compat") or "conll"
        if compat == "corefud":
            return cls._create_corefud(options)
        if options.get("zeros") is not None:
            zeros = option("zeros", options.get("zeros"))
            raise UsageError(
                f"{zeros} is an option of the CorefUD evaluation; add "
                f"{option('compat', 'corefud')} (CoNLL-U files)"
            )
        regime = EvaluationSetup.create(
            matching=options.get("matching") or "exact",
            singletons=options.get("singletons") or "keep",
            key_singletons=options.get("key_singletons"),
            response_singletons=options.get("response_singletons"),
            gold_mentions=options.get("gold_mentions", False),
            anaphoric_only=options.get("anaphoric_only", False),
            remove_nested=options.get("remove_nested", False),
        )
        scope = Scope(
            cross_document=bool(options.get("cross_document", False)),
            key=options.get("key_scope", "global"),
            response=options.get("response_scope", "global"),
        )
        if compat == "ua":
            from .metrics import ua_metrics

            metrics = ua_metrics(
                options.get("metrics"), alignment=options.get("split_antecedents") == "only"
            )
            # The UA scorer keeps one copy of a repeated span (its maps keep the last).
            duplicates = options.get("duplicates") or "first"
        else:
            metrics = resolve(options.get("metrics"))
            duplicates = options.get("duplicates") or default_duplicates(regime, scope)
        return cls(
            metrics=metrics,
            duplicates=duplicates,
            regime=regime,
            scope=scope,
            compat=compat,
            split_antecedents=options.get("split_antecedents") or "keep",
            split_importance=options.get("split_importance", 1.0),
            layer=options.get("layer") or "identity",
        )

    @classmethod
    def _create_corefud(cls, options: EvaluationOptions) -> Evaluation:
        """The CorefUD evaluation: corefud-scorer's defaults (head matching,
        singletons dropped, dependent zeros, its eight metrics) unless given."""
        from .corefud import METRICS, corefud_metrics

        for name in ("split_antecedents", "split_importance", "layer"):
            if options.get(name) is not None:
                raise UsageError(
                    f"{option(name, options.get(name))}: the CorefUD evaluation leaves split "
                    f"antecedents out, as corefud-scorer does; choose {option('compat', 'conll')} "
                    "or ua to score them"
                )
        if options.get("duplicates") not in (None, COREFUD_DUPLICATES):
            raise UsageError(
                f"{option('duplicates', options.get('duplicates'))}: the CorefUD evaluation "
                "counts a repeated mention once per entity, as corefud-scorer does; it has no "
                "duplicates policy"
            )
        regime = EvaluationSetup.create(
            matching=options.get("matching") or "head",
            singletons=options.get("singletons") or "drop",
            key_singletons=options.get("key_singletons"),
            response_singletons=options.get("response_singletons"),
            gold_mentions=options.get("gold_mentions", False),
            anaphoric_only=options.get("anaphoric_only", False),
            remove_nested=options.get("remove_nested", False),
        )
        scope = Scope(cross_document=bool(options.get("cross_document", False)))
        return cls(
            metrics=corefud_metrics(options.get("metrics") or METRICS),
            duplicates=COREFUD_DUPLICATES,
            regime=regime,
            scope=scope,
            compat="corefud",
            zeros=options.get("zeros") or "dependent",
        )

    @classmethod
    def of(
        cls, evaluation: Evaluation | None, options: Mapping[str, Any] | EvaluationOptions
    ) -> Evaluation:
        """``evaluation`` itself, or one made from ``options`` (not both).

        An evaluation made from options is kept (they are immutable), so that
        scoring one small document at a time (``score`` in a training loop)
        does not resolve the same metrics and regime on every call.
        """
        if evaluation is None:
            # No options, the usual call of a training loop: the defaults, found at once.
            key = _options_key(options) if options else ()
            if key is None:
                return cls.create(**options)
            found = _MADE.get(key)
            if found is None:
                if len(_MADE) >= 64:
                    _MADE.clear()
                found = _MADE[key] = cls.create(**options)
            return found
        if options:
            raise UsageError(
                f"give either an evaluation or options, not both (got {', '.join(options)})"
            )
        return evaluation

    def memo(self, name: str, make: Callable[[], _T]) -> _T:
        """``make()``, made once for this evaluation and kept: what is derived from
        it alone (it is immutable) and asked for again and again, such as its
        signature, or whether its metrics have list formulas, which every
        ``CorefScorer.update`` of a training loop asks."""
        memo: dict[str, Any] | None = self.__dict__.get("_memo")
        if memo is None:
            memo = self.__dict__["_memo"] = {}
        try:
            found: _T = memo[name]
        except KeyError:
            found = memo[name] = make()
        return found

    def with_options(self, **changes: Any) -> Evaluation:
        """This evaluation with some parts replaced (validated again)."""
        return replace(self, **changes)

    @property
    def metric_names(self) -> tuple[str, ...]:
        """The names of the metrics, in report order."""
        return tuple(m.name for m in self.metrics)

    def signature(
        self,
        *,
        bootstrap: tuple[int, int | None, float] | None = None,
        significance: tuple[str, int, int | None, float] | None = None,
    ) -> str:
        """The signature of results computed this way (see ``corefscore.signature``)."""
        if bootstrap is None and significance is None:
            # Asked for by every result.
            return self.memo("signature", lambda: self._make_signature(None, None))
        return self._make_signature(bootstrap, significance)

    def _make_signature(
        self,
        bootstrap: tuple[int, int | None, float] | None,
        significance: tuple[str, int, int | None, float] | None,
    ) -> str:
        return make_signature(
            metrics=self.metric_names,
            duplicates=self.duplicates,
            setup=self.regime,
            bootstrap=bootstrap,
            significance=significance,
            scope=self.scope.label,
            compat=self.compat,
            zeros=self.zeros if self.compat == "corefud" else None,
            split=self._split_label(),
        )

    def _split_label(self) -> str | None:
        """The signature's ``anaphora:`` field: the UA layer and split-antecedent
        policy, only when they are not the defaults."""
        if self.compat == "corefud":
            return None
        parts = []
        if self.layer != "identity":
            parts.append(self.layer)
        if self.split_antecedents != "keep":
            parts.append(f"split-{self.split_antecedents}")
        if self.split_importance != 1.0:
            parts.append(f"split-importance={self.split_importance:g}")
        return ",".join(parts) or None

    def to_dict(self) -> dict[str, Any]:
        """The options record of a result (its JSON ``options``, before the inputs)."""
        out = dict(self.memo("record", self._record))
        out["metrics"] = list(out["metrics"])
        return out

    def _record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metrics": list(self.metric_names), "duplicates": self.duplicates}
        out.update(self.regime.to_dict())
        out.update(self.scope.to_dict())
        if self.compat != "conll":
            out["compat"] = self.compat
        if self.compat == "corefud":
            out["zeros"] = self.zeros
        else:
            out["split_antecedents"] = self.split_antecedents
            if self.split_importance != 1.0:
                out["split_importance"] = self.split_importance
            if self.layer != "identity":
                out["layer"] = self.layer
        return out


_MADE: dict[tuple[tuple[str, Any], ...], Evaluation] = {}


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...] | None:
    """A hashable form of keyword options (lists as tuples); ``None`` when one of
    them cannot be hashed (the evaluation is then made afresh)."""
    items = []
    for name, value in options.items():
        if isinstance(value, list):
            value = ("list", *value)
        items.append((name, value))
    key = tuple(sorted(items, key=lambda item: item[0]))
    try:
        hash(key)
    except TypeError:
        return None
    return key


__all__ = [
    "COMPATS",
    "COREFUD_DUPLICATES",
    "DUPLICATE_POLICIES",
    "ID_SCOPES",
    "Evaluation",
    "EvaluationOptions",
    "Scope",
    "default_compat",
    "default_duplicates",
]
