import { Context } from '@temporalio/activity';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import type { RunActivities } from '../../activities';
import type { AskInput, AskResult, PlannedRow, PlannedUnit, SettleInput, SettleResult, SettleRowsInput } from '../../activities/types';
import { payloadDataConverter } from '../../src/codec/dataConverter';
import { summarize } from '../../src/analysis/summary';
import { Outcome, type RowResult, type SessionCloseFailure } from '../../src/domain/results';
import { installQuietRuntime } from '../../src/temporal/sdkRuntime';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { bundleWorkflows } from '../../src/worker/worker';
import type { RunInput, RunOptions } from '../../src/domain/run';
import { assertMet, skippable } from '../helpers/requirements';
import { locateTestServer } from '../helpers/timeSkippingServer';

/** The activities a run calls when nothing is judged or custom-graded: the ones these tests replace. */
export type RunActivityMocks = Pick<RunActivities,
  'prepareRun' | 'preflight' | 'readPage' | 'ask' | 'settle' | 'settleRows' | 'recordSessionFailures' | 'skipPages' | 'finalizeRun'>;

/** One call of a mocked activity, with the attempt Temporal ran it as. */
export interface Call<I> {
  input: I;
  attempt: number;
}

export type AskBehaviour = (input: AskInput, attempt: number) => Promise<AskResult>;
export type SettleBehaviour = (input: SettleInput) => Promise<SettleResult>;

/** A dataset row as a page of the plan holds it; graded by `must_include` (a pure grader, in the workflow). */
export function plannedRow(id: string, extra: Partial<PlannedRow> = {}): PlannedRow {
  const index = Number(id.replace(/\D/g, '')) || 0;
  return { id, index, line: index + 2, question: `question ${id}`, must_include: ['refund'], metadata: {}, ...extra };
}

/** Single-turn conversations, one per row. */
export function singleTurnUnits(ids: string[]): PlannedUnit[] {
  return ids.map((id) => ({ key: `row:${id}`, rows: [plannedRow(id)] }));
}

/** The answer the site gives: it passes the rows' `must_include`. */
export function answered(input: AskInput, answer = 'A refund within 14 days.'): AskResult {
  return { status: 'completed', sessionId: input.sessionId, requestId: `req-${input.rowId}`, answer, latencyMs: 5 };
}

export const settledOk: SettleBehaviour = async (input) => ({
  feedback: input.feedback ? { ok: true } : undefined,
  close: input.closeSessionId ? { ok: true } : undefined,
});

/**
 * Mocked activities over a plan of pages: every call is recorded, rows go to `recorded`, and `finalizeRun` summarizes
 * them with the real `summarize`. `ask` and `settle` do what the test says. A batch (`settleRows`) settles each of its
 * rows that has a call as `settle` would (each logged in `settles` too, so tests read one row's calls the same way
 * whether it was settled in a batch or on its own); a settle that throws fails the whole batch for Temporal's retry.
 */
export class FakeRun {
  readonly asks: Call<AskInput>[] = [];
  readonly settles: Call<SettleInput>[] = [];
  readonly settleBatches: Call<SettleRowsInput>[] = [];
  readonly pagesRead: number[] = [];
  readonly recorded: RowResult[] = [];
  readonly closeFailures: SessionCloseFailure[] = [];
  readonly skippedPages: number[] = [];

  constructor(
    readonly pages: PlannedUnit[][],
    private readonly behaviour: { ask?: AskBehaviour; settle?: SettleBehaviour } = {},
  ) {}

  get rows(): number {
    return this.pages.flat().reduce((n, u) => n + u.rows.length, 0);
  }

  /** The recorded result of a row; fails when it has none or several. */
  result(id: string): RowResult {
    const found = this.recorded.filter((r) => r.id === id);
    if (found.length !== 1) throw new Error(`row ${id} was recorded ${found.length} times`);
    return found[0] as RowResult;
  }

  activities(): RunActivityMocks {
    const attempt = (): number => Context.current().info.attempt;
    return {
      prepareRun: async () => ({ rows: this.rows, units: this.pages.flat().length, pages: this.pages.length }),
      preflight: async () => undefined,
      readPage: async ({ page }) => {
        this.pagesRead.push(page);
        return this.pages[page] ?? [];
      },
      ask: async (input) => {
        this.asks.push({ input, attempt: attempt() });
        return (this.behaviour.ask ?? (async (i) => answered(i)))(input, attempt());
      },
      settle: async (input) => {
        this.settles.push({ input, attempt: attempt() });
        return (this.behaviour.settle ?? settledOk)(input);
      },
      settleRows: async (input) => {
        this.settleBatches.push({ input, attempt: attempt() });
        const settled: SettleResult[] = [];
        for (const { feedback, closeSessionId } of input.items) {
          if (!feedback && !closeSessionId) {
            settled.push({});
          } else if (input.gaveUp !== undefined) {
            settled.push({ ...(feedback && { feedback: { ok: false as const, error: input.gaveUp } }), ...(closeSessionId && { close: { ok: false as const, error: input.gaveUp } }) });
          } else {
            const one: SettleInput = { siteId: input.siteId, feedback, closeSessionId };
            this.settles.push({ input: one, attempt: attempt() });
            settled.push(await (this.behaviour.settle ?? settledOk)(one));
          }
        }
        input.items.forEach(({ result, feedback }, i) => {
          const got = settled[i]?.feedback;
          this.recorded.push(!feedback || !got ? result : got.ok ? { ...result, feedback: feedback.value } : { ...result, feedback: 'failed', feedbackError: got.error });
        });
        return { items: settled.map(({ feedback, close }) => ({ ...(feedback && { feedback }), ...(close && { close }) })) };
      },
      recordSessionFailures: async ({ failures }) => {
        this.closeFailures.push(...failures);
      },
      skipPages: async ({ fromPage, toPage, reason, outcome }) => {
        let count = 0;
        for (let page = fromPage; page < toPage; page++) {
          this.skippedPages.push(page);
          for (const row of (this.pages[page] ?? []).flatMap((u) => u.rows)) {
            this.recorded.push({ id: row.id, index: row.index, line: row.line, question: row.question, outcome, error: reason });
            count += 1;
          }
        }
        return { [outcome]: count };
      },
      finalizeRun: async ({ runId, input, workflowId, sessionsClosed, sessionsCloseFailed, cancelled }) => {
        const meta = {
          runId, workflowId, kind: input.kind, dataset: input.dataset.path, datasetSha256: input.dataset.sha256,
          siteId: input.options.siteId, startedAt: new Date(0).toISOString(), rowCount: this.rows, options: {},
        };
        const rows = this.recorded;
        const summary = await summarize(meta, (async function* () { yield* rows; })(), undefined, { sessionsClosed, sessionsCloseFailed, cancelled });
        return { runId, summary, reportDir: '/nowhere', reportFiles: [], cancelled };
      },
    };
  }
}

export function runOptions(overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    siteId: 'demo', concurrency: 4, feedback: 'graded', answerTimeoutMs: 300_000, assertions: [], closeSessions: true, mode: 'async',
    ...overrides,
  };
}

export function runInput(runId: string, options: Partial<RunOptions> = {}): RunInput {
  return { kind: 'evaluation', runId, dataset: { path: '/data/questions.csv', sha256: 'ab'.repeat(32) }, options: runOptions(options) };
}

/** Counts of the recorded rows by outcome. */
export function outcomes(run: FakeRun): Partial<Record<Outcome, number>> {
  const counts: Partial<Record<Outcome, number>> = {};
  for (const row of run.recorded) counts[row.outcome] = (counts[row.outcome] ?? 0) + 1;
  return counts;
}

export { Outcome };

/**
 * A time-skipping Temporal test server for a test file (timers, retry backoffs and activity timeouts pass at once
 * while a test waits for a result) and the workflow bundle, built from the sources.
 */
export class WorkflowTestEnv {
  private constructor(
    readonly env: TestWorkflowEnvironment,
    private readonly bundle: WorkflowBundleWithSourceMap,
  ) {}

  static async start(path: string): Promise<WorkflowTestEnv> {
    installQuietRuntime();
    const [env, bundle] = await Promise.all([
      // The payload codec every sitechat client and worker has (none without SITECHAT_PAYLOAD_KEYS).
      TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } }, client: { dataConverter: payloadDataConverter() } }),
      bundleWorkflows(),
    ]);
    return new WorkflowTestEnv(env, bundle);
  }

  get client(): TestWorkflowEnvironment['client'] {
    return this.env.client;
  }

  /** Runs `fn` with a worker per task queue over the mocked activities, then shuts them down. */
  async withWorkers<T>(activities: RunActivityMocks, fn: () => Promise<T>): Promise<T> {
    const workers = await Promise.all(Object.values(TaskQueue).map((taskQueue) => Worker.create({
      connection: this.env.nativeConnection,
      dataConverter: payloadDataConverter(),
      taskQueue,
      activities,
      ...(taskQueue === TaskQueue.main ? { workflowBundle: this.bundle } : {}),
    })));
    const running = workers.map((w) => w.run());
    try {
      return await fn();
    } finally {
      for (const w of workers) w.shutdown();
      await Promise.all(running);
    }
  }

  async teardown(): Promise<void> {
    await this.env.teardown();
  }
}

/** A promise the test resolves by hand: holds a mocked activity until the test lets it go. */
export class Gate {
  readonly opened: Promise<void>;
  private openFn: () => void = () => undefined;

  constructor() {
    this.opened = new Promise<void>((resolve) => (this.openFn = resolve));
  }

  open(): void {
    this.openFn();
  }
}

/** Resolves when `check` holds; polls the test's own state (the mocks run in this process). */
export async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One time-skipping environment for a test file, started before its tests and torn down after them. Each test takes
 * it with `env(ctx)`: without a test server binary the tests skip, saying why, except in CI, where they fail.
 */
export function useWorkflowTestEnv(): (ctx: TestContext) => WorkflowTestEnv {
  let started: WorkflowTestEnv | undefined;
  let missing: string | undefined;
  beforeAll(async () => {
    let path: string;
    try {
      path = await locateTestServer();
    } catch (err) {
      missing = err instanceof Error ? err.message : String(err);
      if (skippable(missing)) return;
      assertMet(missing);
      throw err;
    }
    started = await WorkflowTestEnv.start(path);
  });
  afterAll(async () => {
    await started?.teardown();
  });
  return (ctx) => {
    if (!started) ctx.skip(missing);
    return started as WorkflowTestEnv;
  };
}
