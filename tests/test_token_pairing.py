"""Key and response documents must share their tokens where the format states them."""

from __future__ import annotations

from pathlib import Path

import pytest

import corefscore
from corefscore import InputError, cli

KEY = """# newdoc id = d1
# sent_id = 1
1\tThe\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1
2\tcat\t_\t_\t_\t_\t_\t_\t_\tEntity=e1)

# sent_id = 2
1\tIt\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1)
2\tslept\t_\t_\t_\t_\t_\t_\t_\t_
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_missing_token_names_document_and_sentence(tmp_path: Path) -> None:
    key = write(tmp_path, "key.conllu", KEY)
    response = write(tmp_path, "response.conllu", KEY.rsplit("\n", 2)[0] + "\n")
    with pytest.raises(InputError) as err:
        corefscore.score_files(key, response)
    assert str(err.value) == (
        f"{response}: document 'd1': key and response tokens differ (key 4 tokens, "
        "response 3, first at sentence 2, token 3 (key 'slept', response none)); "
        "both must have the same tokens"
    )


def test_a_changed_word_is_found_when_words_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = write(tmp_path, "key.conllu", KEY)
    response = write(tmp_path, "response.conllu", KEY.replace("slept", "sleeps"))
    # Scoring reads only token counts (equal here); words are read for head
    # matching, the twins report and conversion.
    assert corefscore.score_files(key, response)["muc"].f1 == 1
    assert cli.main(["twins", str(key), str(response)]) == 1
    err = capsys.readouterr().err
    assert "first at sentence 2, token 3 (key 'slept', response 'sleeps')" in err
    assert err.count("\n") == 1


def test_jsonlines_documents_are_checked_too(tmp_path: Path) -> None:
    key = write(
        tmp_path, "key.jsonl", '{"doc_key": "d", "sentences": [["a", "b"]], "clusters": []}\n'
    )
    response = write(
        tmp_path,
        "response.jsonl",
        '{"doc_key": "d", "sentences": [["a"]], "predicted_clusters": []}\n',
    )
    with pytest.raises(InputError, match="key 2 tokens, response 1, first at sentence 1"):
        corefscore.score_files(key, response)


def test_conll_pairs_are_not_checked_like_the_reference(tmp_path: Path) -> None:
    key = write(
        tmp_path, "key.conll", "#begin document d\nd 0 0 a (1)\nd 0 1 b (1)\n#end document\n"
    )
    response = write(tmp_path, "response.conll", "#begin document d\nd 0 0 a (1)\n#end document\n")
    assert corefscore.score_files(key, response, metrics="mentions")["mentions"].recall == 0.5
