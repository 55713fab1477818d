"""Where corefscore's CorefUD evaluation deliberately differs from corefud-scorer.

Each entry is one fixture of ``tests/data/corefud/cases`` and one paragraph of
``docs/compatibility.md`` ("CorefUD evaluation: where corefscore differs"):

* ``SCORED_AS_REPAIRED``: the official scorer crashes or refuses the input
  although its meaning is clear; corefscore scores it, and the numbers must
  equal the official scorer's on a repaired copy (``<case>/repaired/``) that
  says the same thing in a form the official scorer reads;
* ``SCORED_BY_HAND``: the official scorer crashes and no repaired copy says the
  same thing; corefscore scores it, and the counts are derived by hand;
* ``REFUSED``: the official scorer scores an input that is malformed or
  ambiguous (it guesses or drops something silently); corefscore refuses it
  with one clear line containing the given text.
"""

from __future__ import annotations

SCORED_AS_REPAIRED: dict[str, str] = {
    "10_no_newdoc": "no '# newdoc' line: one document, as with a '# newdoc' line first",
    "10b_newdoc_not_first": (
        "mentions before the first '# newdoc': a document of their own, as with a "
        "'# newdoc' line first"
    ),
    "15_zero_without_deps": (
        "a zero with no enhanced dependencies: paired by dependencies with score 0, as a "
        "zero whose dependencies share nothing (1:xcomp) is"
    ),
    "18_discontinuous_no_head_field": (
        "a discontinuous mention whose one-word last part has no head value: that word is "
        "its head, as with head 1 written on the last part"
    ),
    "42_reject_head_not_integer": (
        "an empty head value: no head given, so the first word, as with head 1"
    ),
    "43_reject_no_global_entity": (
        "Entity= without '# global.Entity': CorefUD's attributes eid-etype-head-other, as "
        "with that declaration (a warning says so)"
    ),
}

REFUSED: dict[str, str] = {
    "16_same_newdoc_id_twice": "appears twice in this file",
    "24_short_lines": "CoNLL-U needs 10",
}

#: case -> matching -> metric -> (recall num, recall den, precision num, precision den),
#: in every combination of singletons and zeros (the cases have neither).
SCORED_BY_HAND: dict[str, dict[str, dict[str, tuple[float, float, float, float]]]] = {
    # Key e1 {Kim, her}, e2 {her friend, she}; the response's e2 is {her friend she
    # (across the sentence break, head "friend"), she}. Exact and partial: "her friend
    # she" meets no key mention (partial: it is not inside "her friend"), so key e2 keeps
    # one link of two (MUC 1/2 each way) and B3 = (2 + 1/2) / 4 each way. Head: it pairs
    # with "her friend" (same head), and every mention is resolved.
    "47_crash_cross_sentence_mention": {
        "exact": {"muc": (1, 2, 1, 2), "bcub": (2.5, 4, 2.5, 4)},
        "partial": {"muc": (1, 2, 1, 2), "bcub": (2.5, 4, 2.5, 4)},
        "head": {"muc": (2, 2, 2, 2), "bcub": (4, 4, 4, 4)},
    },
}

#: What corefscore does where the official scorer crashes (``oracle.CRASHES``):
#: "scored" (docs/compatibility.md says how) or "refused" (one clear line).
CRASH_POLICY: dict[str, str] = {
    "no # newdoc before the first mention": "scored",
    "discontinuous mention without a head value": "scored",
    "zero with empty DEPS next to another zero (dependent)": "scored",
    "mention across sentences": "scored",
    "malformed DEPS on a mention head": "refused",
    "DEPS names an empty node that is not there": "refused",
    "DEPS parent out of range": "refused",
    "SplitAnte/Bridge to an entity not yet defined": "scored",
    "discontinuous subspans that cannot be paired": "refused",
}
