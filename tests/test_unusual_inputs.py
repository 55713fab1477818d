"""Unusual but unambiguous input is scored exactly like its clean equivalent.

Each test writes a clean key/response pair and a variant (CRLF line ends,
trailing tabs, empty coreference fields, comment lines, non-ASCII words, a
byte-order mark, space-separated columns, ...) and checks that the variant
reads to the same mentions and gets the same numbers, with no warning. The
clean pair's numbers are themselves pinned (exact fractions), so a reader that
lost every mention on both sides could not pass.

Ambiguous input (a repeated response mention, documents on one side only, a
missing ``#end document``) is scored too, with a warning that says what was
done: those tests check the warning and the numbers.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from corefscore.cli import main
from corefscore.io import read_corpus
from corefscore.model import Corpus
from corefscore.scorer import score_corpora

# Two documents. Key entity 1 = John Smith / He, entity 2 = Mary / her; the
# response gets "John" alone (a boundary error) and misses "thanked".
ROWS_KEY = {
    "a": [
        [("John", "(1"), ("Smith", "1)"), ("met", "-"), ("Mary", "(2)"), (".", "-")],
        [("He", "(1)"), ("thanked", "(3)"), ("her", "(2)"), (".", "-")],
    ],
    "b": [[("It", "(7)"), ("rained", "-"), ("and", "-"), ("it", "(7)"), ("stopped", "-")]],
}
ROWS_RESPONSE = {
    "a": [
        [("John", "(1)"), ("Smith", "-"), ("met", "-"), ("Mary", "(2)"), (".", "-")],
        [("He", "(1)"), ("thanked", "-"), ("her", "(2)"), (".", "-")],
    ],
    "b": [[("It", "(7)"), ("rained", "-"), ("and", "-"), ("it", "(7)"), ("stopped", "-")]],
}
Rows = dict[str, list[list[tuple[str, str]]]]


def conll(rows: Rows, *, sep: str = "\t", end: bool = True, comments: bool = False) -> str:
    out = []
    for doc, sentences in rows.items():
        out.append(f"#begin document ({doc}); part 000")
        for s, sentence in enumerate(sentences):
            if s:
                out.append("")
            for t, (word, field) in enumerate(sentence):
                if comments and t == 1:
                    out.append("# a comment line is not a token")
                out.append(sep.join((doc, "0", str(t), word, "NN", field)))
        if end:
            out.append("#end document")
    return "\n".join(out) + "\n"


def conllu(rows: Rows) -> str:
    """The same mentions as CoNLL-U (one-token mentions or brackets over tokens)."""
    out = ["# global.Entity = eid-etype-head-other"]
    for doc, sentences in rows.items():
        out.append(f"# newdoc id = {doc}")
        for s, sentence in enumerate(sentences, 1):
            out += [f"# sent_id = {doc}-{s}", "# text = " + " ".join(w for w, _ in sentence)]
            for t, (word, field) in enumerate(sentence, 1):
                misc = "_"
                if field.startswith("(") and field.endswith(")"):
                    misc = f"Entity=(e{field[1:-1]}--1)"
                elif field.startswith("("):
                    misc = f"Entity=(e{field[1:]}--1"
                elif field.endswith(")"):
                    misc = f"Entity=e{field[:-1]})"
                head = 0 if t == 1 else 1
                out.append(f"{t}\t{word}\t_\tX\t_\t_\t{head}\tdep\t_\t{misc}")
            out.append("")
    return "\n".join(out) + "\n"


def clusters(rows: Rows) -> dict[str, list[list[list[int]]]]:
    """The documents' clusters as ``{doc: [[[start, end], ...], ...]}``."""
    out: dict[str, list[list[list[int]]]] = {}
    for doc, sentences in rows.items():
        entities: dict[str, list[list[int]]] = {}
        open_at: dict[str, int] = {}
        tokens = [field for sentence in sentences for _, field in sentence]
        for t, field in enumerate(tokens):
            if field.startswith("(") and field.endswith(")"):
                entities.setdefault(field[1:-1], []).append([t, t])
            elif field.startswith("("):
                open_at[field[1:]] = t
            elif field.endswith(")"):
                entities.setdefault(field[:-1], []).append([open_at.pop(field[:-1]), t])
        out[doc] = list(entities.values())
    return out


def jsonlines(rows: Rows) -> str:
    lines = []
    for doc, spans in clusters(rows).items():
        words = [[w for w, _ in sentence] for sentence in rows[doc]]
        lines.append(json.dumps({"doc_key": doc, "sentences": words, "clusters": spans}))
    return "\n".join(lines) + "\n"


def write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def score(key: Path, response: Path) -> tuple[dict[str, object], tuple[str, ...], Corpus]:
    key_corpus = read_corpus(key, side="key")
    response_corpus = read_corpus(response, side="response")
    result = score_corpora(key_corpus, response_corpus)
    return result.to_dict()["metrics"], result.warnings, response_corpus


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def entities(corpus: Corpus) -> dict[str, object]:
    return {doc_id: doc.entities for doc_id, doc in corpus.documents.items()}


@pytest.fixture
def clean_conll(tmp_path: Path) -> tuple[Path, Path]:
    return (
        write(tmp_path / "key.conll", conll(ROWS_KEY)),
        write(tmp_path / "response.conll", conll(ROWS_RESPONSE)),
    )


def test_clean_pair_numbers(clean_conll: tuple[Path, Path]) -> None:
    """The baseline: hand-derived counts, so the comparisons below compare something."""
    metrics, warnings, _ = score(*clean_conll)
    assert warnings == ()
    # Key mentions: a {0-1, 5}, {3, 7}, {6}; b {0, 3} = 7. Response: a {0, 5}, {3, 7};
    # b {0, 3} = 6, of which 5 match.
    mentions = metrics["mentions"]
    assert isinstance(mentions, dict)
    assert (mentions["recall_num"], mentions["recall_den"]) == (5, 7)
    assert (mentions["precision_num"], mentions["precision_den"]) == (5, 6)
    # MUC: key links 1 + 1 + 0 + 1 = 3; the response keeps {3, 7} and {0, 3} of b.
    muc = metrics["muc"]
    assert isinstance(muc, dict)
    assert (muc["recall_num"], muc["recall_den"]) == (2, 3)
    assert (muc["precision_num"], muc["precision_den"]) == (2, 3)


CONLL_VARIANTS: dict[str, Callable[[Rows], str | bytes]] = {
    "crlf": lambda rows: conll(rows).replace("\n", "\r\n"),
    "trailing_tab": lambda rows: (
        conll(rows).replace("\n", "\t\n").replace("document\t\n", "document\n")
    ),
    # An empty last field means no mention, like "-" (docs/compatibility.md).
    "empty_coreference_fields": lambda rows: conll(rows).replace("\t-\n", "\t\n"),
    "comment_lines": lambda rows: conll(rows, comments=True),
    "utf8_bom": lambda rows: b"\xef\xbb\xbf" + conll(rows).encode("utf-8"),
    "non_ascii_words": lambda rows: (
        conll(rows).replace("John", "Jürgen").replace("Mary", "Maëlle").replace("rained", "降った")
    ),
    "space_separated": lambda rows: conll(rows, sep="   "),
    # Half of the lines with tabs, half with spaces: each line is split on its own.
    "tabs_mixed_with_spaces": lambda rows: "".join(
        line.replace("\t", " ") + "\n" if k % 2 else line + "\n"
        for k, line in enumerate(conll(rows).splitlines())
    ),
    "white_space_sentence_breaks": lambda rows: conll(rows).replace("\n\n", "\n \t \n"),
    "blank_lines_between_documents": lambda rows: (
        "\n\n" + conll(rows).replace("#end document\n", "#end document\n\n\n")
    ),
    "gzip": lambda rows: gzip.compress(conll(rows).encode("utf-8")),
}


@pytest.mark.parametrize("variant", sorted(CONLL_VARIANTS))
def test_conll_variant_scores_like_clean(
    variant: str, tmp_path: Path, clean_conll: tuple[Path, Path]
) -> None:
    make = CONLL_VARIANTS[variant]
    key = write(tmp_path / f"key.{variant}.conll", make(ROWS_KEY))
    response = write(tmp_path / f"response.{variant}.conll", make(ROWS_RESPONSE))
    clean_metrics, _, clean_response = score(*clean_conll)
    metrics, warnings, response_corpus = score(key, response)
    assert warnings == ()
    assert entities(response_corpus) == entities(clean_response)
    assert metrics == clean_metrics
    # Through the command line too: the same table, nothing on stderr.
    assert cli("score", str(key), str(response))[::2] == (0, "")
    assert cli("score", str(key), str(response))[1] == cli("score", *map(str, clean_conll))[1]


def test_comment_lines_only_in_the_response(tmp_path: Path, clean_conll: tuple[Path, Path]) -> None:
    """The reference scorer counts a comment line as a token and shifts every later
    mention (reference-scorer.md §2); corefscore does not, so the numbers stay right."""
    response = write(tmp_path / "response.conll", conll(ROWS_RESPONSE, comments=True))
    assert score(clean_conll[0], response)[0] == score(*clean_conll)[0]


def test_key_and_response_in_different_unusual_layouts(
    tmp_path: Path, clean_conll: tuple[Path, Path]
) -> None:
    key = write(tmp_path / "key.conll", conll(ROWS_KEY).replace("\n", "\r\n"))
    response = write(tmp_path / "response.conll", conll(ROWS_RESPONSE, sep=" ", comments=True))
    assert score(key, response)[0] == score(*clean_conll)[0]


def test_huge_word_is_read_correctly(tmp_path: Path, clean_conll: tuple[Path, Path]) -> None:
    """A 100 MB token line is no error: there is no line-length limit (see
    docs/drafts/reliability-bad-inputs.md); the reader holds the line once."""
    huge = "w" * (100 * 1024 * 1024)
    rows = {doc: [list(s) for s in sentences] for doc, sentences in ROWS_RESPONSE.items()}
    rows["a"][0][2] = (huge, "-")
    response = write(tmp_path / "response.conll", conll(rows))
    metrics, warnings, corpus = score(clean_conll[0], response)
    del huge
    # One word differs in form, in place: scored by position, said in one short line.
    assert len(warnings) == 1 and "1 of 9 tokens differ in form" in warnings[0]
    assert len(warnings[0]) < 400
    assert entities(corpus) == entities(score(*clean_conll)[2])
    assert metrics == score(*clean_conll)[0]


def test_same_entity_brackets_nest_last_in_first_out(tmp_path: Path) -> None:
    """'(1' '(1' '1)' '1)' is read as nesting, as the reference scorer reads it:
    CoNLL brackets of one id cannot say "crossing" (reference-scorer.md §2)."""
    rows = {"a": [[("a", "(1"), ("b", "(1"), ("c", "1)"), ("d", "1)")]]}
    corpus = read_corpus(write(tmp_path / "k.conll", conll(rows)))
    assert corpus.documents["(a); part 000"].entities == (((1, 2), (0, 3)),)


def test_split_antecedent_item_is_skipped_with_a_warning(
    tmp_path: Path, clean_conll: tuple[Path, Path]
) -> None:
    text = conll(ROWS_RESPONSE).replace("stopped\tNN\t-", "stopped\tNN\t(1+2)")
    response = write(tmp_path / "response.conll", text)
    metrics, warnings, _ = score(clean_conll[0], response)
    assert metrics == score(*clean_conll)[0]
    assert warnings == (f"{response}:18: skipped split-antecedent item '(1+2)'",)


def test_missing_end_document_at_end_of_file_warns(
    tmp_path: Path, clean_conll: tuple[Path, Path]
) -> None:
    response = write(tmp_path / "response.conll", conll(ROWS_RESPONSE, end=False))
    # Without any '#end document', '#begin document' inside a document is an error.
    code, out, err = cli("score", str(clean_conll[0]), str(response))
    assert (code, out) == (1, "")
    assert err == (
        f"corefscore: error: {response}:12: '#begin document' inside document "
        "'(a); part 000' (begun at line 1): missing '#end document'\n"
    )
    # Only the last one missing: read to the end of the file, with a warning.
    text = conll(ROWS_RESPONSE).removesuffix("#end document\n")
    response = write(tmp_path / "response.conll", text)
    metrics, warnings, _ = score(clean_conll[0], response)
    assert metrics == score(*clean_conll)[0]
    assert warnings == (
        f"{response}: document '(b); part 000' has no '#end document'; read to the end of the file",
    )


def test_repeated_response_mention_is_kept_once_with_a_warning(
    tmp_path: Path, clean_conll: tuple[Path, Path]
) -> None:
    text = conll(ROWS_RESPONSE).replace("Mary\tNN\t(2)", "Mary\tNN\t(2)|(2)")
    response = write(tmp_path / "response.conll", text)
    metrics, warnings, _ = score(clean_conll[0], response)
    assert metrics == score(*clean_conll)[0]
    assert len(warnings) == 1
    assert "repeated" in warnings[0] and "(3, 3)" in warnings[0]


def test_unmatched_documents_warn_and_score_as_missed(
    tmp_path: Path, clean_conll: tuple[Path, Path]
) -> None:
    rows = {"a": ROWS_RESPONSE["a"], "zz": ROWS_RESPONSE["b"]}
    response = write(tmp_path / "response.conll", conll(rows))
    metrics, warnings, _ = score(clean_conll[0], response)
    mentions = metrics["mentions"]
    assert isinstance(mentions, dict)
    # b's 2 key mentions are missed; zz is ignored (precision counts a only: 4 of 4).
    assert (mentions["recall_num"], mentions["recall_den"]) == (3, 7)
    assert (mentions["precision_num"], mentions["precision_den"]) == (3, 4)
    assert any("'(zz); part 000'" in w and "ignored" in w for w in warnings), warnings
    assert any("not in the response" in w for w in warnings), warnings


CONLLU_VARIANTS: dict[str, Callable[[str], str | bytes]] = {
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "utf8_bom": lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
    "extra_comments": lambda text: text.replace("# sent_id", "# a remark\n# sent_id"),
    "non_ascii_words": lambda text: text.replace("John", "Jürgen").replace("rained", "降った"),
    "multiword_token_lines": lambda text: text.replace(
        "1\tIt\t", "1-2\tItrained\t_\t_\t_\t_\t_\t_\t_\t_\n1\tIt\t"
    ),
}


@pytest.mark.parametrize("variant", sorted(CONLLU_VARIANTS))
def test_conllu_variant_scores_like_clean(variant: str, tmp_path: Path) -> None:
    make = CONLLU_VARIANTS[variant]
    clean = (
        write(tmp_path / "key.conllu", conllu(ROWS_KEY)),
        write(tmp_path / "response.conllu", conllu(ROWS_RESPONSE)),
    )
    key = write(tmp_path / f"key.{variant}.conllu", make(conllu(ROWS_KEY)))
    response = write(tmp_path / f"response.{variant}.conllu", make(conllu(ROWS_RESPONSE)))
    clean_metrics, _, clean_response = score(*clean)
    metrics, warnings, response_corpus = score(key, response)
    assert warnings == ()
    assert entities(response_corpus) == entities(clean_response)
    assert metrics == clean_metrics
    # The same mentions as the CoNLL-2012 pair: the same numbers.
    conll_pair = (
        write(tmp_path / "key.conll", conll(ROWS_KEY)),
        write(tmp_path / "response.conll", conll(ROWS_RESPONSE)),
    )
    assert metrics == score(*conll_pair)[0]


JSONL_VARIANTS: dict[str, Callable[[str], str | bytes]] = {
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "utf8_bom": lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
    "blank_lines": lambda text: "\n" + text.replace("\n", "\n\n"),
    "raw_non_ascii": lambda text: text.replace('"John"', '"Jürgen"'),
    "escaped_non_ascii": lambda text: text.replace('"John"', '"J\\u00fcrgen"'),
    "no_final_newline": lambda text: text.rstrip("\n"),
}


@pytest.mark.parametrize("variant", sorted(JSONL_VARIANTS))
def test_jsonlines_variant_scores_like_clean(variant: str, tmp_path: Path) -> None:
    make = JSONL_VARIANTS[variant]
    key = write(tmp_path / "key.jsonl", make(jsonlines(ROWS_KEY)))
    response = write(tmp_path / "response.jsonl", make(jsonlines(ROWS_RESPONSE)))
    conll_pair = (
        write(tmp_path / "key.conll", conll(ROWS_KEY)),
        write(tmp_path / "response.conll", conll(ROWS_RESPONSE)),
    )
    metrics, warnings, _ = score(key, response)
    assert warnings == ()
    assert metrics == score(*conll_pair)[0]


JSON_VARIANTS: dict[str, Callable[[dict[str, object]], str | bytes]] = {
    "minified": lambda data: json.dumps(data, separators=(",", ":")),
    "indented_crlf": lambda data: json.dumps(data, indent=2).replace("\n", "\r\n"),
    "utf8_bom": lambda data: b"\xef\xbb\xbf" + json.dumps(data).encode("utf-8"),
    "tabs": lambda data: json.dumps(data, indent="\t"),
}


@pytest.mark.parametrize("variant", sorted(JSON_VARIANTS))
def test_json_clusters_variant_scores_like_clean(variant: str, tmp_path: Path) -> None:
    make = JSON_VARIANTS[variant]
    key = write(tmp_path / "key.json", make(dict(clusters(ROWS_KEY))))
    response = write(tmp_path / "response.json", make(dict(clusters(ROWS_RESPONSE))))
    conll_pair = (
        write(tmp_path / "key.conll", conll(ROWS_KEY)),
        write(tmp_path / "response.conll", conll(ROWS_RESPONSE)),
    )
    metrics, warnings, _ = score(key, response)
    assert warnings == ()
    # JSON ids are the CoNLL ids without the "(...); part 000" wrapping.
    key_conll = read_corpus(conll_pair[0])
    assert [d.entities for d in read_corpus(key).documents.values()] == [
        d.entities for d in key_conll.documents.values()
    ]
    assert metrics == score(*conll_pair)[0]


SGML_KEY = (
    "<DOC>\n<DOCNO> d1 </DOCNO>\n<TEXT>\n"
    '<COREF ID="1">Jürgen Smith</COREF> met <COREF ID="2">Maëlle</COREF>.\n'
    '<COREF ID="3" REF="1">He</COREF> thanked <COREF ID="4" REF="2">her</COREF>.\n'
    "</TEXT>\n</DOC>\n"
)
SGML_RESPONSE = SGML_KEY.replace(
    '<COREF ID="1">Jürgen Smith</COREF>', '<COREF ID="1">Jürgen</COREF> Smith'
)


@pytest.mark.parametrize("variant", ["crlf", "utf8_bom"])
def test_sgml_variant_scores_like_clean(variant: str, tmp_path: Path) -> None:
    def make(text: str) -> str | bytes:
        if variant == "crlf":
            return text.replace("\n", "\r\n")
        return b"\xef\xbb\xbf" + text.encode("utf-8")

    clean = write(tmp_path / "key.sgml", SGML_KEY), write(tmp_path / "response.sgml", SGML_RESPONSE)
    key = write(tmp_path / "key.v.sgml", make(SGML_KEY))
    response = write(tmp_path / "response.v.sgml", make(SGML_RESPONSE))
    metrics, warnings, _ = score(key, response)
    assert warnings == ()
    assert metrics == score(*clean)[0]
    muc = metrics["muc"]
    assert isinstance(muc, dict)
    # Key links 2 (one per chain); the response's "Jürgen" is not the key's
    # "Jürgen Smith", so only the link of chain 2 is found.
    assert (muc["recall_num"], muc["recall_den"]) == (1, 2)
