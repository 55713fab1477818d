"""Policies for a span that occurs more than once on one side of a document.

``reference`` (the default)
    What the official reference scorer v8.01 does, so that the numbers are
    its numbers: in the response, later copies of spans that are key
    mentions are dropped and copies of twinless spans are all kept; in the
    key, every copy is kept. One warning line per document says what was done.
``first``
    The first occurrence is kept on each side (entities in order, then
    mentions in order), later ones are dropped with a warning; the reference
    scorer's expectations for its test cases A-7, A-8 and A-9 are
    de-duplicated this way.
``strict``
    Like ``first`` in the response; a repeated key span is an error.

Entities left empty are removed. ``docs/compatibility.md`` has the details.
"""

from __future__ import annotations

from itertools import chain

from .contingency import ARRAY_MENTIONS, span_codes
from .errors import InputError, option
from .model import Document, Span

#: The policies, the default first.
POLICIES = ("reference", "first", "strict")


def prepare_pair(
    key: Document, response: Document, policy: str, warnings: list[str]
) -> tuple[Document, Document]:
    """Apply the duplicates ``policy`` to one key/response document pair."""
    if policy == "reference":
        return _as_reference(key, response, warnings)
    done: list[str] = []
    if policy == "first":
        key, dropped = _drop_repeats(key)
        if dropped:
            done.append(f"key {_describe(dropped)}: kept the copy in the first entity")
    else:
        _refuse_key_repeats(key)
    response, dropped = _drop_repeats(response)
    if dropped:
        done.append(f"response {_describe(dropped)}: kept the copy in the first entity")
    if done:
        warnings.append(f"document {key.doc_id!r}: repeated spans; {'; '.join(done)}")
    return key, response


def _as_reference(
    key: Document, response: Document, warnings: list[str]
) -> tuple[Document, Document]:
    """The reference scorer's handling, said in one warning line for the document."""
    if not _has_repeats(key) and not _has_repeats(response):
        return key, response
    done: list[str] = []
    repeated = _repeated_spans(key)
    if repeated:
        done.append(f"key {_describe(repeated)}: every copy kept")
    key_spans = {span for entity in key.entities for span in entity}
    response, dropped = _drop_repeats(response, only=key_spans)
    if dropped:
        done.append(f"response {_describe(dropped)} of key mentions: later copies dropped")
    twinless = _repeated_spans(response)
    if twinless:
        done.append(f"response twinless {_describe(twinless)}: every copy kept")
    if done:
        warnings.append(
            f"document {key.doc_id!r}: repeated spans, handled as the reference scorer "
            f"does; {'; '.join(done)}"
        )
    return key, response


def _has_repeats(doc: Document) -> bool:
    if doc.mention_count >= ARRAY_MENTIONS:
        # Sorted codes, which build_table then reads again, rather than a set of
        # every span: see corefscore.contingency.ARRAY_MENTIONS.
        coded = span_codes(doc)
        if coded is not None:
            return coded.has_repeats
    spans = list(chain.from_iterable(doc.entities))
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
                    f"use {option('duplicates', 'reference')} (the default) or "
                    f"{option('duplicates', 'first')} to score anyway",
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
