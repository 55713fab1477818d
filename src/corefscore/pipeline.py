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

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from . import engines
from ._record import NamedTuple, replace
from .contingency import empty_document, forget_span_codes
from .duplicates import prepare_pair
from .errors import InputError, option
from .evaluation import Evaluation
from .model import Corpus, Document, MentionTable
from .result import build_result
from .tokens import check_shared_tokens

if TYPE_CHECKING:
    from .result import ScoreResult

#: One document's statistics: metric name -> numerators and denominators.
Statistics = dict[str, tuple[float, ...]]


# --------------------------------------------------------------------------------------------
# 1. Pairing documents


# A named tuple, not a dataclass: generating a dataclass's methods costs
# about half a millisecond of the start-up of `corefscore score`.
class Pairing(NamedTuple):
    """Which key documents are scored, and what the pairing found.

    ``documents`` are the key documents to score, in order; ``unpaired``
    those among them that the response lacks (scored as all missed);
    ``response_ids`` the response document of each key document whose id
    differs (paired by name across formats, see ``pair_documents``).
    """

    documents: tuple[str, ...]
    unpaired: frozenset[str]
    warnings: tuple[str, ...]
    response_ids: Mapping[str, str] = MappingProxyType({})

    def response_id(self, key_id: str) -> str:
        """The id of the response document paired with key document ``key_id``."""
        return self.response_ids.get(key_id, key_id)


# CoNLL-2012 names a document "(NAME); part NNN"; CoNLL-U, jsonlines and JSON
# formats name it NAME (or NAME_part).
# Compiled on first use (by re's cache): most runs pair every document by its id.
_PART = r"^\((?P<name>.*)\); part (?P<part>\d+)$"


def _name(doc_id: str) -> str:
    match = re.match(_PART, doc_id)
    return match.group("name") if match else doc_id


def pair_documents(
    key_ids: Sequence[str],
    response_ids: Sequence[str],
    *,
    documents: Sequence[str] | None = None,
    key_source: str | None = None,
    response_source: str | None = None,
) -> Pairing:
    """Pair key and response documents by id, and say what did not pair.

    Ids pair when equal; a key and a response id left over pair when they
    name the same document across formats (``(NAME); part NNN`` and
    ``NAME``) and no other left-over id on either side has that name, with
    a warning saying so. Every key document is scored (or those named in
    ``documents``, in that order): one the response lacks counts as all
    missed, and a response document the key lacks is ignored, each with a
    warning. When no key document pairs with a response document, nothing
    would be scored but misses: that is an ``InputError``, not a score.
    """
    key_set = set(key_ids)
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
    renamed = _pair_by_name(key_ids, response_ids)
    if renamed:
        first_key, first_response = next(iter(renamed.items()))
        warnings.append(
            f"{len(renamed)} document id(s) paired by name across formats, e.g. key "
            f"{first_key!r} with response {first_response!r}"
        )
    paired_responses = set(response_ids) - set(renamed.values())
    response_of = {k: renamed.get(k, k) for k in selected}
    unpaired = frozenset(k for k in selected if k not in renamed and k not in paired_responses)
    if len(unpaired) == len(selected) and selected:
        _nothing_pairs(key_ids, response_ids, response_source)
    if documents is None:
        used = set(response_of.values())
        extra = [d for d in response_ids if d not in used]
        if extra:
            warnings.append(
                f"{len(extra)} response document(s) not in the key, ignored: {_show(extra)}"
            )
    if unpaired:
        warnings.append(
            f"{len(unpaired)} key document(s) not in the response, scored as all missed: "
            f"{_show(sorted(unpaired, key=selected.index))}"
        )
    return Pairing(selected, unpaired, tuple(warnings), renamed)


def _pair_by_name(key_ids: Sequence[str], response_ids: Sequence[str]) -> dict[str, str]:
    """Key id -> response id of the left-over ids that name one document unambiguously."""
    response_set = set(response_ids)
    key_left = [k for k in key_ids if k not in response_set]
    if not key_left:
        return {}
    key_set = set(key_ids)
    response_left = [r for r in response_ids if r not in key_set]
    by_name: dict[str, list[str]] = {}
    for r in response_left:
        by_name.setdefault(_name(r), []).append(r)
    key_by_name: dict[str, list[str]] = {}
    for k in key_left:
        key_by_name.setdefault(_name(k), []).append(k)
    out: dict[str, str] = {}
    for name, keys in key_by_name.items():
        candidates = by_name.get(name, [])
        if len(keys) == 1 and len(candidates) == 1:
            out[keys[0]] = candidates[0]
    return out


def _nothing_pairs(
    key_ids: Sequence[str], response_ids: Sequence[str], response_source: str | None
) -> None:
    if not response_ids:
        raise InputError(
            "the response has no documents, so no key document can be scored",
            path=response_source,
        )
    raise InputError(
        f"no response document pairs with a key document (key ids e.g. {_show(key_ids)}; "
        f"response ids e.g. {_show(response_ids)}): the files are not the same documents, "
        "or their ids differ",
        path=response_source,
    )


def _show(ids: Sequence[str]) -> str:
    return ", ".join(repr(d) for d in ids[:3]) + (" ..." if len(ids) > 3 else "")


def document_pairs(
    key: Corpus,
    response: Corpus,
    pairing: Pairing,
    warnings: list[str],
    *,
    compat: str = "conll",
) -> Iterable[tuple[Document, Document]]:
    """The key/response document pairs of ``pairing``, tokens checked, in order.

    Tokens that differ refuse the pair, or are said in ``warnings`` when they
    differ only in form at the same positions (see ``corefscore.tokens``); in
    the CorefUD evaluation, sentences and words are compared as corefud-scorer
    compares them (``corefscore.corefud.check_alignment``).
    """
    if compat == "corefud":
        from .corefud import check_alignment as check
    else:
        check = check_shared_tokens

    for doc_id in pairing.documents:
        key_doc = key.documents[doc_id]
        response_doc = response.documents.get(pairing.response_id(doc_id))
        if response_doc is None:
            response_doc = empty_document(doc_id)
        else:
            check(key_doc, response_doc, warnings)
            if response_doc.doc_id != doc_id:
                response_doc = replace(response_doc, doc_id=doc_id)
        yield key_doc, response_doc


# --------------------------------------------------------------------------------------------
# 2. Preparing one pair


def prepare(
    key: Document, response: Document, evaluation: Evaluation, warnings: list[str]
) -> tuple[Document, Document]:
    """Apply the duplicates policy and the regime to one document pair."""
    given = key, response
    key, response = prepare_pair(key, response, evaluation.duplicates, warnings)
    if evaluation.split_antecedents == "drop":
        from .metrics.split_antecedents import without_split_antecedents

        key, response = without_split_antecedents(key), without_split_antecedents(response)
    prepared = evaluation.regime.apply(key, response)
    for doc in given:
        if doc is not prepared[0] and doc is not prepared[1]:
            # A large document's span codes, made by the duplicates check, are
            # not kept for a document that is not the one tabulated.
            forget_span_codes(doc)
    return prepared


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
        # "corefud": the evaluation itself (Evaluation checks it).
        for need in (n for n in metric.requires if n != "corefud"):
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
    arrays = isinstance(key, MentionTable) or isinstance(response, MentionTable)
    chosen = engine or engines.choose(evaluation, arrays=arrays)
    if chosen == "columnar" and _reference_repeats(key, response, evaluation):
        # The reference's handling of repeated spans reads each metric its own
        # way (corefscore.contingency): only the object engine tabulates that.
        if engine is not None:
            from .errors import UsageError

            raise UsageError(
                f"the input has repeated spans, and {option('duplicates', 'reference')} "
                f"(the reference scorer's handling) needs {option('engine', 'objects')}; "
                f"or choose {option('duplicates', 'first')}"
            )
        chosen = "objects"
    what = "cross-document scoring" if evaluation.scope.cross_document else None
    engines.check(evaluation, chosen, what=what)
    if per_document and evaluation.scope.cross_document:
        from .errors import UsageError

        raise UsageError(
            f"{option('per_document')} needs per-document scoring; a cross-document "
            "evaluation scores one partition of the whole corpus"
        )
    if chosen == "objects":
        key, response = as_corpus(key), as_corpus(response)
    warnings: list[str] = [*key.warnings, *response.warnings]
    key_ids = tuple(key.documents) if isinstance(key, Corpus) else key.doc_ids
    response_ids = tuple(response.documents) if isinstance(response, Corpus) else response.doc_ids
    pairing = pair_documents(
        key_ids,
        response_ids,
        documents=documents,
        key_source=key.source,
        response_source=response.source,
    )
    if evaluation.compat == "corefud" and pairing.unpaired:
        # corefud-scorer refuses such a pair (an assertion), so no number is published
        # for it; said here as an error rather than scored as all missed.
        missing = [d for d in pairing.documents if d in pairing.unpaired]
        raise InputError(
            f"{len(missing)} key document(s) not in the response: {_show(missing)}; the "
            f"CorefUD evaluation needs every key document (choose {option('compat', 'conll')} "
            "to score them as all missed)",
            path=response.source,
        )
    if evaluation.compat == "ua" and pairing.unpaired:
        # The UA scorer skips a key document the response lacks (no recall lost).
        missing = [d for d in pairing.documents if d in pairing.unpaired]
        pairing = pairing._replace(
            documents=tuple(d for d in pairing.documents if d not in pairing.unpaired),
            unpaired=frozenset(),
            warnings=(
                *(w for w in pairing.warnings if "scored as all missed" not in w),
                f"{len(missing)} key document(s) not in the response left out, as the UA "
                f"scorer does (the conll evaluation scores them as all missed): "
                f"{_show(missing)}",
            ),
        )
    if chosen == "columnar":
        from .engines import columnar
        from .io.mentiontable import table_from_corpus

        key_table = key if isinstance(key, MentionTable) else table_from_corpus(key)
        response_table = (
            response if isinstance(response, MentionTable) else table_from_corpus(response)
        )
        _check_scopes(evaluation, key_table, response_table)
        warnings.extend(pairing.warnings)
        if pairing.response_ids:
            named = {r: k for k, r in pairing.response_ids.items()}
            response_table = replace(
                response_table, doc_ids=tuple(named.get(d, d) for d in response_table.doc_ids)
            )
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
    from .errors import UsageError

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
    "document_pairs",
    "evaluate",
    "min_span_warning",
    "pair_documents",
    "prepare",
]
