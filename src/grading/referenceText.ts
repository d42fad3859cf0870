/**
 * Normalization for the `reference` grader: two texts that give the same answer should share tokens
 * whatever their case, accents, punctuation, articles, possessives, plurals or way of writing numbers.
 * Pure and deterministic (no Node APIs, no locale-dependent calls): it runs in the workflow sandbox.
 */
import { foldCase, stripAccents } from '../shared/text/fold';
import { lightStem } from '../shared/text/stem';
import { spaceCharacterScripts } from '../shared/text/words';
import { numberWordsToDigits } from './numberWords';

/** Symbols that carry meaning in an answer; every other symbol and punctuation mark separates words. */
const SYMBOL_WORDS: Readonly<Record<string, string>> = { '%': ' percent ', '$': ' dollar ', '€': ' euro ', '£': ' pound ', '&': ' and ' };

/** Spellings of one word or unit that answers use interchangeably. */
const SYNONYM_LIST: Readonly<Record<string, string>> = {
  usd: 'dollar', eur: 'euro', gbp: 'pound', pct: 'percent', percentage: 'percent',
  kilometre: 'km', kilometer: 'km', metre: 'meter', centimetre: 'cm', centimeter: 'cm', millimetre: 'mm', millimeter: 'mm',
  kilogram: 'kg', kilo: 'kg', gram: 'g', lbs: 'pound', lb: 'pound', mi: 'mile', ft: 'foot', feet: 'foot', inches: 'inch',
  hr: 'hour', hrs: 'hour', min: 'minute', mins: 'minute', sec: 'second', secs: 'second',
  gigabyte: 'gb', megabyte: 'mb', terabyte: 'tb', kilobyte: 'kb',
  jan: 'january', feb: 'february', mar: 'march', apr: 'april', jun: 'june', jul: 'july', aug: 'august',
  sep: 'september', sept: 'september', oct: 'october', nov: 'november', dec: 'december',
  st: 'saint', mt: 'mount', dr: 'doctor', mr: 'mister', mrs: 'missus', vs: 'versus',
};

const ARTICLES = new Set(['a', 'an', 'the']);

/** Lower-cased text with accents, apostrophes, possessives, digit groups and symbols normalized. */
function cleanText(text: string): string {
  return stripAccents(foldCase(text))
    .replace(/[\u2018\u2019\u02bc`´]/gu, "'")
    .replace(/(\p{L})'s(?![\p{L}\p{N}])/gu, '$1') // possessive: "Pilgrim's" → "Pilgrim"
    .replace(/(\p{L})'(?=\p{L})/gu, '$1') // "O'Brien" → "OBrien", "don't" → "dont"
    .replace(/(\d),(?=\d{3}(?!\d))/gu, '$1') // "1,000" → "1000"
    .replace(/[%$€£&]/gu, (s) => SYMBOL_WORDS[s] ?? ' ')
    .replace(/(\d)\.(?=\d)/gu, '$1\uE000') // keep decimal points through the punctuation split
    .replace(/[^\p{L}\p{N}\p{M}\uE000]+/gu, ' ')
    .replace(/\uE000/gu, '.')
    .replace(/(\d)(?:st|nd|rd|th|s)(?![\p{L}\p{N}])/gu, '$1') // "4th" → "4", "1960s" → "1960"
    .replace(/(\d)(\p{L})/gu, '$1 $2') // "5GB" → "5 GB"
    .replace(/(\p{L})(\d)/gu, '$1 $2');
}

/** {@link SYNONYM_LIST} keyed and valued by stems, as tokens are looked up. */
const SYNONYMS: ReadonlyMap<string, string> = new Map(Object.entries(SYNONYM_LIST).map(([from, to]) => [lightStem(from), lightStem(to)]));

/**
 * The normalized tokens of a text, articles removed, in order: case, accents, punctuation,
 * possessives, number words (→ digits), ordinals (→ cardinals), digit grouping, unit and month
 * abbreviations and simple plurals (`lightStem`) all normalized.
 */
export function referenceTokens(text: string): string[] {
  const words = spaceCharacterScripts(cleanText(text)).split(' ').filter((t) => t.length > 0);
  return numberWordsToDigits(words)
    .filter((t) => !ARTICLES.has(t))
    .map((t) => {
      const stemmed = lightStem(t);
      return SYNONYMS.get(stemmed) ?? stemmed;
    })
    .map((t) => (/^\d+\.\d*?0+$/u.test(t) ? t.replace(/\.?0+$/u, '') : t)); // "2.50" → "2.5", "3.0" → "3"
}

/** English function words: they never decide whether an answer gives the reference's answer. */
const STOP_WORDS = new Set(
  [
    'about', 'above', 'after', 'again', 'against', 'all', 'am', 'and', 'any', 'are', 'as', 'at', 'be', 'because', 'been',
    'before', 'being', 'below', 'between', 'both', 'but', 'by', 'can', 'could', 'did', 'do', 'does', 'doing', 'down',
    'during', 'each', 'few', 'for', 'from', 'further', 'had', 'has', 'have', 'having', 'he', 'her', 'here', 'hers',
    'herself', 'him', 'himself', 'his', 'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'itself', 'just', 'me', 'more',
    'most', 'my', 'myself', 'nor', 'of', 'off', 'on', 'once', 'only', 'or', 'other', 'our', 'ours', 'ourselves', 'out',
    'over', 'own', 'same', 'she', 'should', 'so', 'some', 'such', 'than', 'that', 'their', 'theirs', 'them',
    'themselves', 'then', 'there', 'these', 'they', 'this', 'those', 'through', 'to', 'too', 'under', 'until', 'up',
    'very', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'why', 'will', 'with',
    'would', 'you', 'your', 'yours', 'yourself', 'yourselves', 'also', 'may', 'might', 'must', 'shall',
  ].map(lightStem),
);

/** Whether a normalized token is a function word (see {@link referenceTokens}). */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
