/**
 * Makes the data files of the simulator's realism bench from the SQuAD 2.0 dev set (`dev-v2.0.json`, 35 articles,
 * 11,873 questions), so anyone can rebuild them:
 *
 *   npm run build && node dist/bench/sim-realism-splits.js /work/data/squad/dev-v2.0.json
 *
 * writes, next to the input,
 * - `dev-v2.0-dev.json`: the development file, the 14 articles of DEVELOPMENT in the dev set's order (its halves a
 *   and b are the bench's odd and even articles);
 * - `dev-v2.0-second.json`: the second source, the 19 articles of SECOND_SOURCE, which no rule was tuned on.
 *
 * The two held-out articles ("Normans", "Computational complexity theory") are in neither file: they are dropped by
 * title as soon as the input is parsed, and their questions are never read. Any other article, or a missing one, is
 * an error, so a different input file cannot pass for the dev set. Exit 2 with the reason on bad input.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HELD_OUT, loadSquad, type SquadArticle } from './sim-realism-data';

/**
 * The first half of the dev set as the development file always had it: the dev half of the course split of the
 * SQuAD 2.0 dev set (16 articles) without the two held-out ones.
 */
export const DEVELOPMENT: readonly string[] = [
  'Huguenot', 'Steam_engine', '1973_oil_crisis', 'European_Union_law', 'Packet_switching', 'Harvard_University',
  'Yuan_dynasty', 'Immune_system', 'Scottish_Parliament', 'Islamism', 'Imperialism', 'Warsaw', 'French_and_Indian_War',
  'Force',
];

/** The second half of the dev set: every article that is neither in DEVELOPMENT nor held out. */
export const SECOND_SOURCE: readonly string[] = [
  'Southern_California', 'Sky_(United_Kingdom)', 'Victoria_(Australia)', 'Oxygen', 'Amazon_rainforest', 'Ctenophora',
  'Fresno,_California', 'Black_Death', 'Geology', 'Pharmacy', 'Civil_disobedience', 'Construction', 'Private_school',
  'Jacksonville,_Florida', 'Economic_inequality', 'University_of_Chicago', 'Intergovernmental_Panel_on_Climate_Change',
  'Prime_number', 'Rhine',
];

function pick(articles: readonly SquadArticle[], titles: readonly string[], path: string): SquadArticle[] {
  const wanted = new Set(titles);
  const out = articles.filter((a) => wanted.has(a.title));
  const missing = titles.filter((t) => !out.some((a) => a.title === t));
  if (missing.length > 0) throw new Error(`${path}: not the SQuAD 2.0 dev set: no article ${missing.map((t) => `"${t}"`).join(', ')}`);
  return out;
}

function count(articles: readonly SquadArticle[]): string {
  const qas = articles.flatMap((a) => a.paragraphs.flatMap((p) => p.qas));
  const unanswerable = qas.filter((q) => q.is_impossible === true).length;
  const paragraphs = articles.reduce((n, a) => n + a.paragraphs.length, 0);
  return `${articles.length} articles, ${paragraphs} paragraphs, ${qas.length - unanswerable} answerable and ${unanswerable} unanswerable questions`;
}

function main(): void {
  const path = process.argv[2];
  if (!path || path.startsWith('--')) throw new Error('usage: node dist/bench/sim-realism-splits.js dev-v2.0.json');
  const articles = loadSquad(path, new Set(HELD_OUT));
  const known = new Set([...DEVELOPMENT, ...SECOND_SOURCE]);
  const unknown = articles.filter((a) => !known.has(a.title)).map((a) => `"${a.title}"`);
  if (unknown.length > 0) throw new Error(`${path}: not the SQuAD 2.0 dev set: unexpected article ${unknown.join(', ')}`);
  for (const [name, titles] of [['dev-v2.0-dev.json', DEVELOPMENT], ['dev-v2.0-second.json', SECOND_SOURCE]] as const) {
    const chosen = pick(articles, titles, path);
    const out = join(dirname(path), name);
    writeFileSync(out, JSON.stringify({ version: 'v2.0', data: chosen }));
    process.stdout.write(`${out}: ${count(chosen)}\n`);
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`sim-realism-splits: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
}
