import { z } from 'zod';
import { describeIssue } from '../fixtures';
import { Router } from '../http/router';
import { bodyObject, errorReply, reply, type Reply } from '../http/types';
import type { Simulator } from '../simulator';
import { findModel, MODEL_NAMES } from '../kb/models';
import { iso } from '../state/clock';

type AdminHandler = (sim: Simulator, body: unknown, params: Record<string, string>) => Reply;

const advanceSchema = z.object({ ms: z.number().min(0).finite() });

function setFaults(sim: Simulator, body: unknown): Reply {
  if (!bodyObject(body)) return errorReply(400, 'invalid faults', { message: 'body must be a JSON object' });
  try {
    return reply(200, sim.setFaults(body as Record<string, unknown>));
  } catch (err) {
    return errorReply(400, 'invalid faults', { message: err instanceof Error ? err.message : String(err) });
  }
}

function advance(sim: Simulator, body: unknown): Reply {
  const parsed = advanceSchema.safeParse(body);
  if (!parsed.success) return errorReply(400, 'invalid time advance', { message: describeIssue('time advance', parsed.error) });
  sim.advanceTime(parsed.data.ms);
  return reply(200, { now: iso(sim.clock.now()), offsetMs: sim.clock.offsetMs });
}

/** The stored record of a chat request, with how its answer was made (debugging and tests). */
function inspectRequest(sim: Simulator, _body: unknown, params: Record<string, string>): Reply {
  const now = sim.tick();
  const r = params.id ? sim.requests.get(params.id, now, sim.options.retentionMs) : undefined;
  if (!r) return errorReply(404, 'request not found');
  const { result, createdAt, readyAt, feedback, ...rest } = r;
  return reply(200, {
    ...rest,
    createdAt: iso(createdAt),
    readyAt: iso(readyAt),
    answer: result.answer,
    confidence: { score: result.confidenceScore, level: result.confidenceLevel, reason: result.confidenceReason },
    source: result.source,
    ...(feedback ? { feedback: { value: feedback.value, submittedAt: iso(feedback.submittedAt) } } : {}),
  });
}

const answerModelSchema = z.object({ model: z.string().nullable() }).strict();

/**
 * Makes a site worse (or better) until reset: every question there is answered by `model`, whatever the request
 * names, as after a bad deployment of the assistant; `{ "model": null }` undoes it. The response says what the site
 * answered with before (null: the model each request names).
 */
function setAnswerModel(sim: Simulator, body: unknown, params: Record<string, string>): Reply {
  const id = params.site ?? '';
  if (!sim.registry.site(id)) return errorReply(404, 'site not found');
  const parsed = answerModelSchema.safeParse(body);
  if (!parsed.success) return errorReply(400, 'invalid answer model', { message: describeIssue('answer model', parsed.error) });
  const { model } = parsed.data;
  if (model !== null && !findModel(model)) {
    return errorReply(400, 'invalid answer model', { message: `unknown model "${model}" (known: ${MODEL_NAMES.join(', ')})` });
  }
  const before = sim.degraded.get(id) ?? null;
  if (model === null) sim.degraded.delete(id);
  else sim.degraded.set(id, model);
  return reply(200, { site: id, model, before });
}

/** Simulator-only routes under `/__sim/`: no API key, not rate limited, not counted in stats. */
export const adminRouter = new Router<AdminHandler>([
  { method: 'GET', path: 'health', value: () => reply(200, { ok: true }) },
  { method: 'GET', path: 'stats', value: (sim) => reply(200, sim.snapshot()) },
  { method: 'POST', path: 'reset', value: (sim) => (sim.reset(), reply(200, { status: 'ok' })) },
  { method: 'GET', path: 'faults', value: (sim) => reply(200, sim.faults.get()) },
  { method: 'PUT', path: 'faults', value: setFaults },
  { method: 'POST', path: 'time/advance', value: advance },
  { method: 'GET', path: 'requests/:id', value: inspectRequest },
  { method: 'PUT', path: 'sites/:site/answer-model', value: setAnswerModel },
]);
