"""The one scoring pipeline: pair documents, prepare them, tabulate, compute, report.

1. ``pair_documents`` decides which key documents are scored and which
   response documents match them, and says what did not pair;
2. ``prepare`` applies the duplicates policy and the regime (matching
   included) to one document pair;
3. ``corefscore.contingency.build_table`` (or the columnar engine's
   corpus table) tabulates the pair;
4. each metric turns the table into additive statistics;
5. ``corefscore.result.build_result`` sums them into a result.

``evaluate`` runs the whole pipeline on two corpora (or mention tables)
with the engine the evaluation and the input call for
(``corefscore.engines``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import CorefScoreError, InputError
from .evaluation import Evaluation
from .model import Corpus, Document, MentionTable, Syntax

if TYPE_CHECKING:
    from .result import ScoreResult

#: One document's statistics: metric name -> numerators and denominators.
Statistics = dict[str, tuple[float, ...]]


# --------------------------------------------------------------------------------------------
# 1. Pairing documents


@dataclass(frozen=True)
class Pairing:
    """Which key documents are scored, and what the pairing found.

    ``documents`` are the key documents to score, in order; ``unpaired``
    those among them that the response lacks (scored as all missed).
    """

    documents: tuple[str, ...]
    unpaired: frozenset[str]
    warnings: tuple[str, ...]


def pair_documents(
    key_ids: Sequence[str],
    response_ids: Sequence[str],
    *,
    documents: Sequence[str] | None = None,
    key_source: str | None = None,
) -> Pairing:
    """Pair key and response documents by id.

    Every key document is scored (or those named in ``documents``, in that
    order): one the response lacks counts as all missed, and a response
    document the key lacks is ignored; both are said in a warning.
    """
    key_set = set(key_ids)
    response_set = set(response_ids)
    warnings: list[str] = []
    if documents is not None:
        missing = [d for d in documents if d not in key_set]
        if missing:
            example = f", e.g. {key_ids[0]!r}" if key_ids else ""
            raise InputError(
                f"document {missing[0]!r} is not in the key ({len(key_ids)} documents{example})",
                path=key_source,
            )
        selected = tuple(dict.fromkeys(documents))
    else:
        selected = tuple(key_ids)
        extra = [d for d in response_ids if d not in key_set]
        if extra and len(extra) == len(response_ids):
            warnings.append(
                f"no response document id matches a key document id ({_show(extra)}); "
                "every key document is scored as all missed"
            )
        elif extra:
            warnings.append(
                f"{len(extra)} response document(s) not in the key, ignored: {_show(extra)}"
            )
    unpaired = frozenset(d for d in selected if d not in response_set)
    if unpaired and response_ids:
        warnings.append(
            f"{len(unpaired)} key document(s) not in the response, scored as all missed"
        )
    return Pairing(selected, unpaired, tuple(warnings))


def _show(ids: Sequence[str]) -> str:
    return ", ".join(repr(d) for d in ids[:3]) + (" ..." if len(ids) > 3 else "")


def check_shared_tokens(key: Document, response: Document) -> None:
    """Refuse a key and a response document whose tokens differ.

    Mentions are token positions, so a pair is only comparable when both
    sides have the same tokens. Checked when both readers state the token
    count (CoNLL-U, jsonlines, MUC SGML; the CoNLL reader, like the reference
    scorer, does not): then the error names the first sentence whose tokens
    differ, re-reading the files' words if they were not kept.
    """
    key_count, response_count = key.token_count, response.token_count
    if key_count is None or response_count is None:
        return
    key_words = key.syntax.words if key.syntax is not None else None
    response_words = response.syntax.words if response.syntax is not None else None
    if key_count == response_count and (
        key_words is None or response_words is None or key_words == response_words
    ):
        return
    key_syntax = _with_words(key)
    key_words, response_words = key_syntax.words, _with_words(response).words
    where = ""
    if key_words is not None and response_words is not None:
        first = next(
            (t for t, (a, b) in enumerate(zip(key_words, response_words)) if a != b),
            min(len(key_words), len(response_words)),
        )
        sentence = key_syntax.sentence_of(min(first, max(len(key_words) - 1, 0)))
        shown = [
            f"{side} {words[first]!r}" if first < len(words) else f"{side} none"
            for side, words in (("key", key_words), ("response", response_words))
        ]
        where = f", first at sentence {sentence}, token {first} ({', '.join(shown)})"
    raise InputError(
        f"document {key.doc_id!r}: key and response tokens differ (key {key_count} tokens, "
        f"response {response_count}{where}); both must have the same tokens",
        path=response.source,
    )


def _with_words(doc: Document) -> Syntax:
    """The document's syntax with words, re-reading its file if they were not kept."""
    if doc.syntax is not None and (doc.syntax.words is not None or doc.source is None):
        return doc.syntax
    if doc.source is None:
        return Syntax()
    from .io import read_corpus

    try:
        again = read_corpus(doc.source, syntax=True, side="input")
    except CorefScoreError:
        return doc.syntax or Syntax()
    found = again.documents.get(doc.doc_id)
    if found is not None and found.syntax is not None:
        return found.syntax
    return doc.syntax or Syntax()


def document_pairs(
    key: Corpus, response: Corpus, pairing: Pairing
) -> Iterable[tuple[Document, Document]]:
    """The key/response document pairs of ``pairing``, tokens checked, in order."""
    from .contingency import empty_document

    for doc_id in pairing.documents:
        key_doc = key.documents[doc_id]
        response_doc = response.documents.get(doc_id)
        if response_doc is None:
            response_doc = empty_document(doc_id)
        else:
            check_shared_tokens(key_doc, response_doc)
        yield key_doc, response_doc


# --------------------------------------------------------------------------------------------
# 2. Preparing one pair


def prepare(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> tuple[Document, Document]:
    """Apply the duplicates policy and the regime to one document pair."""
    from .duplicates import prepare_pair

    key, response = prepare_pair(key, response, evaluation.duplicates, warnings)
    return evaluation.regime.apply(key, response)


def min_span_warning(evaluation: Evaluation, keys: Iterable[Document]) -> tuple[str, str] | None:
    """The corpus's one warning when min-span matching meets a key without MIN spans:
    (the document to give it at, its text)."""
    if evaluation.regime.matching != "min-span":
        return None
    for key in keys:
        if not key.min_spans:
            return key.doc_id, (
                f"min-span matching: key document {key.doc_id!r} has no MIN spans (neither may "
                "others); a key mention without MIN needs an exact match"
            )
    return None


_FACTS = {"entity_types": "entity types", "mention_levels": "mention levels"}


def check_requirements(evaluation: Evaluation, key: Document, response: Document) -> None:
    """Refuse a document that lacks the facts a selected metric needs."""
    for metric in evaluation.metrics:
        for need in metric.requires:
            for side, doc in (("key", key), ("response", response)):
                values = getattr(doc, need, ())
                flat = values if need == "entity_types" else [v for e in values for v in e]
                if doc.entities and (not values or any(v is None for v in flat)):
                    raise InputError(
                        f"metric {metric.name} needs {_FACTS.get(need, need)} for every "
                        f"{'entity' if need == 'entity_types' else 'mention'}, and {side} "
                        f"document {doc.doc_id!r} lacks them",
                        path=doc.source,
                    )


# --------------------------------------------------------------------------------------------
# The whole pipeline


Side = Corpus | MentionTable


def evaluate(
    key: Side,
    response: Side,
    evaluation: Evaluation,
    *,
    documents: Sequence[str] | None = None,
    per_document: bool = False,
    engine: str | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ScoreResult:
    """Score ``response`` against ``key`` under ``evaluation``.

    ``engine`` is ``objects`` or ``columnar`` (default: columnar for
    cross-document scoring and mention tables, objects otherwise). The
    result states ``documents`` (when given) and ``options`` (e.g. the file
    names) in its options record.
    """
    from . import engines
    from .result import build_result

    arrays = isinstance(key, MentionTable) or isinstance(response, MentionTable)
    chosen = engine or engines.choose(evaluation, arrays=arrays)
    if chosen == "columnar" and _reference_repeats(key, response, evaluation):
        # The reference's handling of repeated spans reads each metric its own
        # way (corefscore.contingency): only the object engine tabulates that.
        if engine is not None:
            from .errors import UsageError, option

            raise UsageError(
                f"the input has repeated spans, and {option('duplicates', 'reference')} "
                f"(the reference scorer's handling) needs {option('engine', 'objects')}; "
                f"or choose {option('duplicates', 'first')}"
            )
        chosen = "objects"
    what = "cross-document scoring" if evaluation.scope.cross_document else None
    engines.check(evaluation, chosen, what=what)
    if per_document and evaluation.scope.cross_document:
        from .errors import UsageError, option

        raise UsageError(
            f"{option('per_document')} needs per-document scoring; a cross-document "
            "evaluation scores one partition of the whole corpus"
        )
    if chosen == "objects":
        key, response = as_corpus(key), as_corpus(response)
    warnings: list[str] = [*key.warnings, *response.warnings]
    source = key.source
    key_ids = tuple(key.documents) if isinstance(key, Corpus) else key.doc_ids
    response_ids = tuple(response.documents) if isinstance(response, Corpus) else response.doc_ids
    pairing = pair_documents(key_ids, response_ids, documents=documents, key_source=source)
    if chosen == "columnar":
        from .engines import columnar
        from .io.mentiontable import table_from_corpus

        key_table = key if isinstance(key, MentionTable) else table_from_corpus(key)
        response_table = (
            response if isinstance(response, MentionTable) else table_from_corpus(response)
        )
        _check_scopes(evaluation, key_table, response_table)
        warnings.extend(pairing.warnings)
        statistics = columnar.document_statistics(
            columnar.on_documents(key_table, pairing.documents),
            columnar.on_documents(response_table, pairing.documents),
            evaluation,
            warnings,
        )
    else:
        from .engines import objects

        assert isinstance(key, Corpus) and isinstance(response, Corpus)
        statistics = objects.document_statistics(
            key, response, pairing, evaluation, warnings, progress=progress
        )
    record: dict[str, Any] = {}
    if not evaluation.scope.cross_document:
        record["documents"] = list(documents) if documents is not None else None
    record.update(options or {})
    return build_result(
        evaluation,
        statistics,
        warnings=warnings,
        per_document=per_document and not evaluation.scope.cross_document,
        options=record,
    )


def _reference_repeats(key: Side, response: Side, evaluation: Evaluation) -> bool:
    if evaluation.duplicates != "reference" or evaluation.scope.cross_document:
        return False
    from .engines.columnar import has_repeated_spans
    from .io.mentiontable import table_from_corpus

    return any(
        has_repeated_spans(side if isinstance(side, MentionTable) else table_from_corpus(side))
        for side in (key, response)
    )


def as_corpus(side: Side) -> Corpus:
    """``side`` as a :class:`~corefscore.model.Corpus` (mention arrays are converted)."""
    if isinstance(side, Corpus):
        return side
    from .io.mentiontable import corpus_from_table

    return corpus_from_table(side)


def _check_scopes(evaluation: Evaluation, key: MentionTable, response: MentionTable) -> None:
    from .errors import UsageError, option

    scope = evaluation.scope
    if not scope.cross_document:
        return
    for side, table, value in (("key", key, scope.key), ("response", response, scope.response)):
        if value == "global" and not table.corpus_wide_labels:
            raise UsageError(
                f"the {side} is jsonlines, whose clusters have no ids beyond their document; "
                f"use {option(f'{side}_scope', 'document')}, or a format with entity ids "
                "(CoNLL, JSON clusters with 'id', a mention table)"
            )


__all__ = [
    "Pairing",
    "Side",
    "Statistics",
    "as_corpus",
    "check_requirements",
    "check_shared_tokens",
    "document_pairs",
    "evaluate",
    "min_span_warning",
    "pair_documents",
    "prepare",
]
