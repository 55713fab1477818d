"""Policies for a span that occurs more than once on one side of a document.

``default``
    Response: the first occurrence is kept (entities in order, then mentions in
    order), later ones are dropped with a warning; the reference scorer's
    expectations for its test cases A-7, A-8 and A-9 are de-duplicated the same
    way. Key: a repeated span is an error.
``first``
    Like ``default``, and the key is de-duplicated the same way (with a warning).
``reference``
    What the official reference scorer v8.01 does: in the response, repeats of
    spans that are key mentions are dropped and repeats of twinless spans are
    kept; in the key, every copy is kept.

Entities left empty are removed. ``docs/compatibility.md`` has the details.
"""

from __future__ import annotations

from .errors import InputError, option
from .model import Document, Span


def prepare_pair(
    key: Document, response: Document, policy: str, warnings: list[str]
) -> tuple[Document, Document]:
    """Apply the duplicates ``policy`` to one key/response document pair."""
    if policy == "reference":
        repeated = _repeated_spans(key)
        if repeated:
            warnings.append(
                f"key document {key.doc_id!r}: {_describe(repeated)} repeated; every copy kept "
                "(duplicates policy: reference)"
            )
        key_spans = {span for entity in key.entities for span in entity}
        response, dropped = _drop_repeats(response, only=key_spans)
        if dropped:
            warnings.append(
                f"response document {response.doc_id!r}: {_describe(dropped)} repeated; "
                "later copies of key mentions dropped (duplicates policy: reference)"
            )
        twinless = _repeated_spans(response)
        if twinless:
            warnings.append(
                f"response document {response.doc_id!r}: twinless {_describe(twinless)} repeated; "
                "every copy kept (duplicates policy: reference)"
            )
        return key, response
    if policy == "first":
        key, dropped = _drop_repeats(key)
        if dropped:
            warnings.append(
                f"key document {key.doc_id!r}: {_describe(dropped)} repeated; "
                "kept the copy in the first entity"
            )
    else:
        _refuse_key_repeats(key)
    response, dropped = _drop_repeats(response)
    if dropped:
        warnings.append(
            f"response document {response.doc_id!r}: {_describe(dropped)} repeated; "
            "kept the copy in the first entity"
        )
    return key, response


def _has_repeats(doc: Document) -> bool:
    spans = [span for entity in doc.entities for span in entity]
    return len(set(spans)) < len(spans)


def _refuse_key_repeats(key: Document) -> None:
    if not _has_repeats(key):
        return
    seen: dict[Span, tuple[int, int]] = {}
    for e, entity in enumerate(key.entities):
        for m, span in enumerate(entity):
            if span in seen:
                first_entity, first_line = seen[span]
                a, b = key.labels[first_entity], key.labels[e]
                where = f"twice in entity {a}" if a == b else f"in entities {a} and {b}"
                if first_line and first_line != key.line_of(e, m):
                    where += f" (first at line {first_line})"
                raise InputError(
                    f"span {_span(span)} repeated in key document {key.doc_id!r}, {where}; "
                    f"use {option('duplicates', 'first')} or {option('duplicates', 'reference')} "
                    "to score anyway",
                    path=key.source,
                    line=key.line_of(e, m),
                )
            seen[span] = (e, key.lines[e][m])


def _repeated_spans(doc: Document) -> list[Span]:
    seen: set[Span] = set()
    repeated: dict[Span, None] = {}
    for entity in doc.entities:
        for span in entity:
            if span in seen:
                repeated[span] = None
            seen.add(span)
    return list(repeated)


def _drop_repeats(doc: Document, only: set[Span] | None = None) -> tuple[Document, list[Span]]:
    """Keep the first occurrence of each span (restricted to ``only`` if given)."""
    if not _has_repeats(doc):
        return doc, []
    seen: set[Span] = set()
    dropped: dict[Span, None] = {}

    def first(entity: int, position: int, span: Span) -> bool:
        if span in seen and (only is None or span in only):
            dropped[span] = None
            return False
        seen.add(span)
        return True

    kept = doc.select(first)
    return kept, list(dropped)


def _span(span: Span) -> str:
    return f"({span[0]}, {span[1]})"


def _describe(spans: list[Span], limit: int = 5) -> str:
    shown = ", ".join(_span(s) for s in spans[:limit])
    more = f" and {len(spans) - limit} more" if len(spans) > limit else ""
    noun = "span" if len(spans) == 1 else f"{len(spans)} spans"
    return f"{noun} {shown}{more}"
