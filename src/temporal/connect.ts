import { Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { NativeConnection } from '@temporalio/worker';
import { payloadDataConverter } from '../codec/dataConverter';
import { installQuietRuntime } from './sdkRuntime';

export interface TemporalConnections {
  /** host:port the connections point at. */
  address: string;
  namespace: string;
  client: Connection;
  worker: NativeConnection;
  /** The payload codec of SITECHAT_PAYLOAD_KEYS, for the clients and workers on these connections. */
  dataConverter: DataConverter;
  close(): Promise<void>;
}

export { temporalConfigured } from './configured';

/**
 * Connects with Temporal's standard environment configuration: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
 * TEMPORAL_API_KEY, TEMPORAL_TLS*, or a profile of the TOML config file (TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE).
 * That is how Temporal Cloud is reached too.
 */
export async function connectTemporal(addressOverride?: string): Promise<TemporalConnections> {
  // A malformed SITECHAT_PAYLOAD_KEYS is refused before anything is connected.
  const dataConverter = payloadDataConverter();
  const { connectionOptions, namespace } = loadClientConnectConfig();
  const options = addressOverride ? { ...connectionOptions, address: addressOverride } : connectionOptions;
  const address = options.address ?? 'localhost:7233';
  let client: Connection;
  try {
    client = await Connection.connect(options);
  } catch (err) {
    throw new Error(`cannot reach Temporal at ${address}: ${err instanceof Error ? err.message : String(err)}. ` +
      'Check TEMPORAL_ADDRESS (or unset it to use the embedded dev server).');
  }
  installQuietRuntime();
  const worker = await NativeConnection.connect(options);
  return {
    address,
    namespace: namespace ?? 'default',
    client,
    worker,
    dataConverter,
    async close() {
      await client.close();
      await worker.close();
    },
  };
}
