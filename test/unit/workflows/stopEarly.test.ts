import { describe, expect, it } from 'vitest';
import { FIRST_ASKS, FirstAsks, unsent, type AskFailure } from '../../../src/domain/stopEarly';

const invalid: AskFailure = { message: '400 invalid payload from POST …', type: 'BadRequestError', status: 400, apiError: 'invalid payload' };
const closed: AskFailure = { message: '409 session is closed from POST …', type: 'ConflictError', status: 409, apiError: 'session is closed' };

/** Ends `n` asks the same way: refused with `failure`, or answered. */
function end(asks: FirstAsks, n: number, failure?: AskFailure): (ReturnType<FirstAsks['ended']>)[] {
  return Array.from({ length: n }, () => {
    if (failure) asks.failed(failure);
    return asks.ended();
  });
}

describe('the first asks of a run', () => {
  it(`stop it when all ${FIRST_ASKS} got the same refusal, at the ${FIRST_ASKS}th, saying what to fix`, () => {
    const asks = new FirstAsks();
    const ends = end(asks, FIRST_ASKS, invalid);
    expect(ends.slice(0, -1).every((e) => e === undefined)).toBe(true);
    expect(ends.at(-1)).toEqual({
      message: 'the first 10 questions all got 400 invalid payload and none was answered, so the rest were not asked; the API refuses the request as this run ' +
        'builds it: check --model and the dataset\'s `model` column (with SITECHAT_TENANT_ID set, models are checked before a run starts), `response_language` and `ui_locale`, then run again',
      type: 'BadRequestError', status: 400, apiError: 'invalid payload', systematic: true,
    });
    // Decided once: later asks change nothing.
    expect(end(asks, 5, invalid)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('say any other 4xx refusal in its own words', () => {
    expect(end(new FirstAsks(), FIRST_ASKS, closed).at(-1)?.message)
      .toBe('the first 10 questions all got 409 session is closed and none was answered, so the rest were not asked; the API refuses every question the same way: fix what it refuses, then run again');
  });

  it('never stop it once one was answered, two refusals differ, or one failed otherwise (retried statuses, no status, a cancel)', () => {
    const answered = new FirstAsks();
    expect([...end(answered, 1), ...end(answered, 20, invalid)].every((e) => e === undefined)).toBe(true);
    const different = new FirstAsks();
    expect([...end(different, 9, invalid), ...end(different, 1, closed), ...end(different, 20, invalid)].every((e) => e === undefined)).toBe(true);
    const otherDetail = new FirstAsks();
    expect([...end(otherDetail, 9, invalid), ...end(otherDetail, 1, { ...invalid, apiError: 'message is required' })].every((e) => e === undefined)).toBe(true);
    for (const failure of [{ ...invalid, status: 429 }, { ...invalid, status: 408 }, { ...invalid, status: 500 }, { message: 'timed out', type: 'Error' }]) {
      const asks = new FirstAsks();
      expect([...end(asks, 1, failure), ...end(asks, 20, invalid)].every((e) => e === undefined)).toBe(true);
    }
  });

  it('take a refusal told before the end for that ask only', () => {
    const asks = new FirstAsks();
    end(asks, FIRST_ASKS - 1, invalid);
    // An ask abandoned by a cancel is told nothing before it ends: it is no refusal.
    expect(asks.ended()).toBeUndefined();
    expect(end(asks, 5, invalid).every((e) => e === undefined)).toBe(true);
  });
});

describe('a row not sent', () => {
  it('is skipped after a cancel or the first asks\' refusal, an error after a fatal error', () => {
    expect(unsent(undefined)).toEqual({ outcome: 'skipped', reason: 'run cancelled before this row was sent', facts: {} });
    expect(unsent({ message: 'the first 10 questions all got 400 invalid payload …', type: 'BadRequestError', status: 400, apiError: 'invalid payload', systematic: true }))
      .toMatchObject({ outcome: 'skipped', reason: 'not sent: the first 10 questions all got 400 invalid payload …' });
    // The stop's class, status and `error` string go on every row it left unsent: reports group the rows by them.
    expect(unsent({ message: '401 invalid_api_key', type: 'AuthenticationError', status: 401, apiError: 'invalid_api_key' })).toEqual({
      outcome: 'error', reason: 'not sent: the run stopped on 401 invalid_api_key',
      facts: { errorType: 'AuthenticationError', errorStatus: 401, apiError: 'invalid_api_key' },
    });
  });
});
