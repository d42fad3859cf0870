/**
 * Runs recording scenarios the way the project runs itself: a Temporal dev server started by `startLocalServer`,
 * the simulator over HTTP, in-process workers from `startWorkers` (with the build's workflow bundle), then fetches
 * and checks every history each scenario made.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, type Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { dataConverterFor } from '../../src/codec/dataConverter';
import { parsePayloadKeys } from '../../src/codec/keys';
import { Secret } from '../../src/api/secret';
import { sha256File } from '../../src/datasets';
import { startSimulator } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { demoFixturesWithSites } from '../../src/sim/siteCopies';
import { startLocalServer } from '../../src/temporal/localServer';
import { createTemporalClient } from '../../src/temporal/client';
import { startWorkers } from '../../src/worker/worker';
import { type RunningWorkers } from '../../src/worker/workerGroup';
import type { WorkerConfig } from '../../src/temporal/workerConfig';
import { collectHistories, decodedText, type CollectedHistory } from './collect';
import { MAX_MESSAGE_LENGTH, MULTI_SITES, type Scenario, type ScenarioContext } from './scenarios';

/** A made-up judge key: recorded histories are searched for it (and the API key) before anything is written. */
const JUDGE_KEY = 'sk-judge-recording-never-in-history';

/** Guards against a hang only: the slowest scenario (closes of 8 s) takes well under a minute. */
const SCENARIO_CEILING_MS = 180_000;

export interface RecordedScenario {
  scenario: Scenario;
  /** The started workflow's id: fixture names are relative to it. */
  rootWorkflowId: string;
  histories: CollectedHistory[];
}

/** Records every scenario in order; throws on the first that fails, times out or leaks a secret. */
export async function recordScenarios(scenarios: readonly Scenario[], log: (line: string) => void): Promise<RecordedScenario[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sitechat-record-'));
  const server = await startLocalServer({ log: (line) => log(`[temporal] ${line}`) });
  const sim = await startSimulator({
    port: 0, latencyScale: 0.01, rateLimit: 0, fixtures: demoFixturesWithSites(MULTI_SITES), maxMessageLength: MAX_MESSAGE_LENGTH,
  });
  const clientConnection = await Connection.connect({ address: server.address });
  const workerConnection = await NativeConnection.connect({ address: server.address });
  const config: WorkerConfig = {
    baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, runsDir: join(dir, 'runs'), ratePerSecond: 0, pollIntervalMs: 50,
    maxConcurrentAsks: 200, pollScope: 'path', egressIps: 1, siteRates: {}, pacerDir: join(dir, 'pacer'),
    judge: { baseUrl: sim.judgeBaseUrl, apiKey: new Secret(JUDGE_KEY), model: 'sim-judge', rpm: 0, timeoutMs: 5000, maxAttempts: 3, maxRetryAfterMs: 5000, temperature: 0, jsonMode: true },
  };
  // Client and workers share the scenario's payload keys: they change (workers restarted) between scenarios that differ.
  let current: { keys: string | undefined; client: Client; workers: RunningWorkers } | undefined;
  const useKeys = async (keys: string | undefined): Promise<Client> => {
    if (current && current.keys === keys) return current.client;
    await current?.workers.shutdown();
    const dataConverter = dataConverterFor(parsePayloadKeys(keys));
    current = { keys, client: createTemporalClient(clientConnection, { dataConverter }), workers: await startWorkers({ connection: workerConnection, config, dataConverter }) };
    return current.client;
  };
  const ctx: ScenarioContext = {
    client: await useKeys(undefined),
    sim,
    dir,
    runsDir: config.runsDir,
    async dataset(name, header, rows) {
      const path = join(dir, `${name}.csv`);
      writeFileSync(path, [header, ...rows].join('\n') + '\n');
      return { path, sha256: await sha256File(path) };
    },
  };
  try {
    const recorded: RecordedScenario[] = [];
    for (const scenario of scenarios) {
      sim.reset();
      sim.setFaults({});
      ctx.client = await useKeys(scenario.payloadKeys);
      const started = Date.now();
      const root = await withCeiling(scenario.run(ctx), `scenario ${scenario.name} did not finish within ${SCENARIO_CEILING_MS / 1000} s`);
      const all = await collectHistories(ctx.client, { workflowId: root.workflowId, runId: root.firstExecutionRunId });
      const problem = scenario.check?.(all);
      if (problem) throw new Error(`scenario ${scenario.name}: ${problem}`);
      for (const h of all) {
        const text = decodedText(h.history);
        if (text.includes(DEMO.apiKey) || text.includes(JUDGE_KEY)) throw new Error(`scenario ${scenario.name}: a key is in the history of ${h.workflowId}; nothing written`);
      }
      const histories = scenario.keep ? all.filter((h) => scenario.keep?.includes(h.workflowType)) : all;
      log(`${scenario.name}: ${histories.length} of ${all.length} histories kept (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      recorded.push({ scenario, rootWorkflowId: root.workflowId, histories });
    }
    return recorded;
  } finally {
    await current?.workers.shutdown();
    await workerConnection.close();
    await clientConnection.close();
    await sim.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withCeiling<T>(work: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const ceiling = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), SCENARIO_CEILING_MS);
  });
  try {
    return await Promise.race([work, ceiling]);
  } finally {
    clearTimeout(timer);
  }
}
