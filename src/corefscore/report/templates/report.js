/* corefscore's HTML report: the page's script. html.py inserts it verbatim
   into the last <script> element of report.html, after dropping this comment.
   It has no placeholders, so braces and dollar signs need no escaping, but it
   must never contain a closing script tag. It reads the report's data from the
   JSON <script id="data"> element and requests nothing over the network. */

(function () {
"use strict";
var D = JSON.parse(document.getElementById("data").textContent);
var PALETTE = ["#1c71d8", "#e66100", "#26a269", "#9141ac", "#c64600", "#0e7c86", "#a51d2d",
  "#63452c", "#986a44", "#3d3846", "#2a7f62", "#865e3c", "#5e5c64", "#b5835a", "#613583"];
var SYSTEM_COLOURS = ["#1c71d8", "#e66100", "#26a269", "#9141ac", "#a51d2d", "#0e7c86"];
var NS = "http://www.w3.org/2000/svg";  // the SVG namespace name, never fetched
var metrics = D.metrics, docs = D.documents, systems = D.systems;
// A report without text (--no-text) holds the number of tokens, not the words.
docs.forEach(function (doc) {
  if (typeof doc.tokens === "number") doc.tokens = new Array(doc.tokens).fill("\u00b7");
});
var E = D.errors;  // the error categories' names, or null
function hasErrors(s) { return E !== null && s.errors !== null; }
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
  // A plot's root scales down with its box (narrow screens) and keeps its shape.
  if (tag === "svg" && attrs && attrs.width && !attrs.viewBox) {
    node.setAttribute("viewBox", "0 0 " + attrs.width + " " + attrs.height);
  }
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

// ------------------------------------------------------------------ errors
function errorChart() {
  var box = document.getElementById("error-chart");
  if (!box) return;
  var shown = systems.filter(hasErrors);
  // The legend has a column of its own on the right, clear of the bars.
  var w = 640, h = 260, left = 44, bottom = 52, n = E.categories.length, legendW = 120;
  var top = Math.max(1, Math.max.apply(null, shown.map(function (s) {
    return Math.max.apply(null, s.errors.counts); })));
  var root = svg("svg", {width: w, height: h, role: "img",
    "aria-label": "errors by category, every system"});
  axes(root, w - legendW, h, left, bottom, "", "errors");
  var plotW = w - legendW - left - 10, plotH = h - bottom - 14, bw = plotW / n;
  root.appendChild(svg("text", {x: left - 4, y: 18, "text-anchor": "end"}, String(top)));
  E.labels.forEach(function (name, c) {
    name.split(" ").forEach(function (part, line) {
      root.appendChild(svg("text", {x: left + (c + 0.5) * bw, y: h - bottom + 13 + 12 * line,
        "text-anchor": "middle"}, part));
    });
  });
  shown.forEach(function (s, k) {
    var sw = (bw - 6) / shown.length, colour = SYSTEM_COLOURS[systems.indexOf(s) %
      SYSTEM_COLOURS.length];
    s.errors.counts.forEach(function (count, c) {
      var bh = plotH * count / top;
      var rect = svg("rect", {x: left + c * bw + 3 + k * sw, y: h - bottom - bh, width: sw,
        height: bh, fill: colour, "data-category": E.categories[c]});
      rect.appendChild(svg("title", {}, s.name + ": " + count + " " + E.labels[c]));
      root.appendChild(rect);
    });
    root.appendChild(svg("rect", {x: w - legendW + 6, y: 12 + 14 * k, width: 10, height: 10,
      fill: colour}));
    root.appendChild(svg("text", {x: w - legendW + 20, y: 21 + 14 * k}, s.name));
  });
  box.replaceChildren(root);
}
function errorDocuments() {
  var table = document.getElementById("error-documents");
  if (!table) return;
  var s = systems[current];
  table.replaceChildren();
  if (!hasErrors(s)) return;
  var head = el("tr", {}, [el("th", {scope: "col"}, ["document"])].concat(
    E.labels.map(function (name) { return el("th", {scope: "col"}, [name]); })));
  var body = el("tbody");
  docs.forEach(function (doc, d) {
    var counts = s.errors.per_document[d];
    if (!counts) return;
    var button = el("button", {type: "button", class: "doc", "data-doc": String(d),
      "aria-label": "open document " + doc.id + " at its errors"}, [doc.id]);
    button.addEventListener("click", function () { openDocument(d, button, "errors"); });
    body.appendChild(el("tr", {"data-doc": String(d)}, [el("th", {scope: "row"}, [button])]
      .concat(counts.map(function (n) { return el("td", {}, [String(n)]); }))));
  });
  table.appendChild(el("thead", {}, [head]));
  table.appendChild(body);
}
function errorList(d) {
  var s = systems[current], doc = docs[d];
  var items = s.errors.items[d].map(function (e) {
    var where = e[1].map(function (m) {
      return "\u201c" + words(doc, m) + "\u201d (tokens " + m[0] + "\u2013" + m[1] + ")";
    }).join(", ");
    return el("li", {"data-category": E.categories[e[0]]}, [E.labels[e[0]] + " (" +
      E.mention_types[e[2]] + "): " + where]);
  });
  var box = listSection("Errors (Kummerfeld & Klein)", items, "none");
  box.id = "viewer-errors";
  return box;
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
      listSection("Merged response entities", merged, "none")].concat(
      hasErrors(s) ? [errorList(d)] : [])),
    el("h3", {text: "CEAF-e alignment: \u03a6* = " + phi[0].toFixed(3) + ", recall " +
      pct(phi[1] ? phi[0] / phi[1] : 0) + ", precision " + pct(phi[2] ? phi[0] / phi[2] : 0)}),
    el("div", {class: "alignment"}, [alignmentSvg(doc, view)])]);
}
var dialog = document.getElementById("viewer");
var body = document.getElementById("viewer-body");
function openDocument(d, from, at) {
  if (from) opener = from;
  openDoc = d;
  document.getElementById("viewer-title").textContent = docs[d].id + " \u2014 " +
    systems[current].name + " (" + (d + 1) + " of " + docs.length + ")";
  body.replaceChildren(buildDocument(d));
  document.getElementById("previous").disabled = d === 0;
  document.getElementById("next").disabled = d === docs.length - 1;
  if (!dialog.open) dialog.showModal();
  document.getElementById("close").focus();
  var errorsBox = document.getElementById("viewer-errors");
  if (at === "errors" && errorsBox) errorsBox.scrollIntoView();
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
  errorDocuments();
  if (openDoc >= 0) openDocument(openDoc);
});
document.getElementById("plot-metric").addEventListener("change", scatter);
var f1Index = metrics.indexOf("ceafe");
if (f1Index >= 0) document.getElementById("plot-metric").value = String(f1Index);
buildTable();
histogram();
scatter();
if (E !== null) { errorChart(); errorDocuments(); }
document.body.setAttribute("data-ready", "true");
})();
