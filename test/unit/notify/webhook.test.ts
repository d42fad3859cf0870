import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryIdFor } from '../../../src/notify/deliveryId';
import { renderWebhook, signBody, verifySignature, WEBHOOK_PAYLOAD_VERSION } from '../../../src/notify/webhook';
import { fullMessage } from './fixtures';

describe('generic webhook payload and signature', () => {
  it('signs the exact body with HMAC-SHA256, as `sha256=<hex>`, verifiable by a receiver with the secret', () => {
    const body = JSON.stringify(renderWebhook(fullMessage(), 'abc'));
    const header = signBody(body, 'shared-secret-123');
    expect(header).toBe(`sha256=${createHmac('sha256', 'shared-secret-123').update(body).digest('hex')}`);
    expect(verifySignature(body, 'shared-secret-123', header)).toBe(true);
    expect(verifySignature(`${body} `, 'shared-secret-123', header)).toBe(false);
    expect(verifySignature(body, 'another-secret', header)).toBe(false);
    expect(verifySignature(body, 'shared-secret-123', undefined)).toBe(false);
  });

  it('is versioned and carries the delivery id and every part of the message', () => {
    const payload = renderWebhook(fullMessage(), 'd1');
    expect(payload.version).toBe(WEBHOOK_PAYLOAD_VERSION);
    expect(payload.version).toBe(1);
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
