import { html, type SafeHtml } from './htmlTemplate';

/** One run on a trend chart. */
export interface TrendPoint {
  /** ISO time the run started: the x position. */
  at: string;
  /** Values in [0, 1] by series name; null where a run has none (a backfill has no pass rate). */
  values: Record<string, number | null>;
  /** Tooltip of the run's points. */
  label: string;
  /** Link of the run's points (its report), relative to the page. */
  href?: string;
  /** A CSS class added to the run's points (`failed`: the run failed, whatever its rates). */
  className?: string;
}

export interface TrendSeries {
  key: string;
  title: string;
  /** CSS class of the line and points. */
  className: string;
}

export interface TrendSvgOptions {
  title: string;
  series: readonly TrendSeries[];
  /** @default 720 */
  width?: number;
  /** @default 220 */
  height?: number;
}

const PAD = { left: 40, right: 14, top: 26, bottom: 30 } as const;

/** The date, and the time too when every run is within a day (several runs the same night). */
function when(iso: string, spanMs: number): string {
  return spanMs < 86_400_000 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

/**
 * An inline SVG line chart of rates (0–100%) over time, one line per series, one point per run; each point is a
 * link to that run's report and has a tooltip. Written with the html template: every text is escaped, so it is safe
 * inside an HTML page.
 */
export function trendSvg(points: readonly TrendPoint[], options: TrendSvgOptions): SafeHtml {
  const { title, series, width = 720, height = 220 } = options;
  const innerW = width - PAD.left - PAD.right;
  const innerH = height - PAD.top - PAD.bottom;
  const sorted = [...points].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const times = sorted.map((p) => Date.parse(p.at));
  const first = times[0] ?? 0;
  const span = (times[times.length - 1] ?? 0) - first;
  const x = (i: number): number => PAD.left + (span > 0 ? (((times[i] ?? first) - first) / span) * innerW : innerW / 2);
  const y = (v: number): number => PAD.top + (1 - Math.min(1, Math.max(0, v))) * innerH;
  const parts: SafeHtml[] = [
    html`<svg xmlns="http://www.w3.org/2000/svg" class="chart trend" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}">`,
    html`<title>${title}</title>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(html`<line x1="${PAD.left}" y1="${y(tick).toFixed(1)}" x2="${PAD.left + innerW}" y2="${y(tick).toFixed(1)}" class="${tick === 0 ? 'axis' : 'grid'}"/>`);
    parts.push(html`<text x="${PAD.left - 4}" y="${(y(tick) + 3).toFixed(1)}" text-anchor="end" class="tick">${tick * 100}%</text>`);
  }
  if (sorted.length > 0) {
    parts.push(html`<text x="${PAD.left}" y="${height - 8}" class="tick">${when(sorted[0]?.at ?? '', span)}</text>`);
    if (sorted.length > 1) parts.push(html`<text x="${PAD.left + innerW}" y="${height - 8}" text-anchor="end" class="tick">${when(sorted[sorted.length - 1]?.at ?? '', span)}</text>`);
  }
  series.forEach((s, n) => {
    parts.push(html`<g class="${s.className}"><rect x="${PAD.left + 8 + n * 110}" y="8" width="10" height="10" class="key"/><text x="${PAD.left + 22 + n * 110}" y="17" class="legend">${s.title}</text></g>`);
  });
  for (const s of series) {
    const coords = sorted.flatMap((p, i) => {
      const v = p.values[s.key];
      return v === null || v === undefined ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`];
    });
    if (coords.length > 1) parts.push(html`<polyline points="${coords.join(' ')}" class="line ${s.className}"/>`);
    sorted.forEach((p, i) => {
      const v = p.values[s.key];
      if (v === null || v === undefined) return;
      const dot = html`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="4" class="dot ${s.className}${p.className ? ` ${p.className}` : ''}"><title>${`${p.label}\n${s.title}: ${(v * 100).toFixed(1)}%`}</title></circle>`;
      parts.push(p.href ? html`<a href="${p.href}">${dot}</a>` : dot);
    });
  }
  parts.push(html`</svg>`);
  return html`${parts}`;
}
