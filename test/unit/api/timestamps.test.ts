import { afterEach, describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../../src/api';

const AT = Date.UTC(2026, 4, 1, 10, 0, 0, 123); // 2026-05-01T10:00:00.123Z

/** Spec conventions: "Timestamps are ISO 8601 strings" — nothing about fraction digits or zones (docs/api-decisions-client.md). */
describe('parseTimestamp: every ISO 8601 date-time a server may write', () => {
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it.each([
    ['2026-05-01T10:00:00.123Z', AT],
    ['2026-05-01T10:00:00.123456Z', AT],
    ['2026-05-01T10:00:00.123456789z', AT],
    ['2026-05-01T15:30:00.123456+05:30', AT],
    ['2026-05-01T15:30:00.123+0530', AT],
    ['2026-05-01T02:00:00.123-08:00', AT],
    ['2026-05-01T11:00:00,123+01', AT],
    ['2026-05-01 10:00:00.123456+00:00', AT],
    ['2026-05-02T00:00:00.123+14:00', AT],
    ['2026-05-01T10:00:00.1Z', AT - 23],
    ['2026-05-01T10:00Z', AT - 123],
    ['2026-05-01', Date.UTC(2026, 4, 1)],
  ])('%s', (text, ms) => {
    expect(parseTimestamp(text)).toBe(ms);
  });

  it('a time without a zone is UTC, whatever the machine\'s zone (Date.parse would read it as local time)', () => {
    for (const zone of ['America/New_York', 'Asia/Kolkata', 'UTC']) {
      process.env.TZ = zone;
      expect(parseTimestamp('2026-05-01T10:00:00.123456'), zone).toBe(AT);
      expect(parseTimestamp('2026-05-01 10:00:00.123'), zone).toBe(AT);
    }
  });

  it.each(['', 'yesterday', '2026-02-30T10:00:00Z', '2026-05-01T24:30:00Z', '2026-05-01T10:00:00+25:00', '20260501T100000Z', 'Fri, 01 May 2026 10:00:00 GMT', '2026-05-01T10:00:00.123Zulu'])(
    'not an ISO 8601 date-time that exists: %j → undefined', (text) => {
      expect(parseTimestamp(text)).toBeUndefined();
    },
  );
});
