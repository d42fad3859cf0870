import { basename } from 'node:path';
import { baseIdOf } from '../datasets/repeat';
import { withNotificationsSection } from './reportNote';
import type { NotifyOutcome } from '../domain/notify';
import { baselineVerdict } from '../analysis/baseline';
import { DetailSection, detailSectionOf, EMPTY_CONTEXT, type ReportContext } from '../analysis/context';
import { describeGateSettings, pct, verdictLabel } from '../analysis/gate';
import { causeLine } from '../analysis/cause';
import { ErrorGroups, groupLine, ownErrors, type ErrorGroup } from '../analysis/errorGroups';
import { mdRowDetail } from './markdownRows';
import { plural } from '../shared/plural';
import { confirmationText, confirmingAnswerLines, kOfNEntries, repeatRateText, repeatRowsText } from './repeatText';
import { provenanceMd, simulatorNoticeMd } from './provenanceRender';
import { askedTwiceText, escalationLine, formatMs, judgeLine, mdInline, moreLine, reaskedLine, reviewedLine } from './escape';
import { GateVerdict, type RowResult, type RunSummary } from '../domain/results';

export interface MarkdownOptions {
  /** Rows shown in full per section (regressions, fixed, failures, errors, lost feedback). @default 50 */
  maxRows?: number;
  /** Characters of an answer or expected text shown. @default 1000 */
  maxText?: number;
  /** Baseline answers, earlier turns and unclosed sessions (`collectReportContext`). @default none */
  context?: ReportContext;
  /** What became of the notifications sent when the run ended (`ResultsStore.getNotifications`). @default none */
  notifications?: readonly NotifyOutcome[];
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

const SECTION_TITLES: Record<DetailSection, string> = {
  regressed: 'Regressions (passed in the baseline, fail now)',
  fixed: 'Fixed (failed in the baseline, pass now)',
  failed: 'Failures',
  uncertain: 'Needs review (uncertain: the graders could not decide, nothing settled the grade)',
  errored: 'Errors and time-outs',
  'passed-by-person': 'Passed by a person (a label settled them; what the graders said is beside each)',
};

/**
 * GitHub-flavoured Markdown report: headline table, verdict with every reason and the gate settings, the baseline
 * and how it was chosen, then regressions and fixes (today's answer beside the baseline's, both grades), failures
 * and errors (with the rules they were graded by and earlier turns), lost feedback, unclosed sessions, and per-tag
 * pass rates. One pass over `results`; memory bounded by the caps.
 */
export async function renderMarkdown(summary: RunSummary, results: AsyncIterable<RowResult>, options: MarkdownOptions = {}): Promise<string> {
  const { maxRows = 50, maxText = 1000, context = EMPTY_CONTEXT, notifications } = options;
  const regressed = new Set(summary.baseline?.regressed);
  const fixed = new Set(summary.baseline?.fixed);
  const sections = new Map<DetailSection, Capped>(Object.values(DetailSection).map((s) => [s, new Capped(maxRows)]));
  const lostFeedback = new Capped(maxRows);
  const errorGroups = new ErrorGroups();
  for await (const row of results) {
    const section = detailSectionOf(row, regressed, fixed);
    errorGroups.add(row);
    if (section) sections.get(section)?.add(row);
    if (row.feedback === 'failed') lostFeedback.add(row);
  }
  const groups = errorGroups.collapsed();
  const baselineRunId = summary.baseline?.runId ?? '';
  const detail = (section: DetailSection) => (row: RowResult): string =>
    mdRowDetail(row, {
      maxText,
      priorTurns: context.priorTurns.get(row.id),
      ...((section === DetailSection.regressed || section === DetailSection.fixed) && { baseline: { runId: baselineRunId, row: context.baselineRows.get(baseIdOf(row)) } }),
    });
  const text = [
    `# Evaluation report: ${mdInline(basename(summary.dataset))}`,
    simulatorNoticeMd(summary.provenance),
    causeMd(summary),
    headline(summary),
    provenanceMd(summary.provenance),
    verdict(summary),
    baselineSection(summary),
    repeatsSection(summary, maxText),
    ...Object.values(DetailSection).map((s) => (s === DetailSection.errored
      ? errorSection(sections.get(s) ?? new Capped(0), groups, detail(s))
      : section(SECTION_TITLES[s], sections.get(s) ?? new Capped(0), detail(s)))),
    lostFeedbackSection(lostFeedback),
    unclosedSection(context),
    byTag(summary),
  ]
    .filter((part) => part !== '')
    .join('\n\n')
    .concat('\n');
  return withNotificationsSection(text, notifications);
}

/** The part of the report for a CI job page (`GITHUB_STEP_SUMMARY`): headline, verdict and reasons, baseline. */
export function renderStepSummary(summary: RunSummary): string {
  return [`## Site Chat evaluation: ${mdInline(basename(summary.dataset))}`, simulatorNoticeMd(summary.provenance), causeMd(summary), headline(summary), verdict(summary, 3), baselineSection(summary, 3)]
    .filter((part) => part !== '')
    .join('\n\n')
    .concat('\n\n');
}

/** The cause most errors share, first thing under the title (src/analysis/cause.ts); nothing when there is none. */
function causeMd(s: RunSummary): string {
  return s.cause ? `**Cause:** ${mdInline(causeLine(s.cause), 1000)}` : '';
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function rate(value: number | null): string {
  return value === null ? 'n/a' : pct(value);
}

function points(delta: number | null): string {
  return delta === null ? 'n/a' : `${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(1)} pts`;
}

function headline(s: RunSummary): string {
  const closeFailed = s.sessions.closeFailed ? `, **${s.sessions.closeFailed} could not be closed**` : '';
  const rows: string[][] = [
    ['Pass rate', `**${rate(s.passRate)}** (${s.passed} / ${s.graded} graded; uncertain rows, errors and time-outs are not graded)`],
    ['Rows', `${s.total} total: ${s.passed} passed, ${s.failed} failed, ${s.uncertain ?? 0} uncertain (needs review), ${s.error} error, ${s.timedOut} timed out, ${s.skipped} skipped, ${s.answered} answered (ungraded)`],
    ['Latency', `p50 ${formatMs(s.latencyMs.p50)}, p95 ${formatMs(s.latencyMs.p95)}, max ${formatMs(s.latencyMs.max)}${unobservedNote(s)}`],
    ['Feedback', `${s.feedback.good} good, ${s.feedback.bad} bad, ${s.feedback.failed ? `**${s.feedback.failed} lost**` : '0 lost'}`],
    ['Sessions', `${s.sessions.opened} opened, ${s.sessions.closed ?? 'n/a'} closed${closeFailed}`],
    ...(s.sessionsLeftOpen ? [['Sessions left open', `${s.sessionsLeftOpen.count} (the API accepted a question in them, no answer was recorded, so the run did not close them; \`sitechat cleanup\` closes them): ${s.sessionsLeftOpen.sessionIds.join(', ')}`]] : []),
    ...(s.reasked ? [['Re-asked', `${reaskedLine(s.reasked)}: ${s.reasked.rowIds.map((id) => mdInline(id)).join(', ')}`]] : []),
    ...(s.askedTwice?.count ? [['Possibly asked twice', `${askedTwiceText(s.askedTwice)}: ${s.askedTwice.rowIds.map((id) => mdInline(id)).join(', ')}`]] : []),
    ['Run', `${mdInline(s.runId)} on site ${mdInline(s.siteId)}, ${s.model ? `model ${mdInline(s.model)}` : 'site default model'}${s.cancelled ? ' · **cancelled**' : ''}`],
    ['Dataset', `${mdInline(s.dataset, 500)} (sha256 ${mdInline(s.datasetSha256.slice(0, 12))}…)`],
    ['Time', `${mdInline(s.startedAt)} → ${mdInline(s.finishedAt ?? 'unfinished')} (${formatMs(s.durationMs)})`],
  ];
  if (s.judge) rows.push(['LLM judge', judgeLine(s.judge)]);
  if (s.escalated) rows.push(['Escalated to the judge', escalationLine(s.escalated)]);
  if (s.reviewed) rows.push(['Reviewed', reviewedLine(s.reviewed)]);
  const errorTypes = Object.entries(s.errorsByType).sort((a, b) => b[1] - a[1]);
  if (errorTypes.length > 0) rows.push(['Errors by type', errorTypes.map(([t, n]) => `${mdInline(t)} ${n}`).join(', ')]);
  if (s.missing > 0) rows.splice(2, 0, ['Missing', `**${s.missing} dataset rows have no result**`]);
  if (s.repeats) rows.splice(1, 0, ['Repeats', `${repeatRowsText(s.repeats)}; pass rate ${repeatRateText(s.repeats)}`]);
  if (s.baseline) rows.push(['Baseline', `${mdInline(s.baseline.runId)}: ${rate(s.baseline.passRate)} (${points(s.baseline.delta)})`]);
  return table(['Metric', 'Value'], rows);
}

const VERDICT_MARK: Record<GateVerdict, string> = { passed: '✅', failed: '❌', cancelled: '⏹️', no_threshold: '⚠️' };

function verdict(s: RunSummary, level = 2): string {
  const lines = [`${'#'.repeat(level)} Verdict`, ''];
  if (s.gate) {
    lines.push(`**Quality gate: ${verdictLabel(s.gate.verdict)}** ${VERDICT_MARK[s.gate.verdict]}`, '');
    for (const reason of s.gate.reasons) lines.push(`- ${mdInline(reason, 2000)}`);
    for (const warning of s.gate.warnings) lines.push(`- ⚠️ ${mdInline(warning, 2000)}`);
  } else if (s.cancelled) {
    lines.push('**Run CANCELLED** ⏹️ (unsent rows are recorded as skipped)');
  } else {
    lines.push(s.kind === 'backfill' ? 'Backfill: answers recorded, no quality gate.' : 'No verdict yet: the run is not finished.');
  }
  if (s.gateSettings) {
    lines.push('', `<details><summary>Gate settings applied</summary>`, '', ...describeGateSettings(s.gateSettings).map((l) => `- ${mdInline(l, 300)}`), '', '</details>');
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

function baselineSection(s: RunSummary, level = 2): string {
  const sel = s.baselineSelection;
  if (!sel && !s.baseline) return s.kind === 'evaluation' && s.gate ? 'No baseline given.' : '';
  const lines = [`${'#'.repeat(level)} Baseline`, ''];
  if (sel?.chosen) lines.push(`Compared with **${mdInline(sel.chosen.runId)}**: ${mdInline(sel.chosen.reason, 500)}.`);
  if (sel?.message) lines.push(`**No comparison:** ${mdInline(sel.message, 500)}.`);
  for (const warning of sel?.warnings ?? []) lines.push('', `⚠️ ${mdInline(warning, 500)}`);
  if (s.baseline) lines.push('', mdInline(baselineVerdict(s.baseline), 2000));
  const confirmation = s.baseline?.confirmation;
  if (confirmation) {
    lines.push('', `**Confirmed before alarm** (--confirm ${confirmation.k}): ${mdInline(confirmationText(confirmation), 500)}.`);
    const reproduced = new Set(confirmation.reproduced);
    for (const row of confirmation.answers) {
      lines.push('', `- ${mdInline(row.id)} (${reproduced.has(row.id) ? 'reproduced' : 'not reproduced'}); the first answer is in the rows below:`);
      for (const line of confirmingAnswerLines(row.answers, 300)) lines.push(`  - ${mdInline(line, 400)}`);
    }
  }
  if (sel && sel.skipped.length > 0) {
    lines.push('', `Runs passed over (${sel.skipped.length + sel.skippedMore}), newest first:`, '');
    for (const skip of sel.skipped) lines.push(`- ${mdInline(skip.runId)}: ${mdInline(skip.reason, 300)}`);
    if (sel.skippedMore > 0) lines.push(`- ${moreLine(sel.skippedMore, 'run')}`);
  }
  return lines.join('\n');
}

/** Each row's k of N and the flaky rows with every answer. */
function repeatsSection(s: RunSummary, maxText: number): string {
  const r = s.repeats;
  if (!r) return '';
  const lines = [`## Repeats (${r.n} answers per row)`, '', `${repeatRowsText(r)}.`, '', `Pass rate ${repeatRateText(r)}.`, ''];
  lines.push(table(['Row passed', 'Rows'], kOfNEntries(r).map(([k, n]) => [k, String(n)])));
  if (r.flakyRows.length > 0) {
    lines.push('', `### Flaky rows (${r.flaky})`);
    for (const f of r.flakyRows) {
      lines.push('', `**${mdInline(f.id)}** — ${f.passed} of ${f.graded} passed: ${mdInline(f.question, maxText)}`, '');
      for (const a of f.answers) lines.push(`- repeat ${a.repeat}, ${a.outcome}: ${mdInline(a.answer ?? '(no answer)', maxText)}`);
    }
    if (r.flaky > r.flakyRows.length) lines.push('', moreLine(r.flaky - r.flakyRows.length, 'flaky row', ' not shown'));
  }
  return lines.join('\n');
}

function section(title: string, list: Capped, detail: (row: RowResult) => string): string {
  if (list.total === 0) return '';
  const parts = [`## ${title} (${list.total})`, ...list.rows.map(detail)];
  if (list.total > list.rows.length) parts.push(moreLine(list.total - list.rows.length, 'row', ' not shown'));
  return parts.join('\n\n');
}

/**
 * Errors and time-outs: a cause two rows or more share as one line with their ids, then the rows whose error is their
 * own in full.
 */
function errorSection(list: Capped, groups: readonly ErrorGroup[], detail: (row: RowResult) => string): string {
  if (list.total === 0) return '';
  const { own, hidden } = ownErrors(list.rows, list.total, groups);
  const parts = [`## ${SECTION_TITLES.errored} (${list.total})`];
  if (groups.length > 0) parts.push(groups.map((g) => `- ${mdInline(groupLine(g), 1500)}`).join('\n'));
  parts.push(...own.map(detail));
  if (hidden > 0) parts.push(moreLine(hidden, 'row', ' not shown'));
  return parts.join('\n\n');
}

function lostFeedbackSection(list: Capped): string {
  if (list.total === 0) return '';
  const lines = list.rows.map((r) => `- row ${mdInline(r.id)} (request ${mdInline(r.requestId ?? 'n/a')}): ${mdInline(r.feedbackError ?? r.error ?? 'no reason recorded', 300)}`);
  if (list.total > list.rows.length) lines.push(`- ${moreLine(list.total - list.rows.length, 'row')}`);
  return [`## Feedback not recorded (${list.total})`, '', ...lines].join('\n');
}

function unclosedSection(context: ReportContext): string {
  const { items, total } = context.sessionFailures;
  if (total === 0) return '';
  const lines = items.map((f) => `- session ${mdInline(f.sessionId)}: ${mdInline(f.error, 300)}`);
  if (total > items.length) lines.push(`- ${moreLine(total - items.length, 'session')}`);
  return [`## Sessions left open (${total})`, '', 'Closing these sessions failed; `sitechat cleanup` can close them later.', '', ...lines].join('\n');
}

/** Tags sorted by name, capped at 100; with a baseline, its pass rate per tag and the change. */
function byTag(s: RunSummary): string {
  const tags = Object.keys(s.byTag).sort();
  if (tags.length === 0) return '';
  const base = s.baseline?.byTag;
  const rows = tags.slice(0, 100).map((tag) => {
    const t = s.byTag[tag] ?? { total: 0, passed: 0, failed: 0, graded: 0 };
    const now = t.graded ? t.passed / t.graded : null;
    const cells = [mdInline(tag), String(t.total), String(t.passed), String(t.failed), rate(now)];
    if (base) {
      const b = base[tag];
      const then = b?.graded ? b.passed / b.graded : null;
      cells.push(rate(then), points(now === null || then === null ? null : now - then));
    }
    return cells;
  });
  const header = ['Tag', 'Rows', 'Passed', 'Failed', 'Pass rate', ...(base ? ['Baseline', 'Change'] : [])];
  const more = tags.length > 100 ? `\n\n${moreLine(tags.length - 100, 'tag')}` : '';
  return `## By tag\n\n${table(header, rows)}${more}`;
}

/** Rows whose latency leaves out time the runner could not watch: said next to the figures they are part of. */
export function unobservedNote(s: Pick<RunSummary, 'latencyMs'>): string {
  const n = s.latencyMs.unobservedRows;
  return n ? ` (${plural(n, 'row')} answered while the runner could not watch, e.g. a Temporal outage: that time is left out of their latency)` : '';
}
