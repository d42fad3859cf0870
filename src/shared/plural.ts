/**
 * A count and its noun, singular for one: "1 row", "2 rows", "1 pass", "3 passes". Every count in the reports and the
 * terminal goes through it, so no "1 rows" is left to a hand-written `s`.
 * @param many the plural, where adding `s` is wrong. @default `${one}s`
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
