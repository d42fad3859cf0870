/** Reading SQuAD-format files (v1.1 or v2.0) for the simulator's realism bench. */
import { readFileSync } from 'node:fs';
import { Plan, type FixturesInput } from '../src/sim';
import type { SiteKnowledge } from '../src/sim/kb/knowledge';
import { Simulator } from '../src/sim/simulator';

export interface SquadQa {
  question: string;
  answers: { text: string }[];
  is_impossible?: boolean;
}
export interface SquadArticle {
  title: string;
  paragraphs: { context: string; qas: SquadQa[] }[];
}

/** Never loaded: no rule was chosen on them, and their questions were never read. */
export const HELD_OUT: readonly string[] = ['Normans', 'Computational_complexity_theory'];

const titleKey = (t: string): string => t.replace(/_/g, ' ').toLowerCase();

/** The articles of a SQuAD-format file, without those titled as in `exclude` (dropped before anything else reads them). */
export function loadSquad(path: string, exclude: ReadonlySet<string>): SquadArticle[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const data = (raw as { data?: unknown }).data;
  if (!Array.isArray(data)) throw new Error(`${path}: \`data\` must be an array of SQuAD articles`);
  const skip = new Set([...exclude].map(titleKey));
  const articles = (data as SquadArticle[]).filter((a) => !skip.has(titleKey(String(a?.title ?? ''))));
  articles.forEach((a, i) => {
    if (typeof a?.title !== 'string' || !Array.isArray(a.paragraphs)) throw new Error(`${path}: \`data[${i}]\` must have a \`title\` and \`paragraphs\``);
  });
  return articles;
}

/** The paragraphs of `articles` as the text documents of one site (titled by article), loaded as the simulator loads fixtures. */
export function squadSite(articles: readonly SquadArticle[], seed: number): SiteKnowledge {
  const documents = articles.flatMap((a) => a.paragraphs.map((p) => ({ title: a.title.replace(/_/g, ' '), content: p.context })));
  const fixtures: FixturesInput = { tenants: [{ id: 't', plan: Plan.level3, keys: [{ key: 'k' }], sites: [{ id: 's', documents }] }] };
  const kb = new Simulator({ fixtures, seed }).registry.site('s')?.knowledge;
  if (!kb) throw new Error('site not loaded');
  return kb;
}

/** The value after `--name` on the command line. */
export function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * Runs a SQuAD bench's `main`: a bad file or flag is printed as `name: message` and exits 2 (what the user gave is
 * wrong), without a stack trace.
 */
export function runBench(name: string, main: () => void): void {
  try {
    main();
  } catch (err) {
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  }
}

/** SQuAD's answer normalization. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();
}
