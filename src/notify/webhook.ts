/**
 * The generic JSON webhook: a versioned payload (docs/notifications.md, "Webhook payload"), signed like GitHub's and
 * Stripe's webhooks: `X-Sitechat-Timestamp: <Unix seconds of the send>` and `X-Sitechat-Signature-256: sha256=<hex
 * HMAC-SHA256 of "<timestamp>.<raw body>">` with the shared secret, so a receiver that refuses old timestamps refuses
 * a captured request posted again later. A delivery id (header and field) is the same on every retry of one run's
 * notification, for the receiver to de-duplicate on.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NotificationMessage } from './message';

/**
 * Bumped on any change a receiver could notice (a field renamed, removed or of another type, or how the request is
 * signed); new fields do not. 2: the signature covers the timestamp (1 signed the body alone).
 */
export const WEBHOOK_PAYLOAD_VERSION = 2;

export const SIGNATURE_HEADER = 'X-Sitechat-Signature-256';
export const TIMESTAMP_HEADER = 'X-Sitechat-Timestamp';
export const DELIVERY_HEADER = 'X-Sitechat-Delivery';
export const EVENT_HEADER = 'X-Sitechat-Event';

export interface WebhookPayload extends NotificationMessage {
  version: typeof WEBHOOK_PAYLOAD_VERSION;
  deliveryId: string;
  /** True for `sitechat notify test`: a sample, not a run. */
  test: boolean;
}

export function renderWebhook(m: NotificationMessage, deliveryId: string, test = false): WebhookPayload {
  return { version: WEBHOOK_PAYLOAD_VERSION, deliveryId, test, ...m };
}

/** How old a request the receivers of docs/notifications.md accept, either way (clocks drift): Stripe's default. */
export const SIGNATURE_TOLERANCE_S = 300;

function hmac(secret: string, timestamp: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest('hex')}`;
}

/** `sha256=<hex>` of `<timestamp>.` followed by the exact bytes sent. */
export function signBody(body: string, secret: string, timestamp: number): string {
  return hmac(secret, String(timestamp), Buffer.from(body, 'utf8'));
}

/**
 * What a receiver does (docs/notifications.md): refuse a timestamp more than the tolerance away from its clock,
 * recompute over the timestamp and the raw body, compare in constant time.
 */
export function verifySignature(body: string | Buffer, secret: string, signature: string | undefined, timestamp: string | undefined, nowMs = Date.now()): boolean {
  if (!signature || !timestamp || !/^\d{1,12}$/u.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S) return false;
  const expected = Buffer.from(hmac(secret, timestamp, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
