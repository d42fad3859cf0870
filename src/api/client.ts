import { inspect } from 'node:util';
import { Chat } from './chat';
import { resolveConfig, type SiteChatClientOptions } from './config';
import { Feedback } from './feedback';
import { Requests } from './requests';
import { REDACTED, Secret } from './secret';
import { Sessions } from './sessions';
import { Tenants } from './tenants';
import { Transport } from './transport';

/**
 * Typed client of the Site Chat M2M API (spec `site-chat-api.md`).
 *
 * ```ts
 * const client = new SiteChatClient({ baseUrl: 'http://localhost:8080/api/v1', apiKey });
 * const { request_id } = await client.chat.submit(siteId, { message, email });
 * const status = await client.requests.get(siteId, request_id);
 * await client.close();
 * ```
 *
 * The key lives in a private field: `JSON.stringify`, `util.inspect` and `String()` of the client
 * show `[REDACTED]` instead.
 */
export class SiteChatClient {
  readonly sessions: Sessions;
  readonly chat: Chat;
  readonly requests: Requests;
  readonly feedback: Feedback;
  readonly tenants: Tenants;
  readonly #http: Transport;

  /** @throws ConfigurationError on an invalid base URL, key or timeout. */
  constructor(options: SiteChatClientOptions) {
    const config = resolveConfig(options);
    this.#http = new Transport(config, new Secret(options.apiKey), options.dispatcher);
    this.sessions = new Sessions(this.#http);
    this.chat = new Chat(this.#http);
    this.requests = new Requests(this.#http);
    this.feedback = new Feedback(this.#http);
    this.tenants = new Tenants(this.#http);
  }

  /** The validated base URL, e.g. `http://localhost:8080/api/v1`. */
  get baseUrl(): string {
    return this.#http.scrub(this.#http.config.baseUrl);
  }

  /** Closes the owned connection pool (an injected dispatcher is left open). */
  async close(): Promise<void> {
    await this.#http.close();
  }

  toJSON(): Record<string, string> {
    return { baseUrl: this.baseUrl, apiKey: REDACTED };
  }

  toString(): string {
    return `SiteChatClient(${this.baseUrl})`;
  }

  [inspect.custom](): string {
    return `SiteChatClient { baseUrl: '${this.baseUrl}', apiKey: '${REDACTED}' }`;
  }
}
