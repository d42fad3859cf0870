import type { Client } from '@temporalio/client';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { encodeErrorToFailure, encodeToPayload, loadDataConverter } from '@temporalio/common/lib/internal-non-workflow';
import { describe, expect, it } from 'vitest';
import { storeWaits } from '../../../src/cli/follow/storeOutage';
import { dataConverterFor } from '../../../src/codec/dataConverter';
import { parsePayloadKeys } from '../../../src/codec/keys';
import { keyEntry } from '../codec/testKeys';

/** A client whose describe() answers as the server does: raw pending activities, payloads as their workers wrote them. */
function clientWith(converter: ReturnType<typeof loadDataConverter>, pendingActivities: unknown[]): Client {
  return {
    options: { loadedDataConverter: converter },
    workflow: { getHandle: () => ({ describe: async () => ({ raw: { pendingActivities } }) }) },
  } as unknown as Client;
}

describe('storeWaits with payload keys (describe does not decode what it returns)', () => {
  const converter = loadDataConverter(dataConverterFor(parsePayloadKeys(keyEntry('k1'))));

  it("reads a waiting ask's encrypted heartbeat details and a retried activity's encrypted failure message", async () => {
    const details = await encodeToPayload(converter, { requestId: 'r1', storeUnavailable: 'results store unreachable: ECONNREFUSED' });
    const failure = await encodeErrorToFailure(converter, ApplicationFailure.retryable('results store unreachable: connection reset', 'StoreUnavailableError'));
    expect(JSON.stringify(details)).not.toContain('ECONNREFUSED');
    expect(failure.message).toBe('Encoded failure');
    const waits = await storeWaits(clientWith(converter, [
      { heartbeatDetails: { payloads: [details] } },
      { lastFailure: failure },
      { heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload({ requestId: 'r2' })] } },
    ]), ['w']);
    expect(waits).toEqual(['results store unreachable: ECONNREFUSED', 'results store unreachable: connection reset']);
  });

  it('names no wait it cannot decode (another key), and still counts a store failure by its clear type', async () => {
    const other = loadDataConverter(dataConverterFor(parsePayloadKeys(keyEntry('k2'))));
    const details = await encodeToPayload(other, { storeUnavailable: 'results store unreachable' });
    const failure = await encodeErrorToFailure(other, ApplicationFailure.retryable('results store unreachable', 'StoreUnavailableError'));
    expect(await storeWaits(clientWith(converter, [{ heartbeatDetails: { payloads: [details] } }, { lastFailure: failure }]), ['w'])).toEqual(['StoreUnavailableError']);
  });
});
