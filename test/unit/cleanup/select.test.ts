import { describe, expect, it } from 'vitest';
import { judge, selectPage, Verdict } from '../../../src/cleanup/select';
import { selectionRule, validateCleanupInput } from '../../../src/cleanup/rule';
import { DAY, NOW, session } from './fakeSite';

describe('judge: one session against the rule', () => {
  const idle7 = selectionRule({ siteId: 's', idleForMs: 7 * DAY }, NOW);

  it('idle: now − updated_at >= idle-for matches, exactly at the cutoff too', () => {
    expect(judge(session('a', { idleDays: 8 }), idle7)).toBe(Verdict.match);
    expect(judge(session('b', { idleDays: 7 }), idle7)).toBe(Verdict.match);
    expect(judge(session('c', { idleDays: 6.99 }), idle7)).toBe(Verdict.skip);
  });

  it('a matching session that is closed already is reported as such, never as a match', () => {
    expect(judge(session('a', { idleDays: 30, closed: true }), idle7)).toBe(Verdict.closed);
    expect(judge(session('b', { idleDays: 1, closed: true }), idle7)).toBe(Verdict.skip);
  });

  it('created-before is strict, and combines with idle-for (both must hold)', () => {
    const rule = selectionRule({ siteId: 's', createdBefore: new Date(NOW - 10 * DAY).toISOString(), idleForMs: 7 * DAY }, NOW);
    expect(judge(session('old-idle', { ageDays: 11, idleDays: 8 }), rule)).toBe(Verdict.match);
    expect(judge(session('exactly', { ageDays: 10, idleDays: 8 }), rule)).toBe(Verdict.skip);
    expect(judge(session('old-busy', { ageDays: 30, idleDays: 1 }), rule)).toBe(Verdict.skip);
  });

  it('email is checked again, case-insensitively, whatever the API filtered', () => {
    const rule = selectionRule({ siteId: 's', email: 'Ana@Example.com', idleForMs: 0 }, NOW);
    expect(judge(session('a', { email: 'ana@example.COM' }), rule)).toBe(Verdict.match);
    expect(judge(session('b', { email: 'bob@example.com' }), rule)).toBe(Verdict.skip);
  });

  it('an unreadable timestamp is never closed on a guess', () => {
    const s = { ...session('a', { idleDays: 30 }), updated_at: 'yesterday' };
    expect(judge(s, idle7)).toBe(Verdict.unreadable);
  });
});

describe('selectPage', () => {
  const rule = selectionRule({ siteId: 's', idleForMs: 7 * DAY }, NOW);
  const page = [
    session('a', { idleDays: 10 }), session('b', { idleDays: 1 }), session('c', { idleDays: 9, closed: true }),
    session('d', { idleDays: 20 }), session('a', { idleDays: 10 }), { ...session('e'), updated_at: '' },
  ];

  it('counts listed, matched, already closed and unreadable; ids in list order; duplicates once', () => {
    const p = selectPage(page, 42, { rule, samples: 1 });
    // Each listed session is counted once: listed = matched + alreadyClosed + unreadable + notMatched.
    expect(p).toMatchObject({ rows: 6, listed: 5, total: 42, matched: 2, matchedIds: ['a', 'd'], alreadyClosed: 1, unreadable: 1, notMatched: 1 });
    expect(p.samples).toEqual([expect.objectContaining({ id: 'a', email: 'user@example.com', messageCount: 2 })]);
  });

  it('ignores ids handled on the previous page, and returns no ids when not asked (dry run)', () => {
    const p = selectPage(page, 42, { rule, ignoreIds: ['a'], wantIds: false });
    expect(p).toMatchObject({ listed: 4, matched: 1, matchedIds: [] });
  });
});

describe('validateCleanupInput', () => {
  it('accepts a rule and rejects an input that would close everything', () => {
    expect(validateCleanupInput({ siteId: 's', idleForMs: 0 })).toEqual([]);
    expect(validateCleanupInput({ siteId: 's' })[0]).toMatch(/at least one rule/);
  });

  it('names every bad field', () => {
    const problems = validateCleanupInput({ siteId: '', idleForMs: -1, createdBefore: 'soon', max: 0, pageSize: 501, closeBatchSize: 0, maxPasses: 11, sampleSize: -1 });
    expect(problems.join('\n')).toMatch(/siteId/);
    for (const field of ['idleForMs', 'createdBefore', 'max', 'pageSize', 'closeBatchSize', 'maxPasses', 'sampleSize']) {
      expect(problems.some((p) => p.includes(`\`${field}\``))).toBe(true);
    }
  });
});
