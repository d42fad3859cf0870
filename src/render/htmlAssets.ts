/**
 * Static CSS and script of `report.html`. Constants only: no run data is ever interpolated here, so
 * the script cannot be steered by an answer's text. The page's CSP allows inline code and nothing else.
 */

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export const REPORT_CSS = `
:root { --pass: #2da44e; --fail: #cf222e; --error: #bc4c00; --skip: #8c959f; --unsure: #9a6700; --ink: #1f2328; --muted: #656d76; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.meta, .note { color: var(--muted); }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 16px 0; }
.card { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 14px; min-width: 92px; }
.card b { display: block; font-size: 20px; }
.card.alarm { border-color: var(--fail); color: var(--fail); }
.banner.simulator { background: #fff8c5; border: 2px solid #d4a72c; border-radius: 6px; padding: 8px 12px; font-size: 1.05em; }
dl.provenance { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; font-size: 0.9em; }
dl.provenance dt { color: var(--muted); } dl.provenance dd { margin: 0; }
.verdict { border-left: 6px solid var(--pass); padding: 6px 14px; background: #f6fff8; }
.verdict .label { font-size: 20px; font-weight: 700; margin: 4px 0; color: var(--pass); }
.verdict.failed { border-color: var(--fail); background: #fff5f5; } .verdict.failed .label { color: var(--fail); }
.verdict.cancelled { border-color: var(--skip); background: #f6f8fa; } .verdict.cancelled .label { color: var(--muted); }
.verdict.no_threshold, .verdict.none { border-color: #bf8700; background: #fffbea; } .verdict.no_threshold .label { color: #9a6700; }
p.cause { border-left: 6px solid var(--fail); background: #fff5f5; padding: 8px 12px; font-size: 1.05em; }
ul.error-groups li { color: var(--error); margin: 4px 0; }
.verdict ul.reasons li { color: var(--fail); } .verdict ul.warnings li, .warn { color: #9a6700; }
article.review { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 14px; margin: 10px 0; }
article.review.regressed { border-left: 6px solid var(--fail); } article.review.fixed { border-left: 6px solid var(--pass); }
article.review h3 { font-size: 15px; margin: 4px 0; } .id { font-family: ui-monospace, monospace; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; }
.side h4 { margin: 6px 0 4px; font-size: 13px; }
.side pre, .expected { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: 6px 8px; border-radius: 4px; font: 13px/1.4 system-ui, sans-serif; margin: 0; }
ul.grades { padding-left: 18px; margin: 6px 0; } ul.grades li.ok b { color: var(--pass); } ul.grades li.ko b { color: var(--fail); } ul.grades li.unsure b { color: var(--unsure); }
.rule { color: var(--muted); font-size: 12px; }
.person { border-left: 4px solid var(--ink); background: #f6f8fa; padding: 4px 10px; margin: 6px 0; border-radius: 4px; }
.person.pass b { color: var(--pass); } .person.fail b { color: var(--fail); } .person .who { color: var(--muted); }
.person-note { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0 0; } .graders-said { margin: 8px 0 0; font-weight: 600; color: var(--muted); }
.turns { margin: 4px 0 8px; color: #424a53; } .turns ol { margin: 4px 0; }
td.down { color: var(--fail); font-weight: 600; } td.up { color: var(--pass); font-weight: 600; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
.chart .bar { fill: #0969da; } .chart .axis { stroke: var(--muted); }
.chart .tick { font-size: 10px; fill: var(--muted); } .chart .chart-title { font-size: 12px; font-weight: 600; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: 4px 6px; text-align: left; vertical-align: top; }
#rows th { cursor: pointer; user-select: none; white-space: nowrap; }
#rows th[aria-sort=ascending]::after { content: " ▲"; } #rows th[aria-sort=descending]::after { content: " ▼"; }
#rows td.text { max-width: 36em; white-space: pre-wrap; overflow-wrap: anywhere; }
#rows { table-layout: fixed; }
#rows th { box-sizing: border-box; overflow: hidden; text-overflow: ellipsis; } #rows td { overflow-wrap: anywhere; }
/* At 1280 px the answer gets ~345 px (about 50 characters a line); the last column takes what is left (16 %). */
#rows th:nth-child(1) { width: 3%; } #rows th:nth-child(2) { width: 4.5%; } #rows th:nth-child(3) { width: 6%; }
#rows th:nth-child(4) { width: 7%; } #rows th:nth-child(5) { width: 13%; } #rows th:nth-child(6) { width: 28%; }
#rows th:nth-child(7) { width: 12%; } #rows th:nth-child(8) { width: 5.5%; } #rows th:nth-child(9) { width: 5%; }
.o-passed { color: var(--pass); } .o-failed { color: var(--fail); font-weight: 600; } .o-uncertain { color: var(--unsure); font-weight: 600; }
.o-error, .o-timed_out { color: var(--error); font-weight: 600; } .o-skipped, .o-answered { color: var(--skip); }
.regressed { background: #fff8c5; }
.stack { display: flex; height: 10px; width: 200px; background: #eaeef2; border-radius: 3px; overflow: hidden; }
.stack .p { background: var(--pass); } .stack .f { background: var(--fail); }
.controls { display: flex; gap: 8px; align-items: center; margin-bottom: 8px; }
`;

/** Filter by text and outcome, sort by clicking a header (numeric where the header says `data-num`). */
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var table = document.getElementById('rows');
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
  var query = document.getElementById('q');
  var outcome = document.getElementById('o');
  var count = document.getElementById('count');
  function apply() {
    var text = query.value.toLowerCase();
    var want = outcome.value;
    var shown = 0;
    rows.forEach(function (r, i) {
      var okOutcome = !want || r.getAttribute('data-outcome') === want || (want === 'regressed' && r.hasAttribute('data-regressed'));
      var ok = okOutcome && (!text || texts[i].indexOf(text) !== -1);
      r.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' rows';
  }
  function key(row, col, numeric) {
    var cell = row.cells[col];
    var v = cell ? (cell.getAttribute('data-v') || cell.textContent) : '';
    if (!numeric) return v.toLowerCase();
    var n = parseFloat(v);
    return isNaN(n) ? -Infinity : n;
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    th.addEventListener('click', function () {
      var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      var numeric = th.hasAttribute('data-num');
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
      var order = rows.map(function (r, i) { return i; });
      order.sort(function (a, b) {
        var x = key(rows[a], col, numeric), y = key(rows[b], col, numeric);
        return (x < y ? -1 : x > y ? 1 : a - b) * dir;
      });
      var fragment = document.createDocumentFragment();
      order.forEach(function (i) { fragment.appendChild(rows[i]); });
      body.appendChild(fragment);
    });
  });
  query.addEventListener('input', apply);
  outcome.addEventListener('change', apply);
  apply();
})();
`;
