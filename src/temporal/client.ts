import { Client, type Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { payloadDataConverter } from '../codec/dataConverter';
import { tracedClientOptions } from '../observability/tracing/client';
import type { TemporalConnections } from './connect';

export interface TemporalClientOptions {
  /** @default "default" */
  namespace?: string;
  /**
   * How payloads are encoded (tests and tools give one of `dataConverterFor`). @default the codec of
   * SITECHAT_PAYLOAD_KEYS (`payloadDataConverter`)
   */
  dataConverter?: DataConverter;
}

/**
 * The one way sitechat makes a Temporal client (test/unit/codec/clientsUseCodec.test.ts holds every other file to
 * it): payloads through the codec of SITECHAT_PAYLOAD_KEYS, so that no workflow input, signal, query or result is
 * sent in clear when keys are set nor read as garbage when they are not; and the trace context on its calls when
 * tracing is on. Without `connection`, the client connects lazily to localhost:7233.
 */
export function createTemporalClient(connection: Connection | undefined, options: TemporalClientOptions = {}): Client {
  return new Client({
    ...(connection ? { connection } : {}),
    ...(options.namespace ? { namespace: options.namespace } : {}),
    dataConverter: options.dataConverter ?? payloadDataConverter(),
    ...tracedClientOptions(),
  });
}

/** The client of connections made by `connectTemporal`: their namespace and payload codec. */
export function clientFor(temporal: Pick<TemporalConnections, 'client' | 'namespace' | 'dataConverter'>): Client {
  return createTemporalClient(temporal.client, { namespace: temporal.namespace, dataConverter: temporal.dataConverter });
}
