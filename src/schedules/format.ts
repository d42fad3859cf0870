import type { ScheduleDetails, ScheduleView } from './manage';

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text.padEnd(width);
}

/** One line per schedule: id, kind, cron, state, next run, last run. */
export function formatScheduleList(views: ScheduleView[]): string[] {
  if (views.length === 0) return ['No schedules. Create one with: npx sitechat schedule create nightly --cron "0 2 * * *" --dataset FILE'];
  const lines = [`${pad('ID', 28)}${pad('KIND', 9)}${pad('CRON', 16)}${pad('STATE', 8)}${pad('NEXT RUN', 26)}LAST RUN`];
  for (const v of views) {
    const kind = v.kind ?? v.workflowType ?? '?';
    const cron = v.cron === undefined ? '?' : `${v.cron}${v.timezone ? ` ${v.timezone}` : ''}`;
    lines.push(`${pad(v.id, 28)}${pad(kind, 9)}${pad(cron, 16)}${pad(v.paused ? 'paused' : 'active', 8)}${pad(v.paused ? '- (paused)' : (v.nextRuns[0] ?? '-'), 26)}${v.recentRuns.at(-1)?.workflowId ?? '-'}`);
  }
  return lines;
}

/** What a schedule's action runs, in a few words, from its (sitechat-made) input. */
function inputLines(d: ScheduleDetails): string[] {
  const input = d.input as Record<string, unknown> | undefined;
  if (input === undefined) return [];
  const options = input.options as Record<string, unknown> | undefined;
  if (options !== undefined) {
    const dataset = (input.dataset as { path?: string } | undefined)?.path;
    const parts = [`dataset ${dataset ?? '?'}`, `site ${String(options.siteId)}`, `concurrency ${String(options.concurrency)}`];
    if (options.baseline !== undefined) parts.push(`baseline ${String(options.baseline)}`);
    if (options.failUnder !== undefined) parts.push(`fail under ${String(options.failUnder)}`);
    if (options.maxUncertainRate !== undefined) parts.push(`max uncertain ${String(options.maxUncertainRate)}`);
    if (options.repeat !== undefined) parts.push(`repeat ${String(options.repeat)}`);
    if (options.confirm !== undefined) parts.push(`confirm ${String(options.confirm)}`);
    return [`  runs         ${parts.join(', ')}`];
  }
  const rule = ['email', 'idleForMs', 'createdBefore', 'max', 'dryRun']
    .filter((k) => input[k] !== undefined)
    .map((k) => `${k} ${JSON.stringify(input[k])}`);
  return [`  cleans       site ${String(input.siteId)}${rule.length > 0 ? `, ${rule.join(', ')}` : ''}`];
}

/** The description of one schedule. */
export function formatScheduleDetails(d: ScheduleDetails): string[] {
  const lines = [
    `Schedule ${d.id} (${d.kind ?? 'not created by sitechat'})`,
    `  cron         ${d.cron ?? '?'}${d.timezone ? ` (${d.timezone})` : ' (UTC)'}`,
    `  state        ${d.paused ? 'paused' : 'active'}${d.note ? ` — ${d.note}` : ''}`,
    `  starts       ${d.workflowType ?? '?'} on ${d.taskQueue ?? '?'} as ${d.workflowId ?? '?'}-<time>`,
    ...inputLines(d),
    `  policies     overlap ${d.overlap}, catch-up window ${Math.round(d.catchupWindowMs / 1000)} s, pause on failure ${d.pauseOnFailure ? 'yes' : 'no'}`,
    `  actions      ${d.actionsTaken} taken, ${d.skippedOverlap} skipped (overlap), ${d.missedCatchup} missed (catch-up window)`,
  ];
  for (const r of d.running) lines.push(`  running      ${r}`);
  if (d.recentOutcomes) {
    for (const o of d.recentOutcomes) {
      const what = o.verdict === undefined ? o.status.toLowerCase() : o.verdict;
      lines.push(`  recent       ${o.runId}  ${what}${o.report ? `  ${o.report}` : ''}`);
    }
    const last = d.recentOutcomes.at(-1);
    if (last) lines.push(`  follow       npx sitechat watch ${last.runId}`);
  } else {
    for (const r of d.recentRuns.slice(-5)) lines.push(`  recent       ${r.workflowId} (taken ${r.takenAt})`);
  }
  if (d.paused) lines.push(`  next         none while paused (npx sitechat schedule unpause ${d.id})`);
  for (const t of d.nextRuns) lines.push(`  next         ${t}`);
  return lines;
}
