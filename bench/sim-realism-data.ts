/** Reading SQuAD-format files (v1.1 or v2.0) for the simulator's realism bench and its data splits. */
import { readFileSync } from 'node:fs';

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

/** SQuAD's answer normalization. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();
}
