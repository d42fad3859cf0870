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
 * know"); on unanswerable ones (SQuAD 2.0 `is_impossible`), the share refused; and calibration: for every
 * answer that is not a refusal, the share correct per confidence band. The data stays outside the
 * repository. Articles named in --exclude (default: the held-out "Normans" and "Computational
 * complexity theory") are dropped before anything is loaded.
 */
import { readFileSync } from 'node:fs';
import { I_DONT_KNOW, Plan, type FixturesInput } from '../src/sim';
import { composeAnswer } from '../src/sim/kb/answer';
import { findModel } from '../src/sim/kb/models';
import { Simulator } from '../src/sim/simulator';

interface SquadQa {
  question: string;
  answers: { text: string }[];
  is_impossible?: boolean;
}
interface SquadArticle {
  title: string;
  paragraphs: { context: string; qas: SquadQa[] }[];
}

const HELD_OUT = ['Normans', 'Computational_complexity_theory'];
const BANDS = [0, 20, 40, 60, 80, 101];

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** SQuAD's answer normalization. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();
}

function load(path: string, exclude: ReadonlySet<string>): SquadArticle[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const data = (raw as { data?: unknown }).data;
  if (!Array.isArray(data)) throw new Error(`${path}: \`data\` must be an array of SQuAD articles`);
  const norm = (t: string): string => t.replace(/_/g, ' ').toLowerCase();
  const skip = new Set([...exclude].map(norm));
  return (data as SquadArticle[]).filter((a) => !skip.has(norm(a.title)));
}

interface Tally {
  answerable: number;
  withReference: number;
  refusedAnswerable: number;
  unanswerable: number;
  refusedUnanswerable: number;
  bands: { n: number; correct: number }[];
  levels: Record<string, { n: number; correct: number }>;
}

function evaluate(articles: SquadArticle[], scope: 'site' | 'article', modelName: string, seed: number, limit: number): Tally {
  const model = findModel(modelName);
  if (!model) throw new Error(`--model: unknown model \`${modelName}\``);
  const tally: Tally = {
    answerable: 0, withReference: 0, refusedAnswerable: 0, unanswerable: 0, refusedUnanswerable: 0,
    bands: BANDS.slice(1).map(() => ({ n: 0, correct: 0 })), levels: {},
  };
  const groups = scope === 'site' ? [articles] : articles.map((a) => [a]);
  for (const group of groups) {
    const documents = group.flatMap((a) => a.paragraphs.map((p) => ({ title: a.title.replace(/_/g, ' '), content: p.context })));
    const fixtures: FixturesInput = { tenants: [{ id: 't', plan: Plan.level3, keys: [{ key: 'k' }], sites: [{ id: 's', documents }] }] };
    const kb = new Simulator({ fixtures, seed }).registry.site('s')?.knowledge;
    if (!kb) throw new Error('site not loaded');
    for (const qa of group.flatMap((a) => a.paragraphs.flatMap((p) => p.qas))) {
      if (tally.answerable + tally.unanswerable >= limit) return tally;
      const out = composeAnswer(kb, { message: qa.question, model, seed });
      const refused = out.answer === I_DONT_KNOW;
      const answer = normalize(out.answer);
      const answerable = !qa.is_impossible && qa.answers.length > 0;
      const correct = answerable && !refused && qa.answers.some((a) => answer.includes(normalize(a.text)));
      if (answerable) {
        tally.answerable++;
        if (correct) tally.withReference++;
        if (refused) tally.refusedAnswerable++;
      } else {
        tally.unanswerable++;
        if (refused) tally.refusedUnanswerable++;
      }
      if (refused) continue;
      const band = tally.bands[BANDS.findIndex((b, i) => out.confidenceScore >= b && out.confidenceScore < (BANDS[i + 1] ?? 101))];
      if (band) {
        band.n++;
        if (correct) band.correct++;
      }
      const level = (tally.levels[out.confidenceLevel] ??= { n: 0, correct: 0 });
      level.n++;
      if (correct) level.correct++;
    }
  }
  return tally;
}

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
  const articles = load(path, exclude);
  const started = performance.now();
  const t = evaluate(articles, scope, model, seed, limit);
  const ms = performance.now() - started;
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ articles: articles.length, scope, model, seed, ms: Math.round(ms), ...t })}\n`);
    return;
  }
  const paragraphs = articles.reduce((n, a) => n + a.paragraphs.length, 0);
  const lines = [
    `${articles.length} articles, ${paragraphs} paragraphs as text documents (${scope === 'site' ? 'all on one site' : 'one site per article'}); model ${model}, seed ${seed}; ${(ms / (t.answerable + t.unanswerable)).toFixed(2)} ms per question`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| answerable questions | ${t.answerable} |`,
    `| … answered with a reference answer | ${pct(t.withReference, t.answerable)} |`,
    `| … refused ("I don't know") | ${pct(t.refusedAnswerable, t.answerable)} |`,
    `| unanswerable questions (SQuAD 2.0) | ${t.unanswerable} |`,
    `| … refused | ${pct(t.refusedUnanswerable, t.unanswerable)} |`,
    '',
    '| confidence (answers that are not refusals) | answers | correct |',
    '|---|---:|---:|',
    ...t.bands.map((b, i) => `| ${BANDS[i]}–${Math.min(100, (BANDS[i + 1] ?? 101) - 1)} | ${b.n} | ${pct(b.correct, b.n)} |`),
    ...['low', 'medium', 'high'].map((l) => `| level \`${l}\` | ${t.levels[l]?.n ?? 0} | ${pct(t.levels[l]?.correct ?? 0, t.levels[l]?.n ?? 0)} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`sim-realism: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
}
