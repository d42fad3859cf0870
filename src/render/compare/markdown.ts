/** compare.md: the conclusion, per-variant figures, the pair table, and the rows where the variants disagree. */
import { formatMs, mdInline, moreLine } from '../escape';
import { pct } from '../../analysis/gate';
import { formatP } from '../../analysis/stats';
import { labelBesideRun } from '../../analysis/compare/rows';
import type { Comparison, PairStats, VariantStats } from '../../analysis/compare/types';

/** Disagreeing rows listed in the Markdown (the html has them all). */
const MD_ROWS = 50;
const MD_UNPAIRED = 20;

export function pctOf(rate: number | null): string {
  return rate === null ? 'n/a' : pct(rate);
}

export function intervalOf(s: VariantStats): string {
  return s.interval ? `${pctOf(s.interval[0])}–${pctOf(s.interval[1])}` : 'n/a';
}

/** Rows graded on their first answer; with repeats also the answers behind the pass rate. */
export function gradedOf(s: VariantStats): string {
  return s.answers === undefined ? String(s.decided) : `${s.decided} (${s.answers} answers, ${s.repeat} per row)`;
}

export function pairLine(c: Comparison, p: PairStats): string[] {
  return [
    c.variants[p.a]?.label ?? '', c.variants[p.b]?.label ?? '', String(p.wins), String(p.ties), String(p.losses),
    formatP(p.pValue), formatP(p.adjustedP), p.significant ? 'yes' : 'no',
  ];
}

/** How the pair table was computed: McNemar on first answers, or CMH over repeats. */
export function pairsNote(c: { pairs: readonly { test: 'mcnemar' | 'cmh' }[]; alpha: number }): string {
  const repeated = c.pairs.some((p) => p.test === 'cmh');
  const holm = `Holm-adjusted across the ${c.pairs.length} pair(s), alpha ${c.alpha}.`;
  if (!repeated) return `Wins: the first passed and the second failed; losses the other way round; exact McNemar test on those rows, ${holm}`;
  return 'With repeats (--repeat) a row is won when the first variant passed a larger share of its answers (k of N) and lost the other way round; '
    + 'p is the Cochran–Mantel–Haenszel test over every answer with each row a stratum (the gate\'s test with repeats; pairs without repeats: exact McNemar), '
    + holm;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map((x) => mdInline(x)).join(' | ')} |`)];
}

export function renderCompareMarkdown(c: Comparison): string {
  const lines: string[] = [`# Comparison of ${c.variants.length} runs`, '', `**${c.conclusion}**`, ''];
  lines.push(`Rows: ${c.rows.length}, graded by every run: ${c.pairedRows}, not paired: ${c.unpairedRows}. Created ${c.createdAt}.`, '');
  if (c.confirmationsIgnored) lines.push(`${c.confirmationsIgnored} confirming answers (\`--confirm\`) left out: they were asked only for rows that regressed.`, '');
  lines.push('## Variants', '', ...table(
    ['variant', 'run', 'pass rate', '95% CI', 'graded', 'needs review', 'errors', 'missing', 'latency p50', 'p95', 'confidence mean (min–max)'],
    c.variants.map((v, i) => {
      const s = c.stats[i] as VariantStats;
      return [labelBesideRun(v), v.runId, pctOf(s.passRate), intervalOf(s), gradedOf(s), String(s.uncertain), String(s.errors), String(s.missing),
        formatMs(s.latencyP50), formatMs(s.latencyP95), s.confidence ? `${s.confidence.mean.toFixed(1)} (${s.confidence.min}–${s.confidence.max})` : 'n/a'];
    }),
  ), '');
  lines.push('## Pairs', '', pairsNote(c), '');
  lines.push(...table(['first', 'second', 'wins', 'ties', 'losses', 'p', 'Holm p', 'significant'], c.pairs.map((p) => pairLine(c, p))), '');
  const disagree = c.rows.filter((r) => r.disagree && !r.unpaired);
  lines.push(`## Rows where the variants disagree (${disagree.length})`, '');
  if (disagree.length) {
    lines.push(...table(['row', 'question', ...c.variants.map((v) => v.label)], disagree.slice(0, MD_ROWS).map((r) => [
      r.id, r.question, ...r.cells.map((cell) => (cell ? `${cell.outcome}: ${cell.answer ?? cell.reason ?? ''}` : '—')),
    ])));
    if (disagree.length > MD_ROWS) lines.push('', moreLine(disagree.length - MD_ROWS, 'row', ' (all of them are in compare.html and compare.json)'));
    lines.push('');
  }
  const unpaired = c.rows.filter((r) => r.unpaired);
  if (unpaired.length) {
    lines.push(`## Rows that cannot be paired (${unpaired.length})`, '', 'Not in the pair statistics: every variant must have graded the row.', '');
    lines.push(...table(['row', 'question', 'why'], unpaired.slice(0, MD_UNPAIRED).map((r) => [r.id, r.question, r.unpaired ?? ''])));
    if (unpaired.length > MD_UNPAIRED) lines.push('', moreLine(unpaired.length - MD_UNPAIRED, 'row'));
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
