"""Do a key and a response document have the same tokens?

Mentions are token positions, so a pair is comparable only when both sides
have the same tokens. The reference scorer checks nothing: a response with one
token line missing is scored as if every later mention were shifted, a number
that is silently wrong. corefscore checks:

* the number of tokens (every reader states it): a difference is an error
  naming the first differing token;
* the word forms, where both formats carry them (CoNLL-2012 and SemEval-2010
  through a fingerprint of the word column, see ``corefscore.io.conll.FormsDigest``;
  CoNLL-U, jsonlines and MUC SGML through their words). Forms that differ at
  the same positions are no misalignment: placeholder words in test files
  (``x`` for ``jnk``), a word lost by a space-separated export, an escaped
  bracket. Those pairs are scored by position, with a warning that says how
  many tokens differ. Forms that line up again when one side is shifted by a
  few tokens are a misalignment (an inserted and a deleted line): an error.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import CorefScoreError, InputError, shown
from .model import Document, Syntax

# How far a shift is looked for, and over how many tokens it is judged.
_MAX_SHIFT = 3
_WINDOW = 40


def check_shared_tokens(key: Document, response: Document, warnings: list[str]) -> None:
    """Refuse a pair whose tokens differ; warn when only their forms differ."""
    key_count, response_count = key.token_count, response.token_count
    if key_count is None or response_count is None:
        return
    key_words = key.syntax.words if key.syntax is not None else None
    response_words = response.syntax.words if response.syntax is not None else None
    if key_words is not None and response_words is not None:
        same_forms = key_words == response_words
    else:
        key_forms, response_forms = forms_digest(key), forms_digest(response)
        same_forms = key_forms is None or response_forms is None or key_forms == response_forms
    if key_count == response_count and same_forms:
        return
    key_syntax = words_of(key)
    key_words, response_words = key_syntax.words, words_of(response).words
    if key_words is None or response_words is None:
        if key_count == response_count:
            # The fingerprints differ, but the words cannot be read again to tell
            # a shift from forms that differ in place: say so, score by position.
            warnings.append(
                f"document {key.doc_id!r}: the word forms of key and response differ (their "
                "words could not be read to say where); the token counts agree, so mentions "
                "are compared by token position"
            )
            return
        raise _differ(key, response, key_syntax, None, None, "")
    if key_words == response_words:
        return  # the fingerprints split fields otherwise (e.g. around a no-break space)
    first = next(
        (t for t, (a, b) in enumerate(zip(key_words, response_words)) if a != b),
        min(len(key_words), len(response_words)),
    )
    if key_count != response_count:
        raise _differ(key, response, key_syntax, key_words, response_words, "", first)
    shift = _shift(key_words, response_words, first)
    if shift:
        where = f"; from there the response is the key shifted by {-shift:+d} token(s)"
        raise _differ(key, response, key_syntax, key_words, response_words, where, first)
    differing = sum(1 for a, b in zip(key_words, response_words) if a != b)
    sentence = key_syntax.sentence_of(first)
    warnings.append(
        f"document {key.doc_id!r}: {differing} of {key_count} tokens differ in form between "
        f"key and response (first at sentence {sentence}, token {first}: key "
        f"{shown(key_words[first])}, response {shown(response_words[first])}); the counts "
        "agree and no shift lines them up, so mentions are compared by token position"
    )


def _shift(key: Sequence[str], response: Sequence[str], first: int) -> int:
    """A shift of the response (within a few tokens) that lines the forms up again, or 0."""
    end = min(len(key), first + _WINDOW)
    span = end - first

    def matches(shift: int) -> int:
        return sum(
            1
            for t in range(first, end)
            if 0 <= t + shift < len(response) and key[t] == response[t + shift]
        )

    here = matches(0)
    best, best_shift = here, 0
    for shift in (1, -1, 2, -2, 3, -3)[: 2 * _MAX_SHIFT]:
        found = matches(shift)
        if found > best:
            best, best_shift = found, shift
    if best_shift and best >= 0.8 * span and best - here >= span / 4:
        return best_shift
    return 0


def _differ(
    key: Document,
    response: Document,
    key_syntax: Syntax,
    key_words: Sequence[str] | None,
    response_words: Sequence[str] | None,
    more: str,
    first: int | None = None,
) -> InputError:
    where, line = "", None
    if key_words is not None and response_words is not None and first is not None:
        sentence = key_syntax.sentence_of(min(first, max(len(key_words) - 1, 0)))
        forms = [
            f"{side} {shown(words[first])}" if first < len(words) else f"{side} none"
            for side, words in (("key", key_words), ("response", response_words))
        ]
        where = f", first at sentence {sentence}, token {first} ({', '.join(forms)}){more}"
        line = _token_line(response, first)
    return InputError(
        f"document {key.doc_id!r}: key and response tokens differ (key {key.token_count} "
        f"tokens, response {response.token_count}{where}); both must have the same tokens",
        path=response.source,
        line=line,
    )


def forms_digest(doc: Document) -> int | None:
    """The document's forms fingerprint, from its reader or from its words."""
    if doc.forms_digest is not None:
        return doc.forms_digest
    if doc.syntax is None or doc.syntax.words is None:
        return None
    from .io.conll import FormsDigest

    digest = FormsDigest()
    digest.add_words(doc.syntax.words)
    return digest.value


# Files re-read for their words, once each per run: source -> (mtime, syntax by document).
_WORDS: dict[str, tuple[float, dict[str, Syntax]]] = {}


def words_of(doc: Document) -> Syntax:
    """The document's syntax with words, re-reading its file (once) if they were not kept."""
    if doc.syntax is not None and (doc.syntax.words is not None or doc.source is None):
        return doc.syntax
    if doc.source is None:
        return Syntax()
    import os

    try:
        mtime = os.stat(doc.source).st_mtime
        cached = _WORDS.get(doc.source)
        if cached is None or cached[0] != mtime:
            from .io import read_corpus

            again = read_corpus(doc.source, syntax=True, side="input")
            syntax = {d.doc_id: d.syntax for d in again if d.syntax is not None}
            while len(_WORDS) >= 2:  # the key's and the response's words at most
                del _WORDS[next(iter(_WORDS))]
            _WORDS[doc.source] = cached = (mtime, syntax)
    except (CorefScoreError, OSError):
        return doc.syntax or Syntax()
    return cached[1].get(doc.doc_id) or doc.syntax or Syntax()


def _token_line(doc: Document, token: int) -> int | None:
    """The line of ``token`` in the document's CoNLL file (None for other formats)."""
    if doc.source is None:
        return None
    from .io.conll import iter_blocks, syntax_token_lines
    from .io.detect import detect_format

    try:
        if detect_format(doc.source) != "conll":
            return None
        lines = syntax_token_lines(iter_blocks(doc.source), doc.source).get(doc.doc_id, [])
    except CorefScoreError:
        return None
    return lines[token] if token < len(lines) else (lines[-1] if lines else None)


__all__ = ["check_shared_tokens", "forms_digest", "words_of"]
