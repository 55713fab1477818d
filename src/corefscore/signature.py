"""A short string that states everything that can change a number.

Like sacrebleu's signatures: two results with the same signature were computed
the same way, so their numbers can be compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._version import __version__

if TYPE_CHECKING:
    from .regimes import EvaluationSetup

#: The reference behaviour corefscore reproduces: CoNLL scorer v8.01 (LEA from its LEA branch).
COMPATIBILITY = "conll-v8.01"
#: The signature's ``compat:`` field of each evaluation (``Evaluation.compat``).
COMPATIBILITIES = {"conll": COMPATIBILITY, "corefud": "corefud-v1.2", "ua": "ua-lrec2022"}


def make_signature(
    *,
    metrics: Sequence[str],
    duplicates: str,
    setup: EvaluationSetup | None = None,
    bootstrap: tuple[int, int | None, float] | None = None,
    significance: tuple[str, int, int | None, float] | None = None,
    scope: str | None = None,
    compat: str = "conll",
    zeros: str | None = None,
    split: str | None = None,
) -> str:
    """``metrics:…|match:…|singletons:…|mentions:…|nested:…|dups:…|compat:…|version:…``.

    With ``bootstrap=(n, seed, ci)``, a ``bootstrap:`` field before ``compat``
    states the resamples, the interval and the seed. With
    ``significance=(test, trials, seed, alpha)``, a ``test:`` field states the
    paired test of ``corefscore compare`` (Holm-corrected). With ``scope``
    (cross-document scoring), a ``scope:`` field says what was partitioned.
    ``compat`` names the evaluation reproduced (``conll-v8.01``, or
    ``corefud-v1.2`` with a ``zeros:`` field: how zeros were paired). ``split``:
    the Universal Anaphora options that are not the defaults, in an
    ``anaphora:`` field (the discourse deixis layer, ``split-drop`` or
    ``split-only``, LEA's split-antecedent importance).
    """
    from .regimes import EvaluationSetup

    setup = setup or EvaluationSetup()
    fields = [
        ("metrics", "+".join(metrics)),
        ("match", setup.matching),
        ("singletons", setup.singletons),
        ("mentions", setup.mentions),
        ("nested", "removed" if setup.remove_nested else "kept"),
        ("dups", duplicates),
        ("compat", COMPATIBILITIES[compat]),
        ("version", __version__),
    ]
    if zeros is not None:
        fields.insert(-3, ("zeros", zeros))
    if split is not None:
        fields.insert(-2, ("anaphora", split))
    if bootstrap is not None:
        n, seed, ci = bootstrap
        fields.insert(-2, ("bootstrap", f"{n}@{ci:g}%,seed={seed if seed is not None else 'none'}"))
    if scope is not None:
        fields.insert(-2, ("scope", scope))
    if significance is not None:
        test, trials, seed, alpha = significance
        seed_text = seed if seed is not None else "none"
        fields.insert(-2, ("test", f"{test}:{trials},seed={seed_text},alpha={alpha:g},holm"))
    return "|".join(f"{k}:{v}" for k, v in fields)
