/** Reading SQuAD-format files (v1.1 or v2.0) for the simulator's realism bench and its data splits. */
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

/**
 * The development file's and the second source's articles, in the dev set's order. `articles` must be the SQuAD 2.0
 * dev set without the held-out articles: any other article, or a missing one, is an error naming it.
 */
export function splitDevSet(articles: readonly SquadArticle[], path: string): { development: SquadArticle[]; second: SquadArticle[] } {
  const known = new Set([...DEVELOPMENT, ...SECOND_SOURCE]);
  const unknown = articles.filter((a) => !known.has(a.title)).map((a) => `"${a.title}"`);
  if (unknown.length > 0) throw new Error(`${path}: not the SQuAD 2.0 dev set: unexpected article ${unknown.join(', ')}`);
  return { development: pick(articles, DEVELOPMENT, path), second: pick(articles, SECOND_SOURCE, path) };
}
