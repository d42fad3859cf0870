import { describe, expect, it } from 'vitest';
import { I_DONT_KNOW } from '../../../src/sim';
import { evidenceMismatch, MismatchKind } from '../../../src/sim/kb/answerable';
import { answererFor } from './helpers';

const DOCS = [
  { title: 'Harbour', content: 'The harbour of Tolvik was built in 1862 by the merchant guild. It was extended in 1911 to take steamships. Fishing boats still use the old quay.' },
  { title: 'Lighthouse', content: 'The Tolvik lighthouse was lit in 1874. Its keeper lived in the stone cottage below the tower.' },
  { title: 'Guild hall', content: 'The merchant guild met in the guild hall on the market square. The guild did not admit women until 1920.' },
  { title: 'Bakery', content: 'Opening hours are posted on the door. The Tolvik bakery bakes rye loaves every morning.' },
  { title: 'Bakery history', content: 'A Danish baker founded it. The Tolvik bakery bakes rye loaves from his recipe.' },
];

const answer = answererFor(DOCS);

describe('evidenceMismatch', () => {
  it('a negated question needs a negation in the evidence sentence', () => {
    expect(evidenceMismatch('Which ships did the harbour not take?', 'It was extended in 1911 to take steamships.', '')?.kind).toBe(MismatchKind.negation);
    expect(evidenceMismatch("Who wasn't admitted by the guild?", 'The guild did not admit women until 1920.', '1920')).toBeUndefined();
    expect(evidenceMismatch('Which ships did the harbour take?', 'It was extended in 1911 to take steamships.', '1911')).toBeUndefined();
  });

  it('a number of two digits or more in the question must be in the document; small numbers and ordinals are not checked', () => {
    expect(evidenceMismatch('What was built in 1863?', 'The harbour was built in 1862.', 'The harbour was built in 1862.')).toMatchObject({ kind: MismatchKind.number, reason: expect.stringContaining('1863') });
    expect(evidenceMismatch('What was built in 1862?', 'The harbour was built in 1862.', 'The harbour was built in 1862.')).toBeUndefined();
    expect(evidenceMismatch('What happened in the 19th century to the 2 harbours?', 'x', 'no digits here')).toBeUndefined();
    expect(evidenceMismatch("What happened in the 1860's?", 'x', 'in the 1860s')).toBeUndefined();
  });
});

describe('answers on unseen content', () => {
  it('answers an on-topic question from the best sentence', () => {
    const a = answer('When was the harbour of Tolvik built?');
    expect(a.answer).toContain('1862');
    expect(a.source).toMatchObject({ kind: 'passage', title: 'Harbour' });
    expect(a.source.check).toBeUndefined();
  });

  it('refuses, with low confidence, a question about another year than the passage states', () => {
    const a = answer('What did the merchant guild build in 1865?');
    expect(a).toMatchObject({ answer: I_DONT_KNOW, confidenceLevel: 'low', source: { kind: 'none', title: expect.any(String), check: MismatchKind.number } });
    expect(a.confidenceReason).toContain('does not mention 1865');
  });

  it('refuses a negated question the passage answers only positively', () => {
    const a = answer('Which boats do not use the old quay of the harbour?');
    expect(a.answer).toBe(I_DONT_KNOW);
    expect(a.confidenceReason).toContain('did not happen');
    expect(a.source.check).toBe(MismatchKind.negation);
  });

  it('combines a nearly as good sentence of another retrieved document', () => {
    const a = answer('Which Tolvik bakery bakes rye loaves?');
    expect(a.answer).toContain('bakes rye loaves every morning');
    expect(a.answer).toContain('from his recipe');
  });
});
