import { describe, expect, it } from 'vitest';
import { I_DONT_KNOW } from '../../../src/sim';
import { evidenceMismatch, MismatchKind } from '../../../src/sim/kb/answerable';
import { answerShape, answerTypeTerm, offersShape } from '../../../src/sim/kb/answerShape';
import { statedOpposite } from '../../../src/sim/kb/antonyms';
import { swappedModifier } from '../../../src/sim/kb/modifierSwap';
import { sameWord } from '../../../src/sim/kb/spelling';
import { sentences, terms } from '../../../src/sim/kb/tokenize';
import { answererFor } from './helpers';

/** Made-up articles in the shapes answers take: appositives, parentheticals, "located in", lists, numbers with units. */
const DOCS = [
  { title: 'Varn', content: 'The Varnish are a people who in the Middle Ages gave their name to Varnia, a region in Belgium. They speak French and Varnish.' },
  { title: 'Lake Osk', content: 'Lake Osk is one of the oldest lakes of Europe. The lake straddles the border between Albania and Greece (in the south of the Balkans). It has a maximum depth of 288 metres (945 ft).' },
  { title: 'Tarmo', content: 'Tarmo is the capital of Estonia. The old town is located in the north of the country, on the shore of the Gulf of Finland. Its main exports are timber, machinery and textiles.' },
  { title: 'Tarmo people', content: 'Tarmo has a population of 437,000 people. Most of them live in the new districts.' },
  { title: 'Printing', content: 'In the 13th century, Chinese printing technology reached the steppe through Uighur scribes. The largest printing press of the steppe stood in the capital.' },
  { title: 'Saint Brel', content: 'The St. Brel abbey was founded by monks from Cluny. It burned down in 1130.' },
  { title: 'Bréval', content: 'René Dufour founded the town of Bréval on the river Aure.' },
];

const ask = answererFor(DOCS);

describe('answer shapes', () => {
  it('an appositive: "In what country is X located?" is answered from "X, a region in Y"', () => {
    const a = ask('In what country is Varnia located?');
    expect(a.answer).toContain('a region in Belgium');
    expect(a.source.title).toBe('Varn');
  });

  it('a parenthetical, a number with its unit, "located in" and a list', () => {
    expect(ask('Where is Lake Osk?').answer).toContain('(in the south of the Balkans)');
    expect(ask('How deep is Lake Osk?').answer).toContain('288 metres (945 ft)');
    expect(ask('Where is the old town of Tarmo located?').answer).toContain('located in the north of the country');
    expect(ask('What are the main exports of Tarmo?').answer).toContain('timber, machinery and textiles');
    expect(ask('How many people live in Tarmo?').answer).toContain('437,000 people');
  });

  it('knows which kind of answer a question asks for, and which sentences offer one', () => {
    expect(answerShape('In what year did the abbey burn?')).toBe('number');
    expect(answerShape('How deep is the lake?')).toBe('number');
    expect(answerShape('In what country is Varnia located?')).toBe('place');
    expect(answerShape('Who founded the abbey?')).toBe('name');
    expect(answerShape('Why did the abbey burn?')).toBe('other');
    expect(answerTypeTerm('In what country is Varnia located?')).toBe(terms('country')[0]);
    const asked = new Set(terms('In what country is Varnia located?'));
    expect(offersShape('Varnia is a region in Belgium.', 'place', asked)).toBe(true);
    expect(offersShape('Varnia is a region.', 'place', asked)).toBe(false);
    expect(offersShape('It burned down in 1130.', 'number', new Set(terms('When did it burn?')))).toBe(true);
    expect(offersShape('It burned down in 1130.', 'number', new Set(terms('What burned in 1130?')))).toBe(false);
  });

  it('abbreviations do not end a sentence, accents do not keep a question from its passage', () => {
    expect(sentences('The St. Brel abbey was founded by monks. It burned c. 1130. The U.S. Army came.')).toEqual([
      'The St. Brel abbey was founded by monks.', 'It burned c. 1130.', 'The U.S. Army came.',
    ]);
    expect(terms('René Bréval')).toEqual(terms('Rene Breval'));
    // words that are names of Object.prototype's members are words like any other
    expect(terms('The constructor called toString and valueOf')).toEqual(['constructor', 'call', 'tostr', 'valueof']);
    expect(ask('Who founded the town of Breval?').answer).toContain('René Dufour');
  });
});

describe('evidence that does not answer', () => {
  it('refuses a question about the opposite of what the passage states', () => {
    expect(statedOpposite('What was the smallest press?', 'The largest press stood in the capital.', 'The largest press stood in the capital.')).toEqual({ asked: 'smallest', stated: 'largest' });
    // the document uses the word, or one like it, elsewhere: it may answer there
    expect(statedOpposite('How do I restore an older version?', 'Restoring does not delete newer versions.', 'To restore an earlier version, click Restore.')).toBeUndefined();
    const a = ask('Where did the smallest printing press of the steppe stand?');
    expect(a.answer).toBe(I_DONT_KNOW);
    expect(a.confidenceReason).toContain('"smallest"');
  });

  it('refuses a question whose modifier the passage swaps for another of its kind', () => {
    expect(swappedModifier('How did Japanese printing technology reach the steppe?', 'Then Chinese printing technology reached the steppe through Uighur scribes.')).toEqual({ asked: 'Japanese printing', stated: 'Chinese printing' });
    expect(evidenceMismatch('How did Japanese printing technology reach the steppe?', 'Then Chinese printing technology reached the steppe.', '')?.kind).toBe(MismatchKind.modifier);
    // another spelling of the same word is no swap, nor a lower-case word (too often a paraphrase)
    expect(swappedModifier('Who led the Frensh army?', 'The French army was led by Montcalm.')).toBeUndefined();
    expect(swappedModifier('What did the old printing press make?', 'The wooden printing press made books.')).toBeUndefined();
    expect(sameWord(terms('Sept')[0] ?? '', terms('September')[0] ?? '')).toBe(true);
    expect(ask('How did Japanese printing technology reach the steppe?').answer).toBe(I_DONT_KNOW);
    expect(ask('How did Chinese printing technology reach the steppe?').answer).toContain('Uighur scribes');
  });
});
