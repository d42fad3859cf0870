import { Endpoints, endpointLabel } from './endpoints';
import {
  type AsyncSubmitResponse,
  AsyncSubmitResponseSchema,
  type ChatRequestBody,
  ChatRequestBodySchema,
  type CloseResponse,
  CloseResponseSchema,
  CloseSessionBodySchema,
  type SyncChatResponse,
  SyncChatResponseSchema,
} from './schemas';
import { APIResource } from './resource';
import type { RequestOptions } from './transport';
import { parseRequest } from './validation';

/** Chat endpoints of a site (spec §4.2–4.4). */
export class Chat extends APIResource {
  /**
   * Sync chat: blocks until the answer is complete (server ceiling 60 s), so it uses the longer
   * `syncChatTimeoutMs`. After a client timeout the server may still answer; the request id is then
   * unknown to the caller, which is why long-running jobs use {@link Chat.submit} and polling.
   */
  async send(siteId: string, body: ChatRequestBody, options?: RequestOptions): Promise<SyncChatResponse> {
    const endpoint = Endpoints.chatSync;
    const parsed = parseRequest(ChatRequestBodySchema, body, endpointLabel(endpoint), 'body');
    const headersTimeoutMs = this.http.config.syncChatTimeoutMs;
    return this.http.call({ endpoint, params: { site_id: siteId }, body: parsed, schema: SyncChatResponseSchema, headersTimeoutMs }, options);
  }

  /** Async submit: returns a `pending` request id at once; poll it with `client.requests.get`. */
  async submit(siteId: string, body: ChatRequestBody, options?: RequestOptions): Promise<AsyncSubmitResponse> {
    const endpoint = Endpoints.chatAsync;
    const parsed = parseRequest(ChatRequestBodySchema, body, endpointLabel(endpoint), 'body');
    return this.http.call({ endpoint, params: { site_id: siteId }, body: parsed, schema: AsyncSubmitResponseSchema }, options);
  }

  /** Closes a session; closing an already-closed session also succeeds (idempotent). */
  async closeSession(siteId: string, sessionId: string, options?: RequestOptions): Promise<CloseResponse> {
    const endpoint = Endpoints.closeSession;
    const body = parseRequest(CloseSessionBodySchema, { session_id: sessionId }, endpointLabel(endpoint), 'body');
    return this.http.call({ endpoint, params: { site_id: siteId }, body, schema: CloseResponseSchema }, options);
  }
}
