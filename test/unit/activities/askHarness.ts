import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { AskInput } from '../../../activities/types';
import { DEMO, startSimulator, type SimulatorHandle } from '../../../src/sim';
import type { WorkerConfig } from '../../../src/temporal/workerConfig';

/**
 * What the ask activity's tests share: a simulator over HTTP (no rate limit) and a temp directory for the file
 * store, per test file; a worker configuration pointing at them; an ask of the demo's first question.
 */
export function useAskHarness(prefix: string): { sim(): SimulatorHandle; dir(): string; config(): WorkerConfig; input(rowId: string, sessionId: string): AskInput } {
  let sim: SimulatorHandle | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyScale: 0.01, rateLimit: 0 });
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const got = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the ask harness starts in beforeAll');
    return v;
  };
  return {
    sim: () => got(sim),
    dir: () => got(dir),
    config: () => ({
      baseUrl: got(sim).baseUrl, apiKey: DEMO.apiKey, runsDir: got(dir), ratePerSecond: 0, pollIntervalMs: 20, maxConcurrentAsks: 1, pollScope: 'path',
      egressIps: 1, siteRates: {}, pacerDir: join(got(dir), '.pacer'),
    }),
    input: (rowId, sessionId) => ({
      runId: 'run-1', rowId, siteId: DEMO.siteId, mode: 'async', message: 'How much does the Personal plan cost?', sessionId, answerTimeoutMs: 10_000,
    }),
  };
}
