import { z } from 'zod';
import { isReply, resolveSite } from '../auth';
import { ApiError } from '../constants';
import { describeIssue, documentSchema } from '../fixtures';
import { bodyObject, errorReply, reply, type Reply, type RequestContext } from '../http/types';
import type { KbDocument } from '../kb/knowledge';
import type { Simulator } from '../simulator';

/** Most documents accepted by one call. */
const MAX_BATCH = 500;
const batchSchema = z.object({ documents: z.array(documentSchema).min(1).max(MAX_BATCH) });

function documentJson(d: KbDocument): Record<string, string> {
  return { document_id: d.id, type: d.kind, title: d.title, category: d.category };
}

/**
 * `POST .../sites/{site}/documents` (a simulator route; the spec does not show the real path): a
 * text document `{ title, content, category? }`, a Q&A document `{ title, question, answer, category? }`,
 * or `{ documents: [...] }` of either. 201 with the stored ids; 400 `invalid payload` plus a
 * `message` naming the field at fault. Documents are searchable at once.
 */
export function createDocuments(sim: Simulator, ctx: RequestContext): Reply {
  const site = resolveSite(sim.registry, ctx.tenant, ctx.params.site, ApiError.siteNotFound);
  if (isReply(site)) return site;
  const body = bodyObject(ctx.body);
  if (!body) return errorReply(400, ApiError.invalidPayload, { message: 'body must be a JSON object' });
  const parsed = 'documents' in body ? batchSchema.safeParse(body) : documentSchema.safeParse(body);
  if (!parsed.success) return errorReply(400, ApiError.invalidPayload, { message: describeIssue('document', parsed.error) });
  const inputs = 'documents' in parsed.data ? parsed.data.documents : [parsed.data];
  const stored = inputs.map((d) => site.knowledge.add(d));
  return reply(201, { status: 'ok', documents: stored.map(documentJson) });
}

/** `GET .../sites/{site}/documents` (simulator route): the site's documents without their text. */
export function listDocuments(sim: Simulator, ctx: RequestContext): Reply {
  const site = resolveSite(sim.registry, ctx.tenant, ctx.params.site, ApiError.siteNotFound);
  if (isReply(site)) return site;
  const documents = site.knowledge.list().map(documentJson);
  return reply(200, { documents, total: documents.length });
}
