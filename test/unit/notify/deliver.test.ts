import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enableMetrics } from '../../../src/observability/metrics/registry';
import { deliver } from '../../../src/notify/deliver';
import { FileNotificationLedger } from '../../../src/store/file/ledger';
import { MAX_RESPONSE_BYTES, retryAfterMs } from '../../../src/notify/send';
import { expressNotFound, Receiver } from '../../helpers/receiver';
import { freePort } from '../../../src/temporal/devServerProcess';
import { fullMessage } from './fixtures';

const SECRET = 'receiver-shared-secret-0123456789';

describe('delivery to a local receiver', () => {
  const receiver = new Receiver(SECRET);
  let base: string;
  let dir: string;
  let ledger: FileNotificationLedger;
  let env: NodeJS.ProcessEnv;
  const webhook = { kind: 'webhook' as const, urlEnv: 'HOOK_URL', secretEnv: 'HOOK_SECRET' };

  beforeAll(async () => { base = await receiver.start(); });
  afterAll(async () => receiver.close());
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.reply = () => ({ status: 200 });
    dir = mkdtempSync(join(tmpdir(), 'sitechat-ledger-'));
    ledger = new FileNotificationLedger(dir);
    env = { HOOK_URL: `${base}/hooks/T0123/very-secret-path-token`, HOOK_SECRET: SECRET };
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('sends a signed body once; a later attempt with the same delivery id finds it delivered and sends nothing', async () => {
    const first = await deliver(webhook, fullMessage(), 'd-1', { ledger, env, lastAttempt: false });
    expect(first.outcome).toMatchObject({ status: 'delivered', deliveryId: 'd-1', attempts: 1 });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.verified).toBe(true);
    expect(receiver.received[0]?.deliveryId).toBe('d-1');
    const again = await deliver(webhook, fullMessage(), 'd-1', { ledger, env, lastAttempt: false });
    expect(again.outcome.status).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
  });

  it('asks for another attempt on 429 with the Retry-After, then gives up on the last attempt with the reason', async () => {
    receiver.reply = () => ({ status: 429, headers: { 'Retry-After': '7' }, body: `slow down ${env.HOOK_URL ?? ''}` });
    const first = await deliver(webhook, fullMessage(), 'd-2', { ledger, env, lastAttempt: false });
    expect(first.retry).toMatchObject({ afterMs: 7000 });
    // A receiver that echoes the URL back does not get it into the outcome: only the status is kept.
    expect(first.retry?.reason).toBe('HTTP 429 Too Many Requests');
    const last = await deliver(webhook, fullMessage(), 'd-2', { ledger, env, lastAttempt: true });
    expect(last.retry).toBeUndefined();
    expect(last.outcome).toMatchObject({ status: 'failed', attempts: 2 });
    expect(last.outcome.error).toBe('HTTP 429 Too Many Requests (gave up after 2 attempts)');
    expect((await ledger.get('d-2'))?.status).toBe('failed');
  });

  it('records a 4xx as failed at once, not retried', async () => {
    receiver.reply = () => ({ status: 404, body: 'no_service' });
    const res = await deliver({ kind: 'slack', urlEnv: 'HOOK_URL' }, fullMessage(), 'd-3', { ledger, env, lastAttempt: false });
    expect(res.retry).toBeUndefined();
    // Slack's error codes are a closed list: one is shown; nothing else of a body is.
    expect(res.outcome).toMatchObject({ status: 'failed', error: 'HTTP 404 Not Found: no_service' });
    await deliver({ kind: 'slack', urlEnv: 'HOOK_URL' }, fullMessage(), 'd-3', { ledger, env, lastAttempt: false });
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps only the status of an answer that quotes the URL\'s path (Express\'s 404 page, a 500 with the request line)', async () => {
    receiver.reply = (r, i) => (i === 0 ? expressNotFound(r) : { status: 500, body: `POST ${r.path} failed: ${JSON.stringify(r.json).slice(0, 100)}` });
    const refused = await deliver({ kind: 'slack', urlEnv: 'HOOK_URL' }, fullMessage(), 'd-6', { ledger, env, lastAttempt: false });
    expect(receiver.received[0]?.path).toContain('very-secret-path-token');
    expect(refused.outcome).toMatchObject({ status: 'failed', error: 'HTTP 404 Not Found' });
    const retried = await deliver(webhook, fullMessage(), 'd-7', { ledger, env, lastAttempt: false });
    expect(retried.retry?.reason).toBe('HTTP 500 Internal Server Error');
    const recorded = JSON.stringify([await ledger.get('d-6'), await ledger.get('d-7'), refused, retried]);
    for (const part of ['very-secret-path-token', '/hooks/', 'Cannot POST', 'failed:', '127.0.0.1']) expect(recorded).not.toContain(part);
  });

  it('reads a few KiB of an answer, not the gigabytes a receiver streams', async () => {
    const huge = 256 * 1024 * 1024;
    receiver.reply = () => ({ status: 500, streamBytes: huge });
    const res = await deliver(webhook, fullMessage(), 'd-8', { ledger, env, lastAttempt: false });
    expect(res.retry?.reason).toBe('HTTP 500 Internal Server Error');
    await receiver.answered(0);
    // The receiver could send only what the socket buffers took before the sender closed the connection.
    const streamed = receiver.received[0]?.streamed ?? huge;
    expect(streamed).toBeGreaterThanOrEqual(MAX_RESPONSE_BYTES);
    expect(streamed).toBeLessThan(16 * 1024 * 1024);
  });

  it('retries a network error (its code only, never the URL) and names an unset variable without sending', async () => {
    const closed = await freePort();
    const down = await deliver(webhook, fullMessage(), 'd-4', { ledger, env: { ...env, HOOK_URL: `http://127.0.0.1:${closed}/very-secret-path-token` }, lastAttempt: false });
    expect(down.retry?.reason).toBe('network error: ECONNREFUSED');
    const malformed = await deliver(webhook, fullMessage(), 'd-9', { ledger, env: { ...env, HOOK_URL: 'hooks/very-secret-path-token' }, lastAttempt: false });
    expect(malformed.retry?.reason).toBe('network error: ERR_INVALID_URL');
    const unset = await deliver(webhook, fullMessage(), 'd-5', { ledger, env: { HOOK_URL: env.HOOK_URL }, lastAttempt: false });
    expect(unset.outcome).toMatchObject({ status: 'failed', error: "HOOK_SECRET is not set in this worker's environment" });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('counts each send in sitechat_notifications_total by destination kind and result', async () => {
    const registry = enableMetrics();
    const count = async (labels: Record<string, string>): Promise<number> => {
      const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'sitechat_notifications_total');
      const values = (metric?.values ?? []) as { labels: Record<string, string>; value: number }[];
      return values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
    };
    await deliver(webhook, fullMessage(), 'm-1', { ledger, env, lastAttempt: false });
    receiver.reply = () => ({ status: 503 });
    await deliver(webhook, fullMessage(), 'm-2', { ledger, env, lastAttempt: false });
    receiver.reply = () => ({ status: 404 });
    await deliver({ kind: 'slack', urlEnv: 'HOOK_URL' }, fullMessage(), 'm-3', { ledger, env, lastAttempt: false });
    await deliver({ kind: 'teams', urlEnv: 'UNSET_HOOK' }, fullMessage(), 'm-4', { ledger, env, lastAttempt: false });
    expect(await count({ destination: 'webhook', result: 'ok' })).toBe(1);
    expect(await count({ destination: 'webhook', result: 'retry' })).toBe(1);
    expect(await count({ destination: 'slack', result: 'refused' })).toBe(1);
    expect(await count({ destination: 'teams', result: 'unconfigured' })).toBe(1);
  });
});
