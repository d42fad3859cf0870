/** Derived numbers, the targets, and the two renderings of one bench run: a terminal table and Markdown. */
import { multiSiteIdealMs, type MultiSiteMeasurement } from './multiSite';
import { heartbeatsPerAskAtScale1, type NaiveMeasurement, type RunnerMeasurement } from './scenarios';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
}

export interface BenchResults {
  date: string;
  commit: string;
  /** Uncommitted changes in the tree when the bench ran (paths). */
  dirty: string[];
  command: string;
  quick: boolean;
  machine: Machine;
  limit?: RunnerMeasurement;
  /** 150 rows at the limit through the CLI: the run's tail. */
  tail?: RunnerMeasurement;
  /** The limit scenario with 2 and 4 worker processes on this host. */
  workers?: RunnerMeasurement[];
  naive?: NaiveMeasurement;
  ceiling?: RunnerMeasurement;
  scale?: RunnerMeasurement;
  /** Scenario 6: one dataset against 3 sites in one run. */
  multiSite?: MultiSiteMeasurement;
  derived: Derived;
  totalMs: number;
}

export interface Cost {
  rows: number;
  events: number;
  eventsPerRow: number;
  historyActions: number;
  heartbeats: number;
  queries: number;
  actions: number;
  actionsPerRow: number;
  /** Heartbeats that reached the server per activity that heartbeats (ask; the local activities heartbeat while they work). */
  heartbeatsPerActivity: number;
}

export interface Derived {
  idealMs?: number;
  efficiency?: number;
  retries?: number;
  cost?: Cost;
  scaleCost?: Cost;
  runnerVsNaive?: number;
  /** Heartbeats per ask the real service's 5–30 s answers would cost, estimated (`heartbeatsPerAskAtScale1`). */
  heartbeatsPerAskAtScale1?: number;
  /** Parent history events per row of the scale run, and the row count at which the parent passes 10,240 events. */
  parentEventsPerRow?: number;
  parentLimitRows?: number;
  /** Multi-site: one site's ideal (all sites' budgets are separate), and ideal / wall. */
  multiSiteIdealMs?: number;
  multiSiteEfficiency?: number;
  /** The tail scenario's ideal and ideal / wall. */
  tailIdealMs?: number;
  tailEfficiency?: number;
}

export interface Target {
  name: string;
  measured: string;
  target: string;
  met: boolean | undefined;
}

export function costOf(m: RunnerMeasurement): Cost {
  const rows = m.scenario.rows;
  const historyActions = Object.values(m.histories.actions).reduce((a, b) => a + b, 0);
  const heartbeats = (m.frontend.RecordActivityTaskHeartbeat ?? 0) + (m.frontend.RecordActivityTaskHeartbeatById ?? 0);
  const queries = m.frontend.QueryWorkflow ?? 0;
  const actions = historyActions + heartbeats + queries;
  const a = m.histories.activitiesByType;
  const heartbeating = Math.max(1, a.ask ?? 0);
  return {
    rows, events: m.histories.totalEvents, eventsPerRow: m.histories.totalEvents / rows, historyActions, heartbeats, queries,
    actions, actionsPerRow: actions / rows, heartbeatsPerActivity: heartbeats / heartbeating,
  };
}

export function derive(r: Pick<BenchResults, 'limit' | 'tail' | 'naive' | 'ceiling' | 'scale' | 'multiSite'>): Derived {
  const d: Derived = {};
  if (r.tail) {
    d.tailIdealMs = idealMsOf(r.tail);
    d.tailEfficiency = d.tailIdealMs / r.tail.wallMs;
  }
  if (r.multiSite) {
    d.multiSiteIdealMs = multiSiteIdealMs(r.multiSite);
    d.multiSiteEfficiency = d.multiSiteIdealMs / r.multiSite.wallMs;
  }
  if (r.limit) {
    const rate = r.limit.scenario.sim.rateLimit;
    d.idealMs = (r.limit.scenario.rows / rate) * 1000 + r.limit.medianAnswerMs;
    d.efficiency = d.idealMs / r.limit.wallMs;
    d.retries = Object.values(r.limit.histories.retriesByType).reduce((a, b) => a + b, 0);
    d.cost = costOf(r.limit);
  }
  if (r.scale) {
    d.scaleCost = costOf(r.scale);
    d.parentEventsPerRow = r.scale.histories.parent.events / r.scale.scenario.rows;
    d.parentLimitRows = Math.floor(10_240 / d.parentEventsPerRow);
  }
  d.heartbeatsPerAskAtScale1 = heartbeatsPerAskAtScale1(7);
  if (r.limit && r.naive) d.runnerVsNaive = r.limit.throughputQps / r.naive.throughputQps;
  return d;
}

const f = (n: number | undefined, digits = 2): string => (n === undefined ? '–' : n.toFixed(digits));
const s = (ms: number | undefined): string => (ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);

export function targets(r: BenchResults): Target[] {
  const { limit, ceiling, scale, naive, derived: d } = r;
  const out: Target[] = [];
  if (limit) {
    out.push({ name: 'efficiency at the limit (ideal / wall)', measured: f(d.efficiency), target: '>= 0.95', met: (d.efficiency ?? 0) >= 0.95 });
    out.push({ name: '429 responses at the limit', measured: String(limit.sim.rateLimited), target: '0', met: limit.sim.rateLimited === 0 });
  }
  if (r.tail) {
    out.push({ name: `efficiency at the limit, ${r.tail.scenario.rows} rows`, measured: f(d.tailEfficiency, 3), target: '>= 0.98', met: (d.tailEfficiency ?? 0) >= 0.98 });
    const after = lastAnswerAfter(r.tail);
    out.push({ name: `${r.tail.scenario.rows} rows: last answer → run closed / exit`, measured: `${s(after.closed)} / ${s(after.exit)}`, target: 'measured', met: undefined });
  }
  for (const m of r.workers ?? []) {
    const efficiency = idealMsOf(m) / m.wallMs;
    out.push({ name: `${m.scenario.workers} workers at the limit: efficiency / 429s`, measured: `${f(efficiency)} / ${m.sim.rateLimited}`, target: '>= 0.95 / 0', met: efficiency >= 0.95 && m.sim.rateLimited === 0 });
  }
  if (ceiling) out.push({ name: 'engine ceiling (q/s, limits off)', measured: f(ceiling.throughputQps, 1), target: '>= 120', met: ceiling.throughputQps >= 120 });
  if (limit?.codec) {
    const { perRowUs, shareOfWorker } = codecPerRow(limit);
    out.push({ name: 'payload encryption per row (encode + decode)', measured: `${f(perRowUs, 0)} µs (${f(shareOfWorker * 100, 2)} % of worker CPU)`, target: '< 2 % of worker CPU', met: shareOfWorker < 0.02 });
  }
  if (d.cost) {
    out.push({ name: 'history events per single-turn row', measured: f(d.cost.eventsPerRow), target: '<= 10', met: d.cost.eventsPerRow <= 10 });
    out.push({ name: 'billable actions per single-turn row', measured: f(d.cost.actionsPerRow), target: '<= 1.6', met: d.cost.actionsPerRow <= 1.6 });
  }
  if (scale) {
    const complete = scale.summary.total === scale.scenario.rows && scale.summary.error === 0 && scale.summary.timedOut === 0;
    out.push({ name: `scale: ${scale.scenario.rows} rows complete`, measured: `${scale.summary.total} rows, ${scale.summary.error} errors, ${scale.summary.timedOut} timed out`, target: 'all rows, no error', met: complete });
    out.push({ name: 'scale: worker peak RSS', measured: `${f(scale.worker.peakRssMiB, 0)} MiB`, target: '< 400 MB', met: scale.worker.peakRssMiB * 1.048576 < 400 });
    out.push({ name: 'scale: largest history', measured: `${scale.histories.largest.events} events`, target: '<= 10,240', met: scale.histories.largest.events <= 10_240 });
  }
  if (r.multiSite) {
    const n = r.multiSite.scenario.sites.length;
    out.push({ name: `${n} sites in one run (1-site ideal / wall)`, measured: f(d.multiSiteEfficiency), target: '>= 0.90', met: (d.multiSiteEfficiency ?? 0) >= 0.9 });
    out.push({ name: `429 responses, ${n} sites`, measured: String(r.multiSite.rateLimited), target: '0', met: r.multiSite.rateLimited === 0 });
  }
  if (naive && limit) out.push({ name: 'runner / naive script throughput', measured: f(d.runnerVsNaive, 3), target: '>= 0.95', met: (d.runnerVsNaive ?? 0) >= 0.95 });
  return out;
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function runnerRow(name: string, m: RunnerMeasurement | undefined): string[] | undefined {
  if (!m) return undefined;
  const sc = m.scenario;
  return [
    name, String(sc.rows), `${sc.sim.rateLimit || 'off'} / ${sc.worker.ratePerSecond || 'off'}`, String(sc.sim.latencyScale), `${sc.worker.pollIntervalMs} ms`,
    String(sc.concurrency), s(m.wallMs), f(m.throughputQps, 1), f(m.steadyQps, 1), String(m.sim.rateLimited),
    `${f(m.worker.cores)} / ${f(m.worker.peakRssMiB, 0)} MiB`, `${f(m.server.cores)} / ${f(m.server.peakRssMiB, 0)} MiB`,
    m.cli ? `${f(m.cli.cores)} / ${f(m.cli.peakRssMiB, 0)} MiB` : '–',
  ];
}

function idleSeconds(m: RunnerMeasurement): number {
  const started = m.histories.series.askStarted;
  const first = started.findIndex((n) => n > 0);
  let last = started.length - 1;
  while (last > 0 && (started[last] ?? 0) === 0) last--;
  return started.slice(first, last + 1).filter((n) => n === 0).length;
}

/** Where the wall time went, from the activities' start and close times in the histories. */
function phases(m: RunnerMeasurement): string[][] {
  const t = m.histories.timeline;
  const ask = t.ask;
  if (!ask) return [];
  const submitS = (ask.lastStartMs - ask.firstStartMs) / 1000;
  const rate = m.histories.askStartsPerSecond;
  // One settleRows activity does both the settle and the record: both columns show its times.
  const tail = (name: string): string => {
    const span = t[name] ?? t.settleRows;
    return span ? `${s(span.lastCloseMs - ask.lastStartMs)}` : '–';
  };
  return [
    ['before the first question (prepare, preflight, chunk start, readPage)', s(ask.firstStartMs)],
    ['submit phase: first → last ask started', `${submitS.toFixed(1)} s = ${f((ask.count - 1) / submitS)} asks/s${rate ? ` (per second: min ${rate.min}, median ${rate.median}, max ${rate.max})` : ''}`],
    ['last ask started → last ask / settle (feedback + close) / recordRows closed', `${tail('ask')} / ${tail('settle')} / ${tail('recordRows')}`],
    ['last ask started → run closed', s(m.wallMs - ask.lastStartMs)],
    ['whole seconds with no question started, within the submit phase', String(idleSeconds(m))],
    ['chunks (start → close, s after the run started)', m.histories.series.chunks.map(([a, b]) => `${a}→${b}`).join(', ')],
    ['asks waiting in the submit task queue (schedule → start) p50 / p95', m.histories.askQueueMs ? `${s(m.histories.askQueueMs.p50)} / ${s(m.histories.askQueueMs.p95)}` : '–'],
  ];
}

/** From the run's last answer (the last ask's close) to its reports, its close and the CLI's exit. */
function lastAnswerAfter(m: RunnerMeasurement): { settled?: number; reports?: number; closed: number; exit?: number } {
  const last = m.histories.timeline.ask?.lastCloseMs ?? m.wallMs;
  const settled = m.histories.timeline.settleRows?.lastCloseMs;
  return {
    settled: settled === undefined ? undefined : settled - last,
    reports: m.summaryFinishedMs === undefined ? undefined : m.summaryFinishedMs - last,
    closed: m.wallMs - last,
    exit: m.cliExitMs === undefined ? undefined : m.cliExitMs - last,
  };
}

/** The codec's time per row (encrypting and decrypting once each), and its share of the worker's CPU per row. */
function codecPerRow(m: RunnerMeasurement): { perRowUs: number; shareOfWorker: number } {
  const c = m.codec as NonNullable<RunnerMeasurement['codec']>;
  const perRowMs = (c.encodeMs + c.decodeMs) / c.rows;
  return { perRowUs: perRowMs * 1000, shareOfWorker: perRowMs / (m.worker.cpuMs / m.scenario.rows) };
}

/** rows / rate + the median answer: the shortest possible wall time at the API's budget. */
function idealMsOf(m: RunnerMeasurement): number {
  return (m.scenario.rows / (m.scenario.worker.ratePerSecond || 5)) * 1000 + m.medianAnswerMs;
}

export function renderMarkdown(r: BenchResults): string {
  const { limit, naive, ceiling, scale, derived: d } = r;
  const parts: string[] = [];
  parts.push(`Measured ${r.date} at commit \`${r.commit.slice(0, 12)}\`${r.dirty.length ? ` (plus uncommitted: ${r.dirty.join(', ')})` : ''} on ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB RAM, Node ${r.machine.node}, ${r.machine.platform}.`);
  parts.push(`Command: \`${r.command}\` (${s(r.totalMs)} in all).`);
  parts.push('### Targets\n\n' + table(['target', 'measured', 'goal', 'met'], targets(r).map((t) => [t.name, t.measured, t.target, t.met === undefined ? '–' : t.met ? 'yes' : '**no**'])));
  const rows = [runnerRow('1. at the limit', limit), runnerRow('1c. the tail', r.tail), runnerRow('2. engine ceiling', ceiling), runnerRow('4. scale', scale)].filter((x): x is string[] => Boolean(x));
  if (rows.length > 0) parts.push('### Runner scenarios\n\n' + table(
    ['scenario', 'rows', 'rate limit sim / runner (/s)', 'latency scale', 'poll', 'concurrency', 'wall', 'q/s', 'steady q/s', '429s', 'worker CPU cores / peak RSS', 'Temporal server CPU / peak RSS', 'CLI CPU / peak RSS'],
    rows,
  ));
  if (limit) {
    parts.push('### 1. Throughput at the limit\n\n' + table(['metric', 'value'], [
      ['rows', String(limit.scenario.rows)],
      ['median answer time (simulator draws)', `${limit.medianAnswerMs} ms`],
      ['ideal = rows / 5 + median answer', s(d.idealMs)],
      ['wall (run workflow start → close)', s(limit.wallMs)],
      ['efficiency = ideal / wall', f(d.efficiency, 3)],
      ['429 responses (simulator)', String(limit.sim.rateLimited)],
      ['activity retries (attempts > 1, histories)', `${d.retries ?? 0} ${JSON.stringify(limit.histories.retriesByType)}`],
      ['peak requests in any 1 s per path (simulator)', Object.entries(limit.sim.peakRatePerPath).map(([k, v]) => `${k} ${v}`).join(', ')],
      ...phases(limit),
      ['duplicate submissions', String(limit.sim.duplicateSubmissions)],
      ['outcomes', `${limit.summary.passed} passed, ${limit.summary.failed} failed, ${limit.summary.error} error, ${limit.summary.timedOut} timed out`],
      ['runner-observed latency p50 / p95', `${limit.summary.latencyMs.p50 ?? '–'} / ${limit.summary.latencyMs.p95 ?? '–'} ms`],
    ]));
  }
  const { tail } = r;
  if (tail) {
    const after = lastAnswerAfter(tail);
    const ask = tail.histories.timeline.ask;
    parts.push(`### 1c. ${tail.scenario.rows} rows at the limit: the tail

` + table(['metric', 'value'], [
      ['rows / started by', `${tail.scenario.rows} / \`sitechat run --no-worker --json\` in its own process, one \`sitechat worker\``],
      ['median answer time (simulator draws)', `${tail.medianAnswerMs} ms`],
      ['ideal = rows / 5 + median answer', s(d.tailIdealMs)],
      ['wall (run workflow start → close)', s(tail.wallMs)],
      ['efficiency = ideal / wall', f(d.tailEfficiency, 3)],
      ['before the first question', s(ask?.firstStartMs)],
      ['last ask started → last answer', ask ? s(ask.lastCloseMs - ask.lastStartMs) : '–'],
      ['last answer → last feedback and close (settleRows) / summary.json finishedAt / run closed / CLI exit', `${s(after.settled)} / ${s(after.reports)} / ${s(after.closed)} / ${s(after.exit)}`],
      ['settleRows activities (per row)', `${tail.histories.activitiesByType.settleRows ?? 0} (${f((tail.histories.activitiesByType.settleRows ?? 0) / tail.scenario.rows)})`],
      ['billable actions per row', f(costOf(tail).actionsPerRow)],
      ['429 responses / duplicate submissions', `${tail.sim.rateLimited} / ${tail.sim.duplicateSubmissions}`],
      ['outcomes', `${tail.summary.passed} passed, ${tail.summary.failed} failed, ${tail.summary.error} error, ${tail.summary.timedOut} timed out`],
    ]));
  }
  const atLimit = [limit, ...(r.workers ?? [])].filter((m): m is RunnerMeasurement => m !== undefined);
  if (atLimit.length > 1) {
    parts.push('### 1b. Pacing with several workers on one host\n\n' + table(['worker processes', 'rows', 'wall', 'ideal', 'efficiency', '429s', 'peak per path in any 1 s', 'duplicate submissions', 'feedback failed'], atLimit.map((m) => {
      const ideal = idealMsOf(m);
      return [String(m.scenario.workers ?? 1), String(m.scenario.rows), s(m.wallMs), s(ideal), f(ideal / m.wallMs, 3), String(m.sim.rateLimited),
        Object.entries(m.sim.peakRatePerPath).map(([k, v]) => `${k} ${v}`).join(', '), String(m.sim.duplicateSubmissions), String(m.summary.feedback.failed)];
    })));
  }
  if (naive && limit) {
    parts.push('### 5. Side by side with the naive script\n\n' + table(['', 'runner', 'naive script'], [
      ['rows / concurrency', `${limit.scenario.rows} / ${limit.scenario.concurrency}`, `${naive.rows} / ${naive.concurrency}`],
      ['wall', s(limit.wallMs), s(naive.wallMs)],
      ['questions/s', f(limit.throughputQps, 3), f(naive.throughputQps, 3)],
      ['429 responses received', String(limit.sim.rateLimited), `${naive.sim.rateLimited} (${Object.entries(naive.result.rateLimited).map(([k, v]) => `${k} ${v}`).join(', ')})`],
      ['rows lost / errors', String(limit.summary.error), String(naive.result.errors)],
      ['CPU (cores) / peak RSS', `worker ${f(limit.worker.cores)} / ${f(limit.worker.peakRssMiB, 0)} MiB + server ${f(limit.server.cores)} / ${f(limit.server.peakRssMiB, 0)} MiB`, `${f(naive.process.cores)} / ${f(naive.process.peakRssMiB, 0)} MiB`],
      ['runner / script throughput', f(d.runnerVsNaive, 3), ''],
    ]));
  }
  if (ceiling) {
    parts.push('### 2. Engine ceiling\n\n' + table(['metric', 'value'], [
      ['rows / concurrency', `${ceiling.scenario.rows} / ${ceiling.scenario.concurrency}`],
      ['questions/s end to end (steady)', `${f(ceiling.throughputQps, 1)} (${f(ceiling.steadyQps, 1)})`],
      ['median answer time', `${ceiling.medianAnswerMs} ms`],
      ['worker CPU', `${f(ceiling.worker.cores)} cores, ${f(ceiling.worker.cpuMs / ceiling.scenario.rows, 1)} ms per row`],
      ['Temporal server CPU', `${f(ceiling.server.cores)} cores, ${f(ceiling.server.cpuMs / ceiling.scenario.rows, 1)} ms per row`],
      ['bench process CPU (simulator, Temporal client)', `${f(ceiling.harness.cores)} cores`],
      ['worker peak RSS (VmHWM) / when ready → sampled peak during the run', `${f(ceiling.worker.peakRssMiB, 0)} / ${f(ceiling.worker.startRssMiB, 0)} → ${f(ceiling.worker.runPeakRssMiB, 0)} MiB`],
    ]));
  }
  const label = (m: RunnerMeasurement, id: string): string => (id === m.histories.parent.workflowId ? 'parent' : id.replace(/^.*\//, ''));
  for (const [title, cost, m, first] of [['3. Temporal cost per row (run at the limit)', d.cost, limit, true], ['3b. Temporal cost per row (scale run, CLI following)', d.scaleCost, scale, false]] as const) {
    if (!cost || !m) continue;
    parts.push(`### ${title}\n\n` + table(['item', 'count', 'per row'], [
      ['history events (all workflows)', String(cost.events), f(cost.eventsPerRow)],
      ...Object.entries(m.histories.actions).map(([k, v]) => [`action: ${k}`, String(v), f(v / cost.rows, 3)]),
      ['action: heartbeats that reached the server', String(cost.heartbeats), `${f(cost.heartbeats / cost.rows, 3)} (${f(cost.heartbeatsPerActivity)} per ask activity)`],
      ['action: queries', String(cost.queries), f(cost.queries / cost.rows, 3)],
      ['**billable actions**', `**${cost.actions}**`, `**${f(cost.actionsPerRow)}**`],
    ]) + (first ? `\n\nAt the real service's 5–30 s answers an ask would send ≈ ${f(d.heartbeatsPerAskAtScale1, 3)} heartbeats (estimate from the simulator's latency distribution: none before its answer has taken half the ask's 60 s heartbeat timeout; measured by \`npm run bench:heartbeats\`).` : '') + `\n\nEvents by type: ${Object.entries(m.histories.eventsByType).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}.` +
      (m.histories.workflowTaskFailures.length ? `\nFailed workflow tasks: ${m.histories.workflowTaskFailures.map((w) => `${w.workflowId.replace(/^.*\//, '')} ${w.cause} (${w.message})`).join('; ')}.` : '') +
      `\nActivities: ${Object.entries(m.histories.activitiesByType).map(([k, v]) => `${k} ${v}`).join(', ')}. Workflows: ${m.histories.workflows}; parent ${m.histories.parent.events} events, largest ${label(m, m.histories.largest.workflowId)} ${m.histories.largest.events} events / ${f(m.histories.largest.bytes / 1024, 0)} KiB.`);
  }
  if (scale) {
    parts.push('### 4. Scale\n\n' + table(['metric', 'value'], [
      ['rows', String(scale.scenario.rows)],
      ['outcomes', `${scale.summary.total} recorded: ${scale.summary.passed} passed, ${scale.summary.failed} failed, ${scale.summary.error} error, ${scale.summary.timedOut} timed out, ${scale.summary.skipped} skipped`],
      ['wall / questions/s', `${s(scale.wallMs)} / ${f(scale.throughputQps, 1)}`],
      ['worker peak RSS (VmHWM, start-up included)', `${f(scale.worker.peakRssMiB, 0)} MiB`],
      ['worker RSS when ready (workflows bundled) → sampled peak during the run', `${f(scale.worker.startRssMiB, 0)} → ${f(scale.worker.runPeakRssMiB, 0)} MiB (ready after ${s(scale.worker.readyMs)})`],
      ['CLI peak RSS', `${f(scale.cli?.peakRssMiB, 0)} MiB`],
      ['Temporal server peak RSS', `${f(scale.server.peakRssMiB, 0)} MiB`],
      ['workflows', `${scale.histories.workflows} (parent + chunks)`],
      ['parent history', `${scale.histories.parent.events} events, ${f(scale.histories.parent.bytes / 1024, 0)} KiB`],
      ['largest history', `${label(scale, scale.histories.largest.workflowId)}: ${scale.histories.largest.events} events, ${f(scale.histories.largest.bytes / 1024, 0)} KiB`],
      ['all histories', `${scale.histories.totalEvents} events, ${f(scale.histories.totalBytes / 1024 / 1024, 1)} MiB`],
      ['parent growth', `${f(d.parentEventsPerRow, 3)} events per row → passes 10,240 events at ≈ ${d.parentLimitRows?.toLocaleString('en-US') ?? '–'} rows`],
      ['CLI progress queries (billable)', `${scale.frontend.QueryWorkflow ?? 0} in ${s(scale.wallMs)}`],
    ]));
  }
  const codec = limit?.codec;
  if (limit && codec) {
    const { perRowUs, shareOfWorker } = codecPerRow(limit);
    parts.push('### 7. Encrypted payloads: the codec\'s cost per row (run at the limit)\n\n' + table(['metric', 'value'], [
      ['payloads in the histories (groups the codec is called with)', `${codec.payloads} (${codec.groups}), ${f(codec.payloads / codec.rows, 1)} per row`],
      ['their size per row: clear → encrypted', `${f(codec.clearBytes / codec.rows / 1024, 2)} → ${f(codec.sealedBytes / codec.rows / 1024, 2)} KiB (+${f(((codec.sealedBytes - codec.clearBytes) / codec.clearBytes) * 100, 1)} %)`],
      ['encrypt every payload once, per row', `${f((codec.encodeMs / codec.rows) * 1000, 1)} µs`],
      ['decrypt every payload once, per row', `${f((codec.decodeMs / codec.rows) * 1000, 1)} µs`],
      ['both, against the worker\'s CPU per row', `${f(perRowUs, 0)} µs of ${f(limit.worker.cpuMs / limit.scenario.rows, 1)} ms (${f(shareOfWorker * 100, 2)} %)`],
    ]) + `\n\nAES-256-GCM (node:crypto) over each payload of run 1's ${limit.histories.workflows} histories, in this process, median of ${codec.passes} passes (bench/codecCost.ts). A payload is encrypted once by the process that writes it and decrypted by each reader: the workflow's worker (again after a cache eviction), queries, \`watch\`. Query results and heartbeats that never reach a history are not counted.`);
  }
  const ms = r.multiSite;
  if (ms) {
    parts.push('### 6. Multi-site run\n\n' + table(['metric', 'value'], [
      ['sites × rows / concurrency per site', `${ms.scenario.sites.length} × ${ms.scenario.rowsPerSite} / ${ms.scenario.concurrency}`],
      ['rate limit sim / runner (/s per path, per site)', `${ms.scenario.sim.rateLimit} / ${ms.scenario.sim.rateLimit}`],
      ['median answer time (simulator draws)', `${ms.medianAnswerMs} ms`],
      ['ideal = one site: rows / 5 + median answer', s(d.multiSiteIdealMs)],
      ['wall (parent workflow start → close)', s(ms.wallMs)],
      ['efficiency = ideal / wall', f(d.multiSiteEfficiency, 3)],
      ['each site (its run start → close)', ms.perSite.map((x) => `${x.siteId} ${s(x.wallMs)} (${x.rows} rows, ${x.errors} errors, ${x.verdict})`).join('; ')],
      ['questions/s, all sites', f((ms.scenario.rowsPerSite * ms.scenario.sites.length) / (ms.wallMs / 1000), 1)],
      ['429 responses (simulator) / questions accepted', `${ms.rateLimited} / ${ms.submitted}`],
      ['peak requests in any 1 s per path', Object.entries(ms.peakRatePerPath).map(([k, v]) => `${k} ${v}`).join(', ')],
      ['worker CPU cores / peak RSS', `${f(ms.worker.cores)} / ${f(ms.worker.peakRssMiB, 0)} MiB`],
    ]));
  }
  return parts.join('\n\n');
}

/** A short terminal summary: the targets, then one line per scenario. */
export function renderTerminal(r: BenchResults): string {
  const pad = (t: string, n: number): string => (t.length >= n ? t : t + ' '.repeat(n - t.length));
  const lines = targets(r).map((t) => `${t.met === undefined ? ' ' : t.met ? '✓' : '✗'} ${pad(t.name, 42)} ${pad(t.measured, 36)} (target ${t.target})`);
  return lines.join('\n');
}
