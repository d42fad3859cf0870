import { html, type SafeHtml } from './htmlTemplate';
import type { Histogram } from '../domain/results';

export interface HistogramSvgOptions {
  title: string;
  /** Appended to bin-edge labels, e.g. ` ms`. @default '' */
  unit?: string;
  /** @default 480 */
  width?: number;
  /** @default 180 */
  height?: number;
}

const PAD = { left: 36, right: 8, top: 22, bottom: 28 } as const;

/** Compact number for axis labels: 1500 → 1.5k. */
function short(value: number): string {
  if (Math.abs(value) >= 1000) return `${Number((value / 1000).toFixed(1))}k`;
  return String(Number(value.toFixed(1)));
}

/**
 * An inline SVG bar chart of a histogram, with an accessible title and one `<title>` tooltip per
 * bar. Written with the html template: every text is escaped, so it is safe inside an HTML page.
 */
export function histogramSvg(hist: Histogram, options: HistogramSvgOptions): SafeHtml {
  const { title, unit = '', width = 480, height = 180 } = options;
  const innerW = width - PAD.left - PAD.right;
  const innerH = height - PAD.top - PAD.bottom;
  const bins = hist.counts.length;
  const peak = Math.max(1, ...hist.counts);
  const barW = innerW / Math.max(1, bins);
  const edge = (i: number): number => hist.start + i * hist.width;
  const labelEvery = Math.max(1, Math.ceil(bins / 5));
  const parts: SafeHtml[] = [
    html`<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}">`,
    html`<title>${title}</title>`,
    html`<text x="${PAD.left}" y="14" class="chart-title">${title}</text>`,
    html`<line x1="${PAD.left}" y1="${PAD.top + innerH}" x2="${PAD.left + innerW}" y2="${PAD.top + innerH}" class="axis"/>`,
    html`<text x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end" class="tick">${peak}</text>`,
  ];
  hist.counts.forEach((count, i) => {
    const h = (count / peak) * innerH;
    const x = PAD.left + i * barW;
    const label = `${short(edge(i))}–${short(edge(i + 1))}${unit}: ${count}`;
    parts.push(
      html`<rect x="${x.toFixed(1)}" y="${(PAD.top + innerH - h).toFixed(1)}" width="${Math.max(1, barW - 1).toFixed(1)}" height="${h.toFixed(1)}" class="bar"><title>${label}</title></rect>`,
    );
    if (i % labelEvery === 0) {
      parts.push(html`<text x="${x.toFixed(1)}" y="${height - 10}" class="tick">${short(edge(i)) + unit}</text>`);
    }
  });
  parts.push(html`<text x="${PAD.left + innerW}" y="${height - 10}" text-anchor="end" class="tick">${short(edge(bins)) + unit}</text>`);
  parts.push(html`</svg>`);
  return html`${parts}`;
}
