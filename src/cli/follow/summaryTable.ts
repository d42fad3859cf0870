import { causeLine } from '../../analysis/cause';
import { verdictLabel } from '../../analysis/gate';
import { plural } from '../../shared/plural';
import { GateVerdict, type RunSummary } from '../../domain/results';
import { askedTwiceText, escalationLine, judgeLine, reaskedLine, reviewedLine } from '../../render/escape';
import { confirmationText, kOfNEntries, repeatRateText, repeatRowsText } from '../../render/repeatText';
import { overallLabel } from '../../analysis/multiSite';
import { type MultiSiteSummary } from '../../domain/multiSite';
import { siteLines } from './siteTable';

function pct(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

function ms(value: number | null): string {
  if (value === null) return 'n/a';
  return value < 1000 ? `${Math.round(value)}ms` : `${(value / 1000).toFixed(1)}s`;
}

const INDENT = '           ';

/** The verdict lines: PASSED / FAILED with every reason / CANCELLED / no quality threshold set. */
function verdictLines(s: RunSummary): string[] {
  if (s.kind !== 'evaluation') return s.cancelled ? ['verdict    CANCELLED (unsent rows are recorded as skipped)'] : [];
  if (!s.gate) return s.cancelled ? ['verdict    CANCELLED'] : [];
  const g = s.gate;
  const sites = (s as Partial<MultiSiteSummary>).sites;
  const label = Array.isArray(sites) ? overallLabel(g.verdict, sites, verdictLabel) : verdictLabel(g.verdict);
  const lines = [`verdict    ${label}${g.verdict === GateVerdict.noThreshold ? ' (pass --fail-under or --baseline to judge the answers)' : ''}`];
  for (const reason of g.reasons) lines.push(`${INDENT}- ${reason}`);
  for (const warning of g.warnings) {
    if (g.verdict !== GateVerdict.noThreshold || !warning.startsWith('no quality threshold set')) lines.push(`${INDENT}! ${warning}`);
  }
  const t = s.gateSettings;
  if (t) {
    const parts = [
      `fail-under ${t.failUnder === undefined ? 'none' : pct(t.failUnder)}`,
      `max-error-rate ${pct(t.maxErrorRate)}`,
      ...(t.maxUncertainRate === undefined ? [] : [`max-uncertain-rate ${pct(t.maxUncertainRate)}`]),
      `side-effect failures ${t.allowSideEffectFailures ? 'allowed' : 'fail'}`,
      `baseline ${t.baseline ?? 'none'}`,
    ];
    lines.push(`gate       ${parts.join(', ')}`);
  }
  return lines;
}

function baselineLines(s: RunSummary): string[] {
  const lines: string[] = [];
  const sel = s.baselineSelection;
  if (s.baseline) {
    const b = s.baseline;
    const delta = b.delta === null ? 'n/a' : `${b.delta >= 0 ? '+' : ''}${(b.delta * 100).toFixed(1)} pts`;
    const test = b.repeated
      ? `CMH p = ${b.repeated.pValue.toPrecision(3)}, mean per-row drop ${(b.repeated.drop * 100).toFixed(1)} pts${b.repeated.significant ? ' (significant)' : ' (within noise or below the minimum drop)'}`
      : `McNemar p = ${b.mcnemar.pValue.toPrecision(3)}${b.mcnemar.significant ? ' (significant)' : ' (within noise)'}`;
    lines.push(`baseline   ${b.runId}: ${pct(b.passRate)} → ${pct(s.passRate)} (${delta}); ${b.repeated ? 'rows fell' : 'regressed'} ${b.regressed.length}, ${b.repeated ? 'rose' : 'fixed'} ${b.fixed.length}, ${test}`);
    if (b.confirmation) lines.push(`${INDENT}confirmed: ${confirmationText(b.confirmation)}`);
    if (sel?.chosen && sel.requested === 'latest') lines.push(`${INDENT}chosen: ${sel.chosen.reason}`);
  } else if (sel?.message) {
    lines.push(`baseline   none: ${sel.message}`);
  }
  if (sel && sel.skipped.length > 0) {
    lines.push(`${INDENT}passed over: ${sel.skipped.slice(0, 5).map((x) => `${x.runId} (${x.reason})`).join('; ')}${sel.skipped.length + sel.skippedMore > 5 ? ` … ${sel.skipped.length + sel.skippedMore - 5} more` : ''}`);
  }
  return lines;
}

/**
 * The summary a person reads at the end of a run; the full detail is in the report files.
 * @param firstErrors the first row's message of each error type (see `errorSamplesFor`), when known
 */
export function summaryTable(s: RunSummary, firstErrors: Readonly<Record<string, string>> = {}): string {
  const lines = [
    `run        ${s.runId} (${s.kind}) — ${s.dataset} on site ${s.siteId}${s.model ? `, model ${s.model}` : ''}${s.cancelled ? ' — CANCELLED' : ''}`,
    // The cause most errors share, right under the run it is of: the error lines below only detail it.
    ...(s.cause ? [`cause      ${causeLine(s.cause)}`] : []),
    `rows       ${s.total}: passed ${s.passed}, failed ${s.failed}, uncertain ${s.uncertain ?? 0}, answered ${s.answered}, error ${s.error}, timed_out ${s.timedOut}, skipped ${s.skipped}${s.missing ? `, MISSING ${s.missing}` : ''}`,
  ];
  if (s.kind === 'evaluation') {
    const review = s.uncertain ? `; ${plural(s.uncertain, 'uncertain row')} ${s.uncertain === 1 ? 'needs' : 'need'} review, not in the pass rate` : '';
    lines.push(`pass rate  ${pct(s.passRate)} (${s.passed}/${s.graded} graded${review})`);
    if (s.repeats) {
      lines.push(`repeats    ${repeatRowsText(s.repeats)}`);
      lines.push(`${INDENT}pass rate ${repeatRateText(s.repeats)}`);
      lines.push(`${INDENT}rows by passes: ${kOfNEntries(s.repeats).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    }
  }
  lines.push(`latency    p50 ${ms(s.latencyMs.p50)}, p95 ${ms(s.latencyMs.p95)}, max ${ms(s.latencyMs.max)}`);
  if (s.kind === 'evaluation') lines.push(`feedback   good ${s.feedback.good}, bad ${s.feedback.bad}, failed ${s.feedback.failed}`);
  if (s.judge) lines.push(`judge      ${judgeLine(s.judge)}`);
  if (s.escalated) lines.push(`escalated  ${escalationLine(s.escalated)}`);
  if (s.reviewed) lines.push(`reviewed   ${reviewedLine(s.reviewed)}`);
  lines.push(`sessions   opened ${s.sessions.opened}, closed ${s.sessions.closed ?? 'n/a'}${s.sessions.closeFailed ? `, NOT CLOSED ${s.sessions.closeFailed}` : ''}`);
  if (s.sessionsLeftOpen) lines.push(`left open  ${plural(s.sessionsLeftOpen.count, 'session')} the API has but the run could not close (asked, no answer recorded): ${s.sessionsLeftOpen.sessionIds.slice(0, 3).join(', ')}${s.sessionsLeftOpen.count > 3 ? ' …' : ''} — close them with \`npx sitechat cleanup\``);
  if (s.reasked) lines.push(`asked again ${reaskedLine(s.reasked)}: ${s.reasked.rowIds.slice(0, 5).join(', ')}${s.reasked.rows > 5 ? ' …' : ''}`);
  if (s.askedTwice?.count) lines.push(`asked twice ${askedTwiceText(s.askedTwice)}: ${s.askedTwice.rowIds.slice(0, 5).join(', ')}${s.askedTwice.count > 5 ? ' …' : ''}`);
  if (s.durationMs !== null) lines.push(`duration   ${ms(s.durationMs)}`);
  // Most frequent first; each type with its first row's message, so the cause is readable here, not only its class.
  const errors = Object.entries(s.errorsByType).sort((a, b) => b[1] - a[1]);
  for (const [i, [type, n]] of errors.entries()) {
    const first = firstErrors[type];
    lines.push(`${i === 0 ? 'errors     ' : INDENT}${type} ${n}${first ? `: ${first}` : ''}`);
  }
  lines.push(...siteLines(s), ...baselineLines(s), ...verdictLines(s));
  return lines.join('\n');
}
