import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../../../src/domain/results';
import { confirmationText } from '../../../src/render/repeatText';

const confirmation = (unconfirmed: string[]): Confirmation => ({
  k: 3, rows: 2, questions: 6, reproduced: ['r1'], notReproduced: ['r2'], unconfirmed, answers: [],
});

describe('confirmationText', () => {
  it('says what --confirm asked and found, in the singular for one row, and nothing of rows left out when there are none', () => {
    expect(confirmationText(confirmation([]))).toBe(
      '2 regressed rows asked 3 more times each in fresh sessions (6 questions): 1 reproduced (most confirming answers failed too) and still counts, 1 did not and is taken as noise');
    expect(confirmationText({ ...confirmation([]), rows: 4, reproduced: ['r1', 'r2'], notReproduced: ['r3', 'r4'] })).toMatch(/: 2 reproduced \(most confirming answers failed too\) and still count, 2 did not and are taken as noise$/);
  });

  it('one row not asked again counts as its first answer says; more count as theirs', () => {
    expect(confirmationText(confirmation(['r3']))).toMatch(/; 1 not asked again \(not needed: the verdict was decided without them\) counts as its first answer says$/);
    expect(confirmationText({ ...confirmation(['r3', 'r4']), undecided: true })).toMatch(/; 2 not asked again \(they could still change the verdict\) count as their first answers say$/);
  });
});
