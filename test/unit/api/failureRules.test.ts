import { describe, expect, it } from 'vitest';
import { carriedSends, extraSends, isTransientFailure, mayHaveBeenTaken, reaskDelayMs, REQUEST_LEVEL_ERRORS } from '../../../src/api/failureRules';
import { ApiError } from '../../../src/sim';

describe('isTransientFailure: which failed requests are re-asked', () => {
  it("the service's own trouble is transient: the spec's example, any other string, none at all", () => {
    expect(isTransientFailure(ApiError.ragFailure)).toBe(true);
    expect(isTransientFailure('upstream language model timed out')).toBe(true);
    expect(isTransientFailure(ApiError.tooManyRequests)).toBe(true);
    expect(isTransientFailure('')).toBe(true);
    expect(isTransientFailure(undefined)).toBe(true);
  });

  it("every request-level error string of the spec's §7 is permanent, whatever its case and spacing", () => {
    expect(isTransientFailure(ApiError.siteNotFound)).toBe(false);
    expect(isTransientFailure(' Site Not Found ')).toBe(false);
    for (const error of [ApiError.invalidPayload, ApiError.requestNotFound, ApiError.invalidApiKey, ApiError.planLacksApiAccess,
      ApiError.invalidLimitOrOffset, ApiError.sessionIdRequired, ApiError.invalidFeedback, ApiError.statusParamsRequired, ApiError.feedbackConflict]) {
      expect(isTransientFailure(error), error).toBe(false);
    }
    expect(REQUEST_LEVEL_ERRORS).toHaveLength(10);
  });
});

describe('mayHaveBeenTaken: which sends stay counted', () => {
  it('a 4xx refusal (429 and 408 included) created nothing: taken back', () => {
    for (const status of [400, 401, 403, 404, 408, 409, 413, 429]) expect(mayHaveBeenTaken(status), String(status)).toBe(false);
  });

  it('a 5xx, a proxy\'s 502, or no response at all (a time-out, a reset) may come after the question was taken: counted', () => {
    for (const status of [500, 502, 503, 504]) expect(mayHaveBeenTaken(status), String(status)).toBe(true);
    expect(mayHaveBeenTaken(undefined)).toBe(true);
  });
});

describe('extraSends: the sends that may be second asks, across re-asks', () => {
  it('within one ask: every send after the first', () => {
    expect(extraSends({ sends: 0 })).toBe(0);
    expect(extraSends({ sends: 1 })).toBe(0);
    expect(extraSends({ sends: 3 })).toBe(2);
  });

  it('a re-ask after sends that all ended `failed` is no second ask', () => {
    const reask = { sends: 1, ...carriedSends({ sends: 1 }) };
    expect(reask).toEqual({ sends: 1 });
    expect(extraSends(reask)).toBe(0);
  });

  it('a re-ask after a send of unknown outcome may be a second answer: its first send counts too, and so do the earlier extra sends', () => {
    // Ask 0: lost (maybe answered), sent again, failed. Ask 1 (its re-ask): failed at once. Ask 2: answered.
    const ask1 = { sends: 1, ...carriedSends({ sends: 2 }) };
    expect(ask1).toEqual({ sends: 1, earlierExtraSends: 1, earlierUnknown: true });
    expect(extraSends(ask1)).toBe(2);
    const ask2 = { sends: 1, ...carriedSends(ask1) };
    expect(ask2).toEqual({ sends: 1, earlierExtraSends: 2, earlierUnknown: true });
    expect(extraSends(ask2)).toBe(3);
    // A re-ask whose every send was refused (a 4xx: taken back) sent nothing more.
    expect(extraSends({ sends: 0, ...carriedSends({ sends: 2 }) })).toBe(1);
  });
});

describe('reaskDelayMs', () => {
  it('backs off 1 s, 2 s, 4 s … as the spec asks of what is retryable, and never waits more than 30 s', () => {
    expect([1, 2, 3, 4].map(reaskDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(reaskDelayMs(10)).toBe(30_000);
  });
});
