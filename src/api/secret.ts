import { inspect } from 'node:util';

export const REDACTED = '[REDACTED]';

/**
 * Secrets shorter than this are not searched for in text: a one- or two-character "key" (a placeholder, a test value)
 * would turn every word that contains it into `none[REDACTED]istent`. Real API keys are far longer; a short one is
 * still never printed by sitechat itself (the field is private), only not scrubbed from text a server sends back.
 */
export const MIN_SCRUBBED_LENGTH = 8;

/**
 * Holds the API key in a private field: it does not show in `JSON.stringify`, `util.inspect`,
 * `String()` or enumeration. Only the transport reads it, to set `X-API-Key`.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  /** Replaces every occurrence of the secret (raw or URL-encoded) in text that may echo server content. */
  scrub(text: string): string {
    if (this.#value.length < MIN_SCRUBBED_LENGTH) return text;
    let out = text.split(this.#value).join(REDACTED);
    const encoded = encodeURIComponent(this.#value);
    if (encoded !== this.#value) out = out.split(encoded).join(REDACTED);
    return out;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
