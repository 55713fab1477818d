"""``corefscore convert``: round trips, refusals, --lossy, and the command line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corefscore import InputError, cli, score_corpora
from corefscore.io import read_conll_text, read_corpus
from corefscore.io.conll_writer import crossing_same_entity
from corefscore.io.convert import render
from corefscore.io.jsonlines import read_jsonlines_text
from corefscore.model import Corpus, Document

from ..conftest import SHARED

_ITEM = re.compile(r"\(\d+\)|\(\d+|\d+\)")
_LABEL = re.compile(r"\d+")


def coreference_cells(text: str) -> dict[str, list[list[str]]]:
    """Per document, the coreference items of every token line, as read from the text."""
    cells: dict[str, list[list[str]]] = {}
    current: list[list[str]] | None = None
    for line in text.splitlines():
        if line.startswith("#"):
            begin = re.match(r"#\s*begin document\b(.*)$", line)
            if begin:
                current = cells.setdefault(begin.group(1).strip(), [])
            elif re.match(r"#\s*end document", line):
                current = None
            continue
        if current is None or not line.strip():
            continue
        field = line.rstrip("\n").rsplit("\t", 1)[-1] if "\t" in line else line.split()[-1]
        current.append(_ITEM.findall(field.strip()))
    return cells


def relabel(cells: list[list[str]], mapping: dict[str, str]) -> list[list[str]]:
    return [
        normalise([_LABEL.sub(lambda m: mapping[m.group(0)], item) for item in c]) for c in cells
    ]


def normalise(items: list[str]) -> list[str]:
    """Sorted items, "(N" with "N)" on one token written "(N)".

    Readers pass over singles, then openings, then closings (as the reference
    scorer does), so an opening and a closing of one id on one token are a
    one-token mention: the same as "(N)".
    """
    out = list(items)
    for item in items:
        if item.startswith("(") and not item.endswith(")"):
            close = item[1:] + ")"
            if item in out and close in out:
                out.remove(item)
                out.remove(close)
                out.append(item + ")")
    return sorted(out)


REAL_CONLL = sorted(SHARED.glob("data/real/**/*.conll")) if SHARED.is_dir() else []


@pytest.mark.skipif(not REAL_CONLL, reason="../shared/data/real is absent")
def test_conll_to_jsonl_to_conll_reproduces_every_real_coreference_column() -> None:
    checked = 0
    for path in REAL_CONLL:
        original = path.read_text(encoding="utf-8")
        corpus = read_conll_text(original, source=str(path), syntax=True)
        jsonl, _ = render(corpus, to="jsonl")
        back, _ = render(read_jsonlines_text(jsonl, source="converted"), to="conll")
        before = coreference_cells(original)
        after = coreference_cells(back)
        assert list(after) == list(before), path
        for doc in corpus:
            # jsonlines has no entity ids: entity i comes back as id i.
            mapping = {label: str(i) for i, label in enumerate(doc.labels)}
            want = relabel(before[doc.doc_id], mapping)
            got = [normalise(c) for c in after[doc.doc_id]]
            assert got == want, f"{path} {doc.doc_id}"
        checked += 1
    assert checked == len(REAL_CONLL) >= 200


DOC = """#begin document (d); part 000
d 0 0 John NNP (7
d 0 1 Smith NNP 7)|(3)

d 0 0 he PRP (7)
#end document
"""


def test_conll_round_trip_keeps_ids_words_and_sentences() -> None:
    corpus = read_conll_text(DOC, syntax=True)
    text, warnings = render(corpus, to="conll")
    assert warnings == []
    assert text == (
        "#begin document (d); part 000\n"
        "d\t0\t0\tJohn\tNNP\t-\t-\t-\t-\t-\t*\t(7\n"
        "d\t0\t1\tSmith\tNNP\t-\t-\t-\t-\t-\t*\t(3)|7)\n"
        "\n"
        "d\t0\t0\the\tPRP\t-\t-\t-\t-\t-\t*\t(7)\n"
        "#end document\n"
    )
    again = read_conll_text(text)
    assert again["(d); part 000"].entities == corpus["(d); part 000"].entities


@pytest.mark.parametrize("target", ["conll", "jsonl", "json"])
def test_every_target_scores_the_same(target: str) -> None:
    corpus = read_conll_text(DOC, syntax=True)
    text, _ = render(corpus, to=target)
    path_free = {
        "conll": lambda t: read_conll_text(t),
        "jsonl": lambda t: read_jsonlines_text(t),
        "json": lambda t: _read_json(t),
    }[target](text)
    base = score_corpora(corpus, corpus).metrics
    assert score_corpora(corpus, path_free).metrics == base


def _read_json(text: str) -> Corpus:
    from corefscore.io.jsonclusters import read_json_clusters_text

    return read_json_clusters_text(text)


def _discontinuous() -> Corpus:
    doc = Document(
        "d",
        (((0, 3), (5, 5)),),
        labels=("4",),
        lines=((12, 13),),
        source="in.conllu",
        pieces=((((0, 0), (3, 3)), None),),
    )
    return Corpus({"d": doc}, source="in.conllu")


@pytest.mark.parametrize("target", ["conll", "jsonl", "json"])
def test_discontinuous_mentions_are_refused_unless_lossy(target: str) -> None:
    with pytest.raises(InputError, match=r"in.conllu:12: cannot convert to .*discontinuous"):
        render(_discontinuous(), to=target)
    text, warnings = render(_discontinuous(), to=target, lossy=True)
    assert warnings[0].startswith("dropped 1 discontinuous mentions")
    assert "(0, 3)" not in text and "[0, 3]" not in text


def test_crossing_mentions_of_one_entity_are_refused_for_conll() -> None:
    assert crossing_same_entity(((0, 2), (1, 3), (5, 6), (5, 5))) == [((0, 2), (1, 3))]
    doc = Document("d", (((0, 2), (1, 3)),), lines=((3, 4),), source="k.json")
    corpus = Corpus({"d": doc})
    with pytest.raises(InputError, match=r"k.json:4: .*\(0, 2\) and \(1, 3\) cross"):
        render(corpus, to="conll")
    text, warnings = render(corpus, to="conll", lossy=True)
    assert "dropped 1 crossing mentions of one entity" in warnings[0]
    assert read_conll_text(text)["d"].entities == (((0, 2),),)


def test_facts_without_a_column_are_counted() -> None:
    doc = Document("d", (((0, 1),),), heads=((1,),), entity_types=("PER",))
    _, warnings = render(Corpus({"d": doc}), to="conll")
    assert warnings == [
        "CoNLL-2012 has no place for heads; 1 not written",
        "CoNLL-2012 has no place for entity types; 1 not written",
    ]


def test_convert_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "key.conll"
    source.write_text(DOC)
    target = tmp_path / "key.jsonl"
    assert cli.main(["convert", str(source), str(target), "--to", "jsonl"]) == 0
    assert read_corpus(target, side="key")["(d); part 000"].entities == (
        ((0, 1), (2, 2)),
        ((1, 1),),
    )
    # Key and response in different formats score like the originals.
    assert cli.main(["score", str(source), str(target), "-m", "muc", "--format", "json"]) == 0
    assert '"f1": 1.0' in capsys.readouterr().out
    refused = tmp_path / "bad.conll"
    code = cli.main(["convert", str(tmp_path / "missing.conll"), str(refused), "--to", "json"])
    assert code == 1 and not refused.exists()
    assert "missing.conll: no such file" in capsys.readouterr().err
    code = cli.main(["convert", str(source), str(refused), "--to", "xml"])
    assert code == 2


def test_format_options_override_detection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "key.txt"
    source.write_text('{"doc_key": "d", "clusters": [[[0, 0], [2, 2]]]}\n')
    args = ["score", str(source), str(source), "-m", "muc", "--format", "json"]
    assert cli.main(args) == 0
    capsys.readouterr()
    assert cli.main([*args, "--key-format", "conll"]) == 1
    assert "not a CoNLL coreference file" in capsys.readouterr().err


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_any_pair_of_formats_scores_like_conll(tmp_path: Path) -> None:
    import corefscore

    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    base = corefscore.score_files(key, response).metrics
    converted: dict[str, tuple[Path, Path]] = {"conll": (key, response)}
    for fmt in ("conllu", "jsonl", "json"):
        pair = []
        for source in (key, response):
            target = tmp_path / f"{source.stem}.{fmt}"
            assert cli.main(["convert", str(source), str(target), "--to", fmt, "-q"]) == 0
            pair.append(target)
        converted[fmt] = (pair[0], pair[1])
    for key_fmt, (key_file, _) in converted.items():
        for response_fmt, (_, response_file) in converted.items():
            # compat: two CoNLL-U files would otherwise get the CorefUD evaluation.
            result = corefscore.score_files(key_file, response_file, compat="conll")
            assert result.metrics == base, (key_fmt, response_fmt)


def test_one_jsonlines_file_is_key_and_response(tmp_path: Path) -> None:
    import corefscore

    both = tmp_path / "predictions.jsonl"
    both.write_text(
        '{"doc_key": "d", "sentences": [["a", "b", "c", "d"]], '
        '"clusters": [[[0, 0], [2, 2]], [[3, 3]]], "predicted_clusters": [[[0, 0], [3, 3]]]}\n'
    )
    muc = corefscore.score_files(both, both, metrics="muc")["muc"]
    # Key links: 1 (0-2); response links: 1 (0-3), which is wrong.
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (0, 1, 0, 1)
