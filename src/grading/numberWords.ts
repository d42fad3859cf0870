/**
 * English number words to digits, for the `reference` grader: "one thousand, nine hundred and fourteen"
 * → `1914`, "twenty-one" → `21`, "third" → `3`. Pure and deterministic (workflow-safe).
 *
 * Works on tokens that are already lower-cased and split on punctuation. Ordinals from "third" on
 * become cardinals ("fourth" and "4th" both → `4`) so "the fourth of July" and "July 4" share their
 * number token. Digits before a scale word are multiplied: "50 million" → `50000000`.
 */

const UNITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };
/** "first" and "second" are left alone: "first and foremost", "a second". */
const ORDINALS: Readonly<Record<string, string>> = {
  third: 'three', fifth: 'five', eighth: 'eight', ninth: 'nine', twelfth: 'twelve',
};

/** The cardinal word for an ordinal word ("fourth" → "four", "twentieth" → "twenty"), else undefined. */
function cardinalOf(word: string): string | undefined {
  const irregular = ORDINALS[word];
  if (irregular !== undefined) return irregular;
  if (word.endsWith('ieth') && TENS[`${word.slice(0, -4)}y`] !== undefined) return `${word.slice(0, -4)}y`;
  if (word.endsWith('th')) {
    const base = word.slice(0, -2);
    if (UNITS[base] !== undefined || SCALES[base] !== undefined) return base;
  }
  return undefined;
}

type Part = { kind: 'unit' | 'tens' | 'scale'; value: number };

function partOf(word: string): Part | undefined {
  if (UNITS[word] !== undefined) return { kind: 'unit', value: UNITS[word] };
  if (TENS[word] !== undefined) return { kind: 'tens', value: TENS[word] };
  if (SCALES[word] !== undefined) return { kind: 'scale', value: SCALES[word] };
  return undefined;
}

/** Accumulates one spelled-out number; `accepts` says whether a part may continue it. */
class SpelledNumber {
  private total = 0;
  private current = 0;
  private last: Part['kind'] | undefined;

  accepts(part: Part): boolean {
    if (this.last === undefined) return true;
    // "two hundred five hundred" is two numbers; "five hundred thousand" is one.
    if (part.kind === 'scale') return part.value === 100 ? this.last !== 'scale' && this.current < 100 : this.current > 0;
    if (this.last === 'scale') return true;
    // "twenty one" continues; "one two" and "twenty thirty" are two numbers.
    return this.last === 'tens' && part.kind === 'unit' && part.value < 10;
  }

  add(part: Part): void {
    if (part.kind === 'scale') {
      if (part.value === 100) this.current = (this.current || 1) * 100;
      else {
        this.total += (this.current || 1) * part.value;
        this.current = 0;
      }
    } else this.current += part.value;
    this.last = part.kind;
  }

  get started(): boolean {
    return this.last !== undefined;
  }

  value(): string {
    return String(this.total + this.current);
  }
}

/**
 * Replaces runs of number words with their digits. "and" and "a" join the parts of one number
 * ("a hundred and five" → `105`) only between number words; an ordinal ends its number.
 */
export function numberWordsToDigits(tokens: readonly string[]): string[] {
  const out: string[] = [];
  let number = new SpelledNumber();
  const flush = (): void => {
    if (number.started) out.push(number.value());
    number = new SpelledNumber();
  };
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    const scale = SCALES[tokens[i + 1] ?? ''];
    if (scale !== undefined && scale > 100 && /^\d+(?:\.\d+)?$/u.test(token)) {
      flush();
      out.push(String(Math.round(Number(token) * scale)));
      i += 1;
      continue;
    }
    const ordinal = cardinalOf(token);
    const part = partOf(ordinal ?? token);
    if (part !== undefined) {
      if (!number.accepts(part)) flush();
      number.add(part);
      if (ordinal !== undefined) flush();
      continue;
    }
    const next = partOf(tokens[i + 1] ?? '') ?? partOf(cardinalOf(tokens[i + 1] ?? '') ?? '');
    const joins = next !== undefined && ((token === 'and' && number.started) || (token === 'a' && next.kind === 'scale'));
    if (joins) continue;
    flush();
    out.push(token);
  }
  flush();
  return out;
}
