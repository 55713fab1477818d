"""``corefscore report``: one self-contained HTML file to read, mail or archive.

The file holds everything it shows: CSS and JavaScript are inline, the data is
embedded once as JSON, the plots are SVG drawn by the page itself. It loads
nothing from anywhere, so it opens from a mail attachment or a paper's
artifacts without a server or a network.

What is computed here (in Python, at full precision) and only drawn by the
page: every system's corpus scores (micro and macro), bootstrap intervals,
per-document scores, and per document the twins (missed and spurious
mentions), split and merged entities, and the optimal CEAF-e alignment. A
document's viewer is built by the page only when that document is opened, so a
corpus of hundreds of documents stays quick to load.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..errors import UsageError
from ..model import Corpus, Document, Span
from .text import LABELS, pct

if TYPE_CHECKING:
    from ..matching import Twins
    from ..metrics.ceaf import EntityAlignment
    from ..regimes import EvaluationSetup
    from ..result import ScoreResult
    from ..stats import BootstrapResult

#: The alignment the viewer draws: the entity-based CEAF of the CoNLL score.
ALIGNMENT_METRIC = "ceafe"


@dataclass(frozen=True)
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
    metrics: Sequence[str] | None = None,
    duplicates: str = "default",
    setup: EvaluationSetup | None = None,
    bootstrap: int = 1000,
    ci: float = 95.0,
    seed: int | None = None,
    title: str | None = None,
) -> str:
    """The HTML text of a report on one or more systems scored against ``key``.

    ``responses`` maps each system's name to its corpus (or is a sequence of
    ``(name, corpus)``). ``bootstrap`` resamples give the ``ci`` % intervals
    (0 leaves intervals out); the same ``seed`` gives a byte-identical file.
    Read ``key`` with ``syntax=True`` so that the viewer shows its words.
    """
    return collect_report(
        key,
        responses,
        metrics=metrics,
        duplicates=duplicates,
        setup=setup,
        bootstrap=bootstrap,
        ci=ci,
        seed=seed,
        title=title,
    ).to_html()


def collect_report(
    key: Corpus,
    responses: Mapping[str, Corpus] | Iterable[tuple[str, Corpus]],
    *,
    metrics: Sequence[str] | None = None,
    duplicates: str = "default",
    setup: EvaluationSetup | None = None,
    bootstrap: int = 1000,
    ci: float = 95.0,
    seed: int | None = None,
    title: str | None = None,
) -> HtmlReport:
    """Score every system and gather what :func:`build_html_report` embeds."""
    from ..regimes import EvaluationSetup
    from ..scorer import alignments, find_twins, score_corpora
    from ..signature import make_signature
    from ..stats import bootstrap as bootstrap_intervals

    systems = list(responses.items() if isinstance(responses, Mapping) else responses)
    if not systems:
        raise UsageError("a report needs at least one response")
    names = [name for name, _ in systems]
    if len(set(names)) != len(names):
        raise UsageError(f"system names must differ, got {', '.join(names)}")
    if bootstrap < 0 or not 0 < ci < 100:
        raise UsageError("the bootstrap needs N >= 0 resamples and a level between 0 and 100")
    if not key.documents:
        raise UsageError("the key has no documents")
    setup = setup or EvaluationSetup()
    doc_ids = list(key.documents)
    warnings: list[str] = []
    system_data: list[dict[str, Any]] = []
    key_views: dict[str, dict[str, Any]] = {}
    metric_names: list[str] = []
    for name, response in systems:
        result = score_corpora(
            key,
            response,
            metrics=metrics,
            duplicates=duplicates,
            per_document=True,
            setup=setup,
        )
        warnings.extend(result.warnings)
        metric_names = list(result.metrics)
        intervals = None
        if bootstrap:
            assert result.document_statistics is not None
            intervals = bootstrap_intervals(
                result.document_statistics, metrics=metric_names, n=bootstrap, ci=ci, seed=seed
            )
        signature = make_signature(
            metrics=metric_names,
            duplicates=duplicates,
            setup=setup,
            bootstrap=(bootstrap, seed, ci) if bootstrap else None,
        )
        twins = find_twins(key, response, duplicates=duplicates, setup=setup)
        aligned = alignments(
            key, response, metric=ALIGNMENT_METRIC, duplicates=duplicates, setup=setup
        )
        views = []
        for doc_id in doc_ids:
            if doc_id not in key_views:
                key_views[doc_id] = _key_view(key.documents[doc_id], twins[doc_id], response)
            views.append(document_view(twins[doc_id], aligned[doc_id]))
        system_data.append(
            {
                "name": name,
                "source": _base(response.source),
                "signature": signature,
                **_scores(result, intervals, doc_ids),
                "views": views,
            }
        )
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
        "warnings": list(dict.fromkeys(warnings)),
    }
    return HtmlReport(data, tuple(data["warnings"]))


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


def _key_view(original: Document, twins: Twins, response: Corpus) -> dict[str, Any]:
    """A document's words, sentence starts and key mentions (shared by every system)."""
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
    tokens = list(words) if words is not None else [f"t{t}" for t in range(count)]
    # Mentions past the last word (malformed input) still get a token to sit on.
    tokens += [f"t{t}" for t in range(len(tokens), count)]
    starts = list(syntax.sentence_starts) if syntax is not None else []
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


def render_html(data: Mapping[str, Any]) -> str:
    """The page for data gathered by :func:`collect_report`."""
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
    return _PAGE.format(
        title=_e(data["title"]),
        version=_e(data["version"]),
        count=len(data["documents"]),
        systems=len(systems),
        key=key,
        signatures=signature_html,
        ci_note=_e(ci_note),
        warnings=warnings,
        summary=tables,
        options=options,
        metric_options=metric_options,
        css=_CSS,
        js=_JS,
        data=_embed(data),
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="corefscore {version}">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p>corefscore {version}: {count} document(s), {systems} system(s){key}.
Scores are percentages; micro = sums over documents, then ratios (the CoNLL convention);
macro = mean of the documents' scores.</p>
<div class="signature">Signature: {signatures}</div>
<p class="note">{ci_note}</p>
{warnings}
</header>
<main>
<section aria-labelledby="summary-title">
<h2 id="summary-title">Summary</h2>
<div class="summaries">{summary}</div>
</section>
<section aria-labelledby="plots-title">
<h2 id="plots-title">Plots</h2>
<p class="controls"><label>System shown in the plots and the viewer
<select id="system">{options}</select></label>
<label>Metric of the scatter plot <select id="plot-metric">{metric_options}</select></label></p>
<div class="plots"><figure><div id="histogram"></div><figcaption>Documents by F1
(histogram, all systems)</figcaption></figure>
<figure><div id="scatter"></div><figcaption>Recall and precision of each document
(selected system and metric)</figcaption></figure></div>
</section>
<section aria-labelledby="documents-title">
<h2 id="documents-title">Documents</h2>
<p class="note">F1 of every document. Sort with the column buttons; open a document
with its button (Enter or Space), close it with Escape.</p>
<div class="scroll"><table id="documents" class="documents"></table></div>
</section>
</main>
<dialog id="viewer" aria-labelledby="viewer-title">
<div class="viewer-bar"><h2 id="viewer-title">Document</h2>
<span class="spacer"></span>
<button type="button" id="previous" aria-label="previous document">&#8592; previous</button>
<button type="button" id="next" aria-label="next document">next &#8594;</button>
<button type="button" id="close" aria-label="close the document (Escape)">close &#215;</button>
</div>
<div id="viewer-body"></div>
</dialog>
<noscript><p>The plots, the document table and the viewer need JavaScript;
the summary above does not.</p></noscript>
<script type="application/json" id="data">{data}</script>
<script>{js}</script>
</body>
</html>
"""

_CSS = """
:root { --fg:#1d1d1d; --muted:#5e5e5e; --line:#d0d0d0; --focus:#1a5fb4;
  --missed:#c01c28; --spurious:#a05a00; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); margin: 0 1.5rem 2rem; }
h1 { font-size: 1.5rem; margin: 1rem 0 .3rem; } h2 { font-size: 1.2rem; margin: 1.4rem 0 .5rem; }
code { font-size: 12px; background: #f3f3f3; padding: 1px 4px; word-break: break-all; }
.signature code { display: block; margin: 2px 0; }
.note { color: var(--muted); }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: right; }
th[scope=row], caption, table.documents thead tr:last-child th:first-child { text-align: left; }
caption { font-weight: 600; padding: 4px 0; }
.summaries { display: flex; flex-wrap: wrap; gap: 1.5rem; }
td.ci { color: var(--muted); font-size: 12px; }
tr.conll { font-weight: 600; }
.scroll { overflow: auto; max-height: 70vh; border: 1px solid var(--line); }
table.documents thead th { position: sticky; top: 0; background: #fafafa; z-index: 1; }
table.documents thead tr + tr th { top: 26px; }
th button.sort { font: inherit; font-weight: 600; border: 0; background: none; cursor: pointer;
  padding: 2px 4px; }
th[aria-sort=ascending] button.sort::after { content: " \\25B2"; }
th[aria-sort=descending] button.sort::after { content: " \\25BC"; }
button.doc { font: inherit; white-space: nowrap; border: 0; background: none; color: var(--focus);
  text-decoration: underline; cursor: pointer; padding: 0; text-align: left; }
button, select { font: inherit; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.plots { display: flex; flex-wrap: wrap; gap: 1.5rem; }
figure { margin: 0; } figcaption { color: var(--muted); font-size: 12px; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
.controls label { margin-right: 1.5rem; }
dialog { width: 96vw; max-width: 96vw; height: 94vh; max-height: 94vh; padding: 0 1rem 1rem;
  border: 1px solid #888; }
dialog::backdrop { background: rgba(0,0,0,.35); }
.viewer-bar { display: flex; gap: .5rem; align-items: center; position: sticky; top: 0;
  background: #fff; padding: .5rem 0; z-index: 2; border-bottom: 1px solid var(--line); }
.viewer-bar h2 { margin: 0; font-size: 1.1rem; }
.spacer { flex: 1; }
.panels { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.panel h3, .doc-view h3 { font-size: 1rem; margin: .8rem 0 .3rem; }
.text { line-height: 2.1; max-height: 55vh; overflow: auto; border: 1px solid var(--line);
  padding: .4rem .6rem; }
.m { --c: #8a8a8a; border: 1px solid var(--c); border-radius: 3px; padding: 0 1px;
  background: color-mix(in srgb, var(--c) 13%, transparent); }
.m::before { content: "["; color: var(--c); font-weight: 700; }
.m > .lab { color: var(--c); font-size: 10px; font-weight: 700; vertical-align: sub; }
.m.unaligned { border-style: dotted; }
.m.missed { outline: 2px solid var(--missed); outline-offset: 1px; border-style: solid;
  background: repeating-linear-gradient(45deg, rgba(192,28,40,.16) 0 4px, transparent 4px 8px); }
.m.missed::before { content: "\\2717["; color: var(--missed); }
.m.spurious { outline: 2px dashed var(--spurious); outline-offset: 1px;
  background: repeating-linear-gradient(-45deg, rgba(160,90,0,.16) 0 4px, transparent 4px 8px); }
.m.spurious::before { content: "+["; color: var(--spurious); }
.m.hl { box-shadow: 0 0 0 3px var(--c); }
.legend { display: flex; flex-wrap: wrap; gap: 1rem; font-size: 12px; margin: .5rem 0; }
.lists { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 1rem; }
.lists ul { margin: 0; padding-left: 1.2rem; max-height: 12rem; overflow: auto; }
.scores td, .scores th { padding: 1px 6px; }
.alignment { max-height: 60vh; overflow: auto; border: 1px solid var(--line); }
.alignment line { stroke-width: 1.5; }
"""

_JS = r"""
(function () {
"use strict";
var D = JSON.parse(document.getElementById("data").textContent);
var PALETTE = ["#1c71d8", "#e66100", "#26a269", "#9141ac", "#c64600", "#0e7c86", "#a51d2d",
  "#63452c", "#986a44", "#3d3846", "#2a7f62", "#865e3c", "#5e5c64", "#b5835a", "#613583"];
var SYSTEM_COLOURS = ["#1c71d8", "#e66100", "#26a269", "#9141ac", "#a51d2d", "#0e7c86"];
var NS = "http://www.w3.org/2000/svg";  // the SVG namespace name, never fetched
var metrics = D.metrics, docs = D.documents, systems = D.systems;
var hasConll = systems.every(function (s) { return s.conll !== null; });
var current = 0, openDoc = -1, opener = null;

function el(tag, attrs, kids) {
  var node = document.createElement(tag);
  for (var k in attrs || {}) {
    if (k === "text") node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]);
  }
  (kids || []).forEach(function (c) {
    node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  });
  return node;
}
function svg(tag, attrs, text) {
  var node = document.createElementNS(NS, tag);
  for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
  if (text !== undefined) node.textContent = text;
  return node;
}
function pct(x) { return x === null || x === undefined ? "\u2013" : (100 * x).toFixed(2); }
function label(m) { return D.labels[m] || m; }
function docF1(system, d) {
  var row = system.per_document[d];
  return hasConll ? row[0] : row[1][0][2];
}
var F1_NAME = hasConll ? "CoNLL F1" : label(metrics[0]) + " F1";

// ------------------------------------------------------------------ documents table
var table = document.getElementById("documents");
var columns = [{name: "document", value: function (d) { return docs[d].id; }, text: true}];
systems.forEach(function (s, k) {
  if (hasConll) columns.push({system: k, name: "CoNLL", value: function (d) {
    return s.per_document[d][0]; }});
  metrics.forEach(function (m, j) {
    columns.push({system: k, name: label(m), value: function (d) {
      return s.per_document[d][1][j][2]; }});
  });
});
var sortState = {column: -1, descending: false};
var rows = [];
function buildTable() {
  var groups = el("tr", {}, [el("th", {scope: "col"}, [""])]);
  systems.forEach(function (s) {
    groups.appendChild(el("th", {scope: "colgroup", colspan: String(columns.length > 1 ?
      (metrics.length + (hasConll ? 1 : 0)) : 1), style: "text-align:center"}, [s.name]));
  });
  var head = el("tr");
  columns.forEach(function (c, k) {
    var who = c.system === undefined ? "" : " (" + systems[c.system].name + ")";
    var button = el("button", {type: "button", class: "sort", "data-column": String(k),
      "aria-label": "sort by " + c.name + who}, [c.name]);
    button.addEventListener("click", function () { sortBy(k); });
    head.appendChild(el("th", {scope: "col", "aria-sort": "none"}, [button]));
  });
  table.appendChild(el("thead", {}, systems.length > 1 ? [groups, head] : [head]));
  var body = el("tbody");
  docs.forEach(function (doc, d) {
    var button = el("button", {type: "button", class: "doc", "data-doc": String(d),
      "aria-label": "open document " + doc.id}, [doc.id]);
    button.addEventListener("click", function () { openDocument(d, button); });
    var tr = el("tr", {"data-doc": String(d)}, [el("th", {scope: "row"}, [button])]);
    columns.slice(1).forEach(function (c) { tr.appendChild(el("td", {}, [pct(c.value(d))])); });
    rows.push(tr);
    body.appendChild(tr);
  });
  table.appendChild(body);
}
function sortBy(k) {
  var descending = sortState.column === k ? !sortState.descending : false;
  sortState = {column: k, descending: descending};
  var c = columns[k];
  var order = docs.map(function (_, d) { return d; });
  order.sort(function (a, b) {
    var x = c.value(a), y = c.value(b), r;
    if (c.text) r = x < y ? -1 : x > y ? 1 : 0;
    else r = (x === null ? -1 : x) - (y === null ? -1 : y);
    return (descending ? -r : r) || a - b;
  });
  var body = table.tBodies[0];
  order.forEach(function (d) { body.appendChild(rows[d]); });
  table.querySelectorAll("thead th[aria-sort]").forEach(function (th, j) {
    th.setAttribute("aria-sort", j === k ? (descending ? "descending" : "ascending") : "none");
  });
}

// ------------------------------------------------------------------ plots
function axes(g, w, h, left, bottom, xLabel, yLabel) {
  g.appendChild(svg("line", {x1: left, y1: h - bottom, x2: w - 10, y2: h - bottom,
    stroke: "#333"}));
  g.appendChild(svg("line", {x1: left, y1: 10, x2: left, y2: h - bottom, stroke: "#333"}));
  g.appendChild(svg("text", {x: (left + w) / 2, y: h - 4, "text-anchor": "middle"}, xLabel));
  g.appendChild(svg("text", {x: 12, y: (h - bottom) / 2, transform: "rotate(-90 12 " +
    (h - bottom) / 2 + ")", "text-anchor": "middle"}, yLabel));
}
function histogram() {
  var w = 460, h = 240, left = 44, bottom = 36, bins = 10;
  var counts = systems.map(function (s) {
    var c = new Array(bins).fill(0);
    docs.forEach(function (_, d) {
      var f = docF1(s, d);
      if (f !== null) c[Math.min(bins - 1, Math.floor(f * bins))] += 1;
    });
    return c;
  });
  var top = Math.max(1, Math.max.apply(null, counts.map(function (c) {
    return Math.max.apply(null, c); })));
  var root = svg("svg", {width: w, height: h, role: "img",
    "aria-label": "histogram of " + F1_NAME + " per document"});
  axes(root, w, h, left, bottom, F1_NAME + " (%)", "documents");
  var plotW = w - left - 10, plotH = h - bottom - 14, bw = plotW / bins;
  for (var b = 0; b <= bins; b += 2) {
    root.appendChild(svg("text", {x: left + b * bw, y: h - bottom + 13, "text-anchor": "middle"},
      String(b * 10)));
  }
  root.appendChild(svg("text", {x: left - 4, y: 18, "text-anchor": "end"}, String(top)));
  counts.forEach(function (c, k) {
    var sw = (bw - 4) / systems.length;
    c.forEach(function (n, b) {
      var bh = plotH * n / top;
      var rect = svg("rect", {x: left + b * bw + 2 + k * sw, y: h - bottom - bh, width: sw,
        height: bh, fill: SYSTEM_COLOURS[k % SYSTEM_COLOURS.length]});
      rect.appendChild(svg("title", {}, systems[k].name + ": " + n + " document(s) with " +
        F1_NAME + " in [" + b * 10 + ", " + (b + 1) * 10 + ")"));
      root.appendChild(rect);
    });
    root.appendChild(svg("rect", {x: w - 120, y: 12 + 14 * k, width: 10, height: 10,
      fill: SYSTEM_COLOURS[k % SYSTEM_COLOURS.length]}));
    root.appendChild(svg("text", {x: w - 106, y: 21 + 14 * k}, systems[k].name));
  });
  var box = document.getElementById("histogram");
  box.replaceChildren(root);
}
function scatter() {
  var j = Number(document.getElementById("plot-metric").value);
  var s = systems[current], w = 300, h = 260, left = 44, bottom = 36;
  var size = Math.min(w - left - 10, h - bottom - 10);
  var root = svg("svg", {width: w, height: h, role: "img", "aria-label": "recall against " +
    "precision of each document, " + label(metrics[j]) + ", " + s.name});
  axes(root, left + size + 10, h, left, bottom, "recall (%)", "precision (%)");
  [0, 50, 100].forEach(function (v) {
    root.appendChild(svg("text", {x: left + size * v / 100, y: h - bottom + 13,
      "text-anchor": "middle"}, String(v)));
    root.appendChild(svg("text", {x: left - 4, y: h - bottom - size * v / 100 + 4,
      "text-anchor": "end"}, String(v)));
  });
  var colour = SYSTEM_COLOURS[current % SYSTEM_COLOURS.length];
  docs.forEach(function (doc, d) {
    var rp = s.per_document[d][1][j];
    var dot = svg("circle", {cx: left + size * rp[0], cy: h - bottom - size * rp[1], r: 3,
      fill: colour, "fill-opacity": 0.55});
    dot.appendChild(svg("title", {}, doc.id + ": R " + pct(rp[0]) + ", P " + pct(rp[1])));
    root.appendChild(dot);
  });
  root.appendChild(svg("text", {x: left + 6, y: 20}, label(metrics[j]) + ", " + s.name));
  document.getElementById("scatter").replaceChildren(root);
}

// ------------------------------------------------------------------ viewer
function pairIndex(view, keyCount, responseCount) {
  var key = new Array(keyCount).fill(null), response = new Array(responseCount).fill(null);
  view.alignment.forEach(function (p, k) { key[p[0]] = response[p[1]] = k; });
  return {key: key, response: response};
}
// Mentions may nest or even cross: a crossing one is closed and reopened as a
// continuation, so every mention still becomes one or more nested spans.
function renderText(doc, mentions, labels, pairOf, flags, side) {
  var colourOf = pairOf.map(function (k) {
    return k === null ? null : PALETTE[k % PALETTE.length];
  });
  var box = el("div", {class: "text", tabindex: "0", role: "region",
    "aria-label": side + " text of " + doc.id});
  var byStart = {};
  mentions.forEach(function (m, i) { (byStart[m[0]] = byStart[m[0]] || []).push(i); });
  var sentences = {};
  doc.sentences.forEach(function (t) { sentences[t] = true; });
  var stack = [];
  function parent() { return stack.length ? stack[stack.length - 1].node : box; }
  function open(i, continued) {
    var m = mentions[i], ent = m[2], classes = ["m"];
    var colour = colourOf[ent], pair = pairOf[ent];
    if (!colour) classes.push("unaligned");
    if (flags[i]) classes.push(flags[i]);
    var title = side + " entity " + labels[ent] + (flags[i] ? ", " + flags[i] +
      (flags[i] === "missed" ? " (no response twin)" : " (no key twin)") : "") +
      (colour ? "" : ", not aligned");
    var node = el("span", {class: classes.join(" "), "data-mention": String(i),
      "data-entity": String(ent), title: title});
    if (colour) {
      node.style.setProperty("--c", colour);
      node.setAttribute("data-pair", String(pair));
    }
    if (continued) node.classList.add("cont");
    parent().appendChild(node);
    stack.push({i: i, node: node});
  }
  for (var t = 0; t < doc.tokens.length; t++) {
    if (t > 0) parent().appendChild(document.createTextNode(" "));
    if (sentences[t] && t > 0) parent().appendChild(el("br"));
    (byStart[t] || []).forEach(function (i) { open(i, false); });
    parent().appendChild(document.createTextNode(doc.tokens[t]));
    for (;;) {
      var k = -1;
      for (var s = stack.length - 1; s >= 0; s--) {
        if (mentions[stack[s].i][1] === t) { k = s; break; }
      }
      if (k < 0) break;
      var above = stack.splice(k + 1), closing = stack.pop();
      closing.node.appendChild(el("span", {class: "lab", "aria-hidden": "true"},
        [labels[mentions[closing.i][2]] + "]"]));
      above.forEach(function (a) { open(a.i, true); });
    }
  }
  return box;
}
function words(doc, m) {
  var text = doc.tokens.slice(m[0], m[1] + 1).join(" ");
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}
function mentionItem(doc, m, labels) {
  return el("li", {}, ["\u201c" + words(doc, m) + "\u201d (tokens " + m[0] + "\u2013" + m[1] +
    ", entity " + labels[m[2]] + ")"]);
}
function entityText(doc, mentions, labels, ent) {
  var first = mentions.filter(function (m) { return m[2] === ent; });
  var n = first.length;
  return labels[ent] + (n ? " \u201c" + words(doc, first[0]).slice(0, 24) + "\u201d \u00d7" + n
    : "");
}
function listSection(title, items, empty) {
  return el("div", {}, [el("h3", {text: title + " (" + items.length + ")"}),
    items.length ? el("ul", {}, items) : el("p", {class: "note", text: empty})]);
}
function alignmentSvg(doc, view) {
  var keyCount = doc.key_labels.length, respCount = view.response_labels.length;
  // Entities in order of their first mention, so that crossing lines show reordering.
  function order(mentions, count) {
    var first = new Array(count).fill(Infinity);
    mentions.forEach(function (m, i) { if (first[m[2]] === Infinity) first[m[2]] = i; });
    return first.map(function (_, e) { return e; }).sort(function (a, b) {
      return first[a] - first[b] || a - b; });
  }
  var keyOrder = order(doc.key, keyCount), respOrder = order(view.response, respCount);
  var keyRow = {}, respRow = {};
  keyOrder.forEach(function (e, r) { keyRow[e] = r; });
  respOrder.forEach(function (e, r) { respRow[e] = r; });
  var rowH = 18, w = 760, boxW = 250, h = 30 + rowH * Math.max(keyCount, respCount, 1);
  var root = svg("svg", {width: w, height: h, role: "img", "aria-label": "CEAF-e alignment of " +
    doc.id + ": " + view.alignment.length + " aligned pairs", class: "alignment-svg"});
  root.appendChild(svg("text", {x: 4, y: 14, "font-weight": "bold"}, "key entities"));
  root.appendChild(svg("text", {x: w - boxW, y: 14, "font-weight": "bold"},
    "response entities (" + systems[current].name + ")"));
  var pairs = pairIndex(view, keyCount, respCount);
  function side(orderList, rowOf, x, mentions, labels, pairOf) {
    orderList.forEach(function (e) {
      var y = 22 + rowOf[e] * rowH;
      root.appendChild(svg("rect", {x: x, y: y, width: boxW, height: rowH - 3, rx: 3,
        fill: pairOf[e] === null ? "#eee" : PALETTE[pairOf[e] % PALETTE.length],
        "fill-opacity": pairOf[e] === null ? 1 : 0.18,
        stroke: pairOf[e] === null ? "#aaa" : PALETTE[pairOf[e] % PALETTE.length]}));
      root.appendChild(svg("text", {x: x + 4, y: y + 12},
        entityText(doc, mentions, labels, e)));
    });
  }
  side(keyOrder, keyRow, 2, doc.key, doc.key_labels, pairs.key);
  side(respOrder, respRow, w - boxW - 2, view.response, view.response_labels, pairs.response);
  view.alignment.forEach(function (p, k) {
    var y1 = 22 + keyRow[p[0]] * rowH + 7, y2 = 22 + respRow[p[1]] * rowH + 7;
    var line = svg("line", {x1: boxW + 2, y1: y1, x2: w - boxW - 2, y2: y2,
      stroke: PALETTE[k % PALETTE.length], class: "align-line"});
    line.appendChild(svg("title", {}, "key " + doc.key_labels[p[0]] + " \u2192 response " +
      view.response_labels[p[1]] + ": \u03c6 = " + p[2].toFixed(3)));
    root.appendChild(line);
    // At the response end: a response entity has at most one line, so labels never collide.
    root.appendChild(svg("text", {x: w - boxW - 6, y: y2 - 2, "text-anchor": "end",
      class: "phi"}, "\u03c6 " + p[2].toFixed(2)));
  });
  return root;
}
function scoreTable(d) {
  var s = systems[current], row = s.per_document[d];
  var body = metrics.map(function (m, j) {
    return el("tr", {}, [el("th", {scope: "row"}, [label(m)]), el("td", {}, [pct(row[1][j][0])]),
      el("td", {}, [pct(row[1][j][1])]), el("td", {}, [pct(row[1][j][2])])]);
  });
  if (row[0] !== null) body.push(el("tr", {}, [el("th", {scope: "row"}, ["CoNLL"]),
    el("td"), el("td"), el("td", {}, [pct(row[0])])]));
  return el("table", {class: "scores"}, [el("thead", {}, [el("tr", {}, ["metric", "R", "P",
    "F1"].map(function (h) { return el("th", {scope: "col"}, [h]); }))]),
    el("tbody", {}, body)]);
}
function buildDocument(d) {
  var doc = docs[d], s = systems[current], view = s.views[d];
  var keyFlags = {}, respFlags = {};
  view.missed.forEach(function (i) { keyFlags[i] = "missed"; });
  view.spurious.forEach(function (i) { respFlags[i] = "spurious"; });
  var pairs = pairIndex(view, doc.key_labels.length, view.response_labels.length);
  var legend = el("div", {class: "legend", "aria-label": "legend"}, [
    el("span", {}, [el("span", {class: "m", style: "--c:#1c71d8"}, ["aligned",
      el("span", {class: "lab"}, ["id]"])]), " same colour = entities paired by CEAF-e"]),
    el("span", {}, [el("span", {class: "m unaligned"}, ["unaligned", el("span", {class: "lab"},
      ["id]"])])]),
    el("span", {}, [el("span", {class: "m missed"}, ["missed", el("span", {class: "lab"},
      ["id]"])]), " key mention without a response twin"]),
    el("span", {}, [el("span", {class: "m spurious"}, ["spurious", el("span", {class: "lab"},
      ["id]"])]), " response mention without a key twin"])]);
  var keyPanel = el("div", {class: "panel"}, [el("h3", {text: "Key"}),
    renderText(doc, doc.key, doc.key_labels, pairs.key, keyFlags, "key")]);
  var respPanel = el("div", {class: "panel"}, [el("h3", {text: "Response: " + s.name}),
    renderText(doc, view.response, view.response_labels, pairs.response, respFlags,
      "response")]);
  var missed = view.missed.map(function (i) {
    return mentionItem(doc, doc.key[i], doc.key_labels); });
  var spurious = view.spurious.map(function (i) {
    return mentionItem(doc, view.response[i], view.response_labels); });
  var split = view.split.map(function (p) {
    return el("li", {}, ["key " + entityText(doc, doc.key, doc.key_labels, p[0]) +
      " \u2192 response " + p[1].map(function (r) { return view.response_labels[r]; })
      .join(", ")]); });
  var merged = view.merged.map(function (p) {
    return el("li", {}, ["response " + entityText(doc, view.response, view.response_labels, p[0]) +
      " \u2190 key " + p[1].map(function (k) { return doc.key_labels[k]; }).join(", ")]); });
  var phi = view.phi;
  return el("div", {class: "doc-view", "data-doc": String(d)}, [
    legend,
    el("div", {class: "panels"}, [keyPanel, respPanel]),
    el("div", {class: "lists"}, [el("div", {}, [el("h3", {text: "Scores of " + s.name}),
      scoreTable(d)]),
      listSection("Missed mentions", missed, "none"),
      listSection("Spurious mentions", spurious, "none"),
      listSection("Split key entities", split, "none"),
      listSection("Merged response entities", merged, "none")]),
    el("h3", {text: "CEAF-e alignment: \u03a6* = " + phi[0].toFixed(3) + ", recall " +
      pct(phi[1] ? phi[0] / phi[1] : 0) + ", precision " + pct(phi[2] ? phi[0] / phi[2] : 0)}),
    el("div", {class: "alignment"}, [alignmentSvg(doc, view)])]);
}
var dialog = document.getElementById("viewer");
var body = document.getElementById("viewer-body");
function openDocument(d, from) {
  if (from) opener = from;
  openDoc = d;
  document.getElementById("viewer-title").textContent = docs[d].id + " \u2014 " +
    systems[current].name + " (" + (d + 1) + " of " + docs.length + ")";
  body.replaceChildren(buildDocument(d));
  document.getElementById("previous").disabled = d === 0;
  document.getElementById("next").disabled = d === docs.length - 1;
  if (!dialog.open) dialog.showModal();
  document.getElementById("close").focus();
}
dialog.addEventListener("close", function () {
  body.replaceChildren();
  openDoc = -1;
  if (opener) opener.focus();
});
document.getElementById("close").addEventListener("click", function () { dialog.close(); });
document.getElementById("previous").addEventListener("click", function () {
  if (openDoc > 0) openDocument(openDoc - 1); });
document.getElementById("next").addEventListener("click", function () {
  if (openDoc < docs.length - 1) openDocument(openDoc + 1); });
body.addEventListener("click", function (event) {
  var m = event.target.closest(".m[data-entity]");
  if (!m) return;
  var on = !m.classList.contains("hl");
  body.querySelectorAll(".m.hl").forEach(function (n) { n.classList.remove("hl"); });
  if (!on) return;
  var pair = m.getAttribute("data-pair");
  var panel = m.closest(".text");
  body.querySelectorAll(".text .m").forEach(function (n) {
    var same = n.closest(".text") === panel ? n.dataset.entity === m.dataset.entity
      : pair !== null && n.getAttribute("data-pair") === pair;
    if (same) n.classList.add("hl");
  });
});
document.getElementById("system").addEventListener("change", function (event) {
  current = Number(event.target.value);
  scatter();
  if (openDoc >= 0) openDocument(openDoc);
});
document.getElementById("plot-metric").addEventListener("change", scatter);
var f1Index = metrics.indexOf("ceafe");
if (f1Index >= 0) document.getElementById("plot-metric").value = String(f1Index);
buildTable();
histogram();
scatter();
document.body.setAttribute("data-ready", "true");
})();
"""
