/** Regular-expression helpers shared by the `regex` grader and dataset validation. Pure. */

/** A pattern with its flags, as `new RegExp(pattern, flags)` takes them. */
export interface RegexSource {
  pattern: string;
  flags?: string;
}

const LITERAL = /^\/([\s\S]+)\/([a-z]*)$/u;

/**
 * Reads a dataset `regex` cell: either a bare pattern (`Paris|Lyon`, no flags) or a literal with
 * flags (`/paris/i`).
 */
export function parseRegexLiteral(text: string): RegexSource {
  const match = LITERAL.exec(text);
  if (match?.[1] === undefined) return { pattern: text };
  const flags = match[2] ?? '';
  return flags === '' ? { pattern: match[1] } : { pattern: match[1], flags };
}

/** Compiles a pattern, returning the RegExp or the engine's error message. */
export function compileRegex(source: RegexSource): RegExp | string {
  try {
    // `g`/`y` make a RegExp stateful; a fresh instance per use keeps matching deterministic.
    return new RegExp(source.pattern, source.flags ?? '');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
