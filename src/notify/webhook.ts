/**
 * The generic JSON webhook: a versioned payload (docs/notifications.md, "Webhook payload"), signed like GitHub's
 * webhooks (`X-Hub-Signature-256`): `X-Sitechat-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` with the
 * shared secret, and a delivery id (header and field) that is the same on every retry of one run's notification,
 * for the receiver to de-duplicate on.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NotificationMessage } from './message';

/** Bumped on any change a receiver could notice (a field renamed, removed or of another type); new fields do not. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

export const SIGNATURE_HEADER = 'X-Sitechat-Signature-256';
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

/** `sha256=<hex>` of the exact bytes sent. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** What a receiver does (docs/notifications.md): recompute over the raw body, compare in constant time. */
export function verifySignature(body: string | Buffer, secret: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
