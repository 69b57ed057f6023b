# ruff: noqa: E501  (style sheet and script text: long lines read better than split ones)
"""The report's inline style sheet and script (the page loads nothing from anywhere).

The script reads two JSON blocks written by :mod:`sqlequiv.report.html`
(``sqe-config`` and ``sqe-entries``) and builds the list of failures with the
DOM API only (``textContent``, never ``innerHTML``), so text that came from a
model stays text.
"""

from __future__ import annotations

#: Categorical colours for causes and error kinds, in order of first use.
PALETTE: tuple[str, ...] = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#59a14f",
    "#b07aa1",
    "#76b7b2",
    "#b6992d",
    "#d4728a",
    "#9c755f",
    "#499894",
    "#79706e",
    "#d37295",
)

STATUS_COLORS: dict[str, str] = {
    "pass": "#1a7f37",
    "proved": "#116329",
    "unrefuted": "#56b870",
    "fail": "#cf222e",
    "unknown": "#bf8700",
    "error": "#8250df",
    "anomaly": "#6e7781",
}

CSS = """
:root {
  --fg: #1f2328; --muted: #59636e; --faint: #8c959f; --line: #d1d9e0; --soft: #eef1f4;
  --bg: #f6f8fa; --card: #fff; --accent: #0969da;
  --pass: #1a7f37; --fail: #cf222e; --unknown: #bf8700; --error: #8250df; --anomaly: #6e7781;
  --missing: #fff1c2; --missing-line: #d4a72c; --extra: #ffe1e1; --extra-line: #e5534b;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, .mono { font-family: var(--mono); font-size: 12.5px; }
header.top { background: #24292f; color: #fff; padding: 22px 0 18px; }
header.top .wrap { display: flex; flex-wrap: wrap; gap: 6px 24px; align-items: baseline; }
header.top h1 { margin: 0; font-size: 22px; font-weight: 650; letter-spacing: -0.01em; }
header.top .meta { color: #c9d1d9; font-size: 12.5px; }
header.top .meta code { color: #e6edf3; background: rgba(255,255,255,.08); padding: 1px 6px;
  border-radius: 4px; word-break: break-all; }
.wrap { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
nav.toc { position: sticky; top: 0; z-index: 5; background: rgba(246,248,250,.94);
  border-bottom: 1px solid var(--line); backdrop-filter: blur(4px); }
nav.toc .wrap { display: flex; gap: 4px 18px; flex-wrap: wrap; padding-top: 8px; padding-bottom: 8px;
  font-size: 13px; }
main { padding: 18px 0 40px; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: 18px 22px 20px; margin: 0 0 18px; }
section.card > h2 { margin: 0 0 12px; font-size: 17px; font-weight: 650; }
h3 { font-size: 14.5px; margin: 18px 0 8px; font-weight: 650; }
h4 { font-size: 13px; margin: 14px 0 6px; font-weight: 650; color: var(--muted);
  text-transform: uppercase; letter-spacing: .04em; }
p.note, .note { color: var(--muted); font-size: 13px; margin: 6px 0; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(330px, 1fr)); gap: 18px 28px; }
.kpis { display: grid; grid-template-columns: minmax(270px, 1.25fr) 4fr; gap: 14px; align-items: stretch; }
.kpis .minor { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 14px; }
@media (max-width: 820px) { .kpis { grid-template-columns: 1fr; } }
.kpi { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; background: #fcfdfd; }
.kpi .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .05em; }
.kpi .value { font-size: 28px; font-weight: 680; line-height: 1.15; margin-top: 2px;
  font-variant-numeric: tabular-nums; }
.kpi .sub { color: var(--muted); font-size: 12.5px; margin-top: 2px; }
.kpi.main .value { font-size: 40px; color: var(--pass); }
.kpi.main .ci { font-size: 14px; margin-top: 2px; }
.kpi.main .ci b { font-variant-numeric: tabular-nums; }
.kpi .value.fail { color: var(--fail); } .kpi .value.error { color: var(--error); }
.kpi .value.unknown { color: var(--unknown); } .kpi .value.anomaly { color: var(--anomaly); }
.kpi .value.zero { color: var(--faint); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12.5px; color: var(--muted);
  margin-top: 6px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px;
  vertical-align: -1px; }
svg { max-width: 100%; height: auto; display: block; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
svg a text { fill: var(--accent); }
svg a:hover text { text-decoration: underline; }
table.data { border-collapse: collapse; width: 100%; font-size: 13px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { text-align: left; padding: 5px 10px 5px 0; border-bottom: 1px solid var(--soft);
  vertical-align: middle; }
table.data th { color: var(--muted); font-weight: 600; font-size: 12px; border-bottom-color: var(--line); }
table.data td.num, table.data th.num { text-align: right; padding-right: 14px; }
table.data td.plot { width: 240px; padding-right: 0; }
.scroll { overflow-x: auto; }
.pill { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: 12px; line-height: 20px;
  background: var(--soft); color: var(--fg); white-space: nowrap; }
.pill.win { background: #dafbe1; color: #116329; font-weight: 600; }
.pill.nowin { background: #eef1f4; color: var(--muted); font-weight: 600; }
.callout { border-left: 3px solid var(--accent); background: #f1f8ff; padding: 8px 12px; border-radius: 0 6px 6px 0;
  margin: 10px 0; font-size: 13.5px; }
.metric { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin: 12px 0 0; }
.metric .head { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: baseline; }
.metric .head b { font-size: 14.5px; }
.metric .nums { display: flex; flex-wrap: wrap; gap: 2px 22px; font-size: 13px; color: var(--muted); margin: 4px 0; }
.metric .nums b { color: var(--fg); font-variant-numeric: tabular-nums; }
.empty { color: var(--muted); font-style: italic; }
/* failures */
.controls { display: flex; flex-wrap: wrap; gap: 10px 14px; align-items: center; margin: 4px 0 10px; }
.controls input[type=search] { flex: 1 1 340px; font: inherit; font-size: 14px; padding: 7px 11px;
  border: 1px solid var(--line); border-radius: 7px; background: #fff; min-width: 0; }
.controls input[type=search]:focus { outline: 2px solid #54aeff66; border-color: var(--accent); }
.controls button, .chip { font: inherit; font-size: 12.5px; border: 1px solid var(--line); background: #fff;
  color: var(--fg); border-radius: 999px; padding: 3px 10px; cursor: pointer; }
.controls button:hover, .chip:hover { border-color: var(--faint); }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 0 0 10px; }
.chip { display: inline-flex; align-items: center; gap: 6px; }
.chip .dot { width: 9px; height: 9px; border-radius: 50%; background: var(--c, var(--faint)); }
.chip .n { color: var(--muted); font-variant-numeric: tabular-nums; }
.chip[aria-pressed=true] { background: var(--fg); color: #fff; border-color: var(--fg); }
.chip[aria-pressed=true] .n { color: #d0d7de; }
.chip.zero { opacity: .45; }
#match-count { color: var(--muted); font-size: 13px; }
.help { color: var(--faint); font-size: 12px; }
#entry-list { border-top: 1px solid var(--line); }
details.entry { border-bottom: 1px solid var(--line); }
details.entry > summary { list-style: none; cursor: pointer; padding: 7px 4px; display: flex; gap: 10px;
  align-items: baseline; min-width: 0; }
details.entry > summary::-webkit-details-marker { display: none; }
details.entry > summary::before { content: "\\25B8"; color: var(--faint); width: 10px; flex: none; }
details.entry[open] > summary::before { content: "\\25BE"; }
details.entry > summary:hover { background: #f6f8fa; }
.badge { flex: none; display: inline-block; font-size: 11.5px; font-weight: 600; padding: 0 7px; line-height: 19px;
  border-radius: 4px; color: #fff; background: var(--c, var(--faint)); white-space: nowrap; }
.eid { font-family: var(--mono); font-weight: 600; white-space: nowrap; }
.sample { color: var(--muted); font-family: var(--mono); white-space: nowrap; }
.tag { flex: none; font-size: 11.5px; color: var(--muted); border: 1px solid var(--line); border-radius: 4px;
  padding: 0 5px; white-space: nowrap; }
.sdetail { color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0;
  flex: 1 1 auto; }
.body { padding: 2px 4px 16px 24px; }
.body .detail { margin: 4px 0 8px; font-size: 13.5px; }
dl.kv { display: flex; flex-wrap: wrap; align-items: baseline; gap: 3px 0; margin: 6px 0; font-size: 12.5px; }
dl.kv dt { color: var(--muted); margin: 0 5px 0 0; }
dl.kv dd { margin: 0 18px 0 0; word-break: break-word; font-weight: 500; }
pre.sql { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 9px 12px; margin: 4px 0;
  white-space: pre-wrap; word-break: break-word; }
.box { border-radius: 6px; padding: 8px 12px; margin: 6px 0; font-size: 13px; }
.box.err { background: #fbefff; border: 1px solid #d8b9ff; }
.box.anom { background: #f6f8fa; border: 1px solid var(--line); }
.tables.results { margin-top: 12px; }
.tables { display: flex; flex-wrap: wrap; gap: 12px 22px; align-items: flex-start; }
.tables figure { margin: 0; max-width: 100%; overflow-x: auto; }
.tables figcaption { font-size: 12.5px; font-weight: 600; margin-bottom: 3px; }
.tables figcaption span { color: var(--muted); font-weight: 400; }
table.rows { border-collapse: collapse; font-family: var(--mono); font-size: 12px; }
table.rows th, table.rows td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; white-space: pre; }
table.rows th { background: var(--soft); font-weight: 600; }
table.rows tr.missing td { background: var(--missing); }
table.rows tr.missing td:first-child { box-shadow: inset 3px 0 var(--missing-line); }
table.rows tr.extra td { background: var(--extra); }
table.rows tr.extra td:first-child { box-shadow: inset 3px 0 var(--extra-line); }
table.rows td.none { color: var(--faint); text-align: center; font-style: italic; }
.null { color: var(--faint); font-style: italic; }
.key { display: inline-block; width: 11px; height: 11px; border-radius: 2px; vertical-align: -1px; margin-right: 4px; }
.key.missing { background: var(--missing); border: 1px solid var(--missing-line); }
.key.extra { background: var(--extra); border: 1px solid var(--extra-line); }
#show-more { margin: 12px 0 0; }
footer { color: var(--faint); font-size: 12px; padding: 0 0 30px; }
@media (max-width: 640px) { .wrap { padding: 0 12px; } section.card { padding: 14px; } .kpi.main .value { font-size: 32px; } }
@media print {
  body { background: #fff; font-size: 12px; }
  header.top { background: #fff; color: #000; border-bottom: 2px solid #000; padding: 8px 0; }
  header.top .meta, header.top .meta code { color: #333; background: none; }
  nav.toc, .controls, .chips, #show-more, .no-print { display: none !important; }
  section.card { border: none; padding: 0; margin: 0 0 16px; }
  section.card.small { break-inside: avoid; }
  details.entry { break-inside: avoid; }
  details.entry > summary::before { content: ""; }
  .sdetail { white-space: normal; }
  a { color: inherit; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""

JS = r"""
(function () {
  'use strict';
  function readJSON(id) {
    var node = document.getElementById(id);
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (err) { return null; }
  }
  var cfg = readJSON('sqe-config') || {};
  var entries = readJSON('sqe-entries') || [];
  var list = document.getElementById('entry-list');
  if (!list) return;
  var colors = cfg.colors || {};
  var PAGE = cfg.page_size || 200;
  var MAX_CELLS = cfg.max_cells || 400;
  var input = document.getElementById('search');
  var chipsBox = document.getElementById('chips');
  var countEl = document.getElementById('match-count');
  var moreBtn = document.getElementById('show-more');
  var section = document.getElementById('failures');
  var state = { q: '', cats: new Set(), limit: PAGE, open: new Set(), openAll: false };

  function lc(v) { return String(v == null ? '' : v).toLowerCase(); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = String(text);
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function colorOf(cat) { return colors[cat] || colors[String(cat).split(':')[0]] || '#8c959f'; }
  function badge(cat) {
    var b = el('span', 'badge', cat);
    b.style.setProperty('--c', colorOf(cat));
    return b;
  }
  function metaText(v) {
    if (v == null) return '';
    if (Array.isArray(v)) return v.map(metaText).join(', ');
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  }

  // ---- search index ------------------------------------------------------
  var knownFields = new Set(['id', 'sample', 'status', 'cause', 'method', 'sql', 'detail', 'error',
                             'reference', 'fixture', 'realism']);
  entries.forEach(function (e) {
    var f = {
      id: lc(e.id), sample: lc(e.sample), status: lc(e.status), cause: lc(e.category),
      method: lc(e.method), sql: lc(e.sql), detail: lc(e.detail),
      error: lc(e.error ? (e.error.kind || '') + ' ' + (e.error.message || '') : ''),
      reference: lc(e.matched_reference), fixture: lc(e.ce ? e.ce.name : ''),
      realism: lc(e.realism)
    };
    var meta = e.meta || {};
    Object.keys(meta).forEach(function (k) {
      var key = lc(k);
      if (!(key in f)) { f[key] = lc(metaText(meta[k])); knownFields.add(key); }
    });
    var parts = [f.id, f.id + '/' + f.sample, f.status, f.cause, f.method, f.sql, f.detail, f.error,
                 f.reference, f.fixture, f.realism ? 'realism:' + f.realism : ''];
    Object.keys(meta).forEach(function (k) { parts.push(lc(k) + ':' + lc(metaText(meta[k]))); });
    if (e.anomaly) parts.push(lc(metaText(e.anomaly)));
    if (e.predicate) parts.push(lc(metaText(e.predicate)));
    if (e.ce && e.ce.detail) parts.push(lc(e.ce.detail));
    e._fields = f;
    e._hay = parts.join('\n');
  });

  function parseQuery(q) {
    var terms = [];
    var re = /(-?)(?:([A-Za-z_][\w.-]*):)?(?:"([^"]*)"|(\S+))/g;
    var m;
    while ((m = re.exec(q)) !== null) {
      var field = m[2] ? m[2].toLowerCase() : null;
      var text = m[3] != null ? m[3] : m[4];
      if (field && !knownFields.has(field)) { text = field + ':' + text; field = null; }
      text = text.toLowerCase();
      if (!text) continue;
      terms.push({ neg: m[1] === '-', field: field, text: text });
    }
    return terms;
  }
  function matchesText(e, terms) {
    for (var i = 0; i < terms.length; i++) {
      var t = terms[i];
      var hay = t.field ? e._fields[t.field] : e._hay;
      var hit = hay != null && hay.indexOf(t.text) >= 0;
      if (hit === t.neg) return false;
    }
    return true;
  }

  // ---- cells and tables --------------------------------------------------
  function cell(tr, v, tag) {
    var td = el(tag || 'td');
    if (v === null || v === undefined) { td.appendChild(el('span', 'null', 'NULL')); }
    else if (typeof v === 'object') { td.textContent = JSON.stringify(v); }
    else { td.textContent = String(v); }
    tr.appendChild(td);
    return td;
  }
  function rowTable(columns, rows, marks) {
    var t = el('table', 'rows');
    var width = columns.length || (rows.length ? rows[0].length : 0);
    var head = add(add(t, el('thead')), el('tr'));
    for (var c = 0; c < width; c++) add(head, el('th', null, columns[c] != null ? columns[c] : 'col' + (c + 1)));
    var body = add(t, el('tbody'));
    if (!rows.length) {
      var td = add(add(body, el('tr')), el('td', 'none', 'no rows'));
      td.colSpan = Math.max(width, 1);
    }
    var shown = Math.max(1, Math.floor(MAX_CELLS / Math.max(width, 1)));
    rows.slice(0, shown).forEach(function (row, i) {
      var tr = add(body, el('tr', marks && marks[i] ? marks[i] : null));
      for (var c2 = 0; c2 < width; c2++) cell(tr, row[c2]);
    });
    if (rows.length > shown) {
      var more = add(add(body, el('tr')), el('td', 'none', '\u2026 ' + (rows.length - shown) + ' more rows'));
      more.colSpan = Math.max(width, 1);
    }
    return t;
  }
  function objectTable(rows) {
    var cols = [];
    var seen = new Set();
    rows.forEach(function (r) {
      Object.keys(r || {}).forEach(function (k) { if (!seen.has(k)) { seen.add(k); cols.push(k); } });
    });
    return rowTable(cols, rows.map(function (r) { return cols.map(function (k) { return r ? r[k] : null; }); }));
  }
  function markRows(rows, wanted, cls) {
    var counts = new Map();
    (wanted || []).forEach(function (r) { var k = JSON.stringify(r); counts.set(k, (counts.get(k) || 0) + 1); });
    var marks = [];
    var found = 0;
    rows.forEach(function (r, i) {
      var k = JSON.stringify(r);
      var n = counts.get(k) || 0;
      if (n > 0) { marks[i] = cls; counts.set(k, n - 1); found++; }
    });
    return { marks: marks, found: found };
  }
  function figure(parent, caption, note, table) {
    var f = add(parent, el('figure'));
    var cap = add(f, el('figcaption', null, caption));
    if (note) { cap.appendChild(document.createTextNode(' ')); add(cap, el('span', null, note)); }
    f.appendChild(table);
    return f;
  }
  function plural(n, word) {
    if (n === 1) return n + ' ' + word;
    return n + ' ' + (/y$/.test(word) ? word.slice(0, -1) + 'ies' : word + 's');
  }
  function kv(dl, key, value) {
    if (value == null || value === '') return;
    add(dl, el('dt', null, key));
    add(dl, el('dd', null, value));
  }

  function buildBody(e, body) {
    if (e.detail) add(body, el('p', 'detail', e.detail));
    var dl = add(body, el('dl', 'kv'));
    kv(dl, 'status', e.status + (e.proved === true ? ' (proved)' : ''));
    kv(dl, 'method', e.method);
    kv(dl, 'reference kind', e.reference_kind);
    kv(dl, 'matched reference', e.matched_reference);
    kv(dl, 'duplicate of sample', e.duplicate_of);
    var meta = e.meta || {};
    Object.keys(meta).forEach(function (k) { kv(dl, k, metaText(meta[k])); });
    if (e.error) {
      var box = add(body, el('div', 'box err'));
      var where = e.error.line != null ? ' (line ' + e.error.line + (e.error.col != null ? ', col ' + e.error.col : '') + ')' : '';
      add(box, el('b', null, 'Error ' + (e.error.kind || '') + (e.error.side ? ' on the ' + e.error.side + ' side' : '') + where + ': '));
      box.appendChild(document.createTextNode(e.error.message || ''));
    }
    if (e.anomaly) {
      var abox = add(body, el('div', 'box anom'));
      add(abox, el('b', null, 'Item anomaly ' + (e.anomaly.kind || '') + ': '));
      abox.appendChild(document.createTextNode(e.anomaly.detail || e.anomaly.message || metaText(e.anomaly)));
    }
    if (e.predicate) {
      add(body, el('h4', null, 'Predicate'));
      var pdl = add(body, el('dl', 'kv'));
      Object.keys(e.predicate).forEach(function (k) { kv(pdl, k, metaText(e.predicate[k])); });
    }
    if (e.sql != null) {
      add(body, el('h4', null, 'Candidate SQL'));
      add(add(body, el('pre', 'sql')), el('code', null, e.sql));
    }
    var ce = e.ce;
    if (ce) {
      add(body, el('h4', null, 'Counterexample' + (ce.name ? ': ' + ce.name : '')));
      if (ce.detail && ce.detail !== e.detail) add(body, el('p', 'detail', ce.detail));
      if (ce.realism) {
        var words = {on_data: 'the queries differ on your data itself',
                     realistic: 'every fact your data shows holds here',
                     edge: 'needs what your data never shows: ' + (ce.breaks || []).join('; ')};
        add(body, el('p', 'detail', 'realism: ' + ce.realism + ' (' + (words[ce.realism] || '') + ')'));
      }
      var tables = ce.tables || {};
      var names = Object.keys(tables);
      if (names.length) {
        var db = add(body, el('div', 'tables db'));
        names.forEach(function (name) {
          var rows = tables[name] || [];
          var total = (ce.table_sizes && ce.table_sizes[name]) || rows.length;
          figure(db, name, plural(total, 'row') + (total > rows.length ? ', first ' + rows.length + ' shown' : ''), objectTable(rows));
        });
      }
      var hasCand = ce.candidate_rows != null;
      var hasRef = ce.reference_rows != null;
      if (hasCand || hasRef) {
        var res = add(body, el('div', 'tables results'));
        var extra = { marks: [], found: 0 };
        var missing = { marks: [], found: 0 };
        if (hasCand) {
          extra = markRows(ce.candidate_rows, ce.extra_rows, 'extra');
          figure(res, 'Candidate result', plural(ce.candidate_rows.length, 'row') +
                 (extra.found ? ', ' + extra.found + ' extra' : ''),
                 rowTable(ce.candidate_columns || [], ce.candidate_rows, extra.marks));
        }
        if (hasRef) {
          missing = markRows(ce.reference_rows, ce.missing_rows, 'missing');
          figure(res, 'Reference result', plural(ce.reference_rows.length, 'row') +
                 (missing.found ? ', ' + missing.found + ' missing from the candidate' : ''),
                 rowTable(ce.reference_columns || [], ce.reference_rows, missing.marks));
        }
        var lost = [];
        if ((ce.missing_rows || []).length > missing.found) lost.push(['Rows missing from the candidate', ce.missing_rows, 'missing', ce.reference_columns]);
        if ((ce.extra_rows || []).length > extra.found) lost.push(['Extra rows in the candidate', ce.extra_rows, 'extra', ce.candidate_columns]);
        lost.forEach(function (x) {
          figure(res, x[0], plural(x[1].length, 'row'), rowTable(x[3] || [], x[1], x[1].map(function () { return x[2]; })));
        });
        if ((ce.missing_rows || []).length || (ce.extra_rows || []).length) {
          var lg = add(body, el('div', 'legend'));
          var a = add(lg, el('span'));
          add(a, el('span', 'key missing'));
          a.appendChild(document.createTextNode('in the reference, missing from the candidate'));
          var b = add(lg, el('span'));
          add(b, el('span', 'key extra'));
          b.appendChild(document.createTextNode('extra in the candidate'));
        }
      }
    }
    var refs = e.references || [];
    if (refs.length) {
      add(body, el('h4', null, 'Accepted references'));
      var t = add(add(body, el('div', 'scroll')), el('table', 'data'));
      var hr = add(add(t, el('thead')), el('tr'));
      ['reference', 'verdict', 'method', 'cause', 'fixture', 'detail'].forEach(function (h) { add(hr, el('th', null, h)); });
      var tb = add(t, el('tbody'));
      refs.forEach(function (r) {
        var tr = add(tb, el('tr'));
        [r.name, r.verdict, r.method, r.cause, r.fixture, r.detail].forEach(function (v) { add(tr, el('td', null, v == null ? '' : v)); });
      });
    }
  }

  function entryNode(e) {
    var d = el('details', 'entry');
    d.setAttribute('data-key', e.key);
    d.setAttribute('data-status', e.status);
    d.setAttribute('data-cause', e.category);
    var s = add(d, el('summary'));
    s.appendChild(badge(e.category));
    add(s, el('span', 'eid', e.id));
    add(s, el('span', 'sample', '#' + e.sample));
    if (e.label) add(s, el('span', 'tag', e.label));
    add(s, el('span', 'sdetail', e.summary || ''));
    var body = add(d, el('div', 'body'));
    d._sqeBuild = function () { if (!body.firstChild) buildBody(e, body); };
    d.addEventListener('toggle', function () {
      if (d.open) {
        if (!body.firstChild) buildBody(e, body);
        state.open.add(e.key);
      } else {
        state.open.delete(e.key);
      }
    });
    if (state.openAll || state.open.has(e.key)) { buildBody(e, body); d.open = true; }
    return d;
  }

  // ---- chips ----------------------------------------------------------------
  var cats = [];
  var catCount = new Map();
  entries.forEach(function (e) {
    if (!catCount.has(e.category)) { catCount.set(e.category, 0); cats.push(e.category); }
    catCount.set(e.category, catCount.get(e.category) + 1);
  });
  var order = cfg.category_order || [];
  cats.sort(function (a, b) {
    var ia = order.indexOf(a), ib = order.indexOf(b);
    if (ia < 0) ia = 1e9;
    if (ib < 0) ib = 1e9;
    return ia - ib || catCount.get(b) - catCount.get(a) || (a < b ? -1 : a > b ? 1 : 0);
  });
  var chipNodes = new Map();
  var allChip = null;
  if (chipsBox) {
    allChip = add(chipsBox, el('button', 'chip'));
    allChip.type = 'button';
    allChip.appendChild(document.createTextNode('all'));
    allChip.addEventListener('click', function () { state.cats.clear(); changed(true); });
    cats.forEach(function (cat) {
      var c = add(chipsBox, el('button', 'chip'));
      c.type = 'button';
      c.setAttribute('data-cause', cat);
      c.style.setProperty('--c', colorOf(cat));
      add(c, el('span', 'dot'));
      c.appendChild(document.createTextNode(cat));
      var n = add(c, el('span', 'n', ''));
      c.addEventListener('click', function () {
        if (state.cats.has(cat)) state.cats.delete(cat); else state.cats.add(cat);
        changed(true);
      });
      chipNodes.set(cat, { node: c, n: n });
    });
  }

  // ---- rendering -----------------------------------------------------------
  function render() {
    var terms = parseQuery(state.q);
    var textHits = entries.filter(function (e) { return matchesText(e, terms); });
    var perCat = new Map();
    textHits.forEach(function (e) { perCat.set(e.category, (perCat.get(e.category) || 0) + 1); });
    var matched = state.cats.size ? textHits.filter(function (e) { return state.cats.has(e.category); }) : textHits;
    chipNodes.forEach(function (v, cat) {
      var n = perCat.get(cat) || 0;
      v.n.textContent = String(n);
      v.node.setAttribute('aria-pressed', state.cats.has(cat) ? 'true' : 'false');
      v.node.classList.toggle('zero', n === 0);
    });
    if (allChip) allChip.setAttribute('aria-pressed', state.cats.size ? 'false' : 'true');
    list.textContent = '';
    var frag = document.createDocumentFragment();
    var shown = Math.min(state.limit, matched.length);
    for (var i = 0; i < shown; i++) frag.appendChild(entryNode(matched[i]));
    list.appendChild(frag);
    if (!matched.length) list.appendChild(el('p', 'empty', entries.length ? 'No entry matches the filter.' : 'Nothing to list: every graded pair passed.'));
    list.setAttribute('data-matched', String(matched.length));
    list.setAttribute('data-shown', String(shown));
    countEl.textContent = matched.length === entries.length && !state.cats.size && !terms.length
      ? plural(entries.length, 'entry')
      : matched.length + ' of ' + plural(entries.length, 'entry') + ' match' + (shown < matched.length ? ' (' + shown + ' shown)' : '');
    if (moreBtn) {
      moreBtn.hidden = shown >= matched.length;
      moreBtn.textContent = 'Show ' + Math.min(PAGE, matched.length - shown) + ' more (' + (matched.length - shown) + ' not shown)';
    }
  }

  function readHash() {
    var h = location.hash.replace(/^#/, '');
    if (h.indexOf('=') < 0) return false;
    var p;
    try { p = new URLSearchParams(h); } catch (err) { return false; }
    if (!p.has('q') && !p.has('cause') && !p.has('open')) return false;
    state.q = p.get('q') || '';
    state.cats = new Set((p.get('cause') || '').split(',').filter(Boolean));
    var open = p.get('open') || '';
    state.openAll = open === 'all';
    state.open = new Set(open && open !== 'all' ? open.split(',') : []);
    state.limit = PAGE;
    if (input) { input.value = state.q; input.setAttribute('value', state.q); }
    return true;
  }
  function writeHash() {
    var p = new URLSearchParams();
    if (state.q) p.set('q', state.q);
    if (state.cats.size) p.set('cause', Array.from(state.cats).join(','));
    var s = p.toString();
    try { history.replaceState(null, '', s ? '#' + s : location.pathname + location.search); } catch (err) { /* file: URLs in some browsers */ }
  }
  var timer = null;
  function changed(now) {
    state.limit = PAGE;
    writeHash();
    if (timer) clearTimeout(timer);
    if (now || entries.length < 3000) render(); else timer = setTimeout(render, 120);
  }

  if (input) {
    input.addEventListener('input', function () { state.q = input.value; changed(false); });
    input.addEventListener('keydown', function (ev) {
      if (ev.key === 'Escape') { input.value = ''; state.q = ''; changed(true); }
    });
  }
  document.addEventListener('keydown', function (ev) {
    if (ev.key === '/' && input && document.activeElement !== input && !ev.ctrlKey && !ev.metaKey) {
      ev.preventDefault(); input.focus(); input.select();
    }
  });
  if (moreBtn) moreBtn.addEventListener('click', function () { state.limit += PAGE; render(); });
  var expand = document.getElementById('expand-all');
  if (expand) expand.addEventListener('click', function () { state.openAll = true; render(); });
  var collapse = document.getElementById('collapse-all');
  if (collapse) collapse.addEventListener('click', function () { state.openAll = false; state.open.clear(); render(); });
  window.addEventListener('hashchange', function () {
    if (readHash()) { render(); if (section) section.scrollIntoView(); }
  });
  window.addEventListener('beforeprint', function () {
    Array.prototype.forEach.call(list.querySelectorAll('details.entry'), function (d) {
      if (d._sqeBuild) d._sqeBuild();
      d.open = true;
    });
  });

  var fromHash = readHash();
  render();
  if (fromHash && section) section.scrollIntoView();
  document.documentElement.setAttribute('data-report-ready', 'true');
})();
"""
