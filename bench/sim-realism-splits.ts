/**
 * Makes the data files of the simulator's realism bench from the SQuAD 2.0 dev set (`dev-v2.0.json`, 35 articles,
 * 11,873 questions), so anyone can rebuild them:
 *
 *   npm run build && node dist/bench/sim-realism-splits.js /work/data/squad/dev-v2.0.json
 *
 * writes, next to the input,
 * - `dev-v2.0-dev.json`: the development file, the 14 articles of DEVELOPMENT (sim-realism-data.ts) in the dev set's
 *   order (its halves a and b are the bench's odd and even articles);
 * - `dev-v2.0-second.json`: the second source, the 19 articles of SECOND_SOURCE, which no rule was tuned on.
 *
 * The two held-out articles ("Normans", "Computational complexity theory") are in neither file: they are dropped by
 * title as soon as the input is parsed, and their questions are never read. Any other article, or a missing one, is
 * an error, so a different input file cannot pass for the dev set. Exit 2 with the reason on bad input.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HELD_OUT, loadSquad, runBench, splitDevSet, type SquadArticle } from './sim-realism-data';

function count(articles: readonly SquadArticle[]): string {
  const qas = articles.flatMap((a) => a.paragraphs.flatMap((p) => p.qas));
  const unanswerable = qas.filter((q) => q.is_impossible === true).length;
  const paragraphs = articles.reduce((n, a) => n + a.paragraphs.length, 0);
  return `${articles.length} articles, ${paragraphs} paragraphs, ${qas.length - unanswerable} answerable and ${unanswerable} unanswerable questions`;
}

function main(): void {
  const path = process.argv[2];
  if (!path || path.startsWith('--')) throw new Error('usage: node dist/bench/sim-realism-splits.js dev-v2.0.json');
  const splits = splitDevSet(loadSquad(path, new Set(HELD_OUT)), path);
  for (const [name, chosen] of [['dev-v2.0-dev.json', splits.development], ['dev-v2.0-second.json', splits.second]] as const) {
    const out = join(dirname(path), name);
    writeFileSync(out, JSON.stringify({ version: 'v2.0', data: chosen }));
    process.stdout.write(`${out}: ${count(chosen)}\n`);
  }
}

runBench('sim-realism-splits', main);
