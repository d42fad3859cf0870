/** Whether two index terms are spellings of one word: a typo, an abbreviation or another form of it. */
export function sameWord(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length, 4);
  // "sept"/"septemb", "scottish"/"scotland", "frensh"/"french", "lor"/"lord".
  return a.slice(0, n) === b.slice(0, n) || editDistance(a, b) <= 2;
}

/** Countries whose adjective shares too little of the name to be taken for a form of it ("Poland" and "Polish"). */
const DEMONYMS: ReadonlySet<string> = new Set(
  ('france french|spain spanish|poland polish|denmark danish|netherlands dutch|holland dutch|wales welsh|' +
    'ireland irish|finland finnish|switzerland swiss|cyprus cypriot|philippines filipino|iceland icelandic|greece greek')
    .split('|').flatMap((pair) => [pair, pair.split(' ').reverse().join(' ')]),
);

/** Whether two lower-case words are a country and its adjective ("poland", "polish"). */
export const sameCountry = (a: string, b: string): boolean => DEMONYMS.has(`${a} ${b}`);

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
