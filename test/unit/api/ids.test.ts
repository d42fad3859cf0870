import { describe, expect, it } from 'vitest';
import { feedbackRefusalCause, isUuid } from '../../../src/api/ids';

const UUID_A = '0b9f4c1e-6a51-4d2e-9c37-5d1f8a2b7e90';
const UUID_B = 'F3A1C2D4-0000-4000-8000-00000000ABCD';

describe('ids', () => {
  it('a UUID is 8-4-4-4-12 hex digits, either case; nothing else is', () => {
    expect([UUID_A, UUID_B].map(isUuid)).toEqual([true, true]);
    expect(['thread-a', '', `${UUID_A} `, UUID_A.replace(/-/gu, ''), `{${UUID_A}}`].map(isUuid)).toEqual([false, false, false, false, false]);
  });

  it('a feedback 400 names the ids that are not UUIDs, or says the ids and value were fine', () => {
    expect(feedbackRefusalCause({ session_id: 'thread-a', request_id: UUID_A, feedback: 'good' }))
      .toBe('likely cause: the session id "thread-a" is not a UUID (use UUIDs as session ids, or --feedback none); the API may refuse feedback for ids that are not UUIDs');
    expect(feedbackRefusalCause({ session_id: UUID_A, request_id: 'req-7', feedback: 'bad' }))
      .toBe('likely cause: the request id "req-7" the API returned is not a UUID; the API may refuse feedback for ids that are not UUIDs');
    expect(feedbackRefusalCause({ session_id: UUID_A, request_id: UUID_B, feedback: 'good' }))
      .toBe('the session and request ids are UUIDs and the value was "good": the server gave no other reason');
  });
});
