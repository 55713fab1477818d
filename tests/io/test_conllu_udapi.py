"""The CoNLL-U reader against udapi, the CorefUD project's own library (a test oracle).

udapi is a test dependency only; the reader does not use it.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from corefscore.io.conllu import read_conllu

from ..conftest import shared_path

udapi_document = pytest.importorskip("udapi.core.document")

Span = tuple[int, int]


def udapi_entities(path: str) -> dict[str, set[frozenset[Span]]]:
    """Per document, each entity as the set of its mention spans (word positions from 0)."""
    doc = udapi_document.Document(path)
    position: dict[int, tuple[str, int]] = {}
    name = ""
    count = 0
    for bundle in doc.bundles:
        for root in bundle.trees:
            if root.newdoc:
                name = root.newdoc if isinstance(root.newdoc, str) else bundle.bundle_id
                count = 0
            for node in root.descendants:
                position[id(node)] = (name, count)
                count += 1
    found: dict[str, dict[str, set[Span]]] = defaultdict(lambda: defaultdict(set))
    for entity in doc.coref_entities:
        for mention in entity.mentions:
            places = [position[id(w)] for w in mention.words if id(w) in position]
            if not places:
                continue
            doc_id = places[0][0]
            found[doc_id][entity.eid].add((places[0][1], places[-1][1]))
    return {d: {frozenset(spans) for spans in ents.values()} for d, ents in found.items()}


@pytest.mark.parametrize("name", ["test.key_gum.conllu", "test.resp_xrenner.conllu"])
def test_reader_agrees_with_udapi_on_gum(name: str) -> None:
    path = shared_path("data", "real", "gum", "pairs", name)
    ours = read_conllu(path)
    theirs = udapi_entities(str(path))
    assert set(theirs) <= set(ours.documents)
    agree = 0
    for doc in ours:
        mine = {frozenset(entity) for entity in doc.entities}
        assert mine == theirs.get(doc.doc_id, set()), doc.doc_id
        agree += 1
    assert agree == len(ours.documents) == 30
