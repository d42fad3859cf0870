import { describe, expect, it } from 'vitest';
import { I_DONT_KNOW } from '../../../src/sim';
import { acronymWords, expansions, isAcronym } from '../../../src/sim/kb/acronym';
import { swappedModifier } from '../../../src/sim/kb/modifierSwap';
import { answererFor, fillerDocuments } from './helpers';

describe('acronyms', () => {
  it('finds the runs of words an acronym stands for, joining words allowed inside', () => {
    expect(isAcronym('CJEU')).toBe(true);
    expect(isAcronym('Union')).toBe(false);
    expect(expansions('CJEU', 'Appeals go to the Court of Justice of the European Union in Luxembourg.')).toEqual([['Court', 'of', 'Justice', 'of', 'the', 'European', 'Union']]);
    expect(expansions('ECSC', 'the European Coal and Steel Community')).toEqual([['European', 'Coal', 'and', 'Steel', 'Community']]);
    expect(expansions('NY', 'a New York paper')).toEqual([['New', 'York']]);
    expect(expansions('EU', 'the European council and the union')).toEqual([]);
  });

  it('names the question\'s words the text holds as an acronym or as its expansion', () => {
    expect([...acronymWords('How long is a term at the CJEU?', 'Judges of the Court of Justice of the European Union serve six years.')]).toEqual(['CJEU']);
    expect([...acronymWords('What did the European Union ban?', 'The EU banned it.')]).toEqual(['European', 'Union']);
    expect([...acronymWords('What did the CJEU rule?', 'The council met.')]).toEqual([]);
  });

  it('an acronym the document spells out elsewhere counts when the text has half of its capitalized words', () => {
    const document = 'The Court of Justice of the European Union sits in Luxembourg. Later, the Court of Justice held that fees were unlawful.';
    expect([...acronymWords('What did the CJEU hold?', 'Later, the Court of Justice held that fees were unlawful.', document)]).toEqual(['CJEU']);
    expect([...acronymWords('What did the CJEU hold?', 'Later, the judges held that fees were unlawful.', document)]).toEqual([]);
  });

  it('another spelling of one name is not a swapped modifier: an acronym and its words, an ordinal in digits and in words', () => {
    expect(swappedModifier('Which NY Times article criticised it?', 'A New York Times article criticised it.')).toBeUndefined();
    expect(swappedModifier("Who was Genghis's 3rd son?", 'Ogedei was the third son of Genghis.')).toBeUndefined();
    expect(swappedModifier('Which Poland miller ground rye?', 'The Polish miller ground rye.')).toBeUndefined();
    expect(swappedModifier('Who leads the Spanish Parliament?', 'The Presiding Officer leads the Scottish Parliament.')).toMatchObject({ asked: 'Spanish Parliament', stated: 'Scottish Parliament' });
    expect(swappedModifier("Who was Genghis's 4th son?", 'Ogedei was the third son of Genghis.')).toMatchObject({ asked: '4th son', stated: 'third son' });
  });
});

describe('answers that name a thing another way', () => {
  const documents = [
    ...fillerDocuments(),
    {
      title: 'Mill',
      content: 'The Polish miller ground rye at the Brandholm mill. The wheel was made of oak. The roof was of reed. ' +
        'In 1901 the mill was sold to a family from Poland.',
    },
    {
      title: 'Court',
      content: 'The Court of Justice of the European Union (CJEU) sits in Luxembourg. It has one judge per member state. ' +
        'The roof was of reed. Judges of the Court of Justice serve terms of six years.',
    },
  ];
  const answer = answererFor(documents);

  it('a country asked, its adjective in the passage ("Poland", "Polish"), is the same name', () => {
    const a = answer('Which Poland miller ground rye at the Brandholm mill?');
    expect(a.answer, a.confidenceReason).toContain('Polish miller');
  });

  it('an acronym asked, the passage naming it for short, is the same name', () => {
    const a = answer('How long are the terms that judges of the CJEU serve?');
    expect(a.answer, a.confidenceReason).toContain('six years');
    // The rule it would otherwise meet: a rare name the article has, but not near the passage.
    expect(answer('How long are the terms that judges of the Luxembourg court serve?').answer).toBe(I_DONT_KNOW);
  });
});
