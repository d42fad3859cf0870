import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import { ConfigurationError } from '../../../src/api';
import { parseBaseUrl } from '../../../src/api/config';
import { checkAction } from '../../../src/cli/commands/check/action';
import type { Logger } from '../../../src/cli/logger';
import { DEMO, startSimulator, type SimulatorHandle } from '../../../src/sim';
import { workerConfigFromEnv } from '../../../src/temporal/workerConfig';

const PREFIX = '/proxy/site-chat/api/v1';

/**
 * §9 puts `{base_url}` at `<host>/api/v1`; a deployment behind a path-routing proxy has a longer prefix before it
 * (docs/api-decisions-client.md). Parsed here, then used by `sitechat check` and by a worker configured from its
 * environment, against a simulator served under that prefix.
 */
describe('a base URL with a longer path prefix', () => {
  it.each([
    [`https://chat.example.com${PREFIX}`, PREFIX],
    [`https://chat.example.com${PREFIX}/`, PREFIX],
    ['https://chat.example.com:8443/a/b/c/d/api/v1//', '/a/b/c/d/api/v1'],
    ['https://chat.example.com/site%20chat/api/v1', '/site%20chat/api/v1'],
  ])('%s is parsed into its origin and the whole prefix', (raw, basePath) => {
    expect(parseBaseUrl(raw)).toEqual({ origin: new URL(raw).origin, basePath });
  });

  it('a prefix without /api/v1 is refused, and the message shows the URL with it', () => {
    expect(() => parseBaseUrl('https://chat.example.com/proxy/site-chat')).toThrow(
      new ConfigurationError('SITECHAT_BASE_URL must end with /api/v1, got https://chat.example.com/proxy/site-chat — e.g. https://chat.example.com/proxy/site-chat/api/v1'),
    );
  });

  describe('served under it (simulator basePath)', () => {
    let sim: SimulatorHandle;
    let dir: string;
    beforeAll(async () => {
      sim = await startSimulator({ rateLimit: 0, latencyScale: 0.01, basePath: PREFIX });
      dir = mkdtempSync(join(tmpdir(), 'base-path-'));
    });
    afterAll(async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sitechat check passes its tenant and site checks', async () => {
      const out: string[] = [];
      const log: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined, out: (line) => void out.push(line) };
      const env = { SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_TENANT_ID: DEMO.tenantId, SITECHAT_SITE_ID: DEMO.siteId };
      expect(await checkAction({ json: true }, { env, log })).toBe(0);
      expect(JSON.parse(out.join('\n'))).toMatchObject({ ok: true, baseUrl: `${sim.origin}${PREFIX}`, checks: [{ name: 'tenant', outcome: 'ok' }, { name: 'site', outcome: 'ok' }] });
    });

    it("a worker configured from SITECHAT_BASE_URL lists and closes the site's sessions there", async () => {
      const env = { SITECHAT_BASE_URL: `${sim.baseUrl}/`, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_RUNS_DIR: dir, SITECHAT_PACER_DIR: join(dir, '.pacer') };
      const { activities, close } = createActivities(workerConfigFromEnv(env));
      const run = <A extends unknown[], R>(fn: (...args: A) => Promise<R>, ...args: A): Promise<R> =>
        new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(fn, ...args);
      try {
        sim.simulator.sessions.create(DEMO.siteId, 'behind-the-proxy', 'ana@example.com', sim.simulator.clock.now());
        const page = await run(activities.listCleanupPage, { siteId: DEMO.siteId, offset: 0, limit: 10, rule: { email: 'ana@example.com' }, wantIds: true, samples: 0, ignoreIds: [] });
        expect(page).toMatchObject({ total: 1, matchedIds: ['behind-the-proxy'] });
        expect(await run(activities.closeSessions, { siteId: DEMO.siteId, sessionIds: ['behind-the-proxy'] })).toEqual({ closed: 1, failed: [] });
        expect(sim.stats().sessions.closed).toBe(1);
      } finally {
        await close();
      }
    });
  });
});
