import { inspect } from 'node:util';

export const REDACTED = '[REDACTED]';

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
    if (this.#value === '') return text;
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
