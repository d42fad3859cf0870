import { describe, expect, it } from 'vitest';
import { alignedSwap, numberOf } from '../../../src/sim/kb/alignedSwap';
import { evidenceMismatch, MismatchKind } from '../../../src/sim/kb/answerable';

describe('numberOf', () => {
  it('reads counts, ordinals and decades, in digits and in words', () => {
    expect(numberOf('six')).toEqual({ value: 6, kind: 'cardinal' });
    expect(numberOf('3')).toEqual({ value: 3, kind: 'cardinal' });
    expect(numberOf('1,000')).toEqual({ value: 1000, kind: 'cardinal' });
    expect(numberOf('20th')).toEqual({ value: 20, kind: 'ordinal' });
    expect(numberOf('third')).toEqual({ value: 3, kind: 'ordinal' });
    expect(numberOf('1990s')).toEqual({ value: 1990, kind: 'decade' });
  });

  it('leaves out "one" (as often a pronoun) and words that are not numbers, including inherited keys', () => {
    expect(numberOf('one')).toBeUndefined();
    expect(numberOf('harbour')).toBeUndefined();
    expect(numberOf('constructor')).toBeUndefined();
  });
});

describe('alignedSwap', () => {
  it('finds another number of the same kind in the place of the question\'s', () => {
    expect(alignedSwap('What happened in the 19th century?', 'Much changed in the 20th century.')).toEqual({ kind: 'number', asked: '19th', stated: '20th' });
    expect(alignedSwap('What meets every 3 months?', 'The council meets every six months.')).toEqual({ kind: 'number', asked: '3', stated: 'six' });
    expect(alignedSwap('What weapons were used in the war of 1880?', 'It was the war of 1879.')).toMatchObject({ asked: '1880', stated: '1879' });
  });

  it('finds an opposite in place ("an internal force" asked, "an external force" stated)', () => {
    expect(alignedSwap('What happens when an internal force acts?', 'When an external force acts, the centre of mass moves.')).toEqual({ kind: 'opposite', asked: 'internal', stated: 'external' });
  });

  it('needs the same word on one side: a number elsewhere in the sentence is no swap', () => {
    expect(alignedSwap('What did the guild build in 1865?', 'The guild built the harbour, and 1862 saw it open.')).toBeUndefined();
  });

  it('a count against an ordinal, the same value, or a word the question also uses is no swap', () => {
    expect(alignedSwap('What were the two main theories?', 'By the 20th main theories were known.')).toBeUndefined();
    expect(alignedSwap('What happened in the seventeenth century?', 'Trade grew in the 17th century.')).toBeUndefined();
    expect(alignedSwap('Were there two or three forms?', 'There were three forms.')).toBeUndefined();
  });
});

describe('evidenceMismatch with a swapped word', () => {
  it('refuses with the asked and the stated word in the reason', () => {
    const doc = 'The council meets every six months. Its president is elected for two and a half years.';
    expect(evidenceMismatch('What meets every 3 months?', 'The council meets every six months.', doc)).toEqual({
      kind: MismatchKind.swapped, reason: 'the question says "3" where the best passage says "six"',
    });
    expect(evidenceMismatch('What meets every six months?', 'The council meets every six months.', doc)).toBeUndefined();
  });
});
