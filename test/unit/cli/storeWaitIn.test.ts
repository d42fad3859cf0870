import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { storeWaitIn } from '../../../src/cli/follow/storeOutage';

describe('storeWaitIn (a pending activity waiting for the results store in place)', () => {
  it('reads the store error an ask heartbeats while it waits, and nothing from other details', () => {
    const waiting = defaultPayloadConverter.toPayload({ requestId: 'r1', sessionId: 's1', submittedAtMs: 1, storeUnavailable: 'results store unreachable: ECONNREFUSED' });
    expect(storeWaitIn(waiting)).toBe('results store unreachable: ECONNREFUSED');
    expect(storeWaitIn(defaultPayloadConverter.toPayload({ requestId: 'r1', sessionId: 's1', submittedAtMs: 1 }))).toBeUndefined();
    expect(storeWaitIn(defaultPayloadConverter.toPayload('text'))).toBeUndefined();
    expect(storeWaitIn(undefined)).toBeUndefined();
    expect(storeWaitIn({ metadata: { encoding: new TextEncoder().encode('binary/unknown') }, data: new Uint8Array([1]) })).toBeUndefined();
  });
});
