/**
 * Whether the simulator's word-level signals, weighed together by a fitted model, tell unanswerable questions from
 * answerable ones better than its hand-chosen checks (step 5 of docs/simulator.md) on articles the model was not fit
 * on. Every question of the development file is read as the chat endpoints read it; each one past the relevance step
 * gives 30 signals of its best sentence (coverage, words and names the passage lacks, negation, numbers, opposites,
 * swapped words, the answer shape, how much of the question is copied from the sentence …). Two models are fit with
 * one article left out at a time and score that article: a logistic regression (the signals weighed linearly) and
 * gradient-boosted stumps (thresholds on single signals, which can weigh a signal differently in different ranges).
 * Each is compared with the checks at the checks' own rate of refused answerable questions and at `--max-refused`
 * (relevance refusals included). The second source is never read here.
 *
 *   npm run build && node dist/bench/sim-refusal-model.js /work/data/squad/dev-v2.0-dev.json [--max-refused 0.045] [--l2 1] [--rounds 200]
 *
 * It is an analysis, not part of the simulator: it answers whether a model of these signals would be worth shipping.
 */
import { alignedSwap } from '../src/sim/kb/alignedSwap';
import { composeFrom, MIN_COVERAGE, readFor } from '../src/sim/kb/answer';
import { evidenceMismatch, EVIDENCE_NEGATION, MismatchKind, QUESTION_NEGATION } from '../src/sim/kb/answerable';
import { answerShape, AnswerShape, answerTypeTerm, offersShape } from '../src/sim/kb/answerShape';
import { statedOpposite } from '../src/sim/kb/antonyms';
import type { SiteKnowledge } from '../src/sim/kb/knowledge';
import { findModel } from '../src/sim/kb/models';
import { swappedModifier } from '../src/sim/kb/modifierSwap';
import { documentSentences, type RankedSentence } from '../src/sim/kb/rank';
import { foldedWords, terms } from '../src/sim/kb/tokenize';
import { missingTermMismatch, unmatchedTerms } from '../src/sim/kb/unmatched';
import { flag, HELD_OUT, loadSquad, normalize, runBench, squadSite } from './sim-realism-data';

const FEATURES = [
  'own', 'passage', 'margin', 'documentCoverage', 'rival',
  'unmatched', 'unmatchedIdfSum', 'unmatchedIdfMax', 'unmatchedAlone', 'rareWordMissing', 'wordElsewhere',
  'names', 'rareNameElsewhere', 'nameElsewhere', 'nameOnOtherArticle', 'nameNowhere', 'prefixed',
  'questionNegated', 'evidenceNegated', 'negationCheck', 'numberCheck', 'opposite', 'oppositeNear', 'modifier', 'swapped',
  'shapeAsked', 'shapeMissing', 'copiedRun', 'copiedBigrams', 'questionLength',
] as const;
type Feature = (typeof FEATURES)[number];

interface Row {
  article: number;
  answerable: boolean;
  /** Refused by the relevance step: no signals. */
  refusedBefore: boolean;
  /** The passage answer contains a reference answer. */
  correct: boolean;
  /** The simulator's checks refuse it. */
  rules: boolean;
  values: number[];
}

const cap = (x: number, max: number): number => Math.min(x, max) / max;

/** Longest run of the question's words the sentence has in a row, and the share of the question's word pairs it has. */
function copied(question: string, sentence: string): { run: number; bigrams: number } {
  const q = foldedWords(question);
  const s = foldedWords(sentence);
  let best = 0;
  for (let i = 0; i < q.length; i++) {
    for (let j = 0; j < s.length; j++) {
      let k = 0;
      while (i + k < q.length && j + k < s.length && q[i + k] === s[j + k]) k++;
      best = Math.max(best, k);
    }
  }
  const pairs = new Set(s.slice(1).map((w, i) => `${s[i] as string} ${w}`));
  const asked = q.slice(1).map((w, i) => `${q[i] as string} ${w}`);
  return { run: q.length > 0 ? best / q.length : 0, bigrams: asked.length > 0 ? asked.filter((p) => pairs.has(p)).length / asked.length : 0 };
}

function signals(kb: SiteKnowledge, question: string, query: ReadonlyMap<string, number>, ranked: readonly RankedSentence[]): { values: number[]; rules: boolean } {
  const best = ranked[0] as RankedSentence;
  const doc = best.hit.doc;
  const documentText = `${doc.title} ${doc.content ?? ''}`;
  const typeTerm = answerTypeTerm(question);
  const skip = new Set(typeTerm ? [typeTerm] : []);
  const unmatched = unmatchedTerms(kb, question, best, skip);
  const list = documentSentences(doc, null);
  const nearText = [list[best.index - 1]?.text ?? '', list[best.index + 1]?.text ?? ''].join(' ');
  const shape = answerShape(question);
  const rival = ranked.find((r) => r.hit.doc !== doc);
  const sameDoc = ranked.find((r) => r !== best && r.hit.doc === doc);
  const docTerms = new Set(list.flatMap((s) => s.terms));
  const questionTerms = [...new Set(terms(question))];
  const idfSum = (ts: readonly string[]): number => ts.reduce((n, t) => n + kb.idf(t), 0);
  const names = unmatched.filter((u) => u.name);
  const { run, bigrams } = copied(question, best.text);
  const first = evidenceMismatch(question, best.text, documentText);
  const missing = missingTermMismatch(unmatched);
  const values: Record<Feature, number> = {
    own: best.own,
    passage: best.passage,
    margin: rival ? Math.max(0, Math.min(1, (best.score - rival.score) / best.score)) : 1,
    documentCoverage: idfSum(questionTerms) > 0 ? idfSum(questionTerms.filter((t) => docTerms.has(t))) / idfSum(questionTerms) : 0,
    rival: sameDoc ? sameDoc.score / best.score : 0,
    unmatched: cap(unmatched.length, 4),
    unmatchedIdfSum: cap(unmatched.reduce((n, u) => n + u.idf, 0), 12),
    unmatchedIdfMax: cap(Math.max(0, ...unmatched.map((u) => u.idf)), 6),
    unmatchedAlone: cap(unmatchedTerms(kb, question, best, skip, 0).length, 4),
    rareWordMissing: unmatched.some((u) => !u.name && u.idf >= 3) ? 1 : 0,
    wordElsewhere: cap(unmatched.filter((u) => !u.name && u.inDocument).length, 3),
    names: cap(names.length, 3),
    rareNameElsewhere: missing?.kind === MismatchKind.name ? 1 : 0,
    nameElsewhere: names.some((u) => u.inDocument) ? 1 : 0,
    nameOnOtherArticle: names.some((u) => !u.inDocument && u.known) ? 1 : 0,
    nameNowhere: names.some((u) => !u.known) ? 1 : 0,
    prefixed: unmatched.some((u) => u.negatedInDocument) ? 1 : 0,
    questionNegated: QUESTION_NEGATION.test(question) ? 1 : 0,
    evidenceNegated: EVIDENCE_NEGATION.test(best.text) ? 1 : 0,
    negationCheck: first?.kind === MismatchKind.negation ? 1 : 0,
    numberCheck: first?.kind === MismatchKind.number ? 1 : 0,
    opposite: statedOpposite(question, best.text, documentText) ? 1 : 0,
    oppositeNear: statedOpposite(question, nearText, documentText) ? 1 : 0,
    modifier: swappedModifier(question, best.text) ? 1 : 0,
    swapped: alignedSwap(question, best.text) ? 1 : 0,
    shapeAsked: shape !== AnswerShape.other ? 1 : 0,
    shapeMissing: shape !== AnswerShape.other && !offersShape(best.text, shape, new Set(query.keys())) ? 1 : 0,
    copiedRun: run,
    copiedBigrams: bigrams,
    questionLength: cap(questionTerms.length, 15),
  };
  return { values: FEATURES.map((f) => values[f]), rules: first !== undefined || missing !== undefined };
}

function read(path: string): { rows: Row[]; titles: string[] } {
  const articles = loadSquad(path, new Set(HELD_OUT));
  const kb = squadSite(articles, 1);
  const model = findModel('gpt-4o-mini');
  if (!model) throw new Error('model not loaded');
  const rows: Row[] = [];
  articles.forEach((article, index) => {
    for (const qa of article.paragraphs.flatMap((p) => p.qas)) {
      const reading = readFor(kb, { message: qa.question, model, seed: 1 });
      const best = reading.ranked[0];
      const answerable = !qa.is_impossible && qa.answers.length > 0;
      if (!best || best.passage < MIN_COVERAGE) {
        rows.push({ article: index, answerable, refusedBefore: true, correct: false, rules: false, values: [] });
        continue;
      }
      const text = normalize(composeFrom(reading.ranked, reading.model));
      const correct = answerable && qa.answers.some((a) => text.includes(normalize(a.text)));
      rows.push({ article: index, answerable, refusedBefore: false, correct, ...signals(kb, qa.question, reading.query, reading.ranked) });
    }
  });
  return { rows, titles: articles.map((a) => a.title) };
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A has one row per signal). */
function solve(a: readonly number[][], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]?.[c] ?? 0) > Math.abs(m[p]?.[c] ?? 0)) p = r;
    [m[c], m[p]] = [m[p] as number[], m[c] as number[]];
    const pivot = m[c]?.[c] ?? 0;
    if (Math.abs(pivot) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      const f = r === c ? 0 : (m[r]?.[c] ?? 0) / pivot;
      if (f !== 0) for (let k = c; k <= n; k++) (m[r] as number[])[k] = (m[r]?.[k] ?? 0) - f * (m[c]?.[k] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] || 1));
}

interface Fitted {
  mean: number[];
  scale: number[];
  /** Intercept first, then one weight per standardized signal. */
  weights: number[];
}

/** L2-regularized logistic regression by Newton's method on standardized signals (the intercept is not penalized). */
function fit(rows: readonly Row[], l2: number): Fitted {
  const d = FEATURES.length + 1;
  const mean = FEATURES.map((_, j) => rows.reduce((s, r) => s + (r.values[j] ?? 0), 0) / rows.length);
  const scale = FEATURES.map((_, j) => Math.sqrt(rows.reduce((s, r) => s + ((r.values[j] ?? 0) - (mean[j] ?? 0)) ** 2, 0) / rows.length) || 1);
  const xs = rows.map((r) => [1, ...r.values.map((v, j) => (v - (mean[j] ?? 0)) / (scale[j] ?? 1))]);
  let w = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 30; iter++) {
    const grad = w.map((v, j) => (j > 0 ? l2 * v : 0));
    const hess = Array.from({ length: d }, (_, j) => Array.from({ length: d }, (__, k) => (j === k && j > 0 ? l2 : 0)));
    xs.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-x.reduce((s, v, j) => s + v * (w[j] ?? 0), 0)));
      const e = p - (rows[i]?.answerable ? 0 : 1);
      for (let j = 0; j < d; j++) {
        grad[j] = (grad[j] ?? 0) + e * (x[j] ?? 0);
        for (let k = 0; k < d; k++) (hess[j] as number[])[k] = (hess[j]?.[k] ?? 0) + p * (1 - p) * (x[j] ?? 0) * (x[k] ?? 0);
      }
    });
    const step = solve(hess, grad);
    w = w.map((v, j) => v - (step[j] ?? 0));
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { mean, scale, weights: w };
}

/** Signal values cut into this many ranges (by quantile) for the stumps. */
const BINS = 16;

/**
 * Gradient-boosted stumps for the logistic loss: each round fits one split of one signal to what the model so far gets
 * wrong (Newton leaf values), shrunk by `rate`. Returns a scorer of signal values (a log-odds; higher = unanswerable).
 */
function boost(rows: readonly Row[], rounds: number, rate: number): (values: readonly number[]) => number {
  const d = FEATURES.length;
  // Cut points per signal from the training rows' quantiles; each row's range per signal is computed once.
  const cuts = FEATURES.map((_, j) => {
    const sorted = rows.map((r) => r.values[j] ?? 0).sort((a, b) => a - b);
    return [...new Set(Array.from({ length: BINS - 1 }, (__, q) => sorted[Math.floor(((q + 1) * sorted.length) / BINS)] ?? 0))];
  });
  const bin = (j: number, v: number): number => {
    const c = cuts[j] as number[];
    let i = 0;
    while (i < c.length && v > (c[i] as number)) i++;
    return i;
  };
  const bins = rows.map((r) => FEATURES.map((_, j) => bin(j, r.values[j] ?? 0)));
  const y: number[] = rows.map((r) => (r.answerable ? 0 : 1));
  const base = Math.log((y.reduce((a, b) => a + b, 0) + 1) / (rows.length - y.reduce((a, b) => a + b, 0) + 1));
  const f = rows.map(() => base);
  const stumps: { j: number; cut: number; left: number; right: number }[] = [];
  for (let m = 0; m < rounds; m++) {
    const p = f.map((z) => 1 / (1 + Math.exp(-z)));
    const g = p.map((pi, i) => (y[i] ?? 0) - pi);
    const h = p.map((pi) => pi * (1 - pi));
    let best = { gain: 0, j: 0, cut: 0, left: 0, right: 0 };
    for (let j = 0; j < d; j++) {
      const nb = (cuts[j]?.length ?? 0) + 1;
      const gs = new Array<number>(nb).fill(0);
      const hs = new Array<number>(nb).fill(0);
      bins.forEach((b, i) => {
        const k = b[j] as number;
        gs[k] = (gs[k] ?? 0) + (g[i] ?? 0);
        hs[k] = (hs[k] ?? 0) + (h[i] ?? 0);
      });
      const G = gs.reduce((a, b) => a + b, 0);
      const H = hs.reduce((a, b) => a + b, 0);
      let gl = 0;
      let hl = 0;
      for (let k = 0; k < nb - 1; k++) {
        gl += gs[k] ?? 0;
        hl += hs[k] ?? 0;
        const gr = G - gl;
        const hr = H - hl;
        const gain = (gl * gl) / (hl + 1) + (gr * gr) / (hr + 1) - (G * G) / (H + 1);
        if (gain > best.gain) best = { gain, j, cut: k, left: gl / (hl + 1), right: gr / (hr + 1) };
      }
    }
    if (best.gain <= 0) break;
    stumps.push({ j: best.j, cut: best.cut, left: rate * best.left, right: rate * best.right });
    bins.forEach((b, i) => {
      f[i] = (f[i] ?? 0) + ((b[best.j] as number) <= best.cut ? rate * best.left : rate * best.right);
    });
  }
  return (values) => stumps.reduce((z, st) => z + (bin(st.j, values[st.j] ?? 0) <= st.cut ? st.left : st.right), base);
}

function probability(m: Fitted, values: readonly number[]): number {
  const z = values.reduce((s, v, j) => s + (m.weights[j + 1] ?? 0) * ((v - (m.mean[j] ?? 0)) / (m.scale[j] || 1)), m.weights[0] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

interface Outcome {
  answerableRefused: number;
  unanswerableRefused: number;
  withReference: number;
}

function outcome(rows: readonly Row[], refuse: (r: Row) => boolean): Outcome {
  const answerable = rows.filter((r) => r.answerable);
  const unanswerable = rows.filter((r) => !r.answerable);
  const refused = (r: Row): boolean => r.refusedBefore || refuse(r);
  return {
    answerableRefused: answerable.filter(refused).length / answerable.length,
    unanswerableRefused: unanswerable.filter(refused).length / unanswerable.length,
    withReference: answerable.filter((r) => !refused(r) && r.correct).length / answerable.length,
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

/**
 * The most questions the scores can refuse (highest score first) while at most `budget` of the answerable questions
 * are refused, relevance refusals included: the set of refused rows.
 */
function refusedAt(rows: readonly Row[], scores: ReadonlyMap<Row, number>, budget: number): Set<Row> {
  const answerable = rows.filter((r) => r.answerable).length;
  let refusedAnswerable = rows.filter((r) => r.answerable && r.refusedBefore).length;
  const out = new Set<Row>();
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  for (let i = 0; i < ranked.length;) {
    // Rows with the same score go together: a threshold cannot split them.
    let k = i;
    while (k < ranked.length && ranked[k]?.[1] === ranked[i]?.[1]) k++;
    const group = ranked.slice(i, k).map(([r]) => r);
    const more = group.filter((r) => r.answerable).length;
    if ((refusedAnswerable + more) / answerable > budget) break;
    refusedAnswerable += more;
    for (const r of group) out.add(r);
    i = k;
  }
  return out;
}

function main(): void {
  const path = process.argv[2];
  if (!path || path.startsWith('--')) throw new Error('usage: node dist/bench/sim-refusal-model.js DEV.json [--max-refused 0.045] [--l2 1] [--rounds 200]');
  const maxRefused = Number(flag('max-refused') ?? 0.045);
  const l2 = Number(flag('l2') ?? 1);
  const rounds = Number(flag('rounds') ?? 200);
  const { rows, titles } = read(path);
  const open = rows.filter((r) => !r.refusedBefore);
  // Out-of-article: each article's questions are scored by models fit on the other articles.
  const linear = new Map<Row, number>();
  const stumps = new Map<Row, number>();
  titles.forEach((_, k) => {
    const train = open.filter((r) => r.article !== k);
    const m = fit(train, l2);
    const b = boost(train, rounds, 0.1);
    for (const r of open.filter((x) => x.article === k)) {
      linear.set(r, probability(m, r.values));
      stumps.set(r, b(r.values));
    }
  });
  const rules = outcome(rows, (r) => r.rules);
  const line = (label: string, o: Outcome): string => `| ${label} | ${pct(o.answerableRefused)} | ${pct(o.unanswerableRefused)} | ${pct(o.withReference)} |`;
  const at = (scores: ReadonlyMap<Row, number>, budget: number): Outcome => {
    const refused = refusedAt(rows, scores, budget);
    return outcome(rows, (r) => refused.has(r));
  };
  const lines = [
    `${titles.length} articles, ${rows.length} questions (${rows.filter((r) => r.answerable).length} answerable), ${open.length} past the relevance step; ${FEATURES.length} signals; logistic regression L2 ${l2}; ${rounds} boosted stumps`,
    '',
    '| decision (models: out of article) | answerable refused | unanswerable refused | answerable answered with a reference |',
    '|---|---:|---:|---:|',
    line('relevance step only', outcome(rows, () => false)),
    line('the simulator\'s checks', rules),
    line('logistic regression, as many answerable refused as the checks', at(linear, rules.answerableRefused)),
    line('boosted stumps, as many answerable refused as the checks', at(stumps, rules.answerableRefused)),
    line(`logistic regression, at most ${pct(maxRefused)} answerable refused`, at(linear, maxRefused)),
    line(`boosted stumps, at most ${pct(maxRefused)} answerable refused`, at(stumps, maxRefused)),
    '',
    '| article | checks: answerable refused | checks: unanswerable refused | stumps: answerable refused | stumps: unanswerable refused |',
    '|---|---:|---:|---:|---:|',
  ];
  const byStumps = refusedAt(rows, stumps, rules.answerableRefused);
  titles.forEach((title, k) => {
    const mine = rows.filter((r) => r.article === k);
    const c = outcome(mine, (r) => r.rules);
    const m = outcome(mine, (r) => byStumps.has(r));
    lines.push(`| ${title} | ${pct(c.answerableRefused)} | ${pct(c.unanswerableRefused)} | ${pct(m.answerableRefused)} | ${pct(m.unanswerableRefused)} |`);
  });
  const all = fit(open, l2);
  lines.push('', '| signal | logistic weight (standardized, fit on every article) |', '|---|---:|', ...FEATURES.map((f, j) => `| ${f} | ${(all.weights[j + 1] ?? 0).toFixed(3)} |`));
  process.stdout.write(`${lines.join('\n')}\n`);
}

runBench('sim-refusal-model', main);
