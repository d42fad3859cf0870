/**
 * Which evidence checks refuse unanswerable questions without refusing answerable ones, on half a of the development
 * file only (the half rules are tuned on; half b and the second source are never read here). Every question of half a
 * is read as the chat endpoints read it; among those the steps before the checks of `src/sim/kb/unmatched.ts` do not
 * refuse, each candidate check reports how many unanswerable questions it would refuse (gain), how many answerable
 * ones (loss) and how many of those lost had an answer containing a reference.
 *
 *   npm run build && node dist/bench/sim-refusal-analysis.js /work/data/squad/dev-v2.0-dev.json [--dump FILE] [--show CHECK]
 *
 * `--dump FILE` writes every question's features as JSON (keep it outside the repository: it holds the data);
 * `--show CHECK` lists the questions a check refuses.
 */
import { writeFileSync } from 'node:fs';
import { I_DONT_KNOW } from '../src/sim';
import { composeAnswer, composeFrom, MIN_COVERAGE, readFor } from '../src/sim/kb/answer';
import { evidenceMismatch } from '../src/sim/kb/answerable';
import { statedOpposite } from '../src/sim/kb/antonyms';
import { answerShape, AnswerShape, answerTypeTerm, offersShape } from '../src/sim/kb/answerShape';
import { documentSentences } from '../src/sim/kb/rank';
import { findModel } from '../src/sim/kb/models';
import { missingTermMismatch, unmatchedTerms, type Unmatched } from '../src/sim/kb/unmatched';
import { flag, HELD_OUT, loadSquad, normalize, runBench, squadSite } from './sim-realism-data';

interface Row {
  question: string;
  answerable: boolean;
  /** Refused by a step before the checks of unmatched.ts (relevance, negation, numbers, opposites, modifiers). */
  refusedBefore: boolean;
  /** Answered (with or without the new checks) with a reference answer in it. */
  correct: boolean;
  best: string;
  own: number;
  unmatched: Unmatched[];
  /** The same, against the best sentence alone (and the title), and against it with two sentences either side. */
  unmatched0: Unmatched[];
  unmatched2: Unmatched[];
  shape: AnswerShape;
  /** The best sentence alone, and with its neighbours, holds a candidate answer of the shape asked for. */
  offersOwn: boolean;
  offersNear: boolean;
  /** The sentences next to the best one state the opposite of a word of the question (statedOpposite on them). */
  oppositeNear: boolean;
}

type Check = (r: Row) => boolean;

const nameInDocument = (idf: number, window: 'unmatched' | 'unmatched0' | 'unmatched2' = 'unmatched'): Check => (r) => r[window].some((u) => u.name && u.inDocument && u.idf >= idf);

/** The checks measured; `*` marks those the simulator uses (missingTermMismatch), the others were measured and dropped. */
const CHECKS: Record<string, Check> = {
  '* used: missingTermMismatch (both below)': (r) => missingTermMismatch(r.unmatched) !== undefined,
  '* rare name elsewhere in the document (IDF >= 3)': nameInDocument(3),
  '* word whose un-negated form the document uses, or "non-" … the passage does not negate': (r) => r.unmatched.some((u) => u.negatedInDocument),
  'any name elsewhere in the document': nameInDocument(0),
  'name elsewhere in the document, IDF >= 2': nameInDocument(2),
  'name elsewhere in the document, IDF >= 4': nameInDocument(4),
  'rare name elsewhere in the document, best sentence alone': nameInDocument(3, 'unmatched0'),
  'rare name elsewhere in the document, two sentences either side': nameInDocument(3, 'unmatched2'),
  'rare number elsewhere in the document': (r) => r.unmatched.some((u) => u.name && /\d/.test(u.raw) && u.inDocument && u.idf >= 3),
  'name not in the document, used by the site': (r) => r.unmatched.some((u) => u.name && u.known && !u.inDocument),
  'name nowhere on the site': (r) => r.unmatched.some((u) => u.name && !u.known),
  'any name not near the best sentence': (r) => r.unmatched.some((u) => u.name),
  'any word not near the best sentence': (r) => r.unmatched.length > 0,
  'exactly one word not near the best sentence': (r) => r.unmatched.length === 1,
  'unmatched IDF sum >= 5': (r) => r.unmatched.reduce((n, u) => n + u.idf, 0) >= 5,
  'best sentence covers < 50 % of the question': (r) => r.own < 0.5,
  'opposite stated next to the best sentence': (r) => r.oppositeNear,
  'number asked, best sentence holds none': (r) => r.shape === AnswerShape.number && !r.offersOwn,
  'number asked, none near the best sentence': (r) => r.shape === AnswerShape.number && !r.offersNear,
  'name asked, best sentence holds none': (r) => r.shape === AnswerShape.name && !r.offersOwn,
};

function read(path: string): Row[] {
  const articles = loadSquad(path, new Set(HELD_OUT));
  // Every article on one site, as in sim-realism.ts: retrieval has to find the paragraph.
  const kb = squadSite(articles, 1);
  const model = findModel('gpt-4o-mini');
  if (!model) throw new Error('model not loaded');
  const rows: Row[] = [];
  // Half a only: articles 1, 3, 5 … of the file, as sim-realism.ts counts them.
  for (const article of articles.filter((_, i) => i % 2 === 0)) {
    for (const qa of article.paragraphs.flatMap((p) => p.qas)) {
      const input = { message: qa.question, model, seed: 1 };
      const answer = composeAnswer(kb, input);
      const answerable = !qa.is_impossible && qa.answers.length > 0;
      const reading = readFor(kb, input);
      const best = reading.ranked[0];
      const type = answerTypeTerm(qa.question);
      const skip = new Set(type ? [type] : []);
      const unmatched = best ? unmatchedTerms(kb, qa.question, best, skip) : [];
      const unmatched0 = best ? unmatchedTerms(kb, qa.question, best, skip, 0) : [];
      const unmatched2 = best ? unmatchedTerms(kb, qa.question, best, skip, 2) : [];
      const refusedBefore = answer.answer === I_DONT_KNOW && (!best || best.passage < MIN_COVERAGE
        || evidenceMismatch(qa.question, best.text, `${best.hit.doc.title} ${best.hit.doc.content ?? ''}`) !== undefined);
      // What the steps before the checks answer (no Q&A documents here): the reference is judged on it.
      const text = normalize(answer.answer !== I_DONT_KNOW || refusedBefore ? answer.answer : composeFrom(reading.ranked, reading.model));
      const correct = answerable && !refusedBefore && qa.answers.some((a) => text.includes(normalize(a.text)));
      const shape = answerShape(qa.question);
      const asked = new Set(reading.query.keys());
      const list = best ? documentSentences(best.hit.doc, null) : [];
      const nearText = best ? [list[best.index - 1]?.text ?? '', best.text, list[best.index + 1]?.text ?? ''].join(' ') : '';
      rows.push({
        question: qa.question, answerable, refusedBefore, correct, best: best?.text ?? '', own: best?.own ?? 0, unmatched, unmatched0, unmatched2, shape,
        offersOwn: offersShape(best?.text ?? '', shape, asked), offersNear: offersShape(nearText, shape, asked),
        oppositeNear: best !== undefined && statedOpposite(qa.question, nearText, best.hit.doc.content ?? '') !== undefined,
      });
    }
  }
  return rows;
}

function main(): void {
  const path = process.argv[2];
  if (!path || path.startsWith('--')) throw new Error('usage: node dist/bench/sim-refusal-analysis.js DEV.json [--dump FILE] [--show CHECK]');
  const rows = read(path);
  const dump = flag('dump');
  if (dump) writeFileSync(dump, JSON.stringify(rows));
  const answerable = rows.filter((r) => r.answerable).length;
  const unanswerable = rows.length - answerable;
  const open = rows.filter((r) => !r.refusedBefore);
  const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} %`;
  const lines = [
    `half a: ${answerable} answerable (${rows.filter((r) => r.answerable && r.refusedBefore).length} refused before these checks), ` +
      `${unanswerable} unanswerable (${rows.filter((r) => !r.answerable && r.refusedBefore).length} refused before these checks)`,
    '',
    '| check (on questions not refused before) | unanswerable refused (gain) | answerable refused (loss) | … of which answered with a reference | gain per loss |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const [name, check] of Object.entries(CHECKS)) {
    const hit = open.filter(check);
    const gain = hit.filter((r) => !r.answerable).length;
    const loss = hit.filter((r) => r.answerable).length;
    lines.push(`| ${name} | ${gain} (${pct(gain, unanswerable)}) | ${loss} (${pct(loss, answerable)}) | ${hit.filter((r) => r.correct).length} | ${(gain / Math.max(1, loss)).toFixed(1)} |`);
  }
  const show = flag('show');
  const shown = show === undefined ? undefined : Object.entries(CHECKS).find(([name]) => name.includes(show))?.[1];
  for (const r of shown ? open.filter(shown) : []) {
    lines.push(`${r.answerable ? 'answerable  ' : 'unanswerable'} ${r.question} || ${r.best} || ${r.unmatched.map((u) => u.raw).join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

runBench('sim-refusal-analysis', main);
