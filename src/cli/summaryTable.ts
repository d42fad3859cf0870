import type { RunSummary } from '../reports/types';

function pct(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

function ms(value: number | null): string {
  if (value === null) return 'n/a';
  return value < 1000 ? `${Math.round(value)}ms` : `${(value / 1000).toFixed(1)}s`;
}

/** The summary a person reads at the end of a run; the full detail is in the report files. */
export function summaryTable(s: RunSummary): string {
  const lines = [
    `run        ${s.runId} (${s.kind}) — ${s.dataset} on site ${s.siteId}${s.model ? `, model ${s.model}` : ''}`,
    `rows       ${s.total}: passed ${s.passed}, failed ${s.failed}, answered ${s.answered}, error ${s.error}, timed_out ${s.timedOut}, skipped ${s.skipped}${s.missing ? `, MISSING ${s.missing}` : ''}`,
  ];
  if (s.kind === 'evaluation') lines.push(`pass rate  ${pct(s.passRate)} (${s.passed}/${s.graded} graded)`);
  lines.push(`latency    p50 ${ms(s.latencyMs.p50)}, p95 ${ms(s.latencyMs.p95)}, max ${ms(s.latencyMs.max)}`);
  if (s.kind === 'evaluation') lines.push(`feedback   good ${s.feedback.good}, bad ${s.feedback.bad}, failed ${s.feedback.failed}`);
  lines.push(`sessions   opened ${s.sessions.opened}, closed ${s.sessions.closed ?? 'n/a'}`);
  if (s.durationMs !== null) lines.push(`duration   ${ms(s.durationMs)}`);
  const errors = Object.entries(s.errorsByType);
  if (errors.length > 0) lines.push(`errors     ${errors.map(([t, n]) => `${t} ${n}`).join(', ')}`);
  if (s.baseline) {
    const b = s.baseline;
    const delta = b.delta === null ? 'n/a' : `${b.delta >= 0 ? '+' : ''}${(b.delta * 100).toFixed(1)} pts`;
    lines.push(`baseline   ${b.runId}: ${pct(b.passRate)} → ${pct(s.passRate)} (${delta}); regressed ${b.regressed.length}, fixed ${b.fixed.length}, McNemar p=${b.mcnemar.pValue.toFixed(3)}${b.mcnemar.significant ? ' (significant)' : ' (within noise)'}`);
  }
  if (s.gate) {
    lines.push(`gate       ${s.gate.passed ? 'passed' : 'FAILED'}`);
    for (const reason of s.gate.reasons) lines.push(`           - ${reason}`);
  }
  return lines.join('\n');
}
