import { describe, expect, it } from 'vitest';
import { I_DONT_KNOW } from '../../../src/sim';
import { MismatchKind } from '../../../src/sim/kb/answerable';
import { missingTermMismatch, type Unmatched } from '../../../src/sim/kb/unmatched';
import { answererFor, fillerDocuments } from './helpers';

const DOCS = [
  ...fillerDocuments(),
  {
    title: 'Harbour',
    content: 'The harbour of Tolvik was built in 1862 by the merchant guild. Fishing boats still use the old quay. ' +
      'The lighthouse keeper lived in the stone cottage. Decades later a ferry to Brandholm started from the pier. ' +
      'The official name of the harbour is Tolvik Havn.',
  },
  { title: 'Quay fees', content: 'Boats that are not fishing boats pay a mooring fee at the old quay. The fee is paid to the harbour master.' },
  {
    title: 'Guild',
    content: 'The Britain guild of merchants met every winter in the guild hall. The hall has a slate roof. ' +
      'The roof was mended in spring. Later, British ships unloaded wool there.',
  },
];

const answer = answererFor(DOCS);

const word = (over: Partial<Unmatched>): Unmatched => ({ term: 'x', raw: 'x', idf: 1, name: false, inDocument: false, known: false, negatedInDocument: false, ...over });

describe('questions whose key word the passage lacks', () => {
  it('refuses a question naming a rare name its article has, but not near the passage that matches the rest', () => {
    expect(answer('Who built the harbour of Tolvik in 1862?').answer).toContain('merchant guild');
    const a = answer('Who built the harbour of Brandholm in 1862?');
    expect(a.answer).toBe(I_DONT_KNOW);
    expect(a.confidenceReason).toContain('"Brandholm"');
  });

  it('refuses a prefixed word whose plain form the article uses, and a prefix written apart the passage does not negate', () => {
    expect(answer('What is the unofficial name of the harbour?')).toMatchObject({ answer: I_DONT_KNOW, confidenceReason: expect.stringContaining('"unofficial"') });
    expect(answer('Which non-fishing boats still use the old quay of the harbour of Tolvik?').answer).toBe(I_DONT_KNOW);
    // "not fishing boats" negates the word after "non": the passage may answer.
    expect(answer('What do non-fishing boats pay at the old quay?').answer).toContain('mooring fee');
  });

  it('a form of a name near the passage ("Britain" for "British") is not a missing name, even when the article has it elsewhere', () => {
    expect(answer('When did the British guild of merchants meet?').answer).toContain('every winter');
  });

  it('only rare names found elsewhere in the document and un-negated forms count', () => {
    expect(missingTermMismatch([word({ name: true, inDocument: true, idf: 3.5, raw: 'Brandholm' })])?.kind).toBe(MismatchKind.name);
    expect(missingTermMismatch([word({ name: true, inDocument: true, idf: 2 })])).toBeUndefined();
    expect(missingTermMismatch([word({ name: true, inDocument: false, known: true, idf: 5 })])).toBeUndefined();
    expect(missingTermMismatch([word({ negatedInDocument: true, raw: 'unofficial' })])?.kind).toBe(MismatchKind.prefixed);
    expect(missingTermMismatch([word({ idf: 7 })])).toBeUndefined();
  });
});
