import { describe, expect, it } from 'vitest';
import { cleanupInputFromFlags, CleanupOptionError, parseInstant } from '../../../src/cli/commands/cleanup/options';

describe('cleanupInputFromFlags', () => {
  it('defaults to sessions idle for 7 days, and needs a site', () => {
    expect(cleanupInputFromFlags({}, { siteId: 'demo-site' })).toEqual({ siteId: 'demo-site', idleForMs: 7 * 86_400_000, dryRun: false });
    expect(() => cleanupInputFromFlags({}, {})).toThrow(/--site/);
  });

  it('reads every flag; --site wins over the default', () => {
    const input = cleanupInputFromFlags(
      { site: 'x', email: ' a@b.c ', idleFor: '36h', createdBefore: '2026-01-31', max: '10', dryRun: true, pageSize: '200' },
      { siteId: 'demo-site' },
    );
    expect(input).toEqual({
      siteId: 'x', email: 'a@b.c', idleForMs: 36 * 3_600_000, createdBefore: '2026-01-31T00:00:00.000Z', max: 10, dryRun: true, pageSize: 200,
    });
  });

  it('--created-before alone does not add the default idle time', () => {
    expect(cleanupInputFromFlags({ createdBefore: '2026-01-31T12:00:00+02:00' }, { siteId: 's' })).toEqual({
      siteId: 's', createdBefore: '2026-01-31T10:00:00.000Z', dryRun: false,
    });
  });

  it.each([
    [{ idleFor: '7' }, /--idle-for.*add a unit/],
    [{ idleFor: 'a week' }, /--idle-for/],
    [{ createdBefore: '2026-01-31T12:00' }, /with a zone/],
    [{ createdBefore: 'yesterday' }, /--created-before/],
    [{ max: '0' }, /--max/],
    [{ max: '2.5' }, /--max/],
    [{ pageSize: '501' }, /--page-size.*500/],
    [{ email: 'nobody' }, /--email/],
  ])('rejects %j with a usage message', (flags, message) => {
    expect(() => cleanupInputFromFlags(flags, { siteId: 's' })).toThrow(CleanupOptionError);
    expect(() => cleanupInputFromFlags(flags, { siteId: 's' })).toThrow(message);
  });

  it('parseInstant: date-only is midnight UTC', () => {
    expect(parseInstant('2025-12-24')).toBe('2025-12-24T00:00:00.000Z');
    expect(parseInstant('2025-12-24T08:30:00Z')).toBe('2025-12-24T08:30:00.000Z');
  });
});
