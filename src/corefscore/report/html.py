"""``corefscore report``: one self-contained HTML file to read, mail or archive.

The file holds everything it shows: CSS and JavaScript are inline, the data is
embedded once as JSON, the plots are SVG drawn by the page itself. It loads
nothing from anywhere, so it opens from a mail attachment or a paper's
artifacts without a server or a network.

What is computed here (in Python, at full precision) and only drawn by the
page: every system's corpus scores (micro and macro), bootstrap intervals,
per-document scores, and per document the twins (missed and spurious
mentions), split and merged entities, and the optimal CEAF-e alignment; each
system's error categories (Kummerfeld & Klein 2013, ``corefscore.analysis.
error_analysis``), per document and with their cost; and, for several systems,
the paired significance tests and ranking of ``corefscore compare``. A
document's viewer is built by the page only when that document is opened, so a
corpus of hundreds of documents stays quick to load. With ``text=False`` the
report holds no word of the corpus (token positions only), for licensed data.

The page itself lives in package data, as files that ordinary HTML, CSS and
JavaScript tools can edit: ``templates/report.html``, ``report.css`` and
``report.js``. They are read once per process with ``importlib.resources``,
so they load from a wheel or a zip as well as from a source tree. The page is a
``string.Template``: ``$name`` (or ``${name}``) placeholders, ``$$`` for a
dollar sign, a missing value or a stray ``$`` an error. Each value is inserted
once and never rescanned. Values are HTML already (``render_html``
escapes what needs it), and ``$css`` and ``$js`` are the two other files,
inserted verbatim, so their braces and dollar signs need no escaping. Each
file may begin with a comment for its editors (``<!-- ... -->`` in the HTML,
``/* ... */`` in the CSS and the JavaScript). That comment is dropped when the
file is read, with the newline that ends it, so it never reaches a report.
"""

from __future__ import annotations

import functools
import html
import json
import os
import string
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from .._record import record
from .._version import __version__
from ..errors import InputError, UsageError
from ..model import Corpus, Document, Span
from .text import LABELS, pct

if TYPE_CHECKING:
    from ..evaluation import Evaluation
    from ..matching import Twins
    from ..metrics.ceaf import EntityAlignment
    from ..result import ScoreResult
    from ..stats import BootstrapResult

#: The alignment the viewer draws: the entity-based CEAF of the CoNLL score.
ALIGNMENT_METRIC = "ceafe"


@record(frozen=True)
class HtmlReport:
    """The report's embedded data, and the warnings met while scoring."""

    data: dict[str, Any]
    warnings: tuple[str, ...] = ()

    def to_html(self) -> str:
        return render_html(self.data)


def build_html_report(
    key: Corpus,
    responses: Mapping[str, Corpus] | Iterable[tuple[str, Corpus]],
    *,
    evaluation: Evaluation | None = None,
    bootstrap: int = 1000,
    ci: float = 95.0,
    seed: int | None = None,
    title: str | None = None,
    text: bool = True,
    errors: bool = True,
    trials: int = 10000,
) -> str:
    """The HTML text of a report on one or more systems scored against ``key``.

    ``responses`` maps each system's name to its corpus (or is a sequence of
    ``(name, corpus)``); ``evaluation`` says what is computed (default: the
    reference scorer's seven metrics). ``bootstrap`` resamples give the
    ``ci`` % intervals (0 leaves intervals out); the same ``seed`` gives a
    byte-identical file. Read ``key`` with ``syntax=True`` so that the viewer
    shows its words and the error analysis has its sentences and tags.
    ``text=False`` leaves every word out; ``errors=False`` the error
    categories; ``trials`` are the approximate randomization's for the
    comparison of several systems (as ``corefscore compare``).
    """
    return collect_report(
        key,
        responses,
        evaluation=evaluation,
        bootstrap=bootstrap,
        ci=ci,
        seed=seed,
        title=title,
        text=text,
        errors=errors,
        trials=trials,
    ).to_html()


def collect_report(
    key: Corpus,
    responses: Mapping[str, Corpus] | Iterable[tuple[str, Corpus]],
    *,
    evaluation: Evaluation | None = None,
    bootstrap: int = 1000,
    ci: float = 95.0,
    seed: int | None = None,
    title: str | None = None,
    text: bool = True,
    errors: bool = True,
    trials: int = 10000,
) -> HtmlReport:
    """Score every system and gather what ``build_html_report`` embeds."""
    from ..analysis.error_analysis import analyse_errors
    from ..evaluation import Evaluation
    from ..scorer import alignments, find_twins, score_corpora
    from ..stats import bootstrap as bootstrap_intervals

    systems = list(responses.items() if isinstance(responses, Mapping) else responses)
    if not systems:
        raise UsageError("a report needs at least one response")
    names = [name for name, _ in systems]
    if len(set(names)) != len(names):
        raise UsageError(f"system names must differ, got {', '.join(names)}")
    if bootstrap < 0 or not 0 < ci < 100:
        raise UsageError("the bootstrap needs N >= 0 resamples and a level between 0 and 100")
    if trials < 1:
        raise UsageError(f"the comparison needs trials >= 1, got {trials}")
    if not key.documents:
        raise UsageError("the key has no documents")
    evaluation = evaluation or Evaluation()
    doc_ids = list(key.documents)
    warnings: list[str] = []
    system_data: list[dict[str, Any]] = []
    key_views: dict[str, dict[str, Any]] = {}
    metric_names: list[str] = []
    statistics: dict[str, Any] = {}
    for name, response in systems:
        result = score_corpora(key, response, evaluation=evaluation, per_document=True)
        statistics[name] = result.document_statistics
        warnings.extend(result.warnings)
        metric_names = list(result.metrics)
        intervals = None
        if bootstrap:
            assert result.document_statistics is not None
            intervals = bootstrap_intervals(
                result.document_statistics, metrics=metric_names, n=bootstrap, ci=ci, seed=seed
            )
        signature = evaluation.signature(bootstrap=(bootstrap, seed, ci) if bootstrap else None)
        twins = find_twins(key, response, evaluation=evaluation)
        aligned = alignments(key, response, metric=ALIGNMENT_METRIC, evaluation=evaluation)
        views = []
        for doc_id in doc_ids:
            if doc_id not in key_views:
                key_views[doc_id] = _key_view(
                    key.documents[doc_id], twins[doc_id], response, text=text
                )
            views.append(document_view(twins[doc_id], aligned[doc_id]))
        error_data = None
        if errors:
            try:
                analysis = analyse_errors(key, response)
            except InputError as exc:
                raise InputError(
                    f"{exc.message} (in the report's error analysis: --no-errors, or "
                    "errors=False in Python, leaves it out)",
                    path=exc.path,
                    line=exc.line,
                ) from None
            warnings.extend(w for w in analysis.warnings if w not in warnings)
            error_data = _errors(analysis, doc_ids)
        system_data.append(
            {
                "name": name,
                "source": _base(response.source),
                "signature": signature,
                **_scores(result, intervals, doc_ids),
                "views": views,
                "errors": error_data,
            }
        )
    comparison = None
    if len(systems) > 1:
        comparison = _comparison(statistics, evaluation, metric_names, trials=trials, seed=seed)
    data: dict[str, Any] = {
        "title": title or "corefscore report",
        "version": __version__,
        "key": _base(key.source),
        "metrics": metric_names,
        "labels": {m: LABELS.get(m, m) for m in [*metric_names, "conll"]},
        "bootstrap": {"n": bootstrap, "ci": ci, "seed": seed} if bootstrap else None,
        "alignment_metric": ALIGNMENT_METRIC,
        "documents": [key_views[d] for d in doc_ids],
        "systems": system_data,
        "text": text,
        "errors": _error_legend() if errors else None,
        "comparison": comparison,
        "warnings": list(dict.fromkeys(warnings)),
    }
    return HtmlReport(data, tuple(data["warnings"]))


def _error_legend() -> dict[str, Any]:
    from ..analysis.error_analysis import CATEGORIES, LABELS, MENTION_TYPES

    return {
        "categories": list(CATEGORIES),
        "labels": [LABELS[c] for c in CATEGORIES],
        "mention_types": list(MENTION_TYPES),
    }


def _errors(analysis: Any, doc_ids: Sequence[str]) -> dict[str, Any]:
    """One system's error categories: totals, by mention type, the CoNLL F1 after
    each step, and per document the counts and each error (category, mentions,
    mention type), by index into ``_error_legend``."""
    from ..analysis.error_analysis import CATEGORIES, MENTION_TYPES

    category = {c: k for k, c in enumerate(CATEGORIES)}
    kind = {t: k for k, t in enumerate(MENTION_TYPES)}
    totals = analysis.totals
    documents = analysis.documents
    return {
        "counts": [totals.categories[c] for c in CATEGORIES],
        "by_type": [[totals.by_type[c][t] for t in MENTION_TYPES] for c in CATEGORIES],
        "steps": [s.conll for s in analysis.steps],
        "per_document": [
            [documents[d].counts.categories[c] for c in CATEGORIES] if d in documents else None
            for d in doc_ids
        ],
        "items": [
            [
                [category[e.category], [list(m) for m in e.mentions], kind[e.mention_type]]
                for e in documents[d].errors
            ]
            if d in documents
            else []
            for d in doc_ids
        ],
    }


def _comparison(
    statistics: Mapping[str, Any],
    evaluation: Evaluation,
    metric_names: Sequence[str],
    *,
    trials: int,
    seed: int | None,
) -> dict[str, Any]:
    """``corefscore compare`` on the systems: paired approximate randomization over
    documents for every pair, Holm's correction, and the ranking, on the CoNLL
    score (or the first metric without it)."""
    from ..metrics import CONLL_PARTS
    from ..stats import DEFAULT_SEED, compare_systems

    conll = all(m in metric_names for m in CONLL_PARTS)
    metric = "conll" if conll else metric_names[0]
    seed = DEFAULT_SEED if seed is None else seed
    ranking = compare_systems(
        statistics,
        metric=metric,
        trials=trials,
        seed=seed,
        metrics=metric_names,
    )
    out = ranking.to_dict()
    out["signature"] = evaluation.signature(significance=("ar", trials, seed, ranking.alpha))
    return out


def _base(source: str | None) -> str | None:
    return os.path.basename(source) if source else None


def _triple(score: Any) -> list[float]:
    return [score.recall, score.precision, score.f1]


def _scores(
    result: ScoreResult, intervals: BootstrapResult | None, doc_ids: Sequence[str]
) -> dict[str, Any]:
    """Micro, macro, intervals and per-document scores, as full-precision floats."""
    assert result.documents is not None
    macro = result.macro()
    out: dict[str, Any] = {
        "micro": {m: _triple(s) for m, s in result.metrics.items()},
        "conll": result.conll,
        "macro": {
            m: [v.get("recall"), v.get("precision"), v["f1"]]
            for m, v in macro.items()
            if m != "conll"
        },
        "macro_conll": macro.get("conll", {}).get("f1"),
        "intervals": None,
        "conll_interval": None,
        # One row per key document: its CoNLL score, then each metric's R, P, F1.
        "per_document": [
            [
                result.documents[d].conll,
                [_triple(result.documents[d].metrics[m]) for m in result.metrics],
            ]
            for d in doc_ids
        ],
    }
    if intervals is not None:
        out["intervals"] = {
            m: [
                [i.recall.low, i.recall.high],
                [i.precision.low, i.precision.high],
                [i.f1.low, i.f1.high],
            ]
            for m, i in intervals.metrics.items()
        }
        if intervals.conll is not None:
            out["conll_interval"] = [intervals.conll.low, intervals.conll.high]
    return out


# --------------------------------------------------------------------------- documents


def _mention_list(doc: Document) -> list[list[int]]:
    """``[start, end, entity]`` of every mention, outer before inner (the drawing order)."""
    mentions = [[s, e, k] for k, entity in enumerate(doc.entities) for s, e in entity]
    mentions.sort(key=lambda m: (m[0], -m[1], m[2]))
    return mentions


def _key_view(
    original: Document, twins: Twins, response: Corpus, *, text: bool = True
) -> dict[str, Any]:
    """A document's words, sentence starts and key mentions (shared by every system);
    without ``text``, only the number of tokens stands for the words."""
    key = twins.key
    mentions = _mention_list(key)
    syntax = original.syntax
    words = syntax.words if syntax is not None else None
    if words is None:
        other = response.documents.get(original.doc_id)
        if other is not None and other.syntax is not None:
            words = other.syntax.words
    ends = [m[1] for m in mentions] + [e for entity in twins.response.entities for _, e in entity]
    ends += [e for _, e in twins.spurious]
    count = max([original.token_count or 0, *(e + 1 for e in ends)])
    starts = list(syntax.sentence_starts) if syntax is not None else []
    tokens: list[str] | int
    if not text:
        tokens = max(count, len(words) if words is not None else 0)
    else:
        tokens = list(words) if words is not None else [f"t{t}" for t in range(count)]
        # Mentions past the last word (malformed input) still get a token to sit on.
        tokens += [f"t{t}" for t in range(len(tokens), count)]
    return {
        "id": original.doc_id,
        "tokens": tokens,
        "sentences": starts,
        "key": mentions,
        "key_labels": list(key.labels),
    }


def document_view(twins: Twins, alignment: EntityAlignment) -> dict[str, Any]:
    """One system's side of a document, as the viewer draws it.

    ``response`` mentions are at the spans the system wrote (``twins.response``
    holds them moved onto their key twins). ``missed`` and ``spurious`` are
    indices into the key and response mention lists; ``split`` lists each key
    entity whose twinned mentions fall into several response entities (with
    those entities), ``merged`` each response entity whose twinned mentions
    come from several key entities; ``alignment`` holds ``[key entity,
    response entity, φ]`` of the optimal CEAF-e alignment, entity indices
    being positions in ``key_labels`` and ``response_labels``.
    """
    key, moved = twins.key, twins.response
    written = {k: r for k, r in twins.pairs}
    twinned = set(written)
    response_doc = moved.respan(
        {
            (e, k): written[span]
            for e, entity in enumerate(moved.entities)
            for k, span in enumerate(entity)
            if span in written and written[span] != span
        }
    )
    key_mentions = _mention_list(key)
    response_mentions = _mention_list(response_doc)
    missed = set(twins.missed)
    spurious = set(twins.spurious)
    key_entity_of = _entity_of(key)
    response_entity_of = _entity_of(moved)
    split = _spread(key.entities, twinned, response_entity_of)
    merged = _spread(moved.entities, twinned, key_entity_of)
    key_index = {label: k for k, label in reversed(list(enumerate(key.labels)))}
    response_index = {label: k for k, label in reversed(list(enumerate(moved.labels)))}
    pairs = [
        [key_index[p.key_label], response_index[p.response_label], p.similarity]
        for p in alignment.pairs
        if p.key_label in key_index and p.response_label in response_index
    ]
    return {
        "response": response_mentions,
        "response_labels": list(moved.labels),
        "missed": [i for i, m in enumerate(key_mentions) if (m[0], m[1]) in missed],
        "spurious": [i for i, m in enumerate(response_mentions) if (m[0], m[1]) in spurious],
        "split": split,
        "merged": merged,
        "alignment": pairs,
        "phi": [alignment.total, alignment.key_self, alignment.response_self],
    }


def _entity_of(doc: Document) -> dict[Span, int]:
    """The entity of each span (the first one holding it, for a repeated span)."""
    out: dict[Span, int] = {}
    for k, entity in enumerate(doc.entities):
        for span in entity:
            out.setdefault(span, k)
    return out


def _spread(
    entities: Sequence[Sequence[Span]], twinned: set[Span], other_entity: Mapping[Span, int]
) -> list[list[Any]]:
    """``[entity, [other entities]]`` for each entity whose twins lie in several others.

    Spans of twinned mentions are key spans on both sides (the response being
    moved onto its twins), so one lookup finds the other side's entity.
    """
    out: list[list[Any]] = []
    for k, entity in enumerate(entities):
        others = list(
            dict.fromkeys(
                other_entity[span] for span in entity if span in twinned and span in other_entity
            )
        )
        if len(others) > 1:
            out.append([k, others])
    return out


# --------------------------------------------------------------------------- HTML


#: The folder of the page's templates, package data of ``corefscore.report``.
_TEMPLATES = "templates"
#: The opening and closing of an editors' comment at the top of a template file.
_HEADER_COMMENT = {".html": ("<!--", "-->\n"), ".css": ("/*", "*/\n"), ".js": ("/*", "*/\n")}


@functools.cache
def _template(name: str) -> str:
    """The text of template file ``name``, without its editors' comment at the top."""
    package = resources.files("corefscore.report")  # a literal (tests/test_security.py)
    text = package.joinpath(_TEMPLATES).joinpath(name).read_text(encoding="utf-8")
    opening, closing = _HEADER_COMMENT[os.path.splitext(name)[1]]
    if text.startswith(opening):
        text = text[text.index(closing) + len(closing) :]
    return text


@functools.cache
def _page() -> string.Template:
    return string.Template(_template("report.html"))


def _embed(data: Mapping[str, Any]) -> str:
    """JSON that cannot end its ``<script>`` element early, whatever the words are."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _cell(value: float | None, key: str) -> str:
    shown = pct(value) if value is not None else "–"
    return f'<td data-key="{_e(key)}">{shown}</td>'


def _interval_cell(bounds: Sequence[float] | None, key: str) -> str:
    if bounds is None:
        return "<td>–</td>"
    low, high = bounds
    return (
        f'<td class="ci"><span data-key="{_e(key)}.low">{pct(low)}</span>–'
        f'<span data-key="{_e(key)}.high">{pct(high)}</span></td>'
    )


def _summary_table(system: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    has_ci = data["bootstrap"] is not None
    level = f"{data['bootstrap']['ci']:g}% CI" if has_ci else ""
    head = ["metric", "recall"]
    head += [level] if has_ci else []
    head += ["precision"] + ([level] if has_ci else []) + ["F1"] + ([level] if has_ci else [])
    head += ["macro R", "macro P", "macro F1"]
    rows = []
    intervals = system["intervals"] or {}
    for metric in data["metrics"]:
        micro, macro = system["micro"][metric], system["macro"][metric]
        bounds = intervals.get(metric)
        cells = [f'<th scope="row">{_e(data["labels"][metric])}</th>']
        for k, field in enumerate(("recall", "precision", "f1")):
            cells.append(_cell(micro[k], f"{metric}.{field}"))
            if has_ci:
                cells.append(_interval_cell(bounds[k] if bounds else None, f"{metric}.{field}"))
        cells += [_cell(macro[k], f"macro.{metric}.{f}") for k, f in enumerate(("r", "p", "f1"))]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    if system["conll"] is not None:
        blank = "<td></td>" * (2 if has_ci else 1)
        cells = ['<th scope="row">CoNLL</th>', blank, blank, _cell(system["conll"], "conll.f1")]
        if has_ci:
            cells.append(_interval_cell(system["conll_interval"], "conll.f1"))
        cells += ["<td></td><td></td>", _cell(system["macro_conll"], "macro.conll.f1")]
        rows.append('<tr class="conll">' + "".join(cells) + "</tr>")
    header = "".join(f'<th scope="col">{_e(h)}</th>' for h in head)
    source = f" <small>({_e(system['source'])})</small>" if system["source"] else ""
    return (
        f'<table class="summary" data-system="{_e(system["name"])}">'
        f"<caption>{_e(system['name'])}{source}</caption>"
        f"<thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _comparison_html(data: Mapping[str, Any]) -> str:
    """The systems side by side, and ``corefscore compare``'s tests and ranking."""
    comparison = data["comparison"]
    if comparison is None:
        return ""
    systems = data["systems"]
    head = "".join(f'<th scope="col">{_e(s["name"])}</th>' for s in systems)
    rows = []
    for metric in [*data["metrics"], "conll"]:
        cells = []
        for system in systems:
            if metric == "conll":
                value, bounds = system["conll"], system["conll_interval"]
            else:
                value = system["micro"][metric][2]
                bounds = (system["intervals"] or {}).get(metric, [None, None, None])[2]
            shown = pct(value) if value is not None else "–"
            if bounds:
                shown += f' <span class="ci">[{pct(bounds[0])}–{pct(bounds[1])}]</span>'
            cells.append(f"<td>{shown}</td>")
        rows.append(f'<tr><th scope="row">{_e(data["labels"][metric])}</th>{"".join(cells)}</tr>')
    ranks = "".join(
        f'<tr><td>{r["rank"]}</td><th scope="row">{_e(r["name"])}</th>'
        f"<td>{pct(r['score'])}</td></tr>"
        for r in comparison["systems"]
    )
    pairs = "".join(
        f"<tr><td>{_e(p['a'])}</td><td>{_e(p['b'])}</td><td>{pct(p['difference'])}</td>"
        f"<td>{p['p_value']:.4f}</td><td>{p['p_holm']:.4f}</td>"
        f"<td>{'yes' if p['significant'] else 'no'}</td></tr>"
        for p in comparison["pairs"]
    )
    metric = _e(data["labels"].get(comparison["metric"], comparison["metric"]))
    return (
        '<section aria-labelledby="comparison-title"><h2 id="comparison-title">Comparison</h2>'
        '<p class="note">F1 of every system (micro), with its bootstrap interval when there '
        f"is one. The ranking: paired approximate randomization over documents on {metric} "
        f"({comparison['trials']} trials, seed {comparison['seed']}) for every pair, Holm's "
        f"correction, α = {comparison['alpha']:g}; systems share a rank where their difference "
        "is not significant (as <code>corefscore compare</code>).</p>"
        '<div class="scroll-x"><table class="side-by-side" id="side-by-side">'
        f'<thead><tr><th scope="col">F1</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
        '</table></div><div class="tables">'
        '<table class="ranking" id="ranking"><caption>Ranking</caption><thead><tr>'
        '<th scope="col">rank</th><th scope="col">system</th>'
        f'<th scope="col">{metric}</th></tr></thead><tbody>{ranks}</tbody></table>'
        '<div class="scroll-x"><table class="pairs" id="pairs"><caption>Pairs</caption><thead>'
        '<tr><th scope="col">better</th><th scope="col">worse</th><th scope="col">difference'
        '</th><th scope="col">p</th><th scope="col">p (Holm)</th><th scope="col">significant'
        f"</th></tr></thead><tbody>{pairs}</tbody></table></div></div>"
        f'<div class="signature">Signature: <code>{_e(comparison["signature"])}</code></div>'
        "</section>"
    )


def _errors_html(data: Mapping[str, Any]) -> str:
    """The error categories of every system: counts and costs side by side, each
    system's mention types; the page adds the chart and the per-document table."""
    from .errors import printed_costs

    legend = data["errors"]
    if legend is None:
        return ""
    systems = [s for s in data["systems"] if s["errors"] is not None]
    top = "".join(f'<th scope="colgroup" colspan="2">{_e(s["name"])}</th>' for s in systems)
    sub = '<th scope="col">errors</th><th scope="col">cost</th>' * len(systems)
    costs = [printed_costs(s["errors"]["steps"]) for s in systems]
    rows = []
    for k, label in enumerate(legend["labels"]):
        cells = []
        for system, cost in zip(systems, costs):
            cells.append(
                f'<td data-key="errors.{k}">{system["errors"]["counts"][k]}</td><td>{cost[k]}</td>'
            )
        rows.append(f'<tr><th scope="row">{_e(label)}</th>{"".join(cells)}</tr>')
    base = "".join(
        f'<td colspan="2">{pct(s["errors"]["steps"][0])} → {pct(s["errors"]["steps"][-1])}</td>'
        for s in systems
    )
    rows.append(f'<tr class="conll"><th scope="row">CoNLL F1</th>{base}</tr>')
    kinds = "".join(f'<th scope="col">{_e(t)}</th>' for t in legend["mention_types"])
    details = []
    for system in systems:
        body = "".join(
            f'<tr><th scope="row">{_e(label)}</th>'
            + "".join(f"<td>{n}</td>" for n in system["errors"]["by_type"][k])
            + "</tr>"
            for k, label in enumerate(legend["labels"])
        )
        details.append(
            f"<details><summary>{_e(system['name'])}: errors by mention type</summary>"
            f'<table class="by-type"><thead><tr><th scope="col">category</th>{kinds}</tr>'
            f"</thead><tbody>{body}</tbody></table></details>"
        )
    return (
        '<section aria-labelledby="errors-title"><h2 id="errors-title">Errors</h2>'
        '<p class="note">The error categories of Kummerfeld &amp; Klein (2013), as the Berkeley '
        "Coreference Analyser counts them (<code>corefscore analyze errors</code>; response "
        "singletons removed first). Cost: the CoNLL points gained by correcting the category "
        "after the ones above it; the last row, the CoNLL F1 before and after every "
        "correction.</p>"
        '<div class="scroll-x"><table class="errors" id="error-totals"><thead>'
        f'<tr><th scope="col" rowspan="2">category</th>{top}</tr><tr>{sub}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>{''.join(details)}"
        '<figure><div id="error-chart"></div><figcaption>Errors by category, every system'
        "</figcaption></figure>"
        '<h3>Errors per document</h3><p class="note">Of the system selected above; open a '
        "document to see its errors in the viewer.</p>"
        '<div class="scroll"><table id="error-documents" class="documents"></table></div>'
        "</section>"
    )


def render_html(data: Mapping[str, Any]) -> str:
    """The page for data gathered by ``collect_report``."""
    systems = data["systems"]
    signatures = list(dict.fromkeys(s["signature"] for s in systems))
    signature_html = "".join(f"<code>{_e(s)}</code>" for s in signatures)
    boot = data["bootstrap"]
    ci_note = (
        f"Intervals: percentile bootstrap over documents, {boot['n']} resamples, "
        f"{boot['ci']:g}% level, seed {boot['seed'] if boot['seed'] is not None else 'none'}."
        if boot
        else "No bootstrap intervals (--bootstrap 0)."
    )
    warnings = ""
    if data["warnings"]:
        items = "".join(f"<li>{_e(w)}</li>" for w in data["warnings"])
        warnings = (
            f'<details class="warnings"><summary>{len(data["warnings"])} warning(s)'
            f"</summary><ul>{items}</ul></details>"
        )
    options = "".join(
        f'<option value="{k}">{_e(s["name"])}</option>' for k, s in enumerate(systems)
    )
    metric_options = "".join(
        f'<option value="{k}">{_e(data["labels"][m])}</option>'
        for k, m in enumerate(data["metrics"])
    )
    tables = "".join(_summary_table(s, data) for s in systems)
    key = f" against key <code>{_e(data['key'])}</code>" if data["key"] else ""
    return _page().substitute(
        title=_e(data["title"]),
        version=_e(data["version"]),
        count=len(data["documents"]),
        systems=len(systems),
        key=key,
        signatures=signature_html,
        ci_note=_e(ci_note),
        warnings=warnings,
        summary=tables,
        comparison=_comparison_html(data),
        errors=_errors_html(data),
        text_note=""
        if data.get("text", True)
        else (
            '<p class="note">This report holds no text of the corpus (--no-text): '
            "tokens are shown as dots.</p>"
        ),
        options=options,
        metric_options=metric_options,
        css=_template("report.css"),
        js=_template("report.js"),
        data=_embed(data),
    )
