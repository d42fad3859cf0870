/**
 * The grader `sitechat grade` uses: the same `gradeRow` as a run, with the external graders called in process
 * instead of through activities — custom modules loaded here, the LLM judge behind an in-process pacer and retry
 * (a run uses the judge queue's rate limit and the activity retry policy) and the same cache as the workers. A
 * person's label of the same site, question, references and answer settles a row first, as in a run.
 */
import { gradedResult, gradeRow, GradingError, type AssertionSpec, type Escalator, type ExternalGrader, type GradingThresholds } from '../grading';
import { runCustomGrader } from '../grading/custom';
import { createJudge, JudgeCache, judgeCached, judgeSettingsFromEnv, pacedJudge, judgeRequestFor, judgeResult, JudgeError, unjudgeableResult, type Judge } from '../grading/judge';
import { labelKey } from '../labels/key';
import { labelledResult } from '../labels/apply';
import { labelSubjectOf } from '../labels/subject';
import type { LabelStore } from '../store/store';
import { hostOf, type Provenance } from '../domain/provenance';
import { answeredResult } from '../domain/rowResult';
import type { ItemGrader } from './regrade';
import type { GradeItem } from './types';

export interface ItemGraderOptions {
  assertions: readonly AssertionSpec[];
  thresholds?: GradingThresholds;
  /** The judge, already paced and retried (`offlineJudge`); absent when none is configured (judge assertions then make rows `error`). */
  judge?: Judge;
  judgeCache: JudgeCache;
  /** Labels of this site settle their rows first, before graders and the judge, as in a run. @default none: no lookup */
  labels?: { store: LabelStore; siteId: string };
}

/** The judge of the environment (`SITECHAT_JUDGE_*`), paced and retried in process; undefined when none is set. */
export function offlineJudge(env: NodeJS.ProcessEnv = process.env): Judge | undefined {
  const settings = judgeSettingsFromEnv(env);
  return settings && pacedJudge(createJudge(settings), { rpm: settings.rpm, maxAttempts: settings.maxAttempts, maxRetryAfterMs: settings.maxRetryAfterMs });
}

/** The judge `offlineJudge` builds, as reports name it (model and host, never the key); undefined when none. */
export function offlineJudgeProvenance(env: NodeJS.ProcessEnv = process.env): Provenance['judge'] {
  const settings = judgeSettingsFromEnv(env);
  return settings && { model: settings.model, host: hostOf(settings.baseUrl), simulator: false };
}

function externalFor(item: GradeItem & { answer: NonNullable<GradeItem['answer']> }, options: ItemGraderOptions): ExternalGrader {
  return (specs) => Promise.all(specs.map(async (spec) => {
    if (spec.type === 'custom') return runCustomGrader(spec.module, item.row, item.answer, spec.threshold);
    const request = judgeRequestFor(spec, item.row, item.answer);
    if ('missing' in request) return unjudgeableResult(spec, request.missing);
    if (!options.judge) {
      throw new GradingError('no judge configured: set SITECHAT_JUDGE_BASE_URL, SITECHAT_JUDGE_API_KEY and SITECHAT_JUDGE_MODEL', 'JudgeConfigError');
    }
    try {
      return judgeResult(spec, await judgeCached(options.judge, options.judgeCache, request));
    } catch (err) {
      if (err instanceof JudgeError) throw new GradingError(err.message, err.name);
      throw err;
    }
  }));
}

/**
 * Uncertain rows go to the judge when one is configured (the cache first, as for judge assertions); a judge error is
 * thrown, so the row stays uncertain with the reason.
 */
function escalatorFor(options: ItemGraderOptions): Escalator {
  return async (request) => {
    if (!options.judge) return undefined;
    return judgeCached(options.judge, options.judgeCache, request);
  };
}

export function createItemGrader(options: ItemGraderOptions): ItemGrader {
  return async (item) => {
    const { row, answer, recorded } = item;
    const answered = answeredResult(row, {
      status: 'completed', answer: answer.answer, confidenceScore: answer.confidenceScore, latencyMs: answer.latencyMs ?? 0,
      confidenceLevel: recorded?.confidenceLevel, confidenceReason: recorded?.confidenceReason,
      sessionId: recorded?.sessionId, requestId: recorded?.requestId,
    }, row.model ?? recorded?.model, new Date().toISOString());
    // An input without latency keeps none, rather than a made-up 0.
    if (answer.latencyMs === undefined) delete answered.latencyMs;
    const key = options.labels ? labelKey(labelSubjectOf(options.labels.siteId, row, answer.answer)) : undefined;
    const label = key === undefined ? undefined : (await options.labels?.store.getLabels([key]))?.get(key);
    if (label) return labelledResult(answered, label);
    const grade = await gradeRow(row, answer, { assertions: options.assertions, thresholds: options.thresholds }, externalFor(item, options), escalatorFor(options));
    return { ...gradedResult(answered, grade), ...(key === undefined ? {} : { labelKey: key }) };
  };
}
