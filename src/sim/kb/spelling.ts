/** Whether two index terms are spellings of one word: a typo, an abbreviation or another form of it. */
export function sameWord(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length, 4);
  // "sept"/"septemb", "scottish"/"scotland", "frensh"/"french", "lor"/"lord".
  return a.slice(0, n) === b.slice(0, n) || editDistance(a, b) <= 2;
}

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
