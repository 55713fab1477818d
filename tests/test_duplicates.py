"""Policies for repeated spans."""

from __future__ import annotations

import pytest

from corefscore.duplicates import prepare_pair
from corefscore.errors import InputError
from corefscore.model import Document

KEY = Document("d", (((0, 0), (1, 1)), ((4, 4),)), labels=("1", "2"), lines=((2, 3), (6,)))
RESPONSE = Document("d", (((0, 0), (7, 7)), ((0, 0), (7, 7), (4, 4))), labels=("5", "6"))


def test_default_keeps_the_first_copy_of_every_response_span() -> None:
    warnings: list[str] = []
    _, response = prepare_pair(KEY, RESPONSE, "strict", warnings)
    assert response.entities == (((0, 0), (7, 7)), ((4, 4),))
    assert response.labels == ("5", "6")
    assert warnings == [
        "document 'd': repeated spans; response 2 spans (0, 0), (7, 7): kept the copy in the "
        "first entity"
    ]


def test_reference_keeps_twinless_repeats() -> None:
    warnings: list[str] = []
    _, response = prepare_pair(KEY, RESPONSE, "reference", warnings)
    # (0, 0) is a key mention: its repeat goes; (7, 7) is twinless: both copies stay.
    assert response.entities == (((0, 0), (7, 7)), ((7, 7), (4, 4)))
    # One line for the document, saying everything that was done.
    assert warnings == [
        "document 'd': repeated spans, handled as the reference scorer does; response span "
        "(0, 0) of key mentions: later copies dropped; response twinless span (7, 7): every "
        "copy kept"
    ]


def test_emptied_entities_are_removed() -> None:
    response = Document("d", (((0, 0),), ((0, 0),)))
    _, out = prepare_pair(KEY, response, "strict", [])
    assert out.entities == (((0, 0),),)


def test_repeated_key_span() -> None:
    key = Document(
        "d", (((0, 0), (1, 1)), ((0, 0),)), labels=("1", "2"), lines=((2, 3), (2,)), source="k"
    )
    with pytest.raises(InputError) as info:
        prepare_pair(key, RESPONSE, "strict", [])
    assert str(info.value) == (
        "k:2: span (0, 0) repeated in key document 'd', in entities 1 and 2; "
        "use duplicates='reference' (the default) or duplicates='first' to score anyway"
    )
    # The command line names the same options as its flags.
    assert info.value.cli_message() == (
        "k:2: span (0, 0) repeated in key document 'd', in entities 1 and 2; "
        "use --duplicates reference (the default) or --duplicates first to score anyway"
    )
    warnings: list[str] = []
    first, _ = prepare_pair(key, RESPONSE, "first", warnings)
    assert first.entities == (((0, 0), (1, 1)),)
    kept, _ = prepare_pair(key, RESPONSE, "reference", warnings)
    assert kept is key
