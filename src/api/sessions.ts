import { Endpoints, endpointLabel } from './endpoints';
import { ListSessionsQuerySchema, type Session, type SessionList, SessionListSchema } from './schemas';
import { APIResource } from './resource';
import type { RequestOptions } from './transport';
import { parseRequest } from './validation';

export interface ListSessionsParams {
  /** Only sessions of this user email. @default all sessions */
  email?: string;
  /** Page size, 1–500. @default 50 (server default) */
  limit?: number;
  /** Sessions to skip. @default 0 */
  offset?: number;
}

export interface IterateSessionsParams {
  /** Only sessions of this user email. @default all sessions */
  email?: string;
  /** Sessions per request, 1–500. @default 100 */
  pageSize?: number;
  /** Hard stop after this many requests, a guard against a server that ignores `offset`. @default 10_000 */
  maxPages?: number;
}

/** `GET /m2m/sites/{site_id}/sessions` (spec §4.1). */
export class Sessions extends APIResource {
  /** One page of a site's sessions. */
  async list(siteId: string, params: ListSessionsParams = {}, options?: RequestOptions): Promise<SessionList> {
    const query = parseRequest(ListSessionsQuerySchema, params, endpointLabel(Endpoints.listSessions), 'query');
    return this.http.call({ endpoint: Endpoints.listSessions, params: { site_id: siteId }, query, schema: SessionListSchema }, options);
  }

  /**
   * Every session of a site, page by page. Offset paging over a list that may change while we page:
   * stops when the distinct sessions seen reach `pagination.total`, on an empty page, when the offset
   * passes the total, or after `maxPages`. Sessions are yielded once (deduplicated by id); sessions
   * inserted or removed mid-way can shift across page boundaries and be missed, never repeated.
   */
  async *iterate(siteId: string, params: IterateSessionsParams = {}, options?: RequestOptions): AsyncGenerator<Session, void, undefined> {
    const { email, pageSize = 100, maxPages = 10_000 } = params;
    const seen = new Set<string>();
    let offset = 0;
    for (let page = 0; page < maxPages; page++) {
      const { sessions, pagination } = await this.list(siteId, { email, limit: pageSize, offset }, options);
      if (sessions.length === 0) return;
      for (const session of sessions) {
        if (seen.has(session.id)) continue;
        seen.add(session.id);
        yield session;
      }
      offset += sessions.length;
      if (seen.size >= pagination.total || offset >= pagination.total) return;
    }
  }
}
