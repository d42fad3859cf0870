/**
 * How much the simulated assistant behaves like a RAG assistant on content it was not written against:
 * the paragraphs of a SQuAD-format file (v1.1 or v2.0) become the text documents of one site (the fixtures
 * mechanism, spec §4.8), and every question is answered by the site's default model exactly as the chat
 * endpoints answer it.
 *
 *   npm run build && node dist/bench/sim-realism.js DATA.json [--model NAME] [--seed N] [--scope site|article]
 *     [--exclude "Title,Title"] [--limit N] [--json]
 *
 * Measures, on answerable questions, the share whose answer contains a reference answer (SQuAD
 * normalization: lower case, no punctuation or articles, single spaces) and the share refused ("I don't
 * know"), against a plain BM25 bar on the same file (`sim-realism-baseline.ts`: its 2 best sentences, and its best
 * sentences cut to the answer's length); on unanswerable ones (SQuAD 2.0 `is_impossible`), the share refused; per check of step 5,
 * the answerable and unanswerable questions it refused; and calibration: for every answer that is not a refusal, the
 * share correct per confidence band. Every figure is given for all
 * articles and for two halves (odd and even positions in the file): on the development file, step 5's rules were tuned
 * on half a and half b was only measured, until issue 25's third round tuned a check on both (CHANGELOG.md); a
 * second source (the dev set's other 19 articles) and a third (10 articles of the training set) are only measured. The
 * data stays outside the repository. Articles named in --exclude (default: the held-out "Normans" and "Computational
 * complexity theory") are dropped before anything is loaded.
 */
import { I_DONT_KNOW } from '../src/sim';
import { composeAnswer } from '../src/sim/kb/answer';
import { MismatchKind } from '../src/sim/kb/answerable';
import { findModel } from '../src/sim/kb/models';
import { BASELINE_SENTENCES, cutToWords, SentenceBm25 } from './sim-realism-baseline';
import { flag, HELD_OUT, loadSquad, normalize, runBench, type SquadArticle, squadSite } from './sim-realism-data';

const BANDS = [0, 20, 40, 60, 80, 101];

/** One question's outcome. `half`: the article's position among the loaded ones (even = tuning half `a`, odd = check half `b`). */
interface Outcome {
  half: 'a' | 'b';
  answerable: boolean;
  refused: boolean;
  correct: boolean;
  /** The plain BM25 bar's 2 best sentences contain a reference answer. */
  baseline: boolean;
  /** The bar's best sentences cut to this answer's length contain one. */
  sameLength: boolean;
  /** Words of the answer and of the baseline's answer. */
  words: number;
  baselineWords: number;
  /** For a refusal by a check of the evidence (step 5): which check. */
  check?: MismatchKind;
  score: number;
  level: string;
}

interface Tally {
  answerable: number;
  withReference: number;
  baselineWithReference: number;
  sameLengthWithReference: number;
  /** Median words of the answers to answerable questions that are not refusals, and of the baseline's to the same questions. */
  medianWords: number;
  medianBaselineWords: number;
  refusedAnswerable: number;
  /** Per check of the evidence: the answerable and the unanswerable questions it refused. */
  checks: Record<MismatchKind, { answerable: number; unanswerable: number }>;
  unanswerable: number;
  refusedUnanswerable: number;
  bands: { n: number; correct: number }[];
  levels: Record<string, { n: number; correct: number }>;
}

/** The outcomes, and the milliseconds the bar took (not the simulator's: left out of its time per question). */
function evaluate(articles: SquadArticle[], scope: 'site' | 'article', modelName: string, seed: number, limit: number): { out: Outcome[]; benchMs: number } {
  const model = findModel(modelName);
  if (!model) throw new Error(`--model: unknown model \`${modelName}\``);
  const out: Outcome[] = [];
  let benchMs = 0;
  const halfOf = new Map(articles.map((a, i) => [a, i % 2 === 0 ? 'a' as const : 'b' as const]));
  const groups = scope === 'site' ? [articles] : articles.map((a) => [a]);
  for (const group of groups) {
    const kb = squadSite(group, seed);
    const built = performance.now();
    const baseline = new SentenceBm25(group);
    benchMs += performance.now() - built;
    for (const article of group) {
      for (const qa of article.paragraphs.flatMap((p) => p.qas)) {
        if (out.length >= limit) return { out, benchMs };
        const input = { message: qa.question, model, seed };
        const answer = composeAnswer(kb, input);
        const refused = answer.answer === I_DONT_KNOW;
        const text = normalize(answer.answer);
        const answerable = !qa.is_impossible && qa.answers.length > 0;
        const correct = answerable && !refused && qa.answers.some((a) => text.includes(normalize(a.text)));
        const asked = performance.now();
        // Scored once: its 2 best sentences, and as many as the answer's length takes.
        const ranked = baseline.top(qa.question, Infinity);
        const plain = ranked.slice(0, BASELINE_SENTENCES).join(' ');
        const plainText = normalize(plain);
        const words = wordCount(answer.answer);
        // A refusal has no length to match: the bar then answers at the length of its own 2 sentences.
        const cut = normalize(cutToWords(ranked, refused ? wordCount(plain) : words));
        out.push({
          half: halfOf.get(article) ?? 'a', answerable, refused, correct, score: answer.confidenceScore, level: answer.confidenceLevel,
          baseline: answerable && qa.answers.some((a) => plainText.includes(normalize(a.text))),
          sameLength: answerable && qa.answers.some((a) => cut.includes(normalize(a.text))),
          words, baselineWords: wordCount(plain),
          ...(refused && answer.source.check ? { check: answer.source.check } : {}),
        });
        benchMs += performance.now() - asked;
      }
    }
  }
  return { out, benchMs };
}

const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length === 0 ? 0 : (sorted[sorted.length >> 1] as number);
}

/** Counts, and calibration over the answers that are not refusals (an answer to an unanswerable question is wrong). */
function tally(outcomes: readonly Outcome[]): Tally {
  const t: Tally = {
    answerable: 0, withReference: 0, refusedAnswerable: 0, unanswerable: 0, refusedUnanswerable: 0,
    baselineWithReference: 0, sameLengthWithReference: 0, medianWords: 0, medianBaselineWords: 0,
    checks: Object.fromEntries(Object.values(MismatchKind).map((k) => [k, { answerable: 0, unanswerable: 0 }])) as Tally['checks'],
    bands: BANDS.slice(1).map(() => ({ n: 0, correct: 0 })), levels: {},
  };
  for (const o of outcomes) {
    if (o.answerable) {
      t.answerable++;
      if (o.correct) t.withReference++;
      if (o.baseline) t.baselineWithReference++;
      if (o.sameLength) t.sameLengthWithReference++;
      if (o.refused) t.refusedAnswerable++;
    } else {
      t.unanswerable++;
      if (o.refused) t.refusedUnanswerable++;
    }
    if (o.check) t.checks[o.check][o.answerable ? 'answerable' : 'unanswerable']++;
    if (o.refused) continue;
    const band = t.bands[BANDS.findIndex((b, i) => o.score >= b && o.score < (BANDS[i + 1] ?? 101))];
    if (band) {
      band.n++;
      if (o.correct) band.correct++;
    }
    const level = (t.levels[o.level] ??= { n: 0, correct: 0 });
    level.n++;
    if (o.correct) level.correct++;
  }
  const answered = outcomes.filter((o) => o.answerable && !o.refused);
  t.medianWords = median(answered.map((o) => o.words));
  t.medianBaselineWords = median(answered.map((o) => o.baselineWords));
  return t;
}

/** The checks of the evidence (`src/sim/kb/answerable.ts`), as docs/simulator.md names them. */
const CHECK_LABELS: Readonly<Record<MismatchKind, string>> = {
  negation: 'negated question, no negation stated',
  number: 'a number the document lacks',
  opposite: 'the opposite stated',
  modifier: 'another modifier before the noun',
  name: 'a rare name only elsewhere in the article',
  prefixed: 'a negating prefix',
  swapped: 'another number or the opposite word in place',
};

const pct = (a: number, b: number): string => (b > 0 ? `${((100 * a) / b).toFixed(1)} %` : '–');

function main(): void {
  const path = process.argv[2];
  if (!path || path.startsWith('--')) throw new Error('usage: node dist/bench/sim-realism.js DATA.json [--model NAME] [--seed N] [--scope site|article] [--exclude "A,B"] [--limit N] [--json]');
  const exclude = new Set((flag('exclude') ?? HELD_OUT.join(',')).split(',').map((t) => t.trim()).filter(Boolean));
  const scope = (flag('scope') ?? 'site') as 'site' | 'article';
  if (scope !== 'site' && scope !== 'article') throw new Error('--scope must be `site` or `article`');
  const model = flag('model') ?? 'gpt-4o-mini';
  const seed = Number(flag('seed') ?? 1);
  const limit = Number(flag('limit') ?? Infinity);
  const articles = loadSquad(path, exclude);
  const started = performance.now();
  const { out: outcomes, benchMs } = evaluate(articles, scope, model, seed, limit);
  const ms = performance.now() - started - benchMs;
  const all = tally(outcomes);
  const halves = { a: tally(outcomes.filter((o) => o.half === 'a')), b: tally(outcomes.filter((o) => o.half === 'b')) };
  const titles = (h: 0 | 1): string => articles.filter((_, i) => i % 2 === h).map((a) => a.title).join(', ');
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ articles: articles.length, scope, model, seed, ms: Math.round(ms), ...all, halves })}\n`);
    return;
  }
  const paragraphs = articles.reduce((n, a) => n + a.paragraphs.length, 0);
  const row = (label: string, f: (t: Tally) => string): string => `| ${label} | ${f(all)} | ${f(halves.a)} | ${f(halves.b)} |`;
  const lines = [
    `${articles.length} articles, ${paragraphs} paragraphs as text documents (${scope === 'site' ? 'all on one site' : 'one site per article'}); model ${model}, seed ${seed}; ${(ms / outcomes.length).toFixed(2)} ms per question`,
    `half a (articles 1, 3, 5 … of the file; of the development file, the half step 5 was tuned on first): ${titles(0)}`,
    `half b (articles 2, 4, 6 …; of the development file, measured only until issue 25's third round): ${titles(1)}`,
    '',
    '| measure | all | half a | half b |',
    '|---|---:|---:|---:|',
    row('answerable questions', (t) => String(t.answerable)),
    row('… answered with a reference answer', (t) => pct(t.withReference, t.answerable)),
    row('… refused ("I don\'t know")', (t) => pct(t.refusedAnswerable, t.answerable)),
    row('… plain BM25\'s 2 best sentences contain a reference (the bar)', (t) => pct(t.baselineWithReference, t.answerable)),
    row('… plain BM25\'s best sentences cut to the answer\'s length contain a reference', (t) => pct(t.sameLengthWithReference, t.answerable)),
    row('… words per answer, median: simulator / plain BM25', (t) => `${t.medianWords} / ${t.medianBaselineWords}`),
    row('unanswerable questions (SQuAD 2.0)', (t) => String(t.unanswerable)),
    row('… refused', (t) => pct(t.refusedUnanswerable, t.unanswerable)),
    '',
    '| refused by a check of the evidence (step 5) | unanswerable questions | answerable questions | half a: unanswerable / answerable | half b |',
    '|---|---:|---:|---:|---:|',
    ...Object.values(MismatchKind).map((k) => {
      const cell = (t: Tally): string => `${pct(t.checks[k].unanswerable, t.unanswerable)} / ${pct(t.checks[k].answerable, t.answerable)}`;
      return `| ${CHECK_LABELS[k]} | ${pct(all.checks[k].unanswerable, all.unanswerable)} | ${pct(all.checks[k].answerable, all.answerable)} | ${cell(halves.a)} | ${cell(halves.b)} |`;
    }),
    '',
    '| confidence (answers that are not refusals) | answers | correct | half a | half b |',
    '|---|---:|---:|---:|---:|',
    ...all.bands.map((b, i) => `| ${BANDS[i]}–${Math.min(100, (BANDS[i + 1] ?? 101) - 1)} | ${b.n} | ${pct(b.correct, b.n)} | ${pct(halves.a.bands[i]?.correct ?? 0, halves.a.bands[i]?.n ?? 0)} | ${pct(halves.b.bands[i]?.correct ?? 0, halves.b.bands[i]?.n ?? 0)} |`),
    ...['low', 'medium', 'high'].map((l) => {
      const cell = (t: Tally): string => pct(t.levels[l]?.correct ?? 0, t.levels[l]?.n ?? 0);
      return `| level \`${l}\` | ${all.levels[l]?.n ?? 0} | ${cell(all)} | ${cell(halves.a)} | ${cell(halves.b)} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

runBench('sim-realism', main);
