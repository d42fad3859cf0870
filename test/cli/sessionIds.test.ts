import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { DEMO, startSimulator, type SimulatorHandle } from '../../src/sim';
import { CLI, sitechat } from '../helpers/cli';
import { namespaceForFile } from '../helpers/namespace';

/**
 * Session ids a dataset names, through the built CLI against a simulator started on its own (SITECHAT_BASE_URL), as a
 * user with a real API runs it: ids the API may refuse for feedback are refused before the first request, and rows
 * that share a session are one conversation.
 */
describe('dataset session ids (built CLI, real Temporal dev server, a separately started simulator)', () => {
  let dir: string;
  let sim: SimulatorHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-session-ids-'));
    sim = await startSimulator({ port: 0, latencyScale: 0.02, rateLimit: 0 });
    env = {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespaceForFile(__filename), SITECHAT_BASE_URL: sim.baseUrl,
      SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_RATE_LIMIT: '0', SITECHAT_POLL_INTERVAL_MS: '50', SITECHAT_RUNS_DIR: join(dir, 'runs'),
    };
    writeFileSync(join(dir, 'threads.csv'), [
      'id,question,session_id,must_include',
      'a,How much does the Personal plan cost?,thread-a,$9.99',
      'x,How much storage do I get for free?,,5 GB',
      'b,Can I get a refund for my annual subscription?,thread-a,14 days',
      'c,How do I reset my password?,thread-a,reset',
      '',
    ].join('\n'));
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('with feedback on (the default), session ids that are not UUIDs: exit 2 naming each row and both ways out, no request sent', async () => {
    const ran = await sitechat(dir, ['run', 'threads.csv'], env);
    expect(ran.code, ran.stderr).toBe(2);
    for (const line of [2, 4, 5]) expect(ran.stderr).toContain(`threads.csv:${line}: \`session_id\` "thread-a" is not a UUID`);
    expect(ran.stderr).toContain('use UUIDs as session ids, or send no feedback (--feedback none)');
    expect(ran.stderr).toContain('nothing was sent');
    expect(sim.stats().requests).toEqual({});
  });

  it('rows sharing a session_id without a conversation are one conversation: asked in file order, one at a time, in that session', async () => {
    const ran = await sitechat(dir, ['run', 'threads.csv', '--feedback', 'none', '--out', join(dir, 'report')], env);
    expect(ran.code, ran.stderr).toBe(0);
    const asked = sim.simulator.requests.all().filter((r) => r.sessionId === 'thread-a');
    expect(asked.map((r) => r.message)).toEqual([
      'How much does the Personal plan cost?', 'Can I get a refund for my annual subscription?', 'How do I reset my password?',
    ]);
    // Each turn was sent once the one before it had its answer.
    for (let i = 1; i < asked.length; i++) expect(asked[i]?.createdAt).toBeGreaterThanOrEqual(asked[i - 1]?.readyAt ?? Infinity);
    expect(sim.stats().sessions).toEqual({ total: 2, closed: 2 });
  });
});
