"""Format detection: content first, then the file name."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefscore import InputError, UsageError
from corefscore.io.detect import check_format, detect_format, format_from_content, format_from_name


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"#begin document (a); part 000\na 0 0 x -\n", "conll"),
        (b"\xef\xbb\xbf# comment\n#begin document d\n", "conll"),
        (b"# newdoc id = d1\n# sent_id = 1\n1\tx\t_\t_\t_\t_\t0\troot\t_\t_\n", "conllu"),
        (b"1\tx\tx\tNOUN\t_\t_\t0\troot\t_\tEntity=(e1)\n", "conllu"),
        (b'{"doc_key": "d", "sentences": [["a"]], "clusters": []}\n', "jsonl"),
        (b'{\n  "d": [[[0, 1]]]\n}\n', "json"),
        (b'<DOC>\n<DOCNO> 1 </DOCNO>\n<TEXT>The <COREF ID="1">man</COREF>', "sgml"),
        (b"just some words\n", None),
        (b"   \n", None),
    ],
)
def test_content_decides(head: bytes, expected: str | None) -> None:
    assert format_from_content(head) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("a/b.conll", "conll"),
        ("b.v4_gold_conll", "conll"),
        ("x.CONLLU.gz", "conllu"),
        ("x.jsonlines", "jsonl"),
        ("x.json", "json"),
        ("x.sgm", "sgml"),
        ("x.txt", None),
    ],
)
def test_name_is_the_fallback(name: str, expected: str | None) -> None:
    assert format_from_name(name) == expected


def test_detect_prefers_content_and_explains_failure(tmp_path: Path) -> None:
    misnamed = tmp_path / "key.json"
    misnamed.write_text("#begin document d\nd 0 0 x (1)\n#end document\n")
    assert detect_format(misnamed) == "conll"
    unknown = tmp_path / "key.txt"
    unknown.write_text("hello\n")
    with pytest.raises(InputError, match="give it with key_format ") as err:
        detect_format(unknown, side="key")
    assert str(err.value).startswith(f"{unknown}:1: ")
    with pytest.raises(UsageError, match="unknown format 'xml'"):
        check_format("xml")
