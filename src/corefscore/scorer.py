"""The public scoring API: ``score``, ``score_files``, ``score_corpora``,
the stateful ``CorefScorer``, and the analyses of one pair built on them.

Every function takes the options of ``corefscore.evaluation.Evaluation.create``
as keywords (``metrics=``, ``duplicates=``, ``matching=``, ``singletons=``,
``cross_document=``...) or a ready-made ``evaluation=``, and runs the one
pipeline of ``corefscore.pipeline``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .engines import check as check_engine
from .errors import InputError, UsageError
from .evaluation import Evaluation, EvaluationOptions
from .model import (
    ClusterInput,
    Corpus,
    Document,
    MentionTable,
    corpus_from_mapping,
    document_from_clusters,
)
from .pipeline import Statistics, evaluate, min_span_warning
from .result import ScoreResult, build_result

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .matching import Twins
    from .metrics.ceaf import EntityAlignment


class CorefScorer:
    """Accumulates additive statistics document by document.

    The state is each document's additive statistics (numerators and
    denominators), so scorers fed on different workers can be combined with
    ``merge``::

        scorer = CorefScorer()
        for key_clusters, predicted in batches:
            scorer.update(key_clusters, predicted)
        result = scorer.compute()
        scorer.reset()

    A document updated without a ``doc_id`` is anonymous: it is named
    ``doc0``, ``doc1``, ... (the first free name), and renamed whenever that
    name is wanted by another document, so that scorers fed on several workers
    merge without ids. Documents given a ``doc_id`` are named: the same name
    twice, in one scorer or across a ``merge``, is an error.

    Options are those of ``score``, or ``evaluation=``.
    """

    def __init__(
        self, *, evaluation: Evaluation | None = None, **options: Unpack[EvaluationOptions]
    ) -> None:
        self.evaluation = Evaluation.of(evaluation, options)
        if self.evaluation.scope.cross_document:
            raise UsageError(
                "CorefScorer scores document by document; use score_corpora for "
                "cross-document scoring"
            )
        self.metrics: tuple[str, ...] = self.evaluation.metric_names
        self.reset()

    @property
    def duplicates(self) -> str:
        """The duplicates policy of this scorer's evaluation."""
        return self.evaluation.duplicates

    def reset(self) -> None:
        """Forget every document seen so far."""
        self._documents: dict[str, Statistics] = {}
        # The documents named here (updated without a doc_id), which may be renamed.
        self._anonymous: set[str] = set()
        self._warnings: list[str] = []
        self._min_span_warned = False

    def update(
        self,
        key_clusters: ClusterInput,
        response_clusters: ClusterInput,
        *,
        doc_id: str | None = None,
    ) -> Statistics:
        """Score one document given as clusters of ``(start, end)`` spans.

        Clusters are lists (or arrays) in the forms ``document_from_clusters``
        accepts. Returns that document's statistics and adds them to the state.
        Without ``doc_id`` the document is anonymous (see the class).
        """
        engine = _objects or _load_objects()
        name = doc_id if doc_id is not None else self._free_name()
        # The usual input (lists of (start, end) pairs of ints) is scored without
        # documents when their preparation would change nothing (a training loop
        # calls this every step); anything else takes the documents' path, and
        # so does a name already taken, so that a bad input is still reported
        # before the name.
        if name not in self._documents or name in self._anonymous:
            stats: Statistics | None = engine.score_plain_clusters(
                key_clusters, response_clusters, self.evaluation
            )
            if stats is not None:
                self._store(name, stats, anonymous=doc_id is None)
                return stats
        key = document_from_clusters(name, key_clusters, side="key")
        response = document_from_clusters(name, response_clusters, side="response")
        return self._add(key, response, anonymous=doc_id is None)

    def update_document(self, key: Document, response: Document) -> Statistics:
        """Score one key/response ``Document`` pair (same ``doc_id``), a named document."""
        return self._add(key, response, anonymous=False)

    def _add(self, key: Document, response: Document, *, anonymous: bool) -> Statistics:
        from .engines.objects import score_pair

        self._check_new(key.doc_id)
        if not self._min_span_warned:
            warned = min_span_warning(self.evaluation, (key,))
            if warned is not None:
                self._min_span_warned = True
                self._warnings.append(warned[1])
        stats = score_pair(key, response, self.evaluation, self._warnings)
        self._store(key.doc_id, stats, anonymous=anonymous)
        return stats

    def _check_new(self, doc_id: str) -> None:
        if doc_id in self._documents and doc_id not in self._anonymous:
            raise InputError(
                f"document {doc_id!r} was already scored; call reset() or give another doc_id"
            )

    def _free_name(self) -> str:
        """The first of ``doc0``, ``doc1``, ... that no document of this scorer has."""
        n = len(self._documents)
        while f"doc{n}" in self._documents:
            n += 1
        return f"doc{n}"

    def _store(self, name: str, stats: Statistics, *, anonymous: bool) -> None:
        """Add a document's statistics; an anonymous document holding ``name`` moves aside."""
        if name in self._documents:
            if anonymous:
                name = self._free_name()
            else:
                # Only an anonymous document can be in the way (callers check named ones).
                moved = self._free_name()
                self._documents[moved] = self._documents.pop(name)
                self._anonymous.discard(name)
                self._anonymous.add(moved)
        self._documents[name] = stats
        if anonymous:
            self._anonymous.add(name)

    def merge(self, other: CorefScorer) -> CorefScorer:
        """Add the state of ``other`` (same evaluation) to this scorer.

        Named documents must differ between the two scorers; anonymous ones
        (updated without ``doc_id``) are renamed as needed, so scorers that
        never named their documents always merge. The summed statistics, hence
        every score, do not depend on the order of merges.
        """
        if other is self:
            raise UsageError("cannot merge a scorer with itself")
        if other.evaluation != self.evaluation:
            raise UsageError(
                "cannot merge scorers with different metrics, duplicates policy or regime"
            )
        for doc_id in other._documents:
            if (
                doc_id in self._documents
                and doc_id not in self._anonymous
                and doc_id not in other._anonymous
            ):
                raise InputError(f"document {doc_id!r} was scored by both scorers")
        # Named documents first, so that anonymous ones take the names left free.
        incoming = sorted(other._documents.items(), key=lambda item: item[0] in other._anonymous)
        for doc_id, stats in incoming:
            anonymous = doc_id in other._anonymous
            name = self._free_name() if anonymous else doc_id
            self._store(name, stats, anonymous=anonymous)
        self._warnings.extend(other._warnings)
        self._min_span_warned = self._min_span_warned or other._min_span_warned
        return self

    @property
    def statistics(self) -> Statistics:
        """The summed statistics: metric -> (recall num, recall den, precision num, den...).

        Sums are correctly rounded (``math.fsum``), hence independent of the
        order in which documents were added or scorers merged. The reference
        scorer adds documents in Perl hash order, which varies from run to run.
        """
        return {m.name: _summed(self._documents, m.name, m.width) for m in self.evaluation.metrics}

    @property
    def document_statistics(self) -> dict[str, Statistics]:
        """Every document's statistics so far: doc id -> metric -> numerators and denominators."""
        return dict(self._documents)

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the duplicates policy and the regime said so far."""
        return tuple(self._warnings)

    def compute(
        self, *, per_document: bool = False, options: Mapping[str, Any] | None = None
    ) -> ScoreResult:
        """Recall, precision and F1 of every metric over all documents so far."""
        return build_result(
            self.evaluation,
            self._documents,
            warnings=self._warnings,
            per_document=per_document,
            options=options,
        )


# corefscore.engines.objects, imported by the first update: not with this module
# (``import corefscore`` stays light), nor by every update (an import statement
# costs about 1 µs even when the module is loaded). Its functions are looked up
# on each call, so that a patched one is the one called.
_objects: ModuleType | None = None


def _load_objects() -> ModuleType:
    global _objects
    from .engines import objects

    _objects = objects
    return objects


def _summed(documents: Mapping[str, Statistics], name: str, width: int) -> tuple[float, ...]:
    import math

    columns = zip(*(stats[name] for stats in documents.values()))
    return tuple(math.fsum(c) for c in columns) or (0,) * width


def score_corpora(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    engine: str | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    **evaluation_options: Unpack[EvaluationOptions],
) -> ScoreResult:
    """Score two corpora (or mention tables), pairing documents by id.

    Key documents missing from the response are scored as all missed;
    response documents missing from the key are ignored with a warning.
    ``documents`` scores only those key documents. ``engine`` is
    ``objects`` or ``columnar`` (default: chosen by the input and the
    evaluation, see ``corefscore.engines``). ``options`` are added to the
    result's options record. ``progress(done, total)`` is called after each
    document (the command line draws a progress bar with it; the library
    itself never prints).
    """
    return evaluate(
        key,
        response,
        Evaluation.of(evaluation, evaluation_options),
        documents=documents,
        per_document=per_document,
        engine=engine,
        options=options,
        progress=progress,
    )


def score(
    key: Mapping[str, ClusterInput],
    response: Mapping[str, ClusterInput],
    *,
    evaluation: Evaluation | None = None,
    per_document: bool = False,
    **options: Unpack[EvaluationOptions],
) -> ScoreResult:
    """Score in-memory clusters: ``{doc_id: [[(start, end), ...], ...]}`` on each side.

    ``metrics`` takes names (see ``corefscore metrics``) and ``Metric``
    objects, e.g. ``corefscore.metrics.ceaf.custom(...)``.

    Regime options (``corefscore.regimes``): ``matching`` pairs response
    mentions with key mentions (``exact``, ``head``, ``min-span``,
    ``overlap``); ``singletons`` (``keep``/``drop``) applies to both sides
    unless ``key_singletons`` or ``response_singletons`` is given;
    ``gold_mentions`` keeps only response mentions with a key twin;
    ``anaphoric_only`` keeps only mentions of non-singleton key entities and
    their twins; ``remove_nested`` keeps only maximal spans. Every option is
    described at ``corefscore.evaluation.Evaluation.create``.
    """
    chosen = Evaluation.of(evaluation, options)
    # The usual input (the same documents on both sides, lists of (start, end)
    # pairs of ints) is scored without corpora when their preparation would
    # change nothing: a model's evaluation may call this on every small batch.
    engine = _objects or _load_objects()
    statistics = engine.score_plain_corpus(key, response, chosen)
    if statistics is not None:
        check_engine(chosen, "objects")
        # Its statistics are the built-in list formulas': tuples of floats.
        return build_result(
            chosen,
            statistics,
            per_document=per_document,
            options={"documents": None},
            floats=True,
        )
    return evaluate(
        corpus_from_mapping(key, side="key"),
        corpus_from_mapping(response, side="response"),
        chosen,
        per_document=per_document,
    )


def score_files(
    key_path: str | os.PathLike[str],
    response_path: str | os.PathLike[str],
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    key_format: str | None = None,
    response_format: str | None = None,
    **options: Unpack[EvaluationOptions],
) -> ScoreResult:
    """Score a response file against a key file (``.gz`` too).

    Formats (``conll``, ``conllu``, ``jsonl``, ``json``, ``sgml``,
    ``mentions``) are detected from each file's content and name unless
    given; key and response may differ. ``compat`` defaults to ``auto``:
    two CoNLL-U files get the CorefUD evaluation of the CRAC shared tasks
    (corefud-scorer's numbers), every other pair the CoNLL reference
    scorer's.
    """
    if evaluation is None:
        options = with_compat(options, key_path, response_path, key_format, response_format)
    chosen = Evaluation.of(evaluation, options)
    key, response = read_pair(
        key_path,
        response_path,
        evaluation=chosen,
        key_format=key_format,
        response_format=response_format,
    )
    return evaluate(
        key,
        response,
        chosen,
        documents=documents,
        per_document=per_document,
        options={"key": os.fspath(key_path), "response": os.fspath(response_path)},
    )


def with_compat(
    options: EvaluationOptions,
    key_path: str | os.PathLike[str],
    response_path: str | os.PathLike[str],
    key_format: str | None = None,
    response_format: str | None = None,
) -> EvaluationOptions:
    """``options`` with ``compat`` decided when it is ``auto`` or not given:
    by the formats of the two files (``corefscore.evaluation.default_compat``)."""
    if options.get("compat") not in (None, "auto"):
        return options
    from .evaluation import default_compat
    from .io import detect_format

    formats = (
        key_format or detect_format(key_path, side="key"),
        response_format or detect_format(response_path, side="response"),
    )
    return {**options, "compat": default_compat(*formats)}


def read_pair(
    key_path: str | os.PathLike[str],
    response_path: str | os.PathLike[str],
    *,
    evaluation: Evaluation | None = None,
    syntax: bool = False,
    head_column: int | None = None,
    key_format: str | None = None,
    response_format: str | None = None,
    empty_nodes: bool = False,
) -> tuple[Corpus | MentionTable, Corpus | MentionTable]:
    """Read a key and a response file, in any supported formats (detected if not given).

    Head matching needs each document's syntax (a parse or dependency column),
    which for CoNLL files a second, slower pass reads; ``syntax=True`` forces
    it. ``head_column`` names a dependency head field (0-based), as in
    ``corefscore.io.read_conll``. ``empty_nodes`` keeps CoNLL-U empty nodes
    as tokens. Mention tables, and every input of a cross-document evaluation,
    are read as ``MentionTable`` arrays.
    """
    from .io import is_mention_table, read_corpus, read_mentions

    if head_column is not None and head_column < 0:
        from .errors import option_name

        raise UsageError(
            f"{option_name('head_column')} must be a field index >= 0, got {head_column}"
        )
    evaluation = evaluation or Evaluation()
    if evaluation.compat == "corefud":
        from .io import read_corefud

        return (
            read_corefud(key_path, format=key_format, side="key"),
            read_corefud(response_path, format=response_format, side="response"),
        )
    if (
        evaluation.scope.cross_document
        or is_mention_table(key_path, key_format)
        or is_mention_table(response_path, response_format)
    ):
        return (
            read_mentions(key_path, format=key_format, side="key"),
            read_mentions(response_path, format=response_format, side="response"),
        )
    with_syntax = syntax or evaluation.regime.matching == "head"
    layer = {"layer": evaluation.layer} if evaluation.layer != "identity" else {}
    key = read_corpus(
        key_path,
        format=key_format,
        side="key",
        syntax=with_syntax,
        head_column=head_column,
        empty_nodes=empty_nodes,
        **layer,
    )
    # Heads of both sides come from the key's syntax (the same tokens, and the
    # same parse for both); the response's own columns are read only when the
    # key has none.
    response_syntax = with_syntax and not all(
        doc.syntax is not None
        and (doc.syntax.parse is not None or doc.syntax.dependency_heads is not None)
        for doc in key
    )
    response = read_corpus(
        response_path,
        format=response_format,
        side="response",
        syntax=response_syntax,
        head_column=head_column,
        empty_nodes=empty_nodes,
        **layer,
    )
    return key, response


def score_regimes(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    **options: Unpack[EvaluationOptions],
) -> dict[str, ScoreResult]:
    """Score one response under every regime of ``corefscore.regimes.REGIMES``.

    Each regime is applied on top of the evaluation's own (e.g. a matching
    method), so the results show how much each assumption changes the numbers.
    """
    from .regimes import regime_setups

    base = Evaluation.of(evaluation, options)
    return {
        name: evaluate(key, response, base.with_options(regime=regime), documents=documents)
        for name, regime in regime_setups(base.regime).items()
    }


def _pairs(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    documents: Sequence[str] | None,
    warnings: list[str],
) -> Iterator[tuple[Document, Document]]:
    from .pipeline import as_corpus, document_pairs, pair_documents

    key, response = as_corpus(key), as_corpus(response)
    pairing = pair_documents(
        tuple(key.documents), tuple(response.documents), documents=documents, key_source=key.source
    )
    warnings.extend(pairing.warnings)
    yield from document_pairs(key, response, pairing, warnings)


def alignments(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    *,
    metric: str | Any = "ceafe",
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    **options: Unpack[EvaluationOptions],
) -> dict[str, EntityAlignment]:
    """The optimal CEAF entity alignment of every document, for a CEAF-family metric."""
    from .contingency import build_table
    from .metrics.ceaf import entity_alignment
    from .pipeline import prepare

    chosen = Evaluation.of(evaluation, options)
    out: dict[str, EntityAlignment] = {}
    for key_doc, response_doc in _pairs(key, response, documents, []):
        key_doc, response_doc = prepare(key_doc, response_doc, chosen, [])
        out[key_doc.doc_id] = entity_alignment(build_table(key_doc, response_doc), metric)
    return out


def find_twins(
    key: Corpus | MentionTable,
    response: Corpus | MentionTable,
    *,
    evaluation: Evaluation | None = None,
    documents: Sequence[str] | None = None,
    warnings: list[str] | None = None,
    **options: Unpack[EvaluationOptions],
) -> dict[str, Twins]:
    """Twins, missed and spurious mentions of every document under the evaluation's matching.

    The duplicates policy and the regime steps that come before matching
    (nested spans, singletons) are applied first, as when scoring.
    """
    from ._record import replace
    from .matching import match

    chosen = Evaluation.of(evaluation, options)
    before = chosen.with_options(
        regime=replace(chosen.regime, matching="exact", gold_mentions=False, anaphoric_only=False)
    )
    from .pipeline import prepare

    sink = warnings if warnings is not None else []
    out: dict[str, Twins] = {}
    for key_doc, response_doc in _pairs(key, response, documents, sink):
        key_doc, response_doc = prepare(key_doc, response_doc, before, sink)
        out[key_doc.doc_id] = match(key_doc, response_doc, method=chosen.regime.matching)
    return out
