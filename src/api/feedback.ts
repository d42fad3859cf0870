import { Endpoints, endpointLabel } from './endpoints';
import { type FeedbackBody, FeedbackBodySchema, type FeedbackResponse, FeedbackResponseSchema } from './schemas';
import { APIResource } from './resource';
import type { RequestOptions } from './transport';
import { parseRequest } from './validation';

/** `POST /m2m/sites/{site_id}/chat/feedback` (spec §4.6). */
export class Feedback extends APIResource {
  /**
   * Rates a completed answer `good` or `bad`. Resubmitting the same value is harmless; a request that
   * is pending or failed yields a `ConflictError` (409).
   */
  async submit(siteId: string, body: FeedbackBody, options?: RequestOptions): Promise<FeedbackResponse> {
    const endpoint = Endpoints.feedback;
    const parsed = parseRequest(FeedbackBodySchema, body, endpointLabel(endpoint), 'body');
    return this.http.call({ endpoint, params: { site_id: siteId }, body: parsed, schema: FeedbackResponseSchema }, options);
  }
}
