import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryIdFor } from '../../../src/notify/deliveryId';
import { renderWebhook, signBody, verifySignature, WEBHOOK_PAYLOAD_VERSION } from '../../../src/notify/webhook';
import { fullMessage } from './fixtures';

describe('generic webhook payload and signature', () => {
  it('signs `<timestamp>.<body>` with HMAC-SHA256, as `sha256=<hex>`, verifiable by a receiver with the secret', () => {
    const body = JSON.stringify(renderWebhook(fullMessage(), 'abc'));
    const now = Date.UTC(2030, 0, 1);
    const ts = now / 1000;
    const header = signBody(body, 'shared-secret-123', ts);
    expect(header).toBe(`sha256=${createHmac('sha256', 'shared-secret-123').update(`${ts}.${body}`).digest('hex')}`);
    expect(verifySignature(body, 'shared-secret-123', header, String(ts), now)).toBe(true);
    expect(verifySignature(`${body} `, 'shared-secret-123', header, String(ts), now)).toBe(false);
    expect(verifySignature(body, 'another-secret', header, String(ts), now)).toBe(false);
    expect(verifySignature(body, 'shared-secret-123', undefined, String(ts), now)).toBe(false);
    expect(verifySignature(body, 'shared-secret-123', header, undefined, now)).toBe(false);
    // The body alone signed (version 1) does not verify, nor does the signature under another timestamp.
    expect(verifySignature(body, 'shared-secret-123', `sha256=${createHmac('sha256', 'shared-secret-123').update(body).digest('hex')}`, String(ts), now)).toBe(false);
    expect(verifySignature(body, 'shared-secret-123', header, String(ts + 1), now)).toBe(false);
  });

  it('refuses a timestamp more than 5 minutes from the clock, either way', () => {
    const body = '{}';
    const ts = Date.UTC(2030, 0, 1) / 1000;
    const header = signBody(body, 's3cret', ts);
    expect(verifySignature(body, 's3cret', header, String(ts), (ts + 300) * 1000)).toBe(true);
    expect(verifySignature(body, 's3cret', header, String(ts), (ts + 301) * 1000)).toBe(false);
    expect(verifySignature(body, 's3cret', header, String(ts), (ts - 301) * 1000)).toBe(false);
  });

  it('is versioned and carries the delivery id and every part of the message', () => {
    const payload = renderWebhook(fullMessage(), 'd1');
    expect(payload.version).toBe(WEBHOOK_PAYLOAD_VERSION);
    expect(payload.version).toBe(2);
    expect(payload.deliveryId).toBe('d1');
    expect(payload.test).toBe(false);
    expect(Object.keys(payload).sort()).toEqual([
      'baseline', 'counts', 'dataset', 'deliveryId', 'errors', 'event', 'finishedAt', 'model', 'passRate', 'reasons', 'regressed',
      'regressedTotal', 'reportUrl', 'runId', 'sites', 'startedAt', 'test', 'title', 'trigger', 'verdict', 'version', 'warnings', 'workflowId',
    ]);
  });

  it('derives the delivery id from the workflow execution and destination: the same on every retry, another per destination', () => {
    const slack = { kind: 'slack' as const, urlEnv: 'A' };
    const a = deliveryIdFor('wf', 'run-1', slack);
    expect(deliveryIdFor('wf', 'run-1', slack)).toBe(a);
    expect(deliveryIdFor('wf', 'run-2', slack)).not.toBe(a);
    expect(deliveryIdFor('wf', 'run-1', { kind: 'slack', urlEnv: 'B' })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{32}$/u);
  });
});
