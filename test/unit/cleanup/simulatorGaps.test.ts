import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SiteChatClient } from '../../../src/api';
import { newCursor } from '../../../src/cleanup/cursor';
import { pageThrough, type CleanupPorts } from '../../../src/cleanup/loop';
import { cleanupSettings } from '../../../src/cleanup/rule';
import { selectPage } from '../../../src/cleanup/select';
import type { CleanupInput } from '../../../src/cleanup/types';
import { DEMO, startSimulator, type SessionOrder, type SimulatorHandle, type SimulatorOptions, type TimestampFormat } from '../../../src/sim';

const HOUR = 3_600_000;
const SITE = DEMO.siteId;

/**
 * The cleanup's paging and idle rule against a server that makes the other legal choices of the spec's gaps: another
 * order of the session list (§4.1, "not shown") and other forms of its timestamps ("ISO 8601 strings"), over HTTP
 * through the client, as the cleanup activity lists and closes (docs/api-decisions-client.md).
 */
describe('cleanup against other sort orders and timestamp forms (simulator over HTTP)', () => {
  const started: { sim: SimulatorHandle; client: SiteChatClient }[] = [];
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });
  afterAll(async () => {
    for (const { sim, client } of started) {
      await client.close();
      await sim.close();
    }
  });

  /** 7 sessions idle for 2 h, then 5 new ones; the cleanup closes those idle ≥ 1 h, while a session is opened before each page. */
  async function cleanUp(options: SimulatorOptions) {
    const sim = await startSimulator({ rateLimit: 0, latencyScale: 0.01, ...options });
    const client = new SiteChatClient({ baseUrl: sim.baseUrl, apiKey: DEMO.apiKey });
    started.push({ sim, client });
    const open = async (tag: string, n: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push((await client.chat.submit(SITE, { message: `q ${tag}${i}`, session_id: `${tag}${i}` })).session_id);
      return ids;
    };
    const idle = await open('idle-', 7);
    sim.advanceTime(2 * HOUR);
    const fresh = await open('fresh-', 5);
    sim.advanceTime(60_000); // every answer is in: updated_at stays put from here on
    const input: CleanupInput = { siteId: SITE, idleForMs: HOUR, pageSize: 3, closeBatchSize: 2 };
    const cursor = newCursor(input, sim.simulator.clock.now());
    let late = 0;
    const ports: CleanupPorts = {
      list: async (page) => {
        await open('late-', 1).then(() => late++);
        const { sessions, pagination } = await client.sessions.list(SITE, { limit: page.limit, offset: page.offset });
        return selectPage(sessions, pagination.total, { rule: page.rule, wantIds: page.wantIds, samples: page.samples, ignoreIds: page.ignoreIds });
      },
      close: async (ids) => {
        for (const id of ids) await client.chat.closeSession(SITE, id);
        return { closed: ids.length, failed: [] };
      },
    };
    const stoppedBy = await pageThrough(input, cursor, cleanupSettings(input), ports);
    const closed = (await client.sessions.list(SITE, { limit: 500 })).sessions.filter((s) => s.closed_at !== null).map((s) => s.id);
    return { idle, fresh, closed, cursor, stoppedBy, late };
  }

  it.each<SessionOrder>(['newest-first', 'oldest-first', 'unsorted'])('sessionOrder %s: exactly the idle sessions are closed, each once', async (sessionOrder) => {
    const r = await cleanUp({ sessionOrder });
    expect(r.stoppedBy).toBeUndefined();
    expect(r.closed.sort()).toEqual([...r.idle].sort());
    expect(r.cursor.counts).toMatchObject({ matched: 7, closed: 7, failed: 0, unreadable: 0 });
    expect(r.late).toBeGreaterThan(1);
  });

  it.each<[TimestampFormat, string]>([['offset', 'UTC'], ['offset', 'America/New_York'], ['naive', 'Asia/Kolkata'], ['naive', 'America/New_York']])(
    'timestamps %s on a machine in %s: exactly the idle sessions are closed', async (timestamps, zone) => {
      process.env.TZ = zone;
      const r = await cleanUp({ timestamps, sessionOrder: 'unsorted' });
      expect(r.cursor.counts).toMatchObject({ matched: 7, closed: 7, unreadable: 0 });
      expect(r.closed.sort()).toEqual([...r.idle].sort());
    },
  );
});
