/**
 * Column names that look like a misspelt known column (`expeted`, `questoin`, `must-include`). Any column the runner
 * does not know is kept as metadata, so a misspelt assertion column would grade nothing and say nothing: such a name
 * is refused with the known name it is closest to, unless the config declares it as metadata. Pure.
 *
 * The rule (docs/datasets.md): both names are compared in their loose form (lower case, without `_`, `-`, spaces and
 * dots, so `Must-Include` is `mustinclude`), by Damerau-Levenshtein distance (optimal string alignment: an insertion,
 * a deletion, a substitution or a swap of two neighbours is one edit). A name is close to a known one of up to 3
 * letters (`id`) only when the loose forms are equal, of 4 or 5 letters (`turn`, `model`, `tags`) within 1 edit,
 * of more within 2. Short names get fewer edits because two edits turn `url` into `turn` and `no` into `id`.
 */

/** `Must-Include` → `mustinclude`: case and word separators do not make another name. */
export function looseName(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_.-]+/gu, '');
}

/**
 * Damerau-Levenshtein distance (optimal string alignment) over Unicode code points: insertions, deletions,
 * substitutions and swaps of adjacent characters, each one edit (`questoin` → `question` is 1).
 */
export function swapEditDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  // Three rows: the swap looks two rows back.
  let before = new Int32Array(y.length + 1);
  let prev = Int32Array.from({ length: y.length + 1 }, (_, j) => j);
  let curr = new Int32Array(y.length + 1);
  for (let i = 1; i <= x.length; i += 1) {
    curr[0] = i;
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] ?? 0) + 1, (curr[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      curr[j] = best;
    }
    [before, prev, curr] = [prev, curr, before];
  }
  return prev[y.length] ?? 0;
}

/** The most edits a loose name may be from the loose form of a known name to be taken for a misspelling of it. */
export function allowedEdits(knownLoose: string): number {
  const length = [...knownLoose].length;
  return length <= 3 ? 0 : length <= 5 ? 1 : 2;
}

/**
 * The names of `known` that `column` looks like a misspelling of: the closest within the allowed edits (several
 * when equally close), or none. A name that is itself in `known` is no misspelling.
 */
export function closeColumns(column: string, known: readonly string[]): string[] {
  if (known.includes(column)) return [];
  const loose = looseName(column);
  let best = Infinity;
  let names: string[] = [];
  for (const name of known) {
    const knownLoose = looseName(name);
    const distance = swapEditDistance(loose, knownLoose);
    if (distance > allowedEdits(knownLoose) || distance > best) continue;
    if (distance < best) names = [];
    best = distance;
    names.push(name);
  }
  return names;
}

/** The fix where a config can declare metadata (`run`, `schedule create nightly`, `grade`). */
export const DECLARE_AS_METADATA = 'Rename it; or, if it is metadata, declare it in the config: `metadata: [{column}]`.';

/** What a dataset pass checks of its column names; given by the commands that read a dataset for a run or a grading. */
export interface ColumnNameRules {
  /** Columns this command reads: an unknown column close to one of them is refused. */
  read: readonly string[];
  /** Other columns of this command's input, never refused (an answers file's `outcome`, read back by `grade`). @default [] */
  alsoKnown?: readonly string[];
  /** Columns declared as metadata (the config's `metadata:`), compared without case: never refused. @default [] */
  metadata?: readonly string[];
  /** How to fix a refused name, after "did you mean …?"; `{column}` stands for the name. */
  fix: string;
}

/** The problem with a column's name under `rules`, or undefined when it is fine. */
export function columnNameProblem(column: string, rules: ColumnNameRules): string | undefined {
  if (rules.alsoKnown?.includes(column)) return undefined;
  if (rules.metadata?.some((m) => m.trim().toLowerCase() === column.trim().toLowerCase())) return undefined;
  const close = closeColumns(column, rules.read);
  if (close.length === 0) return undefined;
  const names = close.map((n) => `\`${n}\``);
  const guess = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `unknown column \`${column}\`: did you mean ${guess}? ${rules.fix.replaceAll('{column}', column)}`.trimEnd();
}
