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
        corefscore.score_files(key, response, compat="conll")
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
    # The same number of tokens, one form differs in place: no misalignment,
    # so the pair is scored by position, with a warning that says so.
    assert corefscore.score_files(key, response, compat="conll")["muc"].f1 == 1
    assert cli.main(["twins", str(key), str(response)]) == 0
    err = capsys.readouterr().err
    assert (
        "document 'd1': 1 of 4 tokens differ in form between key and response (first at "
        "sentence 2, token 3: key 'slept', response 'sleeps')"
    ) in err
    assert err.count("\n") == 1


def test_shifted_tokens_are_an_error(tmp_path: Path) -> None:
    """A line deleted and another inserted keep the count but shift the words."""
    words = "a b c d e f g h i j k l m n o p q r s t".split()
    lines = [f"d 0 {i} {w} -" for i, w in enumerate(words)]
    key = write(
        tmp_path, "key.conll", "#begin document d\n" + "\n".join(lines) + "\n#end document\n"
    )
    shifted = [*lines[:5], *lines[6:], "d 0 20 z -"]
    response = write(
        tmp_path, "response.conll", "#begin document d\n" + "\n".join(shifted) + "\n#end document\n"
    )
    with pytest.raises(InputError) as err:
        corefscore.score_files(key, response)
    assert str(err.value) == (
        f"{response}:7: document 'd': key and response tokens differ (key 20 tokens, response "
        "20, first at sentence 1, token 5 (key 'f', response 'g'); from there the response "
        "is the key shifted by +1 token(s)); both must have the same tokens"
    )


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


def test_conll_pairs_are_checked_unlike_the_reference(tmp_path: Path) -> None:
    """The reference scorer would score this pair (mention recall 1/2); a token is missing."""
    key = write(
        tmp_path, "key.conll", "#begin document d\nd 0 0 a (1)\nd 0 1 b (1)\n#end document\n"
    )
    response = write(tmp_path, "response.conll", "#begin document d\nd 0 0 a (1)\n#end document\n")
    with pytest.raises(InputError) as err:
        corefscore.score_files(key, response, metrics="mentions")
    assert str(err.value) == (
        f"{response}:2: document 'd': key and response tokens differ (key 2 tokens, response "
        "1, first at sentence 1, token 1 (key 'b', response none)); both must have the same "
        "tokens"
    )


# The CorefUD evaluation compares sentences and words as corefud-scorer does.


def test_corefud_refuses_a_changed_word_naming_the_sentence(tmp_path: Path) -> None:
    key = write(tmp_path, "key.conllu", KEY)
    response = write(tmp_path, "response.conllu", KEY.replace("slept", "sleeps"))
    with pytest.raises(InputError) as err:
        corefscore.score_files(key, response)
    assert str(err.value) == (
        f"{response}:8: document 'd1', sentence 2 (2), word 2: key 'slept', response 'sleeps'; "
        "key and response must be the same words"
    )


def test_corefud_refuses_a_different_sentence_id(tmp_path: Path) -> None:
    key = write(tmp_path, "key.conllu", KEY)
    response = write(tmp_path, "response.conllu", KEY.replace("sent_id = 2", "sent_id = 2b"))
    with pytest.raises(InputError, match="sentence 2: key sent_id '2' but response sent_id '2b'"):
        corefscore.score_files(key, response)


def test_corefud_scores_a_response_that_stops_early_with_a_warning(tmp_path: Path) -> None:
    # corefud-scorer compares only what both files have (zip), and scores.
    key = write(tmp_path, "key.conllu", KEY)
    response = write(tmp_path, "response.conllu", KEY.rsplit("\n", 2)[0] + "\n")
    result = corefscore.score_files(key, response, singletons="keep")
    assert result["muc"].recall == 1 and result["muc"].precision == 1
    assert result.warnings == (
        "document 'd1', sentence 2 (2): the response stops after word 1 of 2; the key "
        "mentions beyond are missed",
    )


def test_corefud_refuses_a_key_document_the_response_lacks(tmp_path: Path) -> None:
    key = write(tmp_path, "key.conllu", KEY + "\n" + KEY.replace("d1", "d2"))
    response = write(tmp_path, "response.conllu", KEY)
    with pytest.raises(InputError, match=r"1 key document\(s\) not in the response: 'd2'"):
        corefscore.score_files(key, response)
