/** compare.html's script: "only rows where the variants disagree" and a text filter. Reads data-* attributes only. */
(function () {
  const only = document.getElementById('only-disagree') as HTMLInputElement | null;
  const text = document.getElementById('filter') as HTMLInputElement | null;
  const count = document.getElementById('shown');
  if (!only || !text || !count) return;
  function apply(): void {
    const q = text!.value.toLowerCase();
    let n = 0;
    document.querySelectorAll<HTMLTableRowElement>('#sbs tbody tr').forEach((tr) => {
      const show = (!only!.checked || tr.dataset.disagree === 'true') && (!q || (tr.textContent ?? '').toLowerCase().indexOf(q) >= 0);
      tr.hidden = !show;
      if (show) n++;
    });
    count!.textContent = String(n);
  }
  only.addEventListener('change', apply);
  text.addEventListener('input', apply);
  apply();
})();
