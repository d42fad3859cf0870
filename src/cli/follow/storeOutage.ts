/**
 * A results store the workers cannot reach while a run is followed: their store activities wait it out (retried,
 * nothing lost), and the CLI says so from what Temporal knows of those activities — the workers', not its own view.
 */
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, type LoadedDataConverter, type Payload, type ProtoFailure } from '@temporalio/common';
import { STORE_WAIT_FIELD } from '../../store/errors';
import type { RunProgress } from '../../domain/run';
import type { Logger } from '../logger';

/** The failure type a store activity retries with while the store cannot be reached (activities/storeOutage.ts). */
const STORE_UNAVAILABLE = 'StoreUnavailableError';

/** How often the run's workflows are described: a few calls each time, so not at every progress tick. @default 5000 */
const CHECK_EVERY_MS = 5_000;

/** Pending activities of `workflowIds` whose last attempt failed because the store was unreachable; their last message. */
export async function storeWaits(client: Client, workflowIds: readonly string[]): Promise<string[]> {
  const described = await Promise.all(workflowIds.map((id) => client.workflow.getHandle(id).describe().catch(() => undefined)));
  const converter = client.options.loadedDataConverter;
  const pending = described.flatMap((d) => d?.raw.pendingActivities ?? []);
  const waits = await Promise.all(pending.map(async (a): Promise<string | undefined> => {
    // An activity retried after the store failed it, or one waiting for the store in place (an ask: its retry would
    // ask again), which says so in its heartbeat details.
    if (a.lastFailure?.applicationFailureInfo?.type === STORE_UNAVAILABLE) return (await failureMessage(converter, a.lastFailure)) ?? STORE_UNAVAILABLE;
    return storeWaitIn(await throughCodecs(converter, a.heartbeatDetails?.payloads?.[0]));
  }));
  return waits.filter((w): w is string => w !== undefined);
}

/**
 * A payload of a raw server answer (describe does not decode them) as the client's codecs give it back: the clear
 * payload with SITECHAT_PAYLOAD_KEYS set; undefined when they cannot, since only a store wait is looked for here.
 */
async function throughCodecs(converter: LoadedDataConverter, payload: Payload | null | undefined): Promise<Payload | undefined> {
  if (!payload) return undefined;
  let payloads = [payload];
  try {
    for (const codec of [...converter.payloadCodecs].reverse()) payloads = await codec.decode(payloads);
  } catch {
    return undefined;
  }
  return payloads[0];
}

/** A raw failure's message: with payload keys set it sits, encrypted, in the failure's encoded attributes. */
async function failureMessage(converter: LoadedDataConverter, failure: ProtoFailure): Promise<string | undefined> {
  if (!failure.encodedAttributes) return failure.message ?? undefined;
  const attributes = await throughCodecs(converter, failure.encodedAttributes);
  if (!attributes) return undefined;
  try {
    const { message } = converter.payloadConverter.fromPayload<{ message?: unknown }>(attributes);
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** The store error a heartbeat's details name (`STORE_WAIT_FIELD`), if any; undecodable details name none. */
export function storeWaitIn(payload: Parameters<typeof defaultPayloadConverter.fromPayload>[0] | null | undefined): string | undefined {
  if (!payload) return undefined;
  try {
    const details: unknown = defaultPayloadConverter.fromPayload(payload);
    const wait = details && typeof details === 'object' ? (details as Record<string, unknown>)[STORE_WAIT_FIELD] : undefined;
    return typeof wait === 'string' ? wait : undefined;
  } catch {
    return undefined;
  }
}

export class StoreOutageNotice {
  private since: number | undefined;
  private checkedAt = 0;
  private checking: Promise<void> | undefined;

  constructor(private readonly client: Client, private readonly log: Logger, private readonly everyMs = CHECK_EVERY_MS) {}

  /** The progress with `storeUnreachableSince` while an outage lasts; checks Temporal in the background at most every `everyMs`. */
  mark(p: RunProgress): RunProgress {
    const now = Date.now();
    if (!this.checking && now - this.checkedAt >= this.everyMs && p.workflows?.length) {
      this.checkedAt = now;
      this.checking = storeWaits(this.client, p.workflows).then((waits) => this.update(waits), () => undefined).finally(() => (this.checking = undefined));
    }
    return this.since === undefined ? p : { ...p, storeUnreachableSince: this.since };
  }

  private update(waits: string[]): void {
    if (waits.length > 0 && this.since === undefined) {
      this.since = Date.now();
      const why = (waits[0] ?? '').split(' — ')[0];
      this.log.warn(`the workers cannot reach the results store (${why}); ${waits.length} activit${waits.length === 1 ? 'y is' : 'ies are'} waiting for it and the run goes on when it is back — nothing is lost or asked twice`);
    } else if (waits.length === 0 && this.since !== undefined) {
      this.log.info(`the results store is reachable again after ${Math.round((Date.now() - this.since) / 1000)} s; the run goes on`);
      this.since = undefined;
    }
  }

  /** Waits for a check in progress (before the command exits). */
  async settle(): Promise<void> {
    await this.checking;
  }
}
