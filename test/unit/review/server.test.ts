/**
 * The review server's guards, over HTTP with a stand-in session: the token only in the fragment of the URL it prints
 * and in the `X-Review-Token` header (no cookie, no query), and a `Host` check against DNS rebinding.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReviewServer, type RunningReviewServer } from '../../../src/review/server';
import type { ReviewSession } from '../../../src/review/session';
import { hostAllowed } from '../../../src/shared/serverGuard';
import type { ReviewState } from '../../../src/review/types';

const TOKEN = 'T0ken-of-this-test_abcdefghijklmnop';
const STATE: ReviewState = { runId: 'r1', runs: [], items: [], omitted: 0, sample: { size: 0, seed: 'r1' } };

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A request with any `Host` header (fetch sets its own). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('hostAllowed', () => {
  const bound = { host: '127.0.0.1', port: 4321 };
  it('takes loopback names and the bound address, with the bound port only', () => {
    for (const ok of ['127.0.0.1:4321', 'localhost:4321', 'LOCALHOST:4321', '[::1]:4321']) expect(hostAllowed(ok, bound), ok).toBe(true);
    for (const bad of [undefined, '', 'evil.example:4321', 'evil.example', '127.0.0.1', '127.0.0.1:80', 'localhost:4322', '127.0.0.1.nip.io:4321',
      'user@127.0.0.1:4321', '127.0.0.1:4321/x', '192.168.1.5:4321', 'localhost.evil.example:4321']) {
      expect(hostAllowed(bad, bound), String(bad)).toBe(false);
    }
  });

  it('bound to another address: that address; bound to every interface: any IP address, never a name', () => {
    expect(hostAllowed('192.168.1.5:4321', { host: '192.168.1.5', port: 4321 })).toBe(true);
    expect(hostAllowed('[fe80::1]:4321', { host: 'fe80::1', port: 4321 })).toBe(true);
    expect(hostAllowed('192.168.1.6:4321', { host: '192.168.1.5', port: 4321 })).toBe(false);
    expect(hostAllowed('10.0.0.7:4321', { host: '0.0.0.0', port: 4321 })).toBe(true);
    expect(hostAllowed('[2001:db8::7]:4321', { host: '::', port: 4321 })).toBe(true);
    expect(hostAllowed('evil.example:4321', { host: '0.0.0.0', port: 4321 })).toBe(false);
  });
});

describe('the review server', () => {
  let server: RunningReviewServer;
  const session = { snapshot: () => STATE, agreement: () => Promise.resolve({}), save: () => Promise.reject(new Error('not in this test')) } as unknown as ReviewSession;
  beforeAll(async () => {
    server = await startReviewServer({ host: '127.0.0.1', port: 0, token: TOKEN, session });
  });
  afterAll(() => server.close());

  it('prints the token in the URL\'s fragment, which no browser sends to a server', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${TOKEN}`);
  });

  it('serves the page and its assets without the token in them and sets no cookie', async () => {
    for (const path of ['/', '/review.js', '/review.css', `/?token=${TOKEN}`]) {
      const res = await get(server.port, path, { Host: `127.0.0.1:${server.port}` });
      expect(res.status, path).toBe(200);
      expect(res.body, path).not.toContain(TOKEN);
      expect(res.headers['set-cookie'], path).toBeUndefined();
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('answers the JSON API only with the token in the header: not from a cookie, not from the query', async () => {
    const host = { Host: `127.0.0.1:${server.port}` };
    expect((await get(server.port, '/api/state', host)).status).toBe(403);
    expect((await get(server.port, '/api/state', { ...host, Cookie: `sitechat_review_token=${TOKEN}` })).status).toBe(403);
    expect((await get(server.port, `/api/state?token=${TOKEN}`, host)).status).toBe(403);
    expect((await get(server.port, '/api/state', { ...host, 'X-Review-Token': `${TOKEN}x` })).status).toBe(403);
    const ok = await get(server.port, '/api/state', { ...host, 'X-Review-Token': TOKEN });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual(STATE);
  });

  it('refuses a Host that is not this server (DNS rebinding), even with the token; a loopback name is fine', async () => {
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`]) {
      for (const path of ['/', '/api/state']) {
        const res = await get(server.port, path, { Host: host, 'X-Review-Token': TOKEN });
        expect(res.status, `${host} ${path}`).toBe(403);
        expect(res.body).toContain('the Host header names no address of this server');
      }
    }
    expect((await get(server.port, '/api/state', { Host: `localhost:${server.port}`, 'X-Review-Token': TOKEN })).status).toBe(200);
  });
});
