"""The corefscore metric as a Hugging Face ``evaluate`` module script.

``evaluate.load(path)`` copies this file into its modules cache and imports
it; the metric itself lives in the installed ``corefscore`` package, so
nothing is downloaded::

    import evaluate
    from corefscore.integrations.evaluate import module_path

    coref = evaluate.load(module_path())  # this file
"""

from corefscore.integrations.evaluate import CorefScore


class Corefscore(CorefScore):
    """The metric of ``corefscore.integrations.evaluate`` (see ``CorefScore``)."""


__all__ = ["Corefscore"]
