import { describe, expect, it } from 'vitest';
import { I_DONT_KNOW } from '../../../src/sim';
import { composeAnswer } from '../../../src/sim/kb/answer';
import { findModel } from '../../../src/sim/kb/models';
import { squadSite, type SquadArticle } from '../../../bench/sim-realism-data';
import { missOf } from '../../../bench/sim-realism-misses';

/** Synthetic paragraphs (not SQuAD data). */
const FLOWS = 'The Rhine flows through Basel and Cologne on its way to the North Sea.';
const BRIDGE = 'Basel has an old stone bridge over the Rhine, built by the town in 1226.';
const articles: SquadArticle[] = [
  { title: 'Rhine', paragraphs: [{ context: FLOWS, qas: [] }] },
  { title: 'Basel', paragraphs: [{ context: BRIDGE, qas: [] }] },
];

describe('why the realism bench says an answer holds no reference', () => {
  const kb = squadSite(articles, 1);
  const model = findModel('gpt-4o-mini');
  if (!model) throw new Error('no default model');
  const ask = (message: string) => {
    const input = { message, model, seed: 1 };
    const answer = composeAnswer(kb, input);
    return (paragraph: string) => missOf(kb, input, answer, answer.answer === I_DONT_KNOW, paragraph);
  };

  it('names the ranking step when the answer came from another retrieved paragraph, or from its own', () => {
    const missFor = ask('Which cities does the Rhine flow through on its way to the North Sea?');
    expect(missFor(FLOWS)).toBe('other sentence');
    expect(missFor(BRIDGE)).toBe('other paragraph first');
    expect(missFor('A paragraph the site does not have.')).toBe('not retrieved');
  });

  it('tells a refusal for low relevance from a refusal by a check', () => {
    expect(ask('What is the capital of Peru?')(FLOWS)).toBe('refused: low relevance');
    expect(ask('Which cities does the Rhine not flow through on its way to the North Sea?')(FLOWS)).toBe('refused: a check');
  });
});
