/** The review page's view of a row a person settled, computed here so the page writes the reports' words (labelView.ts). */
import { capitalized, DECIDED_BY_A_PERSON, formatWhen, gradersHead, gradersView, personFacts, personView, type PersonView } from '../render/labelView';
import type { PersonItem, ReviewItem } from './types';

/** The row's own label decision, else the label of its key the queue found; undefined when neither exists. */
export function personItem(row: ReviewItem['row'], label?: ReviewItem['label']): PersonItem | undefined {
  const person: PersonView | undefined = personView(row) ?? (label && {
    verdict: label.verdict, ...(label.by && { by: label.by }), when: formatWhen(label.at), ...(label.note && { note: label.note }),
  });
  if (!person || person.verdict === 'uncertain') return undefined;
  const graders = gradersView(row, person.verdict);
  return {
    verdict: person.verdict,
    head: `${capitalized(DECIDED_BY_A_PERSON)}: ${person.verdict}`,
    facts: personFacts(person),
    ...(person.reason === undefined && person.note !== undefined && { note: person.note }),
    graders: capitalized(gradersHead(graders)),
    gradersRan: graders.verdict !== undefined,
  };
}
