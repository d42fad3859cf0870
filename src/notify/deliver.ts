/**
 * Sends one notification to one destination at most once per delivery id as far as the runner can tell: the
 * ledger says `delivered` (or `failed`) → nothing is sent again. Before a send the ledger records `sending`, right
 * after the 2xx `delivered`, before anything else happens; a worker that dies between the two leaves `sending`,
 * and the retry sends again with the same delivery id (at-least-once; exactly-once for a receiver that
 * de-duplicates on the id). The URL and secret are read from the worker's environment here and nowhere else; the
 * error recorded is made of fixed text (send.ts), never of the receiver's answer or the URL.
 */
import type { DeliveryRecord, NotificationLedger } from '../store/store';
import type { NotificationMessage } from './message';
import { postOnce } from './send';
import { renderSlack } from './slack';
import { destinationLabel, NotifyKind, type NotifyDestination, type NotifyOutcome } from '../domain/notify';
import { renderTeams } from './teams';
import { DELIVERY_HEADER, EVENT_HEADER, renderWebhook, SIGNATURE_HEADER, signBody, TIMESTAMP_HEADER } from './webhook';
import { metrics } from '../observability/metrics/registry';

export interface DeliverOptions {
  ledger: NotificationLedger;
  env: NodeJS.ProcessEnv;
  /** No attempt comes after this one: a retryable failure is recorded as final. */
  lastAttempt: boolean;
  /** `sitechat notify test`: the sample is sent, the ledger is not used. */
  test?: boolean;
  timeoutMs?: number;
}

export interface Delivered {
  outcome: NotifyOutcome;
  /** Set when another attempt should send again, after this long when the receiver said (Retry-After). */
  retry?: { reason: string; afterMs?: number };
}

/**
 * The body and headers of a destination's request; the URL and secret stay with the caller. A webhook's signature
 * covers `sentAt` (Unix seconds), so each send, a retry included, is signed anew and a receiver can refuse a replay.
 */
export function requestFor(
  d: NotifyDestination, message: NotificationMessage, deliveryId: string, secret: string | undefined, test = false, sentAt = Math.floor(Date.now() / 1000),
): { body: string; headers: Record<string, string> } {
  if (d.kind === NotifyKind.slack) return { body: JSON.stringify(renderSlack(message)), headers: {} };
  if (d.kind === NotifyKind.teams) return { body: JSON.stringify(renderTeams(message)), headers: {} };
  const body = JSON.stringify(renderWebhook(message, deliveryId, test));
  return {
    body,
    headers: { [SIGNATURE_HEADER]: signBody(body, secret ?? '', sentAt), [TIMESTAMP_HEADER]: String(sentAt), [DELIVERY_HEADER]: deliveryId, [EVENT_HEADER]: message.event },
  };
}

function outcomeOf(d: NotifyDestination, r: DeliveryRecord, message: NotificationMessage): NotifyOutcome {
  return {
    destination: destinationLabel(d), kind: d.kind, status: r.status === 'delivered' ? 'delivered' : 'failed', deliveryId: r.deliveryId,
    trigger: message.trigger, attempts: r.sends, ...(r.error !== undefined && { error: r.error }),
  };
}

/** The worker variables a destination needs that are not set, by name. */
export function missingEnv(d: NotifyDestination, env: NodeJS.ProcessEnv): string[] {
  return [d.urlEnv, ...(d.secretEnv ? [d.secretEnv] : [])].filter((name) => !env[name]?.trim());
}

export async function deliver(d: NotifyDestination, message: NotificationMessage, deliveryId: string, opts: DeliverOptions): Promise<Delivered> {
  const label = destinationLabel(d);
  const known = opts.test ? undefined : await opts.ledger.get(deliveryId);
  if (known && known.status !== 'sending') return { outcome: outcomeOf(d, known, message) };
  const record: DeliveryRecord = { deliveryId, destination: label, kind: d.kind, status: 'sending', sends: known?.sends ?? 0, updatedAt: new Date().toISOString() };
  const save = async (patch: Partial<DeliveryRecord>): Promise<DeliveryRecord> => {
    Object.assign(record, patch, { updatedAt: new Date().toISOString() });
    if (!opts.test) await opts.ledger.put(record);
    return record;
  };

  const missing = missingEnv(d, opts.env);
  if (missing.length > 0) {
    metrics().notifications.inc({ destination: d.kind, result: 'unconfigured' });
    const error = `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set in this worker's environment`;
    return { outcome: outcomeOf(d, await save({ status: 'failed', error }), message) };
  }
  const url = (opts.env[d.urlEnv] ?? '').trim();
  const secret = d.secretEnv ? opts.env[d.secretEnv] : undefined;
  const { body, headers } = requestFor(d, message, deliveryId, secret, opts.test);

  await save({ status: 'sending', sends: record.sends + 1 });
  const sent = await postOnce({ url, body, headers, timeoutMs: opts.timeoutMs });
  // One count per send, by destination kind (bounded: slack, teams, webhook): ok, refused (a 4xx), or retry.
  metrics().notifications.inc({ destination: d.kind, result: sent.status === 'delivered' ? 'ok' : sent.status === 'refused' ? 'refused' : 'retry' });
  if (sent.status === 'delivered') return { outcome: outcomeOf(d, await save({ status: 'delivered', error: undefined }), message) };
  if (sent.status === 'refused') return { outcome: outcomeOf(d, await save({ status: 'failed', error: sent.reason }), message) };
  if (opts.lastAttempt) {
    return { outcome: outcomeOf(d, await save({ status: 'failed', error: `${sent.reason} (gave up after ${record.sends} attempts)` }), message) };
  }
  await save({ error: sent.reason });
  return { outcome: outcomeOf(d, record, message), retry: { reason: sent.reason, afterMs: sent.retryAfterMs } };
}
