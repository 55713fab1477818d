"""Record the official scorer's output for the hand-made CorefUD fixtures.

``python -m tests.corefud.record_fixtures`` runs the oracle (``oracle.py``; no
cache, with the driver's self-check against the official ``evaluate_documents``)
on every ``tests/data/corefud/cases/<name>/{key,response}.conllu`` in all 12
combinations and writes ``expected.json`` next to them: what the case is about,
the oracle's identity, and for each combination either every metric's recall,
precision, F1 and raw counts at full precision (BLANC: both parts), or the
official scorer's error and whether it is a rejection or a crash
(``oracle.classify``). For some cases a hand derivation in exact fractions is
recorded too (``DERIVATIONS``); ``test_agreement.py`` checks it against the
recorded numbers.

The cases 01-18 are the research helper's hand-made cases (our own data, see
``/work/research/corefud/CASES.md``); 19-29 and the rejected inputs 40-53 were
added for this suite.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import oracle
from .differences import SCORED_AS_REPAIRED

CASES = Path(__file__).resolve().parents[1] / "data" / "corefud" / "cases"

ABOUT = {
    "01_discontinuous": (
        "[i/n] subspans; hull vs parts; the same discontinuous span with different heads"
    ),
    "02_same_span_diff_head": (
        "equal spans with different heads: exact/partial align by span, head mode by head"
    ),
    "03_shared_head": "several mentions sharing a head; tie-breaks; the global LSA optimum",
    "04_missing_head_field": (
        "key global.Entity without a head field (head = first word); a chunk without the head value"
    ),
    "05_empty_nodes_positions": (
        "empty nodes inside bracket spans are mention words; head index counts them"
    ),
    "06_zeros_moved": (
        "zeros swapped between 5.1/5.2 with DEPS; dependent vs linear; alignment-dict "
        "collision; zero metric"
    ),
    "07_zeros_missing_extra": (
        "missing and extra zeros; a multi-word zero vs the same span with an overt head"
    ),
    "08_repeated_spans": (
        "the same span twice in one entity (dedup), in two entities (kept in both)"
    ),
    "09_two_bare_newdoc": (
        "two bare # newdoc (documents 1, 2); one eid in both; micro-averaging; BLANC part with pd=0"
    ),
    "10_no_newdoc": "no # newdoc at all: the official scorer crashes (TypeError)",
    "10b_newdoc_not_first": (
        "mentions before the first # newdoc: the official scorer crashes (TypeError)"
    ),
    "10c_no_newdoc_no_mentions": "no # newdoc and no mentions: zero documents, every metric 0",
    "11_singletons_before_matching": (
        "singletons removed per side before matching; mode-dependent dedup"
    ),
    "12_alignment_truncation": "response lacks the last word of s1 and all of s2: accepted, misses",
    "13_splitante_bridge_ignored": "SplitAnte= and Bridge= in the key are ignored",
    "14_discontinuous_cross_sentence": (
        "a discontinuous mention with parts in two sentences (accepted)"
    ),
    "15_zero_without_deps": (
        "response zero with DEPS '_' next to a key zero: ZeroDivisionError with dependent only"
    ),
    "16_same_newdoc_id_twice": "the same # newdoc id twice: both documents merged into one",
    "17_pradhan2014_example": (
        "textbook example: key {a b c}{d e f g}, response {a b}{c d}{f g h i}"
    ),
    "18_discontinuous_no_head_field": (
        "discontinuous mention, single-word last part, no head value: TypeError"
    ),
    "19_grp_two_documents": (
        "GRP ids (document-local, GUM-style key without head field) vs an eid response (file-"
        "global e1 in both documents, split per document); head of 'The old man' is 'The' in "
        "the key"
    ),
    "20_zeros_dependent_deps": (
        "several zeros per sentence; DEPS overlap scores (10*F(deps) + F(parents)); nsubj vs "
        "nsubj:pass; an extra response zero in another sentence; a response singleton zero"
    ),
    "21_empty_node_id_x10": (
        "key empty node '2.10' is read as ord 2.1 and matches the response's '2.1'"
    ),
    "22_head_index_variants": (
        "head index 0 (= first word), a head value on a single word (ignored), same span with"
        " another head in another entity"
    ),
    "23_unclosed_mwt_missing_head": (
        "Entity= on a multiword-token line (ignored); an unclosed response mention (warning, "
        "dropped); HEAD '_' (warning); a mention moved to another entity"
    ),
    "24_short_lines": (
        "response token lines with fewer than 10 columns (padded with '_'; HEAD missing = warning)"
    ),
    "25_extra_response_document": "an extra document in the response is ignored",
    "26_empty_response": "a response without any Entity= and without global.Entity",
    "27_single_entity_blanc": (
        "one entity on both sides: BLANC's non-coreference part has no links and is left out "
        "of the average"
    ),
    "28_nested_same_entity": (
        "nested mentions of one entity (per-entity bracket stack) vs a flat response"
    ),
    "29_crlf_line_endings": "case 17 with CRLF line ends (normalised by the official reader)",
    "40_reject_closing_without_opening": "a closing bracket e7) without an opening",
    "41_reject_head_index_too_large": "head index 3 on a two-word mention",
    "42_reject_head_not_integer": "an empty head value '(e2-person--'",
    "43_reject_no_global_entity": "Entity= annotations without # global.Entity",
    "44_reject_sent_id_mismatch": "sent_id differs between key and response",
    "45_reject_form_mismatch": "a word form differs between key and response",
    "46_reject_missing_document": "the response lacks the key's second document",
    "47_crash_cross_sentence_mention": "a (contiguous) mention across two sentences",
    "48_reject_head_column_out_of_range": "a HEAD column value beyond the sentence",
    "49_reject_duplicate_sent_id": "two consecutive sentences with the same sent_id",
    "50_reject_forbidden_eid_character": "an entity id with '='",
    "51_reject_cross_document_discontinuous": (
        "a discontinuous mention whose parts lie in two documents"
    ),
    "52_reject_newdoc_mismatch": "the # newdoc id differs between key and response",
    "53_reject_no_eid_in_global_entity": "global.Entity without eid (or GRP)",
}

_ALL = [oracle.combo_id(c) for c in oracle.COMBINATIONS]

# Hand derivations, in exact fractions (checked against the recorded floats).
DERIVATIONS = {
    "17_pradhan2014_example": {
        "applies_to": _ALL,
        "notes": [
            "Single-word mentions only, no singleton entity and no zero: "
            "all 12 combinations agree.",
            "Key K1={a,b,c}, K2={d,e,f,g}; response R1={a,b}, R2={c,d}, R3={f,g,h,i}.",
            "MUC R = ((3-2)+(4-3))/((3-1)+(4-1)) = 2/5 (K1 -> {a,b}{c}; K2 -> {d}{e}{f,g}); "
            "P = ((2-1)+(2-2)+(4-3))/(1+1+3) = 2/5.",
            "B3 R = (5/3 + 5/4)/7 = 35/84 = 5/12 (K1: (2^2+1^2)/3, K2: (1^2+2^2)/4, e unmatched); "
            "P = (4/2 + 2/2 + 4/4)/8 = 1/2; F = 5/11.",
            "CEAFe: phi4(K1,R1)=4/5, phi4(K2,R3)=1/2 -> 13/10; R = 13/20, P = 13/30, F = 13/25.",
            "CEAFm: 2+2 = 4 common mentions; R = 4/7, P = 1/2, F = 8/15.",
            "BLANC coref: key links 3+6 = 9, response links 1+1+6 = 8, common (a,b),(f,g) = 2: "
            "R_c = 2/9, P_c = 1/4, F_c = 4/17. Non-coref: rd = 21-9 = 12, pd = 28-8 = 20, "
            "key pairs across K1 x {d,f,g} in different response entities = 8 (only c-d share R2): "
            "R_n = 2/3, P_n = 2/5, F_n = 1/2. BLANC R = 4/9, P = 13/40, F = (4/17+1/2)/2 = 25/68.",
            "LEA R = (3*(1/3) + 4*(1/6))/7 = 5/21; P = (2*1 + 2*0 + 4*(1/6))/8 = 1/3; F = 5/18.",
            "MOR: 6 of 7 key words and 6 of 8 response words overlap: R = 6/7, P = 3/4, F = 4/5.",
            "CoNLL = (2/5 + 5/11 + 13/25)/3 = 126/275.",
        ],
        "fractions": {
            "muc": {"recall": "2/5", "precision": "2/5", "f1": "2/5"},
            "bcub": {"recall": "5/12", "precision": "1/2", "f1": "5/11"},
            "ceafe": {"recall": "13/20", "precision": "13/30", "f1": "13/25"},
            "ceafm": {"recall": "4/7", "precision": "1/2", "f1": "8/15"},
            "blanc": {"recall": "4/9", "precision": "13/40", "f1": "25/68"},
            "lea": {"recall": "5/21", "precision": "1/3", "f1": "5/18"},
            "mor": {"recall": "6/7", "precision": "3/4", "f1": "4/5"},
            "zero": {"recall": "0", "precision": "0", "f1": "0"},
            "conll": "126/275",
        },
    },
    "06_zeros_moved": {
        "applies_to": [
            oracle.combo_id((m, s, "linear")) for m in oracle.MATCHES for s in oracle.SINGLETONS
        ],
        "notes": [
            "Key e1={1, 5.1}, e2={3, 5.2}; response e1={1, 5.2}, e2={3, 5.1} (zeros swapped).",
            "linear: empty nodes are identified by position, so K5.1 = S5.1 (in the wrong entity).",
            "MUC: each key entity is split in two response entities: R = P = 0/2.",
            "B3: (1+1)/2 per entity: R = P = 2/4 = 1/2. CEAFe: every key/response entity pair "
            "shares one mention, phi4 = 2/4: 1/2 + 1/2 over 2 entities = 1/2. CEAFm: 2/4.",
            "BLANC: no common coreference link (R_c = P_c = 0); "
            "of the 4 non-coreference key pairs, "
            "(1,3) and (5.1,5.2) lie in different response entities: R_n = P_n = 1/2 -> BLANC 1/4.",
            "LEA: no link of a key entity survives: 0. MOR: every word overlaps: 1.",
            "zero: both key zeros resolve (by position) to a response entity that their preceding "
            "key mention is not in: two wrong links, tp = 0 -> 0 (denominators 2).",
        ],
        "fractions": {
            "muc": {"recall": "0", "precision": "0", "f1": "0"},
            "bcub": {"recall": "1/2", "precision": "1/2", "f1": "1/2"},
            "ceafe": {"recall": "1/2", "precision": "1/2", "f1": "1/2"},
            "ceafm": {"recall": "1/2", "precision": "1/2", "f1": "1/2"},
            "blanc": {"recall": "1/4", "precision": "1/4", "f1": "1/4"},
            "lea": {"recall": "0", "precision": "0", "f1": "0"},
            "mor": {"recall": "1", "precision": "1", "f1": "1"},
            "zero": {"recall": "0", "precision": "0", "f1": "0"},
            "conll": "1/3",
        },
    },
    "27_single_entity_blanc": {
        "applies_to": _ALL,
        "notes": [
            "One entity of three single-word mentions on both sides (ids differ): "
            "every metric 1, except",
            "BLANC: the non-coreference part has rd = pd = 0 and is left out of the average: "
            "BLANC = the coreference part = 1.",
            "zero: no zero mention anywhere: 0/0 -> 0.",
        ],
        "fractions": {
            "muc": {"recall": "1", "precision": "1", "f1": "1"},
            "bcub": {"recall": "1", "precision": "1", "f1": "1"},
            "ceafe": {"recall": "1", "precision": "1", "f1": "1"},
            "ceafm": {"recall": "1", "precision": "1", "f1": "1"},
            "blanc": {"recall": "1", "precision": "1", "f1": "1"},
            "lea": {"recall": "1", "precision": "1", "f1": "1"},
            "mor": {"recall": "1", "precision": "1", "f1": "1"},
            "zero": {"recall": "0", "precision": "0", "f1": "0"},
            "conll": "1",
        },
    },
}


def record(o: oracle.Oracle, folder: Path) -> dict[str, object]:
    key, response = folder / "key.conllu", folder / "response.conllu"
    results = o.run(oracle.jobs_for(key, response), selfcheck=True)
    combos: dict[str, object] = {}
    for combo, result in zip(oracle.COMBINATIONS, results):
        if result["ok"] and result.get("selfcheck") != "ok":
            raise SystemExit(f"{folder.name} {combo}: self-check failed: {result.get('selfcheck')}")
        result.pop("selfcheck", None)
        if not result["ok"]:
            kind, why = oracle.classify(result["error"])
            result["classification"] = kind
            result["why"] = why
        combos[oracle.combo_id(combo)] = result
    out: dict[str, object] = {
        "case": folder.name,
        "about": ABOUT.get(folder.name, "")
        or f"repaired copy of {folder.parent.name}: {SCORED_AS_REPAIRED.get(folder.parent.name)}",
        "oracle": {"scorer": "ufal/corefud-scorer v1.2", **o.identity},
        "combinations": combos,
    }
    if folder.name in DERIVATIONS:
        out["derivation"] = DERIVATIONS[folder.name]
    return out


def main() -> int:
    o = oracle.load(None)
    if isinstance(o, str):
        print(o, file=sys.stderr)
        return 1
    folders = sorted(p for p in CASES.iterdir() if p.is_dir())
    # A crash's repaired copy (tests/corefud/differences.py) is recorded like a case.
    folders += [p / "repaired" for p in folders if (p / "repaired").is_dir()]
    for folder in folders:
        data = record(o, folder)
        (folder / "expected.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        errors = {v["error"]["type"] for v in data["combinations"].values() if not v["ok"]}  # type: ignore[attr-defined]
        print(
            folder.parent.name if folder.name == "repaired" else folder.name,
            "errors: " + ", ".join(sorted(errors)) if errors else "ok",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
