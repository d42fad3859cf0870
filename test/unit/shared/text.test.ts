import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldCase, foldMarks, stripAccents } from '../../../src/shared/text/fold';
import { lightStem, singular, suffixStem } from '../../../src/shared/text/stem';
import { spaceCharacterScripts } from '../../../src/shared/text/words';

/**
 * Every word of datasets/knowledge-base.json and datasets/demo.csv (lower-cased), and a few that reach each branch,
 * with the stems the grader's and the simulator's own stemmers gave them before both moved here (recorded at
 * e890b0e): [grader's, simulator's]. The grader's agreement figures and the demo's results depend on them.
 */
const RECORDED: Record<string, [string, string]> = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/text/stems.json'), 'utf8'),
) as Record<string, [string, string]>;

describe('the two stemmers give what they gave before they shared a module', () => {
  it('on every word of the demo and its knowledge base', () => {
    const words = Object.keys(RECORDED);
    expect(words.length).toBeGreaterThan(700);
    const now = Object.fromEntries(words.map((w) => [w, [lightStem(w), suffixStem(w)]]));
    expect(now).toEqual(RECORDED);
  });
});

describe('singular: the plural step of both', () => {
  it('drops a plural "s" or turns "-ies" into "-y", and leaves "ss", "us", "is" alone', () => {
    expect(['parties', 'boxes', 'cats', 'class', 'status', 'analysis'].map((w) => singular(w)))
      .toEqual(['party', 'boxe', 'cat', 'class', 'status', 'analysis']);
  });

  it('by default keeps a four-letter "-ies" word a "-ie" and "-sses" a "-sse"; the simulator\'s options do not', () => {
    expect([singular('ties'), singular('classes')]).toEqual(['tie', 'classe']);
    expect([singular('ties', { minIesLength: 4 }), singular('classes', { sses: true })]).toEqual(['ty', 'class']);
  });
});

describe('lightStem and suffixStem: why two strengths', () => {
  const pairs: Array<[string, string]> = [['united', 'unit'], ['station', 'state'], ['informed', 'information']];

  it('the fuller stem merges words that answer differently; the light one keeps them apart', () => {
    for (const [a, b] of pairs) {
      expect(suffixStem(a), `${a} / ${b}`).toBe(suffixStem(b));
      expect(lightStem(a), `${a} / ${b}`).not.toBe(lightStem(b));
    }
  });

  it('both meet a word and its plural; only the fuller one meets its tenses', () => {
    expect([lightStem('horses'), lightStem('horse')]).toEqual(['hors', 'hors']);
    expect(['share', 'shared', 'sharing', 'shares'].map(suffixStem)).toEqual(['shar', 'shar', 'shar', 'shar']);
    expect(['share', 'shared', 'sharing'].map(lightStem)).toEqual(['shar', 'shared', 'sharing']);
  });

  it('leave short words and numbers alone: any digit for the grader, a leading one for the simulator', () => {
    expect([lightStem('bus'), suffixStem('bus'), lightStem('1960s'), suffixStem('1960s')]).toEqual(['bus', 'bus', '1960s', '1960s']);
    expect([lightStem('mp3s'), suffixStem('mp3s')]).toEqual(['mp3s', 'mp3']);
  });
});

describe('folding', () => {
  it('foldCase folds compatibility forms and case', () => {
    expect(foldCase('Ｆｕｌｌ ﬁle ÉTÉ')).toBe('full file été');
  });

  it('stripAccents removes Latin accents and recomposes, keeping kana voicing; foldMarks removes every mark', () => {
    expect(stripAccents('René が')).toBe('Rene が');
    expect(foldMarks('René')).toBe('rene');
    expect(foldMarks('が')).toBe('か');
  });

  it('spaceCharacterScripts makes each Han or kana character a word', () => {
    expect(spaceCharacterScripts('東京tower').split(' ').filter(Boolean)).toEqual(['東', '京', 'tower']);
  });
});
