import { Endpoint, type EndpointName } from '../constants';
import { chatAsync, chatSync } from '../handlers/chat';
import { createDocuments, listDocuments } from '../handlers/documents';
import { submitFeedback } from '../handlers/feedback';
import { requestStatus } from '../handlers/requests';
import { closeSession, listSessions } from '../handlers/sessions';
import { chatCompletions } from '../handlers/judge';
import { tenantLimits } from '../handlers/tenants';
import { Router } from './router';
import type { Handler, Reply } from './types';
import type { Simulator } from '../simulator';

export interface ApiRoute {
  endpoint: EndpointName;
  handler: Handler;
}

/** The M2M API (spec §4.1–4.7) plus the simulator's document routes, relative to `/api/v1/`. */
export const apiRouter = new Router<ApiRoute>([
  { method: 'GET', path: 'm2m/sites/:site/sessions', value: { endpoint: Endpoint.sessionsList, handler: listSessions } },
  { method: 'POST', path: 'm2m/sites/:site/chat/session/close', value: { endpoint: Endpoint.sessionsClose, handler: closeSession } },
  { method: 'POST', path: 'm2m/sites/:site/chat', value: { endpoint: Endpoint.chatSync, handler: chatSync } },
  { method: 'POST', path: 'm2m/sites/:site/chat/async', value: { endpoint: Endpoint.chatAsync, handler: chatAsync } },
  { method: 'GET', path: 'm2m/sites/:site/chat/requests/:requestId', value: { endpoint: Endpoint.requestStatus, handler: requestStatus } },
  { method: 'POST', path: 'm2m/sites/:site/chat/feedback', value: { endpoint: Endpoint.feedback, handler: submitFeedback } },
  { method: 'GET', path: 'm2m/tenants/:tenant/limits', value: { endpoint: Endpoint.tenantLimits, handler: tenantLimits } },
  { method: 'POST', path: 'm2m/sites/:site/documents', value: { endpoint: Endpoint.documentsCreate, handler: createDocuments } },
  { method: 'GET', path: 'm2m/sites/:site/documents', value: { endpoint: Endpoint.documentsList, handler: listDocuments } },
]);

/** The OpenAI-compatible judge route, relative to `/v1/` (bearer auth, OpenAI error shapes). */
export const judgeRouter = new Router<{ endpoint: EndpointName; handler: (sim: Simulator, body: unknown) => Reply }>([
  { method: 'POST', path: 'chat/completions', value: { endpoint: Endpoint.judgeChat, handler: chatCompletions } },
]);
