/**
 * What scripts/record-histories.ts records: one scenario per shape of history the workflows make today. Each runs
 * real workflows on tiny datasets against the simulator, waits for the end, and throws when the run did not take the
 * path it is meant to record (a cancel that came too late, a cleanup that never continued as new), so a fixture
 * always shows what its name says.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowFailedError, type Client, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { NotifySpec } from '../../src/domain/notify';
import type { CleanupInput, CleanupReport } from '../../src/cleanup/types';
import { CLEANUP_WORKFLOW_TYPE } from '../../src/cleanup/workflow';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import { DEMO } from '../../src/sim/constants';
import type { SimulatorHandle } from '../../src/sim';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { startWorkflow, type Workflows } from '../../workflows/starts';
import { MULTI_SITE_WORKFLOW_TYPE } from '../../workflows/multiSiteSignals';
import type { MultiSiteInput } from '../../src/domain/multiSite';
import { labelFeedbackWorkflowId, type LabelFeedbackInput } from '../../workflows/labelFeedbackTypes';
import { cancelSignal } from '../../workflows/signals';
import type { RowResult } from '../../src/domain/results';
import type { RunInput, RunKind, RunOptions, RunResult } from '../../src/domain/run';
import { activitiesScheduled, activityTypesIn, decodedText, peakOpenChildren, type CollectedHistory } from './collect';

export interface ScenarioContext {
  client: Client;
  sim: SimulatorHandle;
  /** This recording's temporary folder: datasets, reports, answers files. */
  dir: string;
  /** The workers' runs directory (their file results store). */
  runsDir: string;
  /** Writes a CSV dataset into `dir` and returns the reference a run carries. */
  dataset(name: string, header: string, rows: string[]): Promise<RunInput['dataset']>;
}

export interface Scenario {
  name: string;
  /** What its histories show; printed by `--list`. */
  about: string;
  /** Workflow types whose histories are kept. @default every type that ran */
  keep?: readonly string[];
  /** SITECHAT_PAYLOAD_KEYS of the scenario's client and workers. @default none: clear payloads */
  payloadKeys?: string;
  /** Starts the workflow and waits until it has ended; throws when it ended some other way than the scenario needs. */
  run(ctx: ScenarioContext): Promise<{ workflowId: string; firstExecutionRunId: string }>;
  /** A problem with the collected histories, or undefined when they show what the scenario is for. */
  check?(histories: CollectedHistory[]): string | undefined;
}

/** The sites of the multi-site scenario; the simulator must know them (`demoFixturesWithSites`). */
export const MULTI_SITES = [DEMO.siteId, 'demo-site-2'];

/**
 * The payload keys of the `encrypted` scenario: a fixed test key (never a real one), which the replay test decodes
 * the recorded ciphertext with.
 */
export const RECORDING_PAYLOAD_KEYS = 'rec-test:c2l0ZWNoYXQgcmVwbGF5IGZpeHR1cmVzIHRlc3Qta2U=';

/** Longest question the simulator must accept: the open-chunks scenario fills pages by size, not by row count. */
export const MAX_MESSAGE_LENGTH = 16_000;

/** The run workflow's bound on open chunks (workflows/runPages.ts, `MAX_OPEN_CHUNKS`). */
const MAX_OPEN_CHUNKS = 8;
const DAY = 86_400_000;

const OPTIONS: RunOptions = {
  siteId: DEMO.siteId, concurrency: 4, feedback: 'graded', answerTimeoutMs: 30_000, defaultEmail: 'qa@example.com',
  assertions: [], closeSessions: true, mode: 'async',
};

const QUESTIONS = {
  price: 'How much does the Personal plan cost?',
  storage: 'How much storage do I get for free?',
  refund: 'Can I get a refund for my annual subscription?',
  payment: 'Which payment methods do you accept?',
};

function must(ok: boolean, scenario: string, problem: string): void {
  if (!ok) throw new Error(`scenario ${scenario}: ${problem}`);
}

/** Fixed ids, so a re-recording names its workflows (and fixture files) the same way. */
async function startRun(ctx: ScenarioContext, scenario: string, kind: RunKind, dataset: RunInput['dataset'], options: Partial<RunOptions> = {}): Promise<WorkflowHandleWithFirstExecutionRunId<Workflows['evaluationRun' | 'backfillRun']>> {
  const runId = `rec-${scenario}`;
  const input: RunInput = { kind, runId, dataset, options: { ...OPTIONS, ...options } };
  return startWorkflow(ctx.client, kind === 'evaluation' ? 'evaluationRun' : 'backfillRun', {
    taskQueue: TaskQueue.main, workflowId: `sitechat-${kind}-${runId}`, args: [input],
  });
}

function ids(handle: WorkflowHandleWithFirstExecutionRunId): { workflowId: string; firstExecutionRunId: string } {
  return { workflowId: handle.workflowId, firstExecutionRunId: handle.firstExecutionRunId };
}

const evaluation: Scenario = {
  name: 'evaluation',
  about: 'evaluationRun and its chunk: single-turn rows (one failing its assertion) and a two-turn conversation; graded feedback, sessions closed',
  async run(ctx) {
    const dataset = await ctx.dataset('evaluation', 'id,conversation,turn,question,must_include', [
      `s1,,,${QUESTIONS.price},$9.99`,
      `s2,,,${QUESTIONS.storage},5 GB`,
      `s3,,,${QUESTIONS.payment},gold bars`,
      'c1-1,share,1,How do I share a folder?,Share',
      'c1-2,share,2,Can I protect the link with a password?,password',
    ]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset);
    const { summary } = await handle.result();
    must(summary.total === 5 && summary.passed > 0 && summary.failed > 0, this.name, `expected passes and failures of 5 rows, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
};

const apiError: Scenario = {
  name: 'evaluation-api-error',
  about: 'evaluationRun whose middle row the API refuses (400 for an unknown model): that row ends `error`, the others pass',
  async run(ctx) {
    const dataset = await ctx.dataset('api-error', 'id,question,model,must_include', [
      `e1,${QUESTIONS.price},,$9.99`,
      `e2,${QUESTIONS.storage},no-such-model,5 GB`,
      `e3,${QUESTIONS.refund},,14 days`,
    ]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset);
    const { summary } = await handle.result();
    must(summary.error === 1 && summary.passed === 2, this.name, `expected 1 error and 2 passes, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
};

const stopEarly: Scenario = {
  name: 'evaluation-stop-early',
  about: 'evaluationRun whose first 10 questions all get 400 for an unknown model: page 0 stops asking, tells the run at once, the rest `skipped`, the run fails with RunAborted',
  async run(ctx) {
    const rows = Array.from({ length: 16 }, (_, i) => `x${i + 1},${QUESTIONS.price},no-such-model,$9.99`);
    const handle = await startRun(ctx, this.name, 'evaluation', await ctx.dataset('stop-early', 'id,question,model,must_include', rows));
    const failure = await handle.result().then(() => undefined, (err: unknown) => err);
    const cause = failure instanceof WorkflowFailedError ? failure.cause : undefined;
    must(cause instanceof ApplicationFailure && cause.type === 'RunAborted' && /^the first 10 questions all got 400/u.test(cause.message), this.name,
      `expected the run to stop on its first 10 questions' 400, got ${String(failure)}`);
    return ids(handle);
  },
  check: (histories) => {
    const chunk = histories.find((h) => h.workflowType === 'runChunk');
    const asks = chunk ? activitiesScheduled(chunk.history, 'ask') : 0;
    return asks > 0 && asks < 16 ? undefined : `expected page 0 to stop before its 16th question, it scheduled ${asks} asks`;
  },
};

const judged: Scenario = {
  name: 'evaluation-judge',
  about: 'evaluationRun graded by the LLM judge (the simulator\'s judge route): judge-cache lookups and judge activities in the chunk',
  async run(ctx) {
    const dataset = await ctx.dataset('judge', 'id,question,expected,rubric', [
      `j1,${QUESTIONS.price},$9.99 per month,mentions $9.99 per month`,
      `j2,${QUESTIONS.payment},Only gold bars delivered by courier,mentions PayPal`,
    ]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset, { assertions: [{ type: 'llm-correctness' }] });
    const { summary } = await handle.result();
    must((summary.judge?.calls ?? 0) > 0 && summary.error === 0, this.name, `expected judge calls and no errors, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
  check: (histories) =>
    histories.some((h) => activityTypesIn(h.history).includes('judge')) ? undefined : 'no history scheduled a `judge` activity',
};

const uncertain: Scenario = {
  name: 'evaluation-uncertain',
  about: "evaluationRun with three-way grades: rows the `reference` grader is uncertain about are escalated to the judge (lookupEscalation, then judge), decided rows are not",
  async run(ctx) {
    const dataset = await ctx.dataset('uncertain', 'id,question,expected', [
      `u1,${QUESTIONS.price},$9.99 per month`,
      `u2,${QUESTIONS.payment},Only gold bars delivered by courier`,
      `u3,${QUESTIONS.storage},"Five gigabytes, shared with your whole household"`,
    ]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset);
    const { summary } = await handle.result();
    must(summary.escalated?.rows === 1 && summary.passed + summary.failed === 3, this.name, `expected 1 escalated row of 3 graded, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
  check: (histories) => {
    const types = histories.flatMap((h) => activityTypesIn(h.history));
    return types.includes('lookupEscalation') && types.includes('judge') ? undefined : 'no history escalated a row (lookupEscalation, then judge)';
  },
};

const labelled: Scenario = {
  name: 'evaluation-labelled',
  about: "evaluationRun with labels first: a first run, a person's label of one of its rows, then this run of the same dataset settles that row by the label (no judge for it) and grades the others",
  async run(ctx) {
    const dataset = await ctx.dataset('labelled', 'id,question,expected', [
      `l1,${QUESTIONS.price},$9.99 per month`,
      `l2,${QUESTIONS.storage},"Five gigabytes, shared with your whole household"`,
    ]);
    const first = await startRun(ctx, `${this.name}-first`, 'evaluation', dataset);
    await first.result();
    const store = new FileResultsStore(ctx.runsDir);
    const rows: RowResult[] = [];
    for await (const row of store.read(`rec-${this.name}-first`)) rows.push(row);
    const target = rows.find((r) => r.id === 'l2');
    must(target?.labelKey !== undefined, this.name, 'the first run recorded no label key for row l2');
    await store.putLabels([{
      key: target?.labelKey as string, siteId: DEMO.siteId, question: target?.question ?? '', references: [target?.expected ?? ''],
      answer: target?.answer ?? '', verdict: 'fail', note: 'recorded scenario', by: 'recorder', at: '2026-01-01T00:00:00.000Z',
    }]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset);
    await handle.result();
    const decided: RowResult[] = [];
    for await (const row of store.read(`rec-${this.name}`)) decided.push(row);
    const byLabel = decided.filter((r) => r.decision?.by === 'label').map((r) => r.id);
    must(byLabel.length === 1 && byLabel[0] === 'l2', this.name, `expected row l2 alone settled by its label, got ${JSON.stringify(byLabel)}`);
    return ids(handle);
  },
};

const labelFeedbackScenario: Scenario = {
  name: 'label-feedback',
  about: 'labelFeedback (`sitechat review`): a labelled row\'s feedback through settle on the feedback queue, then recordLabelFeedback',
  keep: ['labelFeedback'],
  async run(ctx) {
    const dataset = await ctx.dataset('label-feedback', 'id,question,expected', [`l1,${QUESTIONS.price},$9.99 per month`]);
    const run = await startRun(ctx, this.name, 'evaluation', dataset);
    const { reportDir } = (await run.result()) as RunResult;
    const row = readFileSync(join(reportDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RowResult)[0];
    must(Boolean(row?.requestId && row.sessionId), this.name, `expected an answered row, got ${JSON.stringify(row)}`);
    const input: LabelFeedbackInput = {
      runId: `rec-${this.name}`, rowId: 'l1', siteId: DEMO.siteId, sessionId: row?.sessionId ?? '', requestId: row?.requestId ?? '', value: 'bad',
    };
    const handle = await startWorkflow(ctx.client, 'labelFeedback', { taskQueue: TaskQueue.main, workflowId: labelFeedbackWorkflowId(input.runId, input.rowId), args: [input] });
    const result = await handle.result();
    must(result.feedback === 'bad', this.name, `expected the feedback sent, got ${JSON.stringify(result)}`);
    return ids(handle);
  },
};

const cancelled: Scenario = {
  name: 'evaluation-cancelled',
  about: 'evaluationRun cancelled (the cancel signal, as `sitechat watch` sends it) after its first questions: the rest `skipped`',
  async run(ctx) {
    ctx.sim.setFaults({ 'chat.async': { processingDelayMs: 400 } });
    const rows = Array.from({ length: 12 }, (_, i) => `x${i + 1},${i % 2 === 0 ? `${QUESTIONS.price},$9.99` : `${QUESTIONS.storage},5 GB`}`);
    const handle = await startRun(ctx, this.name, 'evaluation', await ctx.dataset('cancelled', 'id,question,must_include', rows), { concurrency: 2 });
    // The run's progress counts arrive 20 rows at a time; the simulator sees each question at once.
    while (ctx.sim.stats().submitted < 4) await new Promise((r) => setTimeout(r, 50));
    await handle.signal(cancelSignal);
    const result = await handle.result();
    must(result.cancelled && result.summary.skipped > 0, this.name, `expected a cancelled run with skipped rows, got ${JSON.stringify(result.summary)}`);
    return ids(handle);
  },
};

const reasked: Scenario = {
  name: 'evaluation-reask',
  about:
    'evaluationRun whose every question the service fails once (transientFailRate 1), re-asked after a timer: ' +
    'a single turn and a first turn in fresh sessions (their failed ones closed), the follow-up in its session; only the chunk is kept',
  keep: ['runChunk'],
  async run(ctx) {
    ctx.sim.setFaults({ 'chat.async': { transientFailRate: 1 } });
    const dataset = await ctx.dataset('reask', 'id,conversation,turn,question,must_include', [
      `r1,,,${QUESTIONS.price},$9.99`,
      `c1-1,refund,1,${QUESTIONS.refund},14 days`,
      `c1-2,refund,2,${QUESTIONS.payment},PayPal`,
    ]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset);
    const { summary } = await handle.result();
    must(summary.error === 0 && summary.reasked?.requests === 3, this.name, `expected 3 re-asked requests and no error, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
  check: (histories) => (histories.some((h) => activitiesScheduled(h.history, 'ask') === 6) ? undefined : 'no history asked each of the 3 questions twice'),
};

const backfill: Scenario = {
  name: 'backfill',
  about: 'backfillRun and its chunk: answers recorded to an answers file, no grading, no feedback',
  async run(ctx) {
    const rows = [QUESTIONS.price, QUESTIONS.storage, QUESTIONS.refund].map((q, i) => `b${i + 1},user${i}@example.com,${q}`);
    const handle = await startRun(ctx, this.name, 'backfill', await ctx.dataset('backfill', 'id,email,question', rows), {
      feedback: 'none', outFile: `${ctx.dir}/answers.csv`,
    });
    const { summary } = await handle.result();
    must(summary.answered === 3, this.name, `expected 3 answered rows, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
};

const multiSite: Scenario = {
  name: 'multi-site',
  about: `multiSiteRun over ${MULTI_SITES.join(' and ')}: the parent, each site's evaluationRun and its chunk`,
  async run(ctx) {
    const dataset = await ctx.dataset('multi-site', 'id,question,must_include', [`m1,${QUESTIONS.price},$9.99`, `m2,${QUESTIONS.storage},5 GB`]);
    const runId = `rec-${this.name}`;
    const input: MultiSiteInput = { kind: 'evaluation', runId, sites: MULTI_SITES, dataset, options: { ...OPTIONS, siteId: MULTI_SITES.join(',') } };
    const handle = await startWorkflow(ctx.client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
    const { summary } = await handle.result();
    must(summary.total === 4 && summary.passed === 4, this.name, `expected 4 passes (2 rows × 2 sites), got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
};

const variants: Scenario = {
  name: 'variants',
  about: `multiSiteRun of a matrix: two variants (models) on ${DEMO.siteId}, one evaluationRun each (ids <runId>-<variant>), then the combined report and the comparison; only the parent is kept`,
  keep: [MULTI_SITE_WORKFLOW_TYPE],
  async run(ctx) {
    const dataset = await ctx.dataset('variants', 'id,question,must_include', [`v1,${QUESTIONS.price},$9.99`]);
    const runId = `rec-${this.name}`;
    const input: MultiSiteInput = {
      kind: 'evaluation', runId, sites: [DEMO.siteId], dataset, options: { ...OPTIONS, siteId: DEMO.siteId },
      variants: [{ name: 'strong', siteId: DEMO.siteId, model: 'gpt-4o-mini' }, { name: 'weak', siteId: DEMO.siteId, model: 'gpt-3.5-mini-sim' }], reference: 'strong',
    };
    const handle = await startWorkflow(ctx.client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
    const { summary } = await handle.result();
    const names = summary.sites.map((s) => s.variant?.name).join(',');
    must(names === 'strong,weak' && summary.total === 2 && summary.comparison !== undefined, this.name, `expected variants strong and weak compared over 1 row each, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
};

const cleanup: Scenario = {
  name: 'cleanup',
  about: 'sessionCleanup listing one session per page: 41 pages, so it continues as new after 40; 3 idle sessions closed across both runs',
  async run(ctx) {
    const now = Date.now();
    // Idle sessions at both ends of the list, so both runs of the chain close one.
    const idle = new Set([0, 20, 40]);
    for (let i = 0; i < 41; i++) {
      const session = ctx.sim.simulator.sessions.create(DEMO.siteId, `rec-session-${i}`, `user${i % 3}@example.com`, now - 30 * DAY);
      session.updatedAt = now - (idle.has(i) ? 10 : 1) * DAY;
    }
    const input: CleanupInput = { siteId: DEMO.siteId, idleForMs: 7 * DAY, pageSize: 1 };
    const handle = await startWorkflow(ctx.client, CLEANUP_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-cleanup-rec-${this.name}`, args: [input] });
    const report = (await handle.result()) as CleanupReport;
    must(report.counts.closed === 3 && report.counts.listed === 41, this.name, `expected 41 listed and 3 closed, got ${JSON.stringify(report.counts)}`);
    return ids(handle);
  },
  check: (histories) => (histories.length >= 2 ? undefined : 'the cleanup did not continue as new'),
};

const openChunks: Scenario = {
  name: 'many-open-chunks',
  about:
    `evaluationRun of 12 chunks whose session closes take 8 s, so chunks hand over faster than they end: at most ` +
    `${MAX_OPEN_CHUNKS} are open at once (the run's history only: its chunks hold 16 questions of 15 KB each)`,
  keep: ['evaluationRun'],
  async run(ctx) {
    // Pages break at 256 KiB of rows: 16 rows of ~15 KiB questions make a page, 192 rows make 12.
    const padding = ' Please answer briefly.'.repeat(650);
    const rows = Array.from({ length: 192 }, (_, i) => `o${i + 1},"${QUESTIONS.price}${padding}"`);
    ctx.sim.setFaults({ 'sessions.close': { extraLatencyMs: 8_000 } });
    const handle = await startRun(ctx, this.name, 'evaluation', await ctx.dataset('open-chunks', 'id,question', rows), { concurrency: 200, feedback: 'none' });
    const { summary } = await handle.result();
    must(summary.total === 192 && summary.error === 0, this.name, `expected 192 rows without errors, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
  check(histories) {
    const run = histories.find((h) => h.workflowType === 'evaluationRun');
    if (!run) return 'no evaluationRun history';
    const peak = peakOpenChildren(run.history);
    return peak === MAX_OPEN_CHUNKS ? undefined : `${peak} chunks were open at most (expected the bound, ${MAX_OPEN_CHUNKS})`;
  },
};

const confirmed: Scenario = {
  name: 'evaluation-confirm',
  about:
    'evaluationRun with --baseline, --confirm 2 and a webhook notification on a site made worse after its baseline: ' +
    'sequential confirmation of the 6 regressed ' +
    'rows in two rounds (5 rows, then the 1 more McNemar needs), three planConfirmationRound activities, then the notify ' +
    'activity (the baseline run itself is not kept)',
  async run(ctx) {
    const dataset = await ctx.dataset('confirm', 'id,question,must_include', [
      `k1,${QUESTIONS.price},$9.99`,
      `k2,${QUESTIONS.storage},5 GB`,
      'k3,How do I choose which folders sync to my computer?,Selective sync',
      'k4,Can I use my files offline on my phone?,Make available offline',
      'k5,How do I add a new member to my team?,Invite',
      'k6,Can we use single sign-on with Okta?,SAML 2.0',
    ]);
    const baseRunId = `rec-${this.name}-baseline`;
    const base = await startWorkflow(ctx.client, 'evaluationRun', {
      taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${baseRunId}`, args: [{ kind: 'evaluation', runId: baseRunId, dataset, options: OPTIONS }],
    });
    const baseline = await base.result();
    must(baseline.summary.passed === 6, this.name, `expected the baseline to pass all 6 rows, got ${JSON.stringify(baseline.summary)}`);
    // The weak model answers everything on the site now: all 6 rows regress, and stay regressed when asked again.
    // McNemar needs all 6 (5 regressed of 5 is p = 0.0625): a first round of 5 reproduces, a second of 1 decides.
    ctx.sim.simulator.degraded.set(DEMO.siteId, 'gpt-3.5-mini-sim');
    try {
      return await withReceiver(async (notify, received) => {
        const handle = await startRun(ctx, this.name, 'evaluation', dataset, { baseline: baseline.reportDir, confirm: 2, notify });
        const result = (await handle.result()) as RunResult;
        const confirmation = result.summary.baseline?.confirmation;
        must(confirmation?.rows === 6 && confirmation.reproduced.length === 6 && result.summary.gate?.verdict === 'failed', this.name, `expected 6 regressed rows confirmed and a failed gate, got ${JSON.stringify(result.summary.baseline)}`);
        must(result.notifications?.[0]?.status === 'delivered' && received() === 1, this.name, `expected one delivered notification, got ${JSON.stringify(result.notifications)}`);
        return ids(handle);
      });
    } finally {
      ctx.sim.simulator.degraded.delete(DEMO.siteId);
    }
  },
  check(histories) {
    const run = histories.find((h) => h.workflowType === 'evaluationRun');
    if (!run) return 'no evaluationRun history';
    const rounds = activitiesScheduled(run.history, 'planConfirmationRound');
    if (rounds !== 3) return `expected 3 planConfirmationRound activities (two rounds, then the decision), got ${rounds}`;
    return activityTypesIn(run.history).includes('notify') ? undefined : 'the run scheduled no notify activity';
  },
};

/**
 * A local webhook receiver for the notify scenarios: answers 200 and counts. The in-process workers read its URL
 * from this process's environment, by the name the run carries.
 */
async function withReceiver<T>(fn: (spec: NotifySpec, received: () => number) => Promise<T>): Promise<T> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.SITECHAT_REC_HOOK_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  process.env.SITECHAT_REC_HOOK_SECRET = 'recording-secret';
  try {
    return await fn({ destinations: [{ kind: 'webhook', urlEnv: 'SITECHAT_REC_HOOK_URL', secretEnv: 'SITECHAT_REC_HOOK_SECRET' }], on: ['always'] }, () => count);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The notify activity shows in the history of `workflowType`. */
function notified(workflowType: string) {
  return (histories: CollectedHistory[]): string | undefined =>
    histories.some((h) => h.workflowType === workflowType && activityTypesIn(h.history).includes('notify')) ? undefined : `no ${workflowType} history scheduled a \`notify\` activity`;
}

const notifyRun: Scenario = {
  name: 'evaluation-notify',
  about: "evaluationRun with a webhook notification: the notify activity after the reports, delivered to a local receiver",
  async run(ctx) {
    const dataset = await ctx.dataset('notify', 'id,question,must_include', [`n1,${QUESTIONS.price},$9.99`]);
    return withReceiver(async (notify, received) => {
      const handle = await startRun(ctx, this.name, 'evaluation', dataset, { notify });
      const result = await handle.result();
      must(result.notifications?.[0]?.status === 'delivered' && received() === 1, this.name, `expected one delivered notification, got ${JSON.stringify(result.notifications)}`);
      return ids(handle);
    });
  },
  check: notified('evaluationRun'),
};

const notifyMultiSite: Scenario = {
  name: 'multi-site-notify',
  about: `multiSiteRun over ${MULTI_SITES.join(' and ')} with a webhook notification: one notify activity in the parent, none in the sites' runs`,
  async run(ctx) {
    const dataset = await ctx.dataset('multi-site-notify', 'id,question,must_include', [`m1,${QUESTIONS.price},$9.99`]);
    const runId = `rec-${this.name}`;
    return withReceiver(async (notify, received) => {
      const input: MultiSiteInput = { kind: 'evaluation', runId, sites: MULTI_SITES, dataset, options: { ...OPTIONS, siteId: MULTI_SITES.join(','), notify } };
      const handle = await startWorkflow(ctx.client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
      const result = await handle.result();
      must(result.notifications?.[0]?.status === 'delivered' && received() === 1, this.name, `expected one delivered notification, got ${JSON.stringify(result.notifications)}`);
      return ids(handle);
    });
  },
  check: notified('multiSiteRun'),
};

const notifyCleanup: Scenario = {
  name: 'cleanup-notify',
  about: "sessionCleanup closing one idle session, with a webhook notification: the notify activity after the report",
  async run(ctx) {
    const now = Date.now();
    const session = ctx.sim.simulator.sessions.create(DEMO.siteId, 'rec-notify-session', 'user@example.com', now - 30 * DAY);
    session.updatedAt = now - 10 * DAY;
    return withReceiver(async (notify, received) => {
      const input: CleanupInput = { siteId: DEMO.siteId, idleForMs: 7 * DAY, notify };
      const handle = await startWorkflow(ctx.client, CLEANUP_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-cleanup-rec-${this.name}`, args: [input] });
      const report = (await handle.result()) as CleanupReport;
      must(report.notifications?.[0]?.status === 'delivered' && received() === 1, this.name, `expected one delivered notification, got ${JSON.stringify(report.notifications)}`);
      return ids(handle);
    });
  },
  check: notified('sessionCleanup'),
};

/** An API no worker of the recording asks: every call of a run that names it is refused. */
const ELSEWHERE_API = 'https://elsewhere.example.com/api/v1';

const wrongApi: Scenario = {
  name: 'evaluation-wrong-api',
  about: `evaluationRun naming an API no worker asks (${ELSEWHERE_API}): its preflight refused by every worker, scheduled again until the run gives up, naming both APIs; no row asked`,
  async run(ctx) {
    const dataset = await ctx.dataset('wrong-api', 'id,question,must_include', [`w1,${QUESTIONS.price},$9.99`]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset, { api: ELSEWHERE_API });
    const failure = await handle.result().then(() => undefined, (err: unknown) => err);
    const cause = (failure as { cause?: { message?: string } } | undefined)?.cause?.message ?? '';
    must(cause.includes(`no worker of the run's API (${ELSEWHERE_API}) took the call`), this.name, `expected the run to give up on its API, got ${String(failure)}`);
    return ids(handle);
  },
  check: (histories) => (histories.some((h) => activitiesScheduled(h.history, 'preflight') > 1) ? undefined : 'the refused preflight was not scheduled again'),
};

/** Text of the `encrypted` scenario's dataset that must not be in its histories in clear. */
export const ENCRYPTED_CANARIES = { question: QUESTIONS.refund, email: 'encrypted.user@example.com', reference: '14 days' } as const;

const encrypted: Scenario = {
  name: 'encrypted',
  about: `evaluationRun and its chunk with SITECHAT_PAYLOAD_KEYS set (a fixed test key): every payload encrypted (AES-256-GCM, \`binary/encrypted\`), so no question, email or answer is in the history in clear`,
  payloadKeys: RECORDING_PAYLOAD_KEYS,
  async run(ctx) {
    const dataset = await ctx.dataset('encrypted', 'id,email,question,must_include', [
      `p1,${ENCRYPTED_CANARIES.email},${ENCRYPTED_CANARIES.question},${ENCRYPTED_CANARIES.reference}`,
      `p2,${ENCRYPTED_CANARIES.email},${QUESTIONS.price},gold bars`,
    ]);
    const handle = await startRun(ctx, this.name, 'evaluation', dataset);
    const { summary } = await handle.result();
    must(summary.total === 2 && summary.passed === 1 && summary.failed === 1, this.name, `expected a pass and a failure, got ${JSON.stringify(summary)}`);
    return ids(handle);
  },
  check(histories) {
    for (const h of histories) {
      const text = decodedText(h.history);
      const clear = Object.values(ENCRYPTED_CANARIES).find((c) => text.includes(c));
      if (clear) return `${h.workflowId}: "${clear}" is in the history in clear`;
      if (!text.includes('binary/encrypted')) return `${h.workflowId}: no encrypted payload`;
    }
    return undefined;
  },
};

export const SCENARIOS: readonly Scenario[] = [
  evaluation, apiError, stopEarly, judged, uncertain, labelled, cancelled, backfill, multiSite, variants, cleanup, openChunks, labelFeedbackScenario, notifyRun, notifyMultiSite, notifyCleanup,
  confirmed, reasked, encrypted, wrongApi,
];
