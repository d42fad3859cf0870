/**
 * The receivers docs/notifications.md shows ("Verifying the signature"), run as written: the JavaScript one in this
 * process, the Python one with python3. Each must take a webhook request as `deliver` sends it, and refuse the same
 * request 10 minutes later (a replay), a changed body, and a fresh timestamp put on an old signature.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver } from '../../../src/notify/deliver';
import { FileNotificationLedger } from '../../../src/store/file/ledger';
import { fencesOf, type Fence } from '../../helpers/docExamples';
import { Receiver, type Received } from '../../helpers/receiver';
import { skippable } from '../../helpers/requirements';
import { fullMessage } from './fixtures';

const ROOT = join(__dirname, '..', '..', '..');
const SECRET = 'docs-receiver-secret-5e21';
const TEN_MINUTES_MS = 10 * 60_000;

function fence(language: string): Fence {
  const found = fencesOf(ROOT, join(ROOT, 'docs', 'notifications.md')).filter((f) => f.language === language);
  expect(found, `docs/notifications.md: exactly one ${language} fence`).toHaveLength(1);
  return found[0] as Fence;
}

type Verify = (rawBody: Buffer, secret: string, headers: Record<string, unknown>, now?: number) => boolean;

describe("docs/notifications.md's receivers against what sitechat sends", () => {
  const receiver = new Receiver();
  let dir: string;
  let sent: Received;
  let sentAtMs: number;

  beforeAll(async () => {
    const base = await receiver.start();
    dir = mkdtempSync(join(tmpdir(), 'sitechat-docs-receiver-'));
    sentAtMs = Date.now();
    const env = { HOOK_URL: `${base}/hook`, HOOK_SECRET: SECRET };
    const d = await deliver({ kind: 'webhook', urlEnv: 'HOOK_URL', secretEnv: 'HOOK_SECRET' }, fullMessage(), 'docs-1', { ledger: new FileNotificationLedger(dir), env, lastAttempt: true });
    expect(d.outcome.status).toBe('delivered');
    sent = receiver.received[0] as Received;
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The cases: [raw body, headers, now (ms)] → expected verdict. */
  function cases(): { name: string; body: string; headers: Record<string, unknown>; now: number; accept: boolean }[] {
    const later = sentAtMs + TEN_MINUTES_MS;
    return [
      { name: 'as sent, on arrival', body: sent.body, headers: sent.headers, now: sentAtMs, accept: true },
      { name: 'as sent, 4 minutes later (clocks drift)', body: sent.body, headers: sent.headers, now: sentAtMs + 4 * 60_000, accept: true },
      { name: 'the same request posted again 10 minutes later', body: sent.body, headers: sent.headers, now: later, accept: false },
      { name: 'a timestamp from 10 minutes ahead', body: sent.body, headers: sent.headers, now: sentAtMs - TEN_MINUTES_MS, accept: false },
      { name: 'the old signature with a fresh timestamp', body: sent.body, headers: { ...sent.headers, 'x-sitechat-timestamp': String(Math.floor(later / 1000)) }, now: later, accept: false },
      { name: 'a changed body', body: sent.body.replace('"failed"', '"passed"'), headers: sent.headers, now: sentAtMs, accept: false },
      { name: 'no timestamp', body: sent.body, headers: { ...sent.headers, 'x-sitechat-timestamp': undefined }, now: sentAtMs, accept: false },
    ];
  }

  it('sends the timestamp it signs', () => {
    expect(sent.timestamp).toMatch(/^\d+$/u);
    expect(Math.abs(Number(sent.timestamp) * 1000 - sentAtMs)).toBeLessThan(60_000);
    expect(sent.headers['x-sitechat-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/u);
  });

  it('the JavaScript sample accepts a fresh request and refuses a replay 10 minutes later', () => {
    const verified = (runInThisContext(`(function (require) {\n${fence('js').body}\nreturn verified;\n})`) as (r: NodeJS.Require) => Verify)(require);
    for (const c of cases()) expect(verified(Buffer.from(c.body, 'utf8'), SECRET, c.headers, c.now), c.name).toBe(c.accept);
  });

  it('the Python sample does the same', (ctx) => {
    const python = spawnSync('python3', ['--version']).status === 0 ? 'python3' : undefined;
    if (skippable(python ? undefined : 'python3 is not installed (the Python receiver of docs/notifications.md)')) return ctx.skip();
    const driver = [
      fence('python').body,
      'import json, sys',
      'for c in json.load(sys.stdin):',
      '    print(json.dumps(verified(c["body"].encode(), c["secret"], c["signature"], c["timestamp"], c["now"])))',
    ].join('\n');
    const input = cases().map((c) => ({ body: c.body, secret: SECRET, signature: c.headers['x-sitechat-signature-256'] ?? null, timestamp: c.headers['x-sitechat-timestamp'] ?? null, now: c.now / 1000 }));
    const out = execFileSync(python ?? 'python3', ['-c', driver], { input: JSON.stringify(input), encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l) as boolean);
    expect(out).toEqual(cases().map((c) => c.accept));
  });
});
