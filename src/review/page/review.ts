/**
 * The review page's script, served as /review.js by src/review/server.ts. Every text it shows (answers are untrusted:
 * they come from the site) goes in with `textContent`, so it is shown, never run. The shapes below are what the JSON
 * API sends (src/review/types.ts); this file is a classic script, so it declares them instead of importing them.
 */

interface Assertion { type: string; pass: boolean; uncertain?: boolean; reason?: string }
interface Turn { question: string; answer?: string }
interface Person { verdict: string; head: string; facts: string; note?: string; graders: string; gradersRan: boolean }
interface Row {
  question: string; expected?: string; answer?: string; error?: string; outcome: string; feedback?: string;
  assertions?: Assertion[]; decision?: { by: string; verdict: string; reason: string };
}
interface Item {
  runId: string; siteId: string; rowId: string; reason: string; row: Row; priorTurns?: Turn[];
  baseline?: { runId: string; answer?: string; outcome: string }; labelKey: string;
  label?: { verdict: string; note?: string; by?: string }; person?: Person;
  // Kept by the page only.
  saving?: boolean; feedbackMessage?: string;
}
interface Run { runId: string; siteId: string; verdict: string | null; passRate: number | null; uncertain: number; reviewed: number; reasons?: string[] }
interface Feedback { state: string; workflowId?: string; value?: string; why?: string }
interface Saved { item: Item; feedback: Feedback; run: Run }
interface State { items: Item[]; runs: Run[]; runId: string; omitted?: number }
interface Agreement {
  labelled: number; moreNeeded: number; wanted: number; defaultThreshold: number; coverageFloor: number;
  supported?: { threshold: number; agreement: number | null; coverage: number | null };
  graders: { grader: string; rows: number; decided: number; coverage: number | null; agreement: number | null; falseFails: number; falsePasses: number }[];
}
interface SaveRequest { item: Item; verdict: string; note?: string; error?: string }

(function () {
  'use strict';
  // The token, from the URL's fragment (#token=…): kept in memory and sent as a header, never in a cookie or storage,
  // which other servers of this host could read. The fragment stays in the address bar, so a reload keeps working.
  const token = (/(?:^#|&)token=([^&]+)/.exec(location.hash) || [])[1];
  // The characters a label file's import refuses (datasets/encoding.ts), in the page's data-forbidden: a note holding one is not sent.
  const FORBIDDEN = new RegExp(document.body.dataset.forbidden ?? '[]', 'u');
  const state: { items: Item[]; runs: Run[]; index: number; runId: string } = { items: [], runs: [], index: 0, runId: '' };
  let failed: SaveRequest[] = [];
  let pending = 0;

  /** The element of a fixed id of the page (src/review/pageAssets.ts). */
  function byId<T extends HTMLElement = HTMLElement>(id: string): T {
    return document.getElementById(id) as T;
  }
  function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: unknown): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function section(parent: HTMLElement, title: string, body: HTMLElement): void {
    parent.appendChild(el('h2', '', title));
    parent.appendChild(body);
  }
  function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'X-Review-Token': token ?? '' };
    const init: RequestInit = { method, headers, credentials: 'omit' };
    if (body !== undefined) { headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then((res) => res.json().catch(() => ({})).then((json: { error?: string }) => {
      if (!res.ok) throw new Error((json && json.error) || ('HTTP ' + res.status));
      return json as T;
    }));
  }
  function pct(rate: number | null | undefined): string { return rate === null || rate === undefined ? 'n/a' : (rate * 100).toFixed(1) + ' %'; }
  const VERDICT: Record<string, string> = { passed: 'PASSED', failed: 'FAILED', cancelled: 'CANCELLED', no_threshold: 'NO THRESHOLD' };

  function renderRuns(): void {
    const box = byId('runs');
    box.textContent = '';
    state.runs.forEach((r) => {
      const card = el('div', 'run ' + (r.verdict || 'none'));
      card.setAttribute('data-run', r.runId);
      card.appendChild(el('span', 'site', 'site ' + r.siteId + ': '));
      card.appendChild(el('span', 'verdict', (r.verdict && VERDICT[r.verdict]) || 'no verdict'));
      card.appendChild(el('span', '', ' · pass rate ' + pct(r.passRate) + ' · ' + r.uncertain + ' uncertain · reviewed: ' + rows(r.reviewed) + ' settled by labels'));
      if (r.reasons && r.reasons.length) card.title = r.reasons.join('\n');
      box.appendChild(card);
    });
  }
  function settledCount(): number { return state.items.filter((i) => i.label).length; }
  function renderProgress(): void {
    let text = settledCount() + ' of ' + state.items.length + ' settled';
    if (pending) text += ' · saving ' + pending + '…';
    byId('progress').textContent = text;
  }
  function renderErrors(): void {
    const box = byId('errors');
    box.hidden = failed.length === 0;
    const last = failed[failed.length - 1];
    if (last) byId('error-text').textContent = failed.length + ' save(s) failed: ' + last.error;
  }
  function gradeList(row: Row): HTMLUListElement {
    const list = el('ul');
    (row.assertions || []).forEach((a) => {
      const kind = a.uncertain ? 'uncertain' : (a.pass ? 'pass' : 'fail');
      const li = el('li', kind);
      li.appendChild(el('b', '', a.type + ' ' + kind + ': '));
      li.appendChild(document.createTextNode(a.reason || ''));
      list.appendChild(li);
    });
    if (!list.childNodes.length) list.appendChild(el('li', '', 'no assertions'));
    return list;
  }
  // A row a person settled: "Decided by a person: pass", who and when, the note (the server writes the words).
  function personBox(person: Person): HTMLDivElement {
    const box = el('div', 'person ' + person.verdict);
    box.id = 'person';
    box.appendChild(el('b', '', person.head));
    box.appendChild(el('span', 'who', ' ' + person.facts));
    box.appendChild(person.note === undefined ? el('p', 'no-note', 'no note') : el('p', 'person-note', person.note));
    return box;
  }
  function render(): void {
    renderProgress();
    renderRuns();
    const main = byId('row');
    main.textContent = '';
    const item = state.items[state.index];
    if (!item) {
      main.appendChild(el('p', 'done', state.items.length ? 'End of the queue: every row shown.' : 'Nothing to review in this run.'));
      return;
    }
    const row = item.row;
    main.setAttribute('data-row', item.rowId);
    main.setAttribute('data-run', item.runId);
    const head = el('div');
    head.appendChild(el('span', 'tag ' + item.reason, item.reason));
    if (item.label) head.appendChild(el('span', 'tag settled', 'settled: ' + item.label.verdict + (item.label.by ? ' by ' + item.label.by : '')));
    if (item.saving) head.appendChild(el('span', 'tag saving', 'saving…'));
    head.appendChild(el('span', 'id', (state.index + 1) + '/' + state.items.length + ' · site ' + item.siteId + ' · row ' + item.rowId));
    main.appendChild(head);
    if (item.priorTurns && item.priorTurns.length) {
      const turns = el('div');
      item.priorTurns.forEach((t) => {
        turns.appendChild(el('p', 'turn', 'Q: ' + t.question));
        turns.appendChild(el('p', 'turn', 'A: ' + (t.answer === undefined ? '(no answer)' : t.answer)));
      });
      section(main, 'Earlier turns', turns);
    }
    section(main, 'Question', el('p', 'question', row.question));
    const refs = el('p', 'text', row.expected || '(no references)');
    refs.id = 'references';
    section(main, 'References', refs);
    const compare = el('div', 'compare');
    const now = el('div');
    const answer = el('pre', 'text', row.answer === undefined ? '(no answer: ' + (row.error || row.outcome) + ')' : row.answer);
    answer.id = 'answer';
    section(now, 'Answer', answer);
    compare.appendChild(now);
    const base = el('div');
    const baseText = item.baseline ? (item.baseline.answer === undefined ? '(no answer)' : item.baseline.answer) : '(no baseline row)';
    section(base, 'Baseline answer' + (item.baseline ? ' (' + item.baseline.outcome + ', ' + item.baseline.runId + ')' : ''), el('pre', 'text', baseText));
    compare.appendChild(base);
    main.appendChild(compare);
    const person = item.person;
    if (person) main.appendChild(personBox(person));
    if (person && person.graders) {
      main.appendChild(el('h2', '', 'What the graders said'));
      const said = el('p', 'graders-said', person.graders);
      said.id = 'graders-said';
      main.appendChild(said);
      if (person.gradersRan) main.appendChild(gradeList(row));
    } else section(main, 'Graders', gradeList(row));
    const d = row.decision;
    const decision = el('p', 'decision', 'Outcome: ' + row.outcome + (d ? ' · decided by ' + d.by + ' (' + d.verdict + '): ' + d.reason : '') +
      (row.feedback ? ' · feedback: ' + row.feedback : ''));
    decision.id = 'decision';
    main.appendChild(decision);
    if (item.feedbackMessage) main.appendChild(el('p', 'decision', item.feedbackMessage));
  }
  function nextUnsettled(from: number): number {
    for (let i = from; i < state.items.length; i++) if (!state.items[i]?.label) return i;
    return Math.min(from, state.items.length);
  }
  function feedbackText(fb: Feedback | undefined): string {
    if (!fb) return '';
    if (fb.state === 'started' || fb.state === 'already-started') return 'Feedback: going out (workflow ' + fb.workflowId + ').';
    if (fb.state === 'sent-before') return 'Feedback: the site got "' + fb.value + '" earlier; it is not sent again.';
    return 'Feedback: none (' + fb.why + ').';
  }
  function send(req: SaveRequest): void {
    pending++;
    req.item.saving = true;
    renderProgress();
    void api<Saved>('POST', '/api/labels', { runId: req.item.runId, rowId: req.item.rowId, verdict: req.verdict, note: req.note }).then((res) => {
      req.item.saving = false;
      req.item.row = res.item.row;
      req.item.feedbackMessage = feedbackText(res.feedback);
      state.runs = state.runs.map((r) => (r.runId === res.run.runId ? res.run : r));
      req.item.person = res.item.person;
      state.items.forEach((other) => {
        if (other === req.item || other.labelKey !== req.item.labelKey || other.siteId !== req.item.siteId) return;
        other.label = res.item.label;
        // Its graders' view is its own: shown under "Graders" until the page loads again.
        other.person = Object.assign({}, res.item.person, { graders: '' });
      });
    }, (err: Error) => {
      req.item.saving = false;
      req.error = err.message;
      failed.push(req);
    }).then(() => {
      pending--;
      renderErrors();
      render();
      if (pending === 0) loadAgreement();
    });
  }
  function noteProblem(note: string): string {
    const found = FORBIDDEN.exec(note);
    if (!found) return '';
    let code = found[0].charCodeAt(0).toString(16).toUpperCase();
    while (code.length < 4) code = '0' + code;
    return 'Not saved: the note holds U+' + code + ' at character ' + (Array.from(note.slice(0, found.index)).length + 1) +
      ', a control character. A note may hold text, tabs and line breaks (as a label file may); edit it and press p or f again.';
  }
  function label(verdict: string): void {
    const item = state.items[state.index];
    if (!item) return;
    const noteBox = byId<HTMLTextAreaElement>('note');
    const note = noteBox.value.trim();
    const noteError = byId('note-error');
    noteError.textContent = noteProblem(note);
    noteError.hidden = !noteError.textContent;
    if (noteError.textContent) return;
    noteBox.value = '';
    // Optimistic: shown settled and the next row at once; the save goes on in the background.
    item.label = { verdict, note: note || undefined };
    send({ item, verdict, note: note || undefined });
    state.index = nextUnsettled(state.index + 1);
    render();
  }
  function rows(n: number): string { return n + (n === 1 ? ' row' : ' rows'); }
  function ratio(x: number | null | undefined): string { return x === null || x === undefined ? 'n/a' : x.toFixed(3); }
  function loadAgreement(): void {
    api<Agreement>('GET', '/api/agreement').then((a) => {
      byId('agreement-count').textContent = rows(a.labelled) + ' labelled'
        + (a.moreNeeded > 0 ? '; too few to go by: label ' + a.moreNeeded + ' more (' + a.wanted + ' wanted) before changing a threshold on these figures' : '');
      // Under the labels wanted, a threshold they seem to support says nothing yet.
      byId('agreement-supported').textContent = a.moreNeeded > 0 ? ''
        : a.supported
          ? 'The labels support reference threshold ' + a.supported.threshold + ': agreement ' + ratio(a.supported.agreement) + ', deciding ' + pct(a.supported.coverage) + ' of the labelled rows (default ' + a.defaultThreshold + ').'
          : 'No reference threshold decides ' + pct(a.coverageFloor) + ' of the labelled rows yet.';
      const body = byId('agreement-rows');
      body.textContent = '';
      a.graders.forEach((g) => {
        const tr = el('tr');
        [g.grader, g.rows, g.decided, pct(g.coverage), ratio(g.agreement), g.falseFails, g.falsePasses].forEach((v) => { tr.appendChild(el('td', '', String(v))); });
        body.appendChild(tr);
      });
    }, (err: Error) => {
      byId('agreement-count').textContent = 'not available: ' + err.message;
    });
  }
  function move(step: number): void {
    state.index = Math.max(0, Math.min(state.items.length, state.index + step));
    render();
  }
  byId('retry').addEventListener('click', () => {
    const again = failed;
    failed = [];
    renderErrors();
    again.forEach(send);
  });
  const noteBox = byId<HTMLTextAreaElement>('note');
  noteBox.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' || (e.key === 'Enter' && !e.shiftKey)) { e.preventDefault(); noteBox.blur(); }
  });
  document.addEventListener('keydown', (e) => {
    if (e.target === noteBox || e.ctrlKey || e.metaKey || e.altKey) return;
    const keys: Record<string, () => void> = {
      p: () => { label('pass'); }, f: () => { label('fail'); }, s: () => { move(1); },
      n: () => { noteBox.focus(); }, j: () => { move(1); }, ArrowRight: () => { move(1); },
      k: () => { move(-1); }, ArrowLeft: () => { move(-1); },
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  });
  if (!token) {
    byId('progress').textContent = 'No token in this address: open the URL that sitechat review printed (it ends in #token=…).';
    return;
  }
  api<State>('GET', '/api/state').then((s) => {
    state.items = s.items;
    state.runs = s.runs;
    state.runId = s.runId;
    byId('run').textContent = s.runId + (s.omitted ? ' (' + s.omitted + ' rows past the queue limit not shown)' : '');
    state.index = nextUnsettled(0);
    render();
    loadAgreement();
  }, (err: Error) => {
    byId('progress').textContent = 'could not load the queue: ' + err.message;
  });
})();
