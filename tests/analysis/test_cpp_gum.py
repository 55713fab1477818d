"""CPP on the GUM genres: each genre predicted from the others (Stoyanov et al. 2009, Table 6)."""

from __future__ import annotations

from collections import defaultdict

from corefscore.analysis.classes import resolution_classes
from corefscore.analysis.cpp import leave_one_out
from corefscore.io import read_corpus
from corefscore.model import Corpus, Document

from ..conftest import shared_path


def test_gum_genres_leave_one_out() -> None:
    pairs = shared_path("data", "real", "gum", "pairs")
    keys: dict[str, dict[str, Document]] = defaultdict(dict)
    responses: dict[str, dict[str, Document]] = defaultdict(dict)
    for split in ("test", "dev", "test2"):
        for doc in read_corpus(pairs / f"{split}.key_gum.conll", syntax=True):
            keys[doc.doc_id.split("_")[1]][doc.doc_id] = doc
        for doc in read_corpus(pairs / f"{split}.resp_xrenner.conll", side="response"):
            responses[doc.doc_id.split("_")[1]][doc.doc_id] = doc
    reports = {
        genre: resolution_classes(
            Corpus(documents=docs), Corpus(documents=responses[genre]), corpus=genre
        ).to_dict()
        for genre, docs in keys.items()
    }
    table = leave_one_out(reports)
    assert len(table.rows) == 23
    # The class mix explains most of the variation across genres, as in the paper.
    assert table.correlation is not None and round(table.correlation, 3) == 0.844
    assert round(table.mean_absolute_error, 3) == 0.099
