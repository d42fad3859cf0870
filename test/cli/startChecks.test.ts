import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { CLI, sitechat } from '../helpers/cli';
import { namespaceForFile } from '../helpers/namespace';

/**
 * Checks made before the start that need the service or the store: the model names against the tenant's limits
 * (a real simulator over HTTP, whose counters show nothing was asked), and a results store that cannot be reached.
 */
describe('checks before the start (built CLI, real Temporal dev server, simulator over HTTP)', () => {
  let dir: string;
  let sim: SimulatorHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-startchecks-'));
    sim = await startSimulator({ port: 0, latencyScale: 0.02 });
    env = {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespaceForFile(__filename), SITECHAT_RUNS_DIR: join(dir, 'runs'),
      SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_TENANT_ID: DEMO.tenantId, SITECHAT_SITE_ID: DEMO.siteId,
      SITECHAT_EMAIL: 'ana@example.com',
    };
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a model the tenant does not offer exits 2 with the valid ones, from the flag, the config and a row; nothing is asked', async () => {
    const file = join(dir, 'models.csv');
    writeFileSync(file, 'question,model\nHow much does the Personal plan cost?,gpt-4o\nHow much storage do I get?,gpt-5-typo\n');
    const flag = await sitechat(dir, ['run', file, '--model', 'gpt-4o-mni', '--allow-ungraded'], env);
    expect(flag.code, flag.stderr).toBe(2);
    // The wording is pinned in test/unit/cli/modelCheck.test.ts; here, the flag, the value and the tenant's models.
    expect(flag.stderr).toContain('--model: "gpt-4o-mni" is not a model of the tenant');
    expect(flag.stderr).toContain('offers: gpt-4o-mini, gpt-4o, gpt-3.5-mini-sim');
    expect(flag.stderr).toContain('models.csv:3: `model` "gpt-5-typo" is not a model of the tenant');
    expect(flag.stderr).toContain('nothing was sent');

    writeFileSync(join(dir, 'sitechat.yaml'), 'model: gpt-4-classic\n');
    const plain = join(dir, 'plain.csv');
    writeFileSync(plain, 'question\nHow much does the Personal plan cost?\n');
    const config = await sitechat(dir, ['run', plain, '--config', join(dir, 'sitechat.yaml'), '--allow-ungraded'], env);
    expect(config.code, config.stderr).toBe(2);
    expect(config.stderr).toContain('sitechat.yaml: `model`: "gpt-4-classic" is not a model of the tenant');
    // A nightly schedule is checked the same way when it is created.
    const scheduled = await sitechat(dir, ['schedule', 'create', 'nightly', '--cron', '0 2 * * *', '--dataset', plain, '--model', 'gpt-4o-mni', '--allow-ungraded'], env);
    expect(scheduled.code, scheduled.stderr).toBe(2);
    expect(scheduled.stderr).toContain('--model: "gpt-4o-mni" is not a model of the tenant');
    expect(sim.stats().submitted).toBe(0);

    // A valid one runs.
    const ok = await sitechat(dir, ['run', plain, '--model', 'gpt-4o', '--json', '--allow-ungraded'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(sim.stats().submitted).toBe(1);
  });

  it('the summary shows the first message of each error type, not only its class', async () => {
    // Every question is refused: the site's answers fail with the API's own error string.
    sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    try {
      const file = join(dir, 'failing.csv');
      writeFileSync(file, 'id,question\nq1,How much does the Personal plan cost?\nq2,How much storage do I get for free?\n');
      const ran = await sitechat(dir, ['run', file, '--allow-ungraded'], env);
      expect(ran.code, ran.stderr).toBe(1);
      expect(ran.stdout).toMatch(/errors {5}\S+ 2: \S.* \(row q[12]\)/u);
    } finally {
      sim.setFaults({});
    }
  });

  it('a results store that cannot be reached exits 3 and says what to check', async () => {
    // A port that is listened on by nothing: a closed server's.
    const closed: Server = createServer();
    const port = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)));
    await new Promise((resolve) => closed.close(resolve));
    const storeEnv = { ...env, SITECHAT_STORE_URL: `postgres://sitechat:pw-secret-1@127.0.0.1:${port}/sitechat` };
    const runs = await sitechat(dir, ['runs'], storeEnv);
    expect(runs.code, runs.stderr).toBe(3);
    expect(runs.stderr).toContain('ECONNREFUSED');
    // The hint's wording is pinned in test/unit/cli/storeFailure.test.ts.
    expect(runs.stderr).toContain('Check that the PostgreSQL server is running');
    expect(runs.stderr).toContain('SITECHAT_STORE_URL');
    expect(runs.stderr).not.toContain('pw-secret-1');
  });
});
