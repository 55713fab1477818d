"""A short string that states everything that can change a number.

Like sacrebleu's signatures: two results with the same signature were computed
the same way, so their numbers can be compared.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._version import __version__

#: The reference behaviour corefscore reproduces: CoNLL scorer v8.01 (LEA from its LEA branch).
COMPATIBILITY = "conll-v8.01"


def make_signature(
    *,
    metrics: Sequence[str],
    duplicates: str,
    matching: str = "exact",
    singletons: str = "keep",
) -> str:
    fields = [
        ("metrics", "+".join(metrics)),
        ("match", matching),
        ("singletons", singletons),
        ("dups", duplicates),
        ("compat", COMPATIBILITY),
        ("version", __version__),
    ]
    return "|".join(f"{k}:{v}" for k, v in fields)
