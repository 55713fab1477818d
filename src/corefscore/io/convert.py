"""``corefscore convert``: one format to another, through the canonical corpus."""

from __future__ import annotations

import io
import os

from ..errors import UsageError
from ..model import Corpus, Document
from .files import write_text
from .lossy import Losses, refuse_anaphora

#: Formats ``convert`` can write.
TARGETS = ("conll", "conllu", "jsonl", "json", "ua")

_NAMES = {
    "conll": "CoNLL-2012",
    "conllu": "CoNLL-U",
    "jsonl": "jsonlines",
    "json": "JSON clusters",
    "ua": "Universal Anaphora CoNLL-U Plus",
}


def render(corpus: Corpus, *, to: str, lossy: bool = False) -> tuple[str, list[str]]:
    """``corpus`` written in format ``to``, and the warnings about what was dropped.

    Split antecedents, non-referring markables and bridging links go to
    ``ua`` as they are, to ``conllu`` as ``SplitAnte`` and ``Bridge`` (no
    non-referring markables); the other targets cannot hold them, so they are
    refused unless ``lossy`` (then dropped, with a count).
    """
    if to not in TARGETS:
        raise UsageError(f"cannot convert to {to!r}; choose one of {', '.join(TARGETS)}")
    losses = Losses(allow=lossy, target=_NAMES[to])
    out = io.StringIO()
    if to in ("conll", "jsonl", "json"):
        refuse_anaphora(corpus, losses)
    if to == "conll":
        from .conll_writer import write_conll

        write_conll(corpus, out, losses=losses)
    elif to == "conllu":
        from .conllu_writer import write_conllu

        write_conllu(corpus, out, losses=losses)
    elif to == "ua":
        from .ua_writer import write_ua

        write_ua(corpus, out, losses=losses)
    elif to == "jsonl":
        from .jsonlines import write_jsonlines

        _refuse_pieces(corpus, losses)
        write_jsonlines(_without_pieces(corpus), out)
    else:
        from .jsonclusters import write_json_clusters

        _refuse_pieces(corpus, losses)
        write_json_clusters(_without_pieces(corpus), out)
    return out.getvalue(), [*corpus.warnings, *losses.warnings()]


def convert(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    to: str,
    source_format: str | None = None,
    lossy: bool = False,
) -> list[str]:
    """Convert file ``source`` to ``target`` in format ``to``; returns the warnings.

    Nothing is written when the conversion is refused.
    """
    from . import read_corpus
    from .detect import check_format, detect_format

    fmt = (
        check_format(source_format)
        if source_format is not None
        else detect_format(source, side="input")
    )
    # CoNLL-U to CoNLL-U keeps empty nodes (zeros) as nodes; other targets have
    # only words, as the CoNLL-2012 versions of CorefUD data do.
    corpus = read_corpus(
        source,
        format=fmt,
        side="input",
        syntax=True,
        empty_nodes=fmt == "conllu" and to == "conllu",
    )
    text, warnings = render(corpus, to=to, lossy=lossy)
    write_text(target, text)
    return warnings


def _refuse_pieces(corpus: Corpus, losses: Losses) -> None:
    for doc in corpus:
        for e, entity in enumerate(doc.pieces):
            for k, parts in enumerate(entity):
                if parts is not None:
                    losses.refuse(
                        "discontinuous mentions",
                        f"document {doc.doc_id!r}, entity {doc.labels[e]}: mention "
                        f"{doc.entities[e][k]} is discontinuous, which {losses.target} "
                        "cannot hold",
                        path=doc.source,
                        line=doc.line_of(e, k),
                    )


def _without_pieces(corpus: Corpus) -> Corpus:
    if not any(doc.pieces for doc in corpus):
        return corpus
    documents = {doc_id: _contiguous(doc) for doc_id, doc in corpus.documents.items()}
    return Corpus(documents=documents, source=corpus.source, warnings=corpus.warnings)


def _contiguous(doc: Document) -> Document:
    if not doc.pieces:
        return doc
    return doc.select(lambda e, k, span: doc.pieces[e][k] is None)


__all__ = ["TARGETS", "convert", "render"]
