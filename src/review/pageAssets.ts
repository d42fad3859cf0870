/**
 * The review page: static HTML, CSS and script served by `sitechat review`. Constants only — no row text and no token
 * is ever interpolated here: the script takes the token from the URL's fragment (src/shared/serverGuard.ts), fetches the queue as JSON
 * and puts every text in the page with `textContent`, so an answer (untrusted text from the site) is shown, never run.
 * The CSP allows this origin's script and style only.
 */
import { FORBIDDEN_CHARACTER } from '../datasets/encoding';

export const REVIEW_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page: the same for every request, with nothing of a run or of the token in it. */
export const REVIEW_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>sitechat review</title><link rel="stylesheet" href="/review.css"></head>
<body>
<header>
  <h1>sitechat review <span id="run" class="id"></span></h1>
  <div id="progress" aria-live="polite">loading…</div>
  <div id="runs"></div>
</header>
<div id="errors" hidden><span id="error-text"></span> <button id="retry" type="button">Retry failed saves</button></div>
<main id="row" aria-live="polite"></main>
<section id="note-box"><label for="note">Note (optional, saved with the next pass/fail)</label>
<textarea id="note" rows="2" placeholder="press n to write; Esc to leave the note"></textarea>
<p id="note-error" role="alert" hidden></p></section>
<details id="agreement"><summary>Grader agreement with the labels (<span id="agreement-count">…</span>)</summary>
<p id="agreement-supported"></p>
<table><thead><tr><th>grader</th><th>rows</th><th>decided</th><th>coverage</th><th>agreement</th><th>false fails</th><th>false passes</th></tr></thead><tbody id="agreement-rows"></tbody></table>
<p class="hint">The same figures as <code>npx sitechat labels agreement --run</code>: each grader on the labelled rows of this review.</p>
</details>
<footer id="keys">
  <b>Keys</b>: <kbd>p</kbd> pass · <kbd>f</kbd> fail · <kbd>s</kbd> skip · <kbd>n</kbd> note ·
  <kbd>j</kbd>/<kbd>→</kbd> next · <kbd>k</kbd>/<kbd>←</kbd> previous. Saving happens in the background; the next row appears at once.
</footer>
<script src="/review.js"></script>
</body></html>
`;

export const REVIEW_CSS = `
:root { --pass: #2da44e; --fail: #cf222e; --unsure: #9a6700; --ink: #1f2328; --muted: #656d76; --line: #d0d7de; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0 auto; padding: 16px 24px 90px; max-width: 1100px; }
h1 { font-size: 20px; margin: 0 0 4px; } .id { font-family: ui-monospace, monospace; font-size: 14px; color: var(--muted); }
#progress { font-weight: 600; margin: 4px 0; }
#runs { display: flex; flex-wrap: wrap; gap: 8px; margin: 6px 0 12px; }
.run { border: 1px solid var(--line); border-left: 6px solid var(--muted); border-radius: 6px; padding: 4px 10px; font-size: 13px; }
.run.passed { border-left-color: var(--pass); } .run.failed { border-left-color: var(--fail); } .run.no_threshold { border-left-color: #bf8700; }
.run .verdict { font-weight: 700; }
#errors { background: #fff5f5; border: 1px solid var(--fail); color: var(--fail); padding: 6px 10px; border-radius: 6px; margin-bottom: 8px; }
main { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-height: 240px; }
.tag { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; margin-right: 6px; background: #eaeef2; }
.tag.uncertain { background: #fff8c5; color: var(--unsure); } .tag.regressed, .tag.failed { background: #ffebe9; color: var(--fail); }
.tag.spot-check { background: #ddf4ff; color: #0969da; } .tag.settled { background: #dafbe1; color: var(--pass); } .tag.saving { background: #eaeef2; }
h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 12px 0 4px; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: 6px 10px; border-radius: 4px; margin: 0; }
.question { font-size: 17px; font-weight: 600; white-space: pre-wrap; overflow-wrap: anywhere; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; }
ul { padding-left: 18px; margin: 4px 0; } li.pass b { color: var(--pass); } li.fail b { color: var(--fail); } li.uncertain b { color: var(--unsure); }
.turn { color: var(--muted); font-size: 14px; margin: 2px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.decision { margin-top: 10px; font-size: 14px; }
.person { border-left: 4px solid var(--ink); background: #f6f8fa; padding: 6px 12px; margin: 10px 0; border-radius: 4px; }
.person.pass b { color: var(--pass); } .person.fail b { color: var(--fail); } .person .who { color: var(--muted); }
.person-note { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0 0; } .no-note { color: var(--muted); margin: 4px 0 0; }
.graders-said { font-weight: 600; margin: 2px 0; }
#note-box { margin: 10px 0; } #note-box label { font-size: 13px; color: var(--muted); display: block; }
#note { width: 100%; box-sizing: border-box; font: inherit; }
#note-error { color: var(--fail); margin: 4px 0 0; }
#agreement { margin: 10px 0; font-size: 13px; } #agreement table { border-collapse: collapse; }
#agreement th, #agreement td { border-bottom: 1px solid var(--line); padding: 2px 8px; text-align: left; }
footer#keys { position: fixed; bottom: 0; left: 0; right: 0; background: #f6f8fa; border-top: 1px solid var(--line); padding: 8px 24px; font-size: 14px; }
kbd { border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 5px; font: 13px ui-monospace, monospace; background: #fff; }
.done { font-size: 18px; color: var(--pass); }
`;

export const REVIEW_JS = `
'use strict';
(function () {
  // The token, from the URL's fragment (#token=…): kept in memory and sent as a header, never in a cookie or storage,
  // which other servers of this host could read. The fragment stays in the address bar, so a reload keeps working.
  var token = (/(?:^#|&)token=([^&]+)/.exec(location.hash) || [])[1];
  // The characters a label file's import refuses (datasets/encoding.ts): a note holding one is not sent.
  var FORBIDDEN = new RegExp(${JSON.stringify(FORBIDDEN_CHARACTER.source)}, 'u');
  var state = { items: [], runs: [], index: 0, runId: '' };
  var failed = [];
  var pending = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function section(parent, title, body) {
    parent.appendChild(el('h2', '', title));
    parent.appendChild(body);
  }
  function api(method, path, body) {
    var init = { method: method, headers: { 'X-Review-Token': token }, credentials: 'omit' };
    if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (json) {
        if (!res.ok) throw new Error((json && json.error) || ('HTTP ' + res.status));
        return json;
      });
    });
  }
  function pct(rate) { return rate === null || rate === undefined ? 'n/a' : (rate * 100).toFixed(1) + ' %'; }
  var VERDICT = { passed: 'PASSED', failed: 'FAILED', cancelled: 'CANCELLED', no_threshold: 'NO THRESHOLD' };

  function renderRuns() {
    var box = document.getElementById('runs');
    box.textContent = '';
    state.runs.forEach(function (r) {
      var card = el('div', 'run ' + (r.verdict || 'none'));
      card.setAttribute('data-run', r.runId);
      card.appendChild(el('span', 'site', 'site ' + r.siteId + ': '));
      card.appendChild(el('span', 'verdict', VERDICT[r.verdict] || 'no verdict'));
      card.appendChild(el('span', '', ' · pass rate ' + pct(r.passRate) + ' · ' + r.uncertain + ' uncertain · reviewed: ' + rows(r.reviewed) + ' settled by labels'));
      if (r.reasons && r.reasons.length) card.title = r.reasons.join('\\n');
      box.appendChild(card);
    });
  }
  function settledCount() { return state.items.filter(function (i) { return i.label; }).length; }
  function renderProgress() {
    var text = settledCount() + ' of ' + state.items.length + ' settled';
    if (pending) text += ' · saving ' + pending + '…';
    document.getElementById('progress').textContent = text;
  }
  function renderErrors() {
    var box = document.getElementById('errors');
    box.hidden = failed.length === 0;
    if (failed.length) document.getElementById('error-text').textContent = failed.length + ' save(s) failed: ' + failed[failed.length - 1].error;
  }
  function gradeList(row) {
    var list = el('ul');
    (row.assertions || []).forEach(function (a) {
      var kind = a.uncertain ? 'uncertain' : (a.pass ? 'pass' : 'fail');
      var li = el('li', kind);
      li.appendChild(el('b', '', a.type + ' ' + kind + ': '));
      li.appendChild(document.createTextNode(a.reason || ''));
      list.appendChild(li);
    });
    if (!list.childNodes.length) list.appendChild(el('li', '', 'no assertions'));
    return list;
  }
  // A row a person settled: "Decided by a person: pass", who and when, the note (the server writes the words).
  function personBox(person) {
    var box = el('div', 'person ' + person.verdict);
    box.id = 'person';
    box.appendChild(el('b', '', person.head));
    box.appendChild(el('span', 'who', ' ' + person.facts));
    box.appendChild(person.note === undefined ? el('p', 'no-note', 'no note') : el('p', 'person-note', person.note));
    return box;
  }
  function render() {
    renderProgress();
    renderRuns();
    var main = document.getElementById('row');
    main.textContent = '';
    var item = state.items[state.index];
    if (!item) {
      main.appendChild(el('p', 'done', state.items.length ? 'End of the queue: every row shown.' : 'Nothing to review in this run.'));
      return;
    }
    var row = item.row;
    main.setAttribute('data-row', item.rowId);
    main.setAttribute('data-run', item.runId);
    var head = el('div');
    head.appendChild(el('span', 'tag ' + item.reason, item.reason));
    if (item.label) head.appendChild(el('span', 'tag settled', 'settled: ' + item.label.verdict + (item.label.by ? ' by ' + item.label.by : '')));
    if (item.saving) head.appendChild(el('span', 'tag saving', 'saving…'));
    head.appendChild(el('span', 'id', (state.index + 1) + '/' + state.items.length + ' · site ' + item.siteId + ' · row ' + item.rowId));
    main.appendChild(head);
    if (item.priorTurns && item.priorTurns.length) {
      var turns = el('div');
      item.priorTurns.forEach(function (t) {
        turns.appendChild(el('p', 'turn', 'Q: ' + t.question));
        turns.appendChild(el('p', 'turn', 'A: ' + (t.answer === undefined ? '(no answer)' : t.answer)));
      });
      section(main, 'Earlier turns', turns);
    }
    section(main, 'Question', el('p', 'question', row.question));
    var refs = el('p', 'text', row.expected || '(no references)');
    refs.id = 'references';
    section(main, 'References', refs);
    var compare = el('div', 'compare');
    var now = el('div');
    var answer = el('pre', 'text', row.answer === undefined ? '(no answer: ' + (row.error || row.outcome) + ')' : row.answer);
    answer.id = 'answer';
    section(now, 'Answer', answer);
    compare.appendChild(now);
    var base = el('div');
    var baseText = item.baseline ? (item.baseline.answer === undefined ? '(no answer)' : item.baseline.answer) : '(no baseline row)';
    section(base, 'Baseline answer' + (item.baseline ? ' (' + item.baseline.outcome + ', ' + item.baseline.runId + ')' : ''), el('pre', 'text', baseText));
    compare.appendChild(base);
    main.appendChild(compare);
    var person = item.person;
    if (person) main.appendChild(personBox(person));
    if (person && person.graders) {
      main.appendChild(el('h2', '', 'What the graders said'));
      var said = el('p', 'graders-said', person.graders);
      said.id = 'graders-said';
      main.appendChild(said);
      if (person.gradersRan) main.appendChild(gradeList(row));
    } else section(main, 'Graders', gradeList(row));
    var d = row.decision;
    var decision = el('p', 'decision', 'Outcome: ' + row.outcome + (d ? ' · decided by ' + d.by + ' (' + d.verdict + '): ' + d.reason : '') +
      (row.feedback ? ' · feedback: ' + row.feedback : ''));
    decision.id = 'decision';
    main.appendChild(decision);
    if (item.feedbackMessage) main.appendChild(el('p', 'decision', item.feedbackMessage));
  }
  function nextUnsettled(from) {
    for (var i = from; i < state.items.length; i++) if (!state.items[i].label) return i;
    return Math.min(from, state.items.length);
  }
  function feedbackText(fb) {
    if (!fb) return '';
    if (fb.state === 'started' || fb.state === 'already-started') return 'Feedback: going out (workflow ' + fb.workflowId + ').';
    if (fb.state === 'sent-before') return 'Feedback: the site got "' + fb.value + '" earlier; it is not sent again.';
    return 'Feedback: none (' + fb.why + ').';
  }
  function send(req) {
    pending++;
    req.item.saving = true;
    renderProgress();
    api('POST', '/api/labels', { runId: req.item.runId, rowId: req.item.rowId, verdict: req.verdict, note: req.note }).then(function (res) {
      req.item.saving = false;
      req.item.row = res.item.row;
      req.item.feedbackMessage = feedbackText(res.feedback);
      state.runs = state.runs.map(function (r) { return r.runId === res.run.runId ? res.run : r; });
      req.item.person = res.item.person;
      state.items.forEach(function (other) {
        if (other === req.item || other.labelKey !== req.item.labelKey || other.siteId !== req.item.siteId) return;
        other.label = res.item.label;
        // Its graders' view is its own: shown under "Graders" until the page loads again.
        other.person = Object.assign({}, res.item.person, { graders: '' });
      });
    }, function (err) {
      req.item.saving = false;
      req.error = err.message;
      failed.push(req);
    }).then(function () {
      pending--;
      renderErrors();
      render();
      if (pending === 0) loadAgreement();
    });
  }
  function noteProblem(note) {
    var found = FORBIDDEN.exec(note);
    if (!found) return '';
    var code = found[0].charCodeAt(0).toString(16).toUpperCase();
    while (code.length < 4) code = '0' + code;
    return 'Not saved: the note holds U+' + code + ' at character ' + (Array.from(note.slice(0, found.index)).length + 1) +
      ', a control character. A note may hold text, tabs and line breaks (as a label file may); edit it and press p or f again.';
  }
  function label(verdict) {
    var item = state.items[state.index];
    if (!item) return;
    var noteBox = document.getElementById('note');
    var note = noteBox.value.trim();
    var noteError = document.getElementById('note-error');
    noteError.textContent = noteProblem(note);
    noteError.hidden = !noteError.textContent;
    if (noteError.textContent) return;
    noteBox.value = '';
    // Optimistic: shown settled and the next row at once; the save goes on in the background.
    item.label = { verdict: verdict, note: note || undefined };
    send({ item: item, verdict: verdict, note: note || undefined });
    state.index = nextUnsettled(state.index + 1);
    render();
  }
  function rows(n) { return n + (n === 1 ? ' row' : ' rows'); }
  function ratio(x) { return x === null || x === undefined ? 'n/a' : x.toFixed(3); }
  function loadAgreement() {
    api('GET', '/api/agreement').then(function (a) {
      document.getElementById('agreement-count').textContent = rows(a.labelled) + ' labelled'
        + (a.moreNeeded > 0 ? '; too few to go by: label ' + a.moreNeeded + ' more (' + a.wanted + ' wanted) before changing a threshold on these figures' : '');
      // Under the labels wanted, a threshold they seem to support says nothing yet.
      document.getElementById('agreement-supported').textContent = a.moreNeeded > 0 ? ''
        : a.supported
        ? 'The labels support reference threshold ' + a.supported.threshold + ': agreement ' + ratio(a.supported.agreement) + ', deciding ' + pct(a.supported.coverage) + ' of the labelled rows (default ' + a.defaultThreshold + ').'
        : 'No reference threshold decides ' + pct(a.coverageFloor) + ' of the labelled rows yet.';
      var body = document.getElementById('agreement-rows');
      body.textContent = '';
      a.graders.forEach(function (g) {
        var tr = el('tr');
        [g.grader, g.rows, g.decided, pct(g.coverage), ratio(g.agreement), g.falseFails, g.falsePasses].forEach(function (v) { tr.appendChild(el('td', '', String(v))); });
        body.appendChild(tr);
      });
    }, function (err) {
      document.getElementById('agreement-count').textContent = 'not available: ' + err.message;
    });
  }
  function move(step) {
    state.index = Math.max(0, Math.min(state.items.length, state.index + step));
    render();
  }
  document.getElementById('retry').addEventListener('click', function () {
    var again = failed;
    failed = [];
    renderErrors();
    again.forEach(send);
  });
  var noteBox = document.getElementById('note');
  noteBox.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' || (e.key === 'Enter' && !e.shiftKey)) { e.preventDefault(); noteBox.blur(); }
  });
  document.addEventListener('keydown', function (e) {
    if (e.target === noteBox || e.ctrlKey || e.metaKey || e.altKey) return;
    var keys = { p: function () { label('pass'); }, f: function () { label('fail'); }, s: function () { move(1); },
      n: function () { noteBox.focus(); }, j: function () { move(1); }, ArrowRight: function () { move(1); },
      k: function () { move(-1); }, ArrowLeft: function () { move(-1); } };
    var action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  });
  if (!token) {
    document.getElementById('progress').textContent = 'No token in this address: open the URL that sitechat review printed (it ends in #token=…).';
    return;
  }
  api('GET', '/api/state').then(function (s) {
    state.items = s.items;
    state.runs = s.runs;
    state.runId = s.runId;
    document.getElementById('run').textContent = s.runId + (s.omitted ? ' (' + s.omitted + ' rows past the queue limit not shown)' : '');
    state.index = nextUnsettled(0);
    render();
    loadAgreement();
  }, function (err) {
    document.getElementById('progress').textContent = 'could not load the queue: ' + err.message;
  });
})();
`;
