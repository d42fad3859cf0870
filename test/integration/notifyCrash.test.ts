import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookPayload } from '../../src/notify/webhook';
import type { RunResult } from '../../src/domain/run';
import { Receiver } from '../helpers/receiver';
import { startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { exited, spawnWorker } from '../helpers/workerProcess';

const SECRET = 'crash-test-signing-secret-77e1';

describe('a worker SIGKILLed while it sends a notification', () => {
  let stack: Stack;
  const receiver = new Receiver(SECRET);
  let env: Record<string, string>;
  beforeAll(async () => {
    stack = await startStack(__filename);
    const base = await receiver.start();
    env = { SITECHAT_TEST_HOOK_URL: `${base}/hook/secret-path`, SITECHAT_TEST_HOOK_SECRET: SECRET };
  });
  afterAll(async () => {
    await stack?.close();
    await receiver.close();
  });

  it('is replaced by another worker; the receiver gets one delivery id (the same id re-sent, as the guarantee says)', async () => {
    // The first request is held unanswered: the sending worker dies while it waits for the 2xx. Later ones get 200.
    receiver.reply = (_r, index) => (index === 0 ? { status: 200, delayMs: 120_000 } : { status: 200 });
    const dataset = writeDataset(stack, 'question,must_include', ['How much does the Personal plan cost?,$9.99']);
    const first = spawnWorker(stack, env);
    const handle = await startRun(stack, dataset, { notify: { destinations: [{ kind: 'webhook', urlEnv: 'SITECHAT_TEST_HOOK_URL', secretEnv: 'SITECHAT_TEST_HOOK_SECRET' }], on: ['always'] } });
    await receiver.next(0);
    first.kill('SIGKILL');
    await exited(first);
    const second = spawnWorker(stack, env);
    try {
      const result = (await handle.result()) as RunResult;
      expect(result.notifications).toHaveLength(1);
      expect(result.notifications?.[0]).toMatchObject({ status: 'delivered', trigger: 'always' });
      // The send the first worker began had no answer, so the ledger said `sending` and the retry sent again: two
      // requests, one delivery id, every one signed. A de-duplicating receiver acts once.
      expect(receiver.deliveries().size).toBe(1);
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received.every((r) => r.verified === true)).toBe(true);
      const ids = receiver.received.map((r) => (r.json as WebhookPayload).deliveryId);
      expect(new Set(ids)).toEqual(receiver.deliveries());
      expect(result.notifications?.[0]?.deliveryId).toBe(ids[0]);
      expect(result.notifications?.[0]?.attempts).toBe(2);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  });
});
