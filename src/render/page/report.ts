/**
 * report.html's script: filter the row table by text and outcome, sort it by clicking a header (numeric where the
 * header says `data-num`). Inlined by src/render/html.ts; it reads the table only, no run data is written into it.
 */
(function () {
  'use strict';
  const table = document.getElementById('rows') as HTMLTableElement | null;
  const body = table?.tBodies[0];
  const headRow = table?.tHead?.rows[0];
  const query = document.getElementById('q') as HTMLInputElement | null;
  const outcome = document.getElementById('o') as HTMLSelectElement | null;
  const count = document.getElementById('count');
  if (!table || !body || !headRow || !query || !outcome || !count) return;
  const rows = Array.from(body.rows);
  const texts = rows.map((r) => (r.textContent ?? '').toLowerCase());
  const headers = Array.from(headRow.cells);
  function apply(): void {
    const text = query!.value.toLowerCase();
    const want = outcome!.value;
    let shown = 0;
    rows.forEach((r, i) => {
      const okOutcome = !want || r.getAttribute('data-outcome') === want || (want === 'regressed' && r.hasAttribute('data-regressed'));
      const ok = okOutcome && (!text || (texts[i] ?? '').indexOf(text) !== -1);
      r.hidden = !ok;
      if (ok) shown++;
    });
    count!.textContent = shown + ' of ' + rows.length + ' rows';
  }
  function key(row: HTMLTableRowElement, col: number, numeric: boolean): string | number {
    const cell = row.cells[col];
    const v = cell ? (cell.getAttribute('data-v') || cell.textContent || '') : '';
    if (!numeric) return v.toLowerCase();
    const n = parseFloat(v);
    return isNaN(n) ? -Infinity : n;
  }
  headers.forEach((th, col) => {
    th.addEventListener('click', () => {
      const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      const numeric = th.hasAttribute('data-num');
      headers.forEach((h) => h.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
      const keys = rows.map((r) => key(r, col, numeric));
      const order = rows.map((_, i) => i);
      order.sort((a, b) => {
        const x = keys[a] as string | number;
        const y = keys[b] as string | number;
        return (x < y ? -1 : x > y ? 1 : a - b) * dir;
      });
      const fragment = document.createDocumentFragment();
      order.forEach((i) => fragment.appendChild(rows[i] as HTMLTableRowElement));
      body.appendChild(fragment);
    });
  });
  query.addEventListener('input', apply);
  outcome.addEventListener('change', apply);
  apply();
})();
