/** Scripts written without spaces between words: each character is a word of its own (as MLQA splits them). */
const CHARACTER_SCRIPTS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

/** `text` with a space on each side of every Han, Hiragana and Katakana character, so a split on spaces finds them. */
export function spaceCharacterScripts(text: string): string {
  return text.replace(CHARACTER_SCRIPTS, ' $1 ');
}
