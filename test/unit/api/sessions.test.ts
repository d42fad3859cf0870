import { afterEach, describe, expect, it } from 'vitest';
import type { Session, SiteChatClient } from '../../../src/api';
import { json, withServer } from './server';

const mk = (id: string): Session => ({
  id,
  email: 'a@example.com',
  visitor_id: '',
  message_count: 2,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  closed_at: null,
});
const ids = (n: number, prefix = 's'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

interface Backend {
  items: string[];
  /** Called before answering page `n` (0-based). */
  beforePage?: (n: number, items: string[]) => void;
  /** Overrides the reported total. */
  total?: (items: string[]) => number;
  /** Ignore offset (a broken server). */
  ignoreOffset?: boolean;
}

let env: Awaited<ReturnType<typeof withServer>> | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function backend(b: Backend): Promise<{ client: SiteChatClient; pages: () => number }> {
  let page = 0;
  env = await withServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = b.ignoreOffset === true ? 0 : Number(url.searchParams.get('offset') ?? 0);
    b.beforePage?.(page, b.items);
    page++;
    const sessions = b.items.slice(offset, offset + limit).map(mk);
    json(res, 200, { sessions, pagination: { limit, offset, total: b.total?.(b.items) ?? b.items.length } });
  });
  return { client: env.client, pages: () => page };
}

async function collect(client: SiteChatClient, pageSize: number, maxPages?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const s of client.sessions.iterate('site-1', { pageSize, maxPages })) out.push(s.id);
  return out;
}

describe('sessions.iterate', () => {
  it('stops exactly at pagination.total without an extra request', async () => {
    const { client, pages } = await backend({ items: ids(10) });
    expect(await collect(client, 5)).toEqual(ids(10));
    expect(pages()).toBe(2);
  });

  it('handles a partial last page and passes email and page size', async () => {
    const { client, pages } = await backend({ items: ids(7) });
    const out: string[] = [];
    for await (const s of client.sessions.iterate('site-1', { email: 'a@example.com', pageSize: 3 })) out.push(s.id);
    expect(out).toEqual(ids(7));
    expect(pages()).toBe(3);
    expect(env?.server.seen.map((r) => r.url)).toEqual([
      '/api/v1/m2m/sites/site-1/sessions?email=a%40example.com&limit=3&offset=0',
      '/api/v1/m2m/sites/site-1/sessions?email=a%40example.com&limit=3&offset=3',
      '/api/v1/m2m/sites/site-1/sessions?email=a%40example.com&limit=3&offset=6',
    ]);
  });

  it('an empty list makes one request', async () => {
    const { client, pages } = await backend({ items: [] });
    expect(await collect(client, 5)).toEqual([]);
    expect(pages()).toBe(1);
  });

  it('stops on an empty page even when total still claims more', async () => {
    const { client, pages } = await backend({ items: ids(4), total: () => 100 });
    expect(await collect(client, 4)).toEqual(ids(4));
    expect(pages()).toBe(2);
  });

  it('terminates when the list shrinks mid-paging', async () => {
    const { client, pages } = await backend({
      items: ids(10),
      beforePage: (n, items) => {
        if (n === 1) items.splice(0, 3); // three sessions vanish before the second page
      },
    });
    // s4–s6 shift below the offset and are missed: inherent to offset paging, and a rerun finds them.
    expect(await collect(client, 4)).toEqual(['s0', 's1', 's2', 's3', 's7', 's8', 's9']);
    expect(pages()).toBe(2);
  });

  it('yields each session once when the list grows mid-paging', async () => {
    const { client, pages } = await backend({
      items: ids(6),
      beforePage: (n, items) => {
        if (n > 0) items.unshift(`new${n}`); // a newer session appears before every later page
      },
    });
    // s2 and s4 are served twice across page boundaries but yielded once; the new sessions sit
    // before the offset and are left for the next run.
    expect(await collect(client, 3)).toEqual(ids(6));
    expect(pages()).toBe(3);
  });

  it('never loops forever on a server that ignores offset', async () => {
    const { client, pages } = await backend({ items: ids(5), total: () => 1_000_000, ignoreOffset: true });
    expect(await collect(client, 5, 20)).toEqual(ids(5));
    expect(pages()).toBe(20);
  });
});
