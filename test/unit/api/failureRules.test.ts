import { describe, expect, it } from 'vitest';
import { isTransientFailure, mayHaveBeenTaken, reaskDelayMs, REQUEST_LEVEL_ERRORS } from '../../../src/api/failureRules';
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

describe('reaskDelayMs', () => {
  it('backs off 1 s, 2 s, 4 s … as the spec asks of what is retryable, and never waits more than 30 s', () => {
    expect([1, 2, 3, 4].map(reaskDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(reaskDelayMs(10)).toBe(30_000);
  });
});
