"""Cross-document scoring: a hand-scored corpus, the per-document identity, the CLI."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.cli import main
from corefscore.errors import InputError, UsageError
from corefscore.io import read_corpus, read_mentions
from corefscore.model import Corpus, corpus_from_mapping
from corefscore.result import ScoreResult
from corefscore.scorer import score_corpora

from ..conftest import shared_path


def score_cross_document(key: Any, response: Any, **options: Any) -> ScoreResult:
    return score_corpora(key, response, cross_document=True, **options)


def score_documents(key: Any, response: Any, **options: Any) -> ScoreResult:
    return score_corpora(key, response, engine="columnar", **options)


# Three documents. Key entity X has mentions in documents A and B; the response
# leaves X's mention in B unlinked from A and merges it with Z (Q), merges Y
# (document A) with W's first mention (document C) into R across documents, misses
# (B, 9, 9) and adds the spurious (C, 6, 6).
KEY = {
    "A": [{"mentions": [[0, 0], [5, 5]], "id": "X"}, {"mentions": [[2, 3]], "id": "Y"}],
    "B": [
        {"mentions": [[0, 0]], "id": "X"},
        {"mentions": [[4, 4], [7, 8], [9, 9]], "id": "Z"},
    ],
    "C": [{"mentions": [[1, 1], [3, 3]], "id": "W"}],
}
RESPONSE = {
    "A": [{"mentions": [[0, 0], [5, 5]], "id": "P"}, {"mentions": [[2, 3]], "id": "R"}],
    "B": [{"mentions": [[0, 0], [4, 4], [7, 8]], "id": "Q"}],
    "C": [{"mentions": [[1, 1]], "id": "R"}, {"mentions": [[3, 3], [6, 6]], "id": "S"}],
}

F = Fraction


def _f1(r: Fraction, p: Fraction) -> Fraction:
    return 2 * p * r / (p + r)


# Key K: X = {a1, a2, b1}, Y = {a3}, Z = {b2, b3, b4}, W = {c1, c2} (9 mentions);
# response: P = {a1, a2}, Q = {b1, b2, b3}, R = {a3, c1}, S = {c2, s1} (9 mentions).
# Table (n_ij): X-P 2, X-Q 1, Y-R 1, Z-Q 2, W-R 1, W-S 1; 8 mentions matched.
HAND = {
    # 8 of 9 key mentions found, 8 of 9 response mentions right.
    "mentions": (F(8, 9), F(8, 9)),
    # Correct links = sum n_ij - cells = 8 - 6 = 2; key links 2+0+2+1, response 1+2+1+1.
    "muc": (F(2, 5), F(2, 5)),
    # Recall sum n_ij^2/|K_i| = 4/3 + 1/3 + 1 + 4/3 + 1/2 + 1/2 = 5;
    # precision sum n_ij^2/|R_j| = 2 + 1/3 + 1/2 + 4/3 + 1/2 + 1/2 = 31/6.
    "bcub": (F(5, 9), F(31, 6) / 9),
    # Best alignment X-P 2, Z-Q 2, Y-R 1, W-S 1: 6 mentions.
    "ceafm": (F(6, 9), F(6, 9)),
    # Components {X, Z | P, Q}: X-P 4/5 + Z-Q 2/3; {Y, W | R, S}: Y-R 2/3 + W-S 1/2.
    "ceafe": ((F(4, 5) + F(2, 3) + F(2, 3) + F(1, 2)) / 4,) * 2,
    # X: 1 of 3 links (a1-a2), Z: 1 of 3 (b2-b3), Y and W: 0 -> (3/3 + 3/3) / 9;
    # P: its 1 link, Q: 1 of 3 (b2-b3), R and S: 0 -> (2 + 1) / 9.
    "lea": (F(2, 9), F(3, 9)),
}
# BLANC over all pairs of the corpus: C_k = 3+0+3+1 = 7, N_k = C(9,2) - 7 = 29;
# C_r = 1+3+1+1 = 6, N_r = 36 - 6 = 30; common coreference links C(2,2) + C(2,2) = 2;
# common non-coreference links C(8,2) - (3+0+1+1) - (1+3+1+0) + 2 = 20.
BLANC_COUNTS = (2, 7, 2, 6, 20, 29, 20, 30)
BLANC = (
    (F(2, 7) + F(20, 29)) / 2,
    (F(2, 6) + F(20, 30)) / 2,
    (_f1(F(2, 7), F(2, 6)) + _f1(F(20, 29), F(20, 30))) / 2,
)


def _corpora() -> tuple[Corpus, Corpus]:
    return corpus_from_mapping(KEY, side="key"), corpus_from_mapping(RESPONSE, side="response")


def test_hand_scored_corpus() -> None:
    key, response = _corpora()
    result = score_cross_document(key, response)
    for name, (recall, precision) in HAND.items():
        score = result[name]
        assert score.recall == pytest.approx(float(recall), abs=1e-15), name
        assert score.precision == pytest.approx(float(precision), abs=1e-15), name
        assert score.f1 == pytest.approx(float(_f1(recall, precision)), abs=1e-15), name
    blanc = result["blanc"]
    assert (
        blanc.coref.recall_num,
        blanc.coref.recall_den,
        blanc.coref.precision_num,
        blanc.coref.precision_den,
        blanc.noncoref.recall_num,
        blanc.noncoref.recall_den,
        blanc.noncoref.precision_num,
        blanc.noncoref.precision_den,
    ) == BLANC_COUNTS
    assert (blanc.recall, blanc.precision, blanc.f1) == pytest.approx(
        tuple(float(x) for x in BLANC), abs=1e-15
    )
    # CoNLL = mean F1 of MUC, B3 and CEAFe.
    parts = [_f1(*HAND[m]) for m in ("muc", "bcub", "ceafe")]
    assert result.conll == pytest.approx(float(sum(parts) / 3), abs=1e-15)
    assert "scope:cross-document|" in result.signature


def test_variants_on_the_global_table() -> None:
    key, response = _corpora()
    result = score_cross_document(key, response, metrics="ceaf-phi1,ceaf-phi2,lea-uniform")
    # No response entity equals a key entity; each key entity shares a mention with its
    # aligned one (X-P, Y-R, Z-Q, W-S).
    assert (result["ceaf-phi1"].f1, result["ceaf-phi2"].f1) == (0.0, 1.0)
    # LEA with importance 1: (1/3 + 0 + 1/3 + 0) / 4 key entities; (1 + 1/3) / 4 response.
    assert result["lea-uniform"].recall == pytest.approx(1 / 6, abs=1e-15)
    assert result["lea-uniform"].precision == pytest.approx(1 / 3, abs=1e-15)
    with pytest.raises(UsageError, match="metric ace-value cannot be used with cross-document"):
        score_cross_document(key, response, metrics="ace-value")


def test_within_document_key_against_cross_document_response() -> None:
    """With per-document key ids X splits into X@A = {a1, a2} and X@B = {b1}."""
    key, response = _corpora()
    result = score_cross_document(key, response, key_scope="document")
    # Key links 1+0+0+2+1 = 4; cells X@A-P 2, X@B-Q 1, Y-R 1, Z-Q 2, W-R 1, W-S 1 -> 8 - 6.
    assert (result["muc"].recall, result["muc"].precision) == (0.5, 0.4)
    # CEAFe: X@A-P 2*2/(2+2) = 1, Z-Q 2*2/(3+3), Y-R 2/3, W-S 1/2, over 5 key entities.
    expected = (1 + F(2, 3) + F(2, 3) + F(1, 2)) / 5
    assert result["ceafe"].recall == pytest.approx(float(expected), abs=1e-15)
    assert "scope:cross-document(key=document,response=global)" in result.signature


def test_global_ids_of_the_response_link_documents() -> None:
    """Scoring per document would split R; cross-document scoring keeps it one entity."""
    key, response = _corpora()
    both_local = score_cross_document(
        key,
        response,
        key_scope="document",
        response_scope="document",
    )
    # Response links per document: P 1, R@A 0, Q 2, R@C 0, S 1 -> 4 (one fewer than R's).
    assert both_local["muc"].precision_den == 4
    assert both_local["muc"].recall_den == 4


def _random_corpus(draw: st.DrawFn, prefix: str) -> dict[str, list[dict[str, object]]]:
    out: dict[str, list[dict[str, object]]] = {}
    for d in range(draw(st.integers(1, 4))):
        spans = draw(
            st.lists(
                st.tuples(st.integers(0, 8), st.integers(0, 2)).map(lambda t: [t[0], t[0] + t[1]]),
                max_size=10,
                unique_by=lambda s: tuple(s),
            )
        )
        labels = draw(st.lists(st.integers(0, 3), min_size=len(spans), max_size=len(spans)))
        clusters: dict[int, list[list[int]]] = {}
        for span, label in zip(spans, labels):
            clusters.setdefault(label, []).append(span)
        out[f"d{d}"] = [
            {"mentions": m, "id": f"{prefix}{d}.{label}"} for label, m in clusters.items()
        ]
    return out


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[dict[str, object], dict[str, object]]:
    key = _random_corpus(draw, "k")
    response = _random_corpus(draw, "r")
    return key, response


@settings(max_examples=150, deadline=None)
@given(_pairs())
def test_no_entity_across_documents_gives_per_document_scores(
    pair: tuple[dict[str, object], dict[str, object]],
) -> None:
    """Entity ids unique per document: cross-document = micro-averaged per-document scoring.

    Exactly, for every metric but BLANC, whose non-coreference links then also
    pair mentions of different documents.
    """
    key = corpus_from_mapping(pair[0], side="key")
    response = corpus_from_mapping(pair[1], side="response")
    ordinary = score_corpora(key, response)
    cross = score_cross_document(key, response)
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        assert cross[name] == ordinary[name], name
    assert cross["blanc"].coref == ordinary["blanc"].coref
    # More mentions than one document's: at least as many non-coreference links.
    assert cross["blanc"].noncoref.recall_den >= ordinary["blanc"].noncoref.recall_den
    # Per-document (block-diagonal) columnar scoring equals the ordinary path, BLANC too.
    assert score_documents(key, response).metrics == ordinary.metrics


def test_blanc_counts_links_across_documents() -> None:
    """Two one-entity documents: per document no non-coreference link, across them 4."""
    key = corpus_from_mapping({"A": [[[0, 0], [1, 1]]], "B": [[[0, 0], [1, 1]]]}, side="key")
    ordinary = score_corpora(key, key)
    cross = score_cross_document(key, key, key_scope="document", response_scope="document")
    assert ordinary["blanc"].noncoref.recall_den == 0
    # C(4,2) = 6 pairs, of which 2 are coreference links: A0-A1 and B0-B1.
    assert cross["blanc"].noncoref.recall_den == 4
    assert ordinary["blanc"].f1 == cross["blanc"].f1 == 1.0
    assert ordinary["muc"] == cross["muc"]


def test_blanc_worked_example_per_document_versus_pooled() -> None:
    """docs/crossdoc.md: the worked example with per-document ids, BLANC both ways."""
    key, response = _corpora()
    ordinary = score_corpora(key, response)["blanc"]
    pooled = score_cross_document(key, response, key_scope="document", response_scope="document")
    blanc = pooled["blanc"]
    # Per document: non-coreference links (common, key, response) = (2, 2+3+0, 2+0+2).
    assert (ordinary.noncoref.recall_num, ordinary.noncoref.recall_den) == (2, 5)
    assert ordinary.noncoref.precision_den == 4
    assert ordinary.f1 == pytest.approx(19 / 45, abs=1e-15)
    # Pooled: C(9,2) - 5 = 31 on each side, 28 - 3 - 4 + 2 = 23 in common.
    assert (blanc.noncoref.recall_num, blanc.noncoref.recall_den) == (23, 31)
    assert blanc.noncoref.precision_den == 31
    assert blanc.f1 == pytest.approx(177 / 310, abs=1e-15)
    assert blanc.coref == ordinary.coref


def test_document_on_one_side_only_warns() -> None:
    key = corpus_from_mapping({"A": [[[0, 0], [1, 1]]], "B": [[[0, 0]]]}, side="key")
    response = corpus_from_mapping({"A": [[[0, 0], [1, 1]]], "Z": [[[3, 3]]]}, side="response")
    result = score_cross_document(key, response, key_scope="document", response_scope="document")
    assert result.warnings == (
        "1 response document(s) not in the key, ignored: 'Z'",
        "1 key document(s) not in the response, scored as all missed: 'B'",
    )
    assert (result["mentions"].recall, result["mentions"].precision) == (2 / 3, 1.0)


def test_repeated_spans() -> None:
    key = corpus_from_mapping({"A": [{"mentions": [[0, 0]], "id": "X"}]}, side="key")
    response = corpus_from_mapping(
        {"A": [{"mentions": [[0, 0]], "id": "P"}, {"mentions": [[0, 0], [2, 2]], "id": "Q"}]},
        side="response",
    )
    result = score_cross_document(key, response)
    assert result.warnings == (
        "response: 1 repeated span(s) in 1 document(s) (first document 'A' span (0, 0)); "
        "kept the copy in the first entity",
    )
    assert result["mentions"].precision == 0.5
    with pytest.raises(InputError, match="repeated key span"):
        score_cross_document(response, key, duplicates="strict")
    # Cross-document scoring keeps the first copy by default (the reference
    # scorer, whose handling is the per-document default, scores no partition).
    for flipped in (
        score_cross_document(response, key),
        score_cross_document(response, key, duplicates="first"),
    ):
        assert flipped["mentions"].recall == 0.5
        assert "dups:first" in flipped.signature


def test_jsonlines_ids_are_per_document(tmp_path: Path) -> None:
    path = tmp_path / "k.jsonl"
    path.write_text('{"doc_key": "a", "clusters": [[[0, 0], [1, 1]]]}\n')
    table = read_mentions(path, side="key")
    with pytest.raises(UsageError, match="key_scope='document'"):
        score_cross_document(table, table)
    assert score_cross_document(table, table, key_scope="document", response_scope="document")[
        "muc"
    ].f1 == pytest.approx(1.0)


def test_unsupported_options() -> None:
    key, response = _corpora()
    with pytest.raises(UsageError, match="matching='head' cannot be used with cross-document"):
        score_cross_document(key, response, matching="head")
    with pytest.raises(UsageError, match="scope"):
        score_cross_document(key, response, key_scope="corpus")


def _write_table(path: Path, corpus: dict[str, list[dict[str, object]]]) -> None:
    lines = ["# doc_id\tstart\tend\tentity_id"]
    for doc, clusters in corpus.items():
        for cluster in clusters:
            for start, end in cluster["mentions"]:  # type: ignore[attr-defined]
                lines.append(f"{doc}\t{start}\t{end}\t{cluster['id']}")
    path.write_text("\n".join(lines) + "\n")


def test_cli_cross_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_table(tmp_path / "key.tsv", KEY)
    _write_table(tmp_path / "response.tsv", RESPONSE)
    code = main(
        ["score", "--cross-document", str(tmp_path / "key.tsv"), str(tmp_path / "response.tsv")]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "corpus (one cross-document partition)" in out
    assert "MUC        40.00      40.00  40.00" in out
    code = main(
        [
            "score",
            "--cross-document",
            "--format",
            "json",
            str(tmp_path / "key.tsv"),
            str(tmp_path / "response.tsv"),
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["metrics"]["bcub"]["recall"] == pytest.approx(5 / 9, abs=1e-15)
    assert data["options"]["cross_document"] is True
    assert "|scope:cross-document|" in data["signature"]


def test_cli_refuses_what_has_no_meaning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write_table(tmp_path / "key.tsv", KEY)
    key = str(tmp_path / "key.tsv")
    assert main(["score", "--cross-document", "--per-document", key, key]) == 2
    assert "--per-document needs per-document scoring" in capsys.readouterr().err
    assert main(["score", "--key-scope", "document", key, key]) == 2
    assert "need --cross-document" in capsys.readouterr().err


def test_cli_mention_tables_per_document_equal_conll(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mention table scored without --cross-document gives the ordinary numbers."""
    folder = shared_path("data", "golden", "case1003")
    key = read_corpus(folder / "key.conll", side="key")
    response = read_corpus(folder / "response.conll", side="response")
    for name, corpus in (("key", key), ("response", response)):
        with open(tmp_path / f"{name}.tsv", "w") as handle:
            for doc in corpus:
                for label, entity in zip(doc.labels, doc.entities):
                    for start, end in entity:
                        handle.write(f"{doc.doc_id}\t{start}\t{end}\t{label}\n")
    outputs = []
    for key_file, response_file in (
        (folder / "key.conll", folder / "response.conll"),
        (tmp_path / "key.tsv", tmp_path / "response.tsv"),
    ):
        assert main(["score", "--format", "json", str(key_file), str(response_file)]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    conll, table = outputs
    assert table["metrics"] == conll["metrics"]
    assert table["signature"] == conll["signature"]


def _golden_cases() -> list[Path]:
    folder = shared_path("data", "golden")
    return sorted(p for p in folder.iterdir() if (p / "key.conll").exists())


def test_columnar_equals_ordinary_on_golden_cases() -> None:
    """The block-diagonal columnar route gives the per-document numbers, bit for bit."""
    checked = 0
    for case in _golden_cases():
        key = read_corpus(case / "key.conll", side="key")
        response = read_corpus(case / "response.conll", side="response")
        assert score_documents(key, response).metrics == score_corpora(key, response).metrics, case
        checked += 1
    assert checked >= 200


@pytest.mark.parametrize(
    ("key", "response"),
    [
        (("gum", "pairs", "test.key_gum.conll"), ("gum", "pairs", "test.resp_xrenner.conll")),
        (("gum", "pairs", "dev.key_gum.conll"), ("gum", "pairs", "dev.resp_xrenner.conll")),
        (
            ("dutchcoref_knack", "key", "knack_file7.gold.conll"),
            ("dutchcoref_knack", "response", "knack_file7.dutchcoref.conll"),
        ),
        (
            ("model_based_coref_wiki", "response", "lee.wiki-grounded-output.conll"),
            ("model_based_coref_wiki", "response", "clark.wiki-grounded-output.conll"),
        ),
    ],
)
def test_columnar_equals_ordinary_on_real_data(
    key: tuple[str, ...], response: tuple[str, ...]
) -> None:
    key_corpus = read_corpus(shared_path("data", "real", *key), side="key")
    response_corpus = read_corpus(shared_path("data", "real", *response), side="response")
    ordinary = score_corpora(key_corpus, response_corpus, duplicates="first")
    columnar = score_documents(key_corpus, response_corpus, duplicates="first")
    assert columnar.metrics == ordinary.metrics
    assert math.isfinite(columnar.conll or 0.0)
