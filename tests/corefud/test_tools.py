"""The harness's own tools (no oracle, no corefscore): entities.py, heads.py, perturb.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import shared_path
from . import harness, perturb
from .entities import Corpus, FormatError, parse
from .heads import add_syntactic_heads, syntactic_head


def _case(name: str, side: str = "key") -> str:
    return (harness.CASES / name / f"{side}.conllu").read_text("utf-8")


def _words(c: Corpus, i: int) -> list[str]:
    return [c.sentences[s].node_row(n)[1] for s, n in c.mentions[i].nodes()]


def test_reader_follows_the_bracket_rules() -> None:
    c = parse(_case("28_nested_same_entity"))
    spans = sorted((m.eid, " ".join(_words(c, i))) for i, m in enumerate(c.mentions))
    assert spans == [
        ("e1", "himself"),
        ("e1", "his"),
        ("e1", "the man who saw himself"),  # nested in the same entity: a per-entity stack
        ("e1", "who"),
        ("e2", "his car"),
        ("e2", "it"),
    ]
    # Empty nodes inside a bracketed span belong to the mention; the head counts them.
    c = parse(_case("05_empty_nodes_positions"))
    first = c.mentions[0]
    assert [c.sentences[s].node_row(n)[0] for s, n in first.nodes()] == ["1", "2", "2.1", "3"]
    # Discontinuous mentions: parts, head from the last part.
    c = parse(_case("01_discontinuous"))
    m = c.mentions[0]
    assert m.parts == [(0, 0, 1), (0, 3, 3)] and m.head == 3


def test_reader_keeps_grp_ids_per_document() -> None:
    c = parse(_case("19_grp_two_documents"))
    assert c.grp
    entities = c.entities()
    assert len(entities[(0, "1")]) == 3  # Anna, She, Anna
    assert len(entities[(1, "1")]) == 2  # Bob, He: GRP 1 again, another document


@pytest.mark.parametrize("name", ["01_discontinuous", "08_repeated_spans", "19_grp_two_documents"])
def test_rewriting_is_stable(name: str) -> None:
    for side in ("key", "response"):
        once = parse(_case(name, side)).render()
        assert parse(once).render() == once


def test_reader_refuses_what_it_does_not_handle() -> None:
    with pytest.raises(FormatError):
        parse(_case("24_short_lines", "response"))


def test_syntactic_heads_hand_checked() -> None:
    c = parse(_case("19_grp_two_documents"))
    old_man = next(i for i, m in enumerate(c.mentions) if m.size() == 3)
    assert _words(c, old_man) == ["The", "old", "man"]
    assert syntactic_head(c, old_man) == 3  # man: its HEAD (saw) is outside
    out = add_syntactic_heads(c)
    assert out.fields == ["GRP", "etype", "head", "infstat"]
    text = out.render()
    assert "Entity=(3-person-3-new" in text
    assert parse(text).mentions[old_man].head == 3
    # A mention that is not a subtree: the word closest to the root wins.
    c = parse(_case("22_head_index_variants"))
    big = next(i for i, m in enumerate(c.mentions) if m.size() == 4)
    assert syntactic_head(c, big) == 4


def test_syntactic_heads_on_gum() -> None:
    path = shared_path("data", "real", "gum", "pairs", "test2.key_gum.conllu")
    c = add_syntactic_heads(parse(path.read_text("utf-8")).cut([0, 1, 2], 40))
    checked = 0
    for m in c.mentions:
        nodes = m.nodes()
        if len(nodes) < 2 or m.head is None:
            continue
        s, n = nodes[m.head - 1]
        row = c.sentences[s].node_row(n)
        inside = {c.sentences[t].node_row(k)[0] for t, k in nodes}
        assert row[6] not in inside, (m, row)
        checked += 1
    assert checked > 50


def test_generation_is_deterministic() -> None:
    for seed in range(5):
        a, b = perturb.generate(seed), perturb.generate(seed)
        assert (a.key, a.response, a.perturbations) == (b.key, b.response, b.perturbations)
        assert a.key != a.response or not a.perturbations


def test_every_perturbation_is_used(tmp_path: Path) -> None:
    gum = shared_path("data", "real", "gum", "pairs", "test.key_gum.conllu")
    used: set[str] = set()
    invalid: set[str] = set()
    sources: set[str] = set()
    for seed in range(150):
        pair = perturb.generate(seed, gum=gum)
        used |= {p.split(":")[0] for p in pair.perturbations}
        sources.add(pair.source.split(":")[0] + (":heads" if pair.source.endswith("heads") else ""))
        bad = perturb.generate(seed, invalid=True, gum=gum)
        invalid.add((bad.invalid or "none").split(":")[0])
    assert used == set(perturb.OPERATIONS) | set(perturb.ZERO_OPERATIONS)
    assert invalid == set(perturb.INVALID)
    assert sources == {"gum", "gum:heads", "synthetic"}
    # Every generated file can be read back by the harness's reader.
    pair = perturb.generate(3, gum=gum)
    key, response = pair.write(tmp_path)
    assert parse(key.read_text("utf-8")).mentions
    assert parse(response.read_text("utf-8")).sentences


def test_gum_documents_are_cut_small() -> None:
    gum = shared_path("data", "real", "gum", "pairs", "test.key_gum.conllu")
    for seed in range(10):
        pair = perturb.generate(seed, gum=gum)
        if pair.source.startswith("gum"):
            c = parse(pair.key)
            docs = max(c.document_of()) + 1
            assert len(c.sentences) <= 30 * docs
            assert all(s.sent_id for s in c.sentences)
            assert pair.key.count("# global.Entity") == 1
