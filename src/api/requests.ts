import { Endpoints } from './endpoints';
import { type RequestStatus, RequestStatusSchema } from './schemas';
import { APIResource } from './resource';
import type { RequestOptions } from './transport';

/** `GET /m2m/sites/{site_id}/chat/requests/{request_id}` (spec §4.5). */
export class Requests extends APIResource {
  /**
   * Status of a chat request. A `failed` request is a 200 with `status: 'failed'` and the API's
   * `error` string, not a thrown error (spec §7 rule 2).
   */
  async get(siteId: string, requestId: string, options?: RequestOptions): Promise<RequestStatus> {
    const params = { site_id: siteId, request_id: requestId };
    return this.http.call({ endpoint: Endpoints.requestStatus, params, schema: RequestStatusSchema }, options);
  }
}
