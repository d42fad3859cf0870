import { baselineVerdict } from './baseline';
import { pct } from './gate';
import { formatMs, mdFence, mdInline, moreLine } from './text';
import { Outcome, type RowResult, type RunSummary } from './types';

export interface MarkdownOptions {
  /** Rows shown in full per section (regressions, failures, errors). @default 50 */
  maxRows?: number;
  /** Characters of an answer or expected text shown. @default 1000 */
  maxText?: number;
}

/** Rows kept in full up to a cap; the rest only counted. */
class Capped {
  readonly rows: RowResult[] = [];
  total = 0;
  constructor(private readonly cap: number) {}
  add(row: RowResult): void {
    if (this.total++ < this.cap) this.rows.push(row);
  }
}

/**
 * GitHub-flavoured Markdown report: headline table, verdict, then regressions, failures and errors
 * with question, answer, expected and reasons. One pass over `results`; memory bounded by the caps.
 */
export async function renderMarkdown(
  summary: RunSummary,
  results: AsyncIterable<RowResult>,
  options: MarkdownOptions = {},
): Promise<string> {
  const { maxRows = 50, maxText = 1000 } = options;
  const regressedIds = new Set(summary.baseline?.regressed);
  const regressions = new Capped(maxRows);
  const failures = new Capped(maxRows);
  const errors = new Capped(maxRows);
  for await (const row of results) {
    if (regressedIds.has(row.id)) regressions.add(row);
    else if (row.outcome === Outcome.failed) failures.add(row);
    else if (row.outcome === Outcome.error || row.outcome === Outcome.timedOut) errors.add(row);
  }
  const detail = (row: RowResult): string => rowDetail(row, maxText);
  return [
    `# Evaluation report: ${mdInline(summary.dataset)}`,
    headline(summary),
    verdict(summary),
    section('Regressions', regressions, detail),
    section('Failures', failures, detail),
    section('Errors and time-outs', errors, detail),
    byTag(summary),
  ]
    .filter((part) => part !== '')
    .join('\n\n')
    .concat('\n');
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function rate(value: number | null): string {
  return value === null ? 'n/a' : pct(value);
}

function headline(s: RunSummary): string {
  const rows: string[][] = [
    ['Pass rate', `**${rate(s.passRate)}** (${s.passed} / ${s.graded} graded)`],
    ['Rows', `${s.total} total: ${s.passed} passed, ${s.failed} failed, ${s.error} error, ${s.timedOut} timed out, ${s.skipped} skipped, ${s.answered} answered (ungraded)`],
    ['Latency', `p50 ${formatMs(s.latencyMs.p50)}, p95 ${formatMs(s.latencyMs.p95)}, max ${formatMs(s.latencyMs.max)}`],
    ['Feedback', `${s.feedback.good} good, ${s.feedback.bad} bad, ${s.feedback.failed} failed`],
    ['Sessions', `${s.sessions.opened} opened, ${s.sessions.closed ?? 'n/a'} closed`],
    ['Run', `${mdInline(s.runId)} on site ${mdInline(s.siteId)}${s.model ? `, model ${mdInline(s.model)}` : ''}`],
    ['Time', `${mdInline(s.startedAt)} → ${mdInline(s.finishedAt ?? 'unfinished')} (${formatMs(s.durationMs)})`],
  ];
  const errorTypes = Object.entries(s.errorsByType).sort((a, b) => b[1] - a[1]);
  if (errorTypes.length > 0) rows.push(['Errors by type', errorTypes.map(([t, n]) => `${mdInline(t)} ${n}`).join(', ')]);
  if (s.missing > 0) rows.splice(2, 0, ['Missing', `**${s.missing} dataset rows have no result**`]);
  if (s.baseline) {
    const d = s.baseline.delta;
    const delta = d === null ? 'n/a' : `${d >= 0 ? '+' : ''}${(d * 100).toFixed(1)} pts`;
    rows.push(['Baseline', `${mdInline(s.baseline.runId)}: ${rate(s.baseline.passRate)} (${delta})`]);
  }
  return table(['Metric', 'Value'], rows);
}

function verdict(s: RunSummary): string {
  const lines = ['## Verdict', ''];
  if (s.gate) {
    lines.push(s.gate.passed ? '**Quality gate: PASSED** ✅' : '**Quality gate: FAILED** ❌', '');
    for (const reason of s.gate.reasons) lines.push(`- ${mdInline(reason, 2000)}`);
    for (const warning of s.gate.warnings) lines.push(`- ⚠️ ${mdInline(warning, 2000)}`);
  }
  lines.push('', s.baseline ? mdInline(baselineVerdict(s.baseline), 2000) : 'No baseline given.');
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

function section(title: string, list: Capped, detail: (row: RowResult) => string): string {
  if (list.total === 0) return '';
  const parts = [`## ${title} (${list.total})`, ...list.rows.map(detail)];
  if (list.total > list.rows.length) parts.push(moreLine(list.total - list.rows.length, 'rows not shown'));
  return parts.join('\n\n');
}

function rowDetail(row: RowResult, maxText: number): string {
  const tags = row.tags?.length ? ` · tags ${mdInline(row.tags.join(', '))}` : '';
  const parts = [
    `### Row ${mdInline(row.id)} · ${row.outcome} · line ${row.line}${tags}`,
    `**Question:** ${mdInline(row.question, 500)}`,
  ];
  if (row.answer !== undefined) parts.push(`**Answer:**\n\n${mdFence(row.answer, maxText)}`);
  if (row.expected !== undefined) parts.push(`**Expected:**\n\n${mdFence(row.expected, maxText)}`);
  const reasons = (row.assertions ?? []).filter((a) => !a.pass);
  if (reasons.length > 0) {
    parts.push(`**Reasons:**\n\n${reasons.map((a) => `- ${mdInline(a.type)}: ${mdInline(a.reason, 500)}`).join('\n')}`);
  }
  if (row.error !== undefined || row.outcome === Outcome.timedOut) {
    const type = row.errorType ?? (row.outcome === Outcome.timedOut ? 'TimedOut' : 'Error');
    parts.push(`**Error:** ${mdInline(type)}: ${mdInline(row.error ?? 'no answer before the time-out', 500)}`);
  }
  return parts.join('\n\n');
}

/** Tags sorted by name, capped at 100. */
function byTag(s: RunSummary): string {
  const tags = Object.keys(s.byTag).sort();
  if (tags.length === 0) return '';
  const rows = tags.slice(0, 100).map((tag) => {
    const t = s.byTag[tag] ?? { total: 0, passed: 0, failed: 0, graded: 0 };
    return [mdInline(tag), String(t.total), String(t.passed), String(t.failed), rate(t.graded ? t.passed / t.graded : null)];
  });
  const more = tags.length > 100 ? `\n\n${moreLine(tags.length - 100, 'tags')}` : '';
  return `## By tag\n\n${table(['Tag', 'Rows', 'Passed', 'Failed', 'Pass rate'], rows)}${more}`;
}
