"""corefscore as a Hugging Face ``evaluate`` metric, a drop-in for the hub's ``coval``.

Needs ``evaluate`` (``pip install 'corefscore[evaluate]'``); importing this
module without it raises ``UsageError``.

```python
import evaluate
from corefscore.integrations.evaluate import module_path

coref = evaluate.load(module_path())         # a local file: works offline
coref.compute(predictions=sentences, references=sentences)["conll_score"]
```

``module_path()`` is the loadable module script shipped with the package
(``hf_corefscore/corefscore.py``); ``load()`` does the above in one call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..evaluation import Evaluation
from ..metrics import MetricSpec
from . import missing

if TYPE_CHECKING:
    # Typed as Any, so that the package type-checks with or without them installed.
    datasets: Any
    evaluate: Any
else:
    try:
        import datasets
        import evaluate
    except ImportError as error:
        raise missing("evaluate", "corefscore.integrations.evaluate", error) from error

#: The metrics reported by default: those of the hub ``coval`` module, in its order.
DEFAULT_METRICS: tuple[str, ...] = ("mentions", "muc", "bcub", "ceafe", "lea")
#: The one document that CoNLL lines without ``#begin document`` lines form (``coval``'s
#: ``dummy_doc``).
DOCUMENT = "corefscore"

_DESCRIPTION = """\
corefscore: coreference scores equal to those of the official CoNLL reference
scorer (v8.01, and its LEA branch for LEA): mention identification, MUC, B³,
CEAFm, CEAFe, BLANC, LEA and the CoNLL score (the mean F1 of MUC, B³ and CEAFe).
A drop-in for the hub's `coval` module: the same inputs (CoNLL lines) and
output keys, and also clusters of token spans, with no Perl and no network.
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions: either a list of sentences, each a list of CoNLL lines (columns
        separated by spaces or tabs; the last column is the coreference one), as
        the hub `coval` module takes them: all the sentences form one document,
        and are paired with the references' by position (lines that begin with
        `#begin document` start documents of their own, paired by name);
        or a list of documents, each a list of clusters, each a list of
        `[start, end]` token spans (ends inclusive), paired by position.
    references: the gold annotation, in the same form.
    keep_singletons: False drops entities of one mention on both sides before
        scoring (`coval`'s option; `singletons="drop"` in corefscore). Default True.
    metrics: the metrics to report (corefscore names: mentions, muc, bcub, ceafm,
        ceafe, blanc, lea, and variants; "conll"; "all"). Default: those of
        `coval`, i.e. mentions, muc, bcub, ceafe and lea.
    NP_only, min_span, remove_nested: `coval`'s options, accepted only as False
        (their default): corefscore does not implement them that way.
    Any other option of corefscore.score (duplicates, matching, gold_mentions...).

Returns:
    `<metric>/recall`, `<metric>/precision`, `<metric>/f1` for every metric
    (fractions), and `conll_score`, the CoNLL score x 100, when MUC, B³ and
    CEAFe are among the metrics.

Examples:
    >>> coref = evaluate.load(corefscore.integrations.evaluate.module_path())
    >>> coref.compute(predictions=[[[[0, 0], [2, 3]]]], references=[[[[0, 0], [2, 3]]]])
    {'mentions/recall': 1.0, ..., 'conll_score': 100.0}
"""

_CITATION = """\
@inproceedings{pradhan-etal-2014-scoring,
    title = "Scoring Coreference Partitions of Predicted Mentions: A Reference Implementation",
    author = "Pradhan, Sameer and Luo, Xiaoqiang and Recasens, Marta and Hovy, Eduard and
              Ng, Vincent and Strube, Michael",
    booktitle = "Proceedings of the 52nd Annual Meeting of the Association for
                 Computational Linguistics (Volume 2: Short Papers)",
    year = "2014",
    pages = "30--35",
    url = "https://aclanthology.org/P14-2006",
}
"""


def module_path() -> str:
    """The path of the module script to give ``evaluate.load`` (no network needed)."""
    return str(Path(__file__).resolve().parent / "hf_corefscore" / "corefscore.py")


def load(**kwargs: Any) -> Any:
    """``evaluate.load(module_path(), **kwargs)``: the metric, loaded from the package."""
    return evaluate.load(module_path(), **kwargs)


def _features() -> list[Any]:
    spans = datasets.Sequence(datasets.Sequence(datasets.Sequence(datasets.Value("int64"))))
    lines = datasets.Sequence(datasets.Value("string"))
    # Clusters first: an empty first example then reads as an empty document, which
    # clusters often are (a model that found nothing), unlike sentences.
    return [
        datasets.Features({"predictions": spans, "references": spans}),
        datasets.Features({"predictions": lines, "references": lines}),
    ]


class CorefScore(evaluate.Metric):  # type: ignore[misc]
    """The ``evaluate`` metric: ``compute(predictions=..., references=..., **options)``.

    Inputs, options and output as described in ``_KWARGS_DESCRIPTION`` (the
    module's ``inputs_description``): CoNLL lines per sentence as the hub
    ``coval`` module takes them, or clusters per document; the numbers are
    those of ``corefscore.score``.
    """

    def _info(self) -> Any:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_features(),
            codebase_urls=["https://github.com/conll/reference-coreference-scorers"],
            reference_urls=[
                "https://aclanthology.org/P14-2006",
                "https://huggingface.co/spaces/evaluate-metric/coval",
            ],
        )

    def _compute(
        self,
        predictions: Sequence[Any],
        references: Sequence[Any],
        keep_singletons: bool = True,
        metrics: MetricSpec | Iterable[MetricSpec] | None = None,
        NP_only: bool = False,
        min_span: bool = False,
        remove_nested: bool = False,
        **options: Any,
    ) -> dict[str, float]:
        return compute(
            predictions,
            references,
            keep_singletons=keep_singletons,
            metrics=metrics,
            NP_only=NP_only,
            min_span=min_span,
            remove_nested=remove_nested,
            **options,
        )


def compute(
    predictions: Sequence[Any],
    references: Sequence[Any],
    *,
    keep_singletons: bool = True,
    metrics: MetricSpec | Iterable[MetricSpec] | None = None,
    NP_only: bool = False,
    min_span: bool = False,
    remove_nested: bool = False,
    **options: Any,
) -> dict[str, float]:
    """What the module computes, without ``evaluate``'s input handling (same arguments)."""
    for name, value in (("NP_only", NP_only), ("min_span", min_span)):
        if value:
            raise UsageError(
                f"{name}=True is a coval option that corefscore does not implement; "
                "see corefscore's evaluation regimes (e.g. matching='min-span' with MIN "
                "annotations) instead"
            )
    if remove_nested:
        raise UsageError(
            "remove_nested=True is coval's option (it removes mentions nested in a mention of "
            "the same entity), which corefscore does not implement; corefscore.score(..., "
            "remove_nested=True) is another regime (only maximal spans, on each side)"
        )
    if not keep_singletons:
        if options.get("singletons", "drop") != "drop":
            raise UsageError("keep_singletons=False contradicts singletons='keep'")
        options["singletons"] = "drop"
    evaluation = Evaluation.create(
        metrics=DEFAULT_METRICS if metrics is None else metrics, **options
    )
    if len(predictions) != len(references):
        raise UsageError(
            f"{len(predictions)} predictions and {len(references)} references; they must pair up"
        )
    if _are_lines(predictions) or _are_lines(references):
        result = _score_lines(predictions, references, evaluation)
    else:
        from ..scorer import score

        result = score(
            {str(i): doc for i, doc in enumerate(references)},
            {str(i): doc for i, doc in enumerate(predictions)},
            evaluation=evaluation,
        )
    out: dict[str, float] = {}
    for name, metric in result.metrics.items():
        out[f"{name}/recall"] = metric.recall
        out[f"{name}/precision"] = metric.precision
        out[f"{name}/f1"] = metric.f1
    if result.conll is not None:
        out["conll_score"] = result.conll * 100
    return out


def _are_lines(items: Sequence[Any]) -> bool:
    """Whether ``items`` are sentences of CoNLL lines (strings) rather than clusters."""
    for item in items:
        if isinstance(item, str):
            return True
        for value in item:
            return isinstance(value, str)
    return False


def _score_lines(
    predictions: Sequence[Sequence[str]], references: Sequence[Sequence[str]], evaluation: Any
) -> Any:
    from ..io import read_conll_text
    from ..scorer import score_corpora

    # With their words (syntax=True): in-memory text cannot be re-read to say
    # where key and response tokens differ.
    key = read_conll_text(_conll_text(references, "references"), source="references", syntax=True)
    response = read_conll_text(
        _conll_text(predictions, "predictions"), source="predictions", syntax=True
    )
    return score_corpora(key, response, evaluation=evaluation)


def _conll_text(sentences: Sequence[Sequence[str]], what: str) -> str:
    """One CoNLL text of ``sentences``, wrapped as one document unless they name theirs."""
    blocks: list[str] = []
    for sentence in sentences:
        if isinstance(sentence, str):
            raise UsageError(
                f"{what} must be a list of sentences, each a list of CoNLL lines; got a string"
            )
        blocks.append("\n".join(line.rstrip("\r\n") for line in sentence))
    text = "\n\n".join(blocks) + "\n\n"
    if any(line.lstrip().startswith("#begin document") for line in text.splitlines()):
        return text
    return f"#begin document ({DOCUMENT}); part 000\n{text}#end document\n"


__all__ = ["DEFAULT_METRICS", "CorefScore", "compute", "load", "module_path"]
