import type { Escalator, ExternalGrader } from '../src/grading/gradeRow';
import { GradingError } from '../src/grading/gradeRow';
import { judgeRequestFor, judgeResult, unjudgeableResult } from '../src/grading/judge/request';
import type { JudgeRequest } from '../src/grading/judge/types';
import type { AnswerForGrading, AssertionResult, CustomAssertionSpec, ExternalAssertionSpec, JudgeAssertionSpec } from '../src/domain/grade';
import type { DatasetRow } from '../src/domain/dataset';
import { judging, local, localWork } from './activityProxies';
import { describeFailure } from './activityFailure';

/**
 * The workflow's `external` for `gradeRow`: custom modules in one activity on the main queue; judge specs looked up
 * in the judge cache (main queue, no call), then one activity on the judge queue per miss. A failed activity becomes
 * a `GradingError`, so the row ends `error` with the reason.
 */
export function activityGrader(row: DatasetRow, answer: AnswerForGrading, source?: { runId: string; page: number }): ExternalGrader {
  return async (specs) => {
    const results: AssertionResult[] = new Array<AssertionResult>(specs.length);
    const custom: { at: number; spec: CustomAssertionSpec }[] = [];
    const judged: { at: number; spec: JudgeAssertionSpec }[] = [];
    specs.forEach((spec: ExternalAssertionSpec, at) => {
      if (spec.type === 'custom') custom.push({ at, spec });
      else judged.push({ at, spec });
    });
    await Promise.all([
      custom.length > 0 ? gradeCustom(row, answer, custom, results, source) : undefined,
      judged.length > 0 ? judge(row, answer, judged, results) : undefined,
    ]);
    return results;
  };
}

/**
 * The workflow's escalation of an uncertain row: the worker says whether it has a judge and gives a cached verdict
 * (main queue, no call); a miss is one activity on the judge queue. Without a judge the row stays uncertain; a judge
 * that fails after its retries leaves it uncertain with the reason (`gradeRow`).
 */
export function activityEscalator(): Escalator {
  return async (request) => {
    const found = await asGradingError(() => local.lookupEscalation({ request }));
    if (!found.judge) return undefined;
    return found.cached ?? (await asGradingError(() => judging.judge(request)));
  };
}

async function gradeCustom(
  row: DatasetRow,
  answer: AnswerForGrading,
  custom: { at: number; spec: CustomAssertionSpec }[],
  into: AssertionResult[],
  source: { runId: string; page: number } | undefined,
): Promise<void> {
  const modules = custom.map(({ spec }) => ({ module: spec.module, threshold: spec.threshold }));
  const grade = await asGradingError(() => localWork.gradeCustom({ row, answer, modules, source }));
  custom.forEach(({ at }, i) => (into[at] = grade.assertions[i] as AssertionResult));
}

async function judge(
  row: DatasetRow,
  answer: AnswerForGrading,
  judged: { at: number; spec: JudgeAssertionSpec }[],
  into: AssertionResult[],
): Promise<void> {
  const asks: { at: number; spec: JudgeAssertionSpec; request: JudgeRequest }[] = [];
  for (const { at, spec } of judged) {
    const request = judgeRequestFor(spec, row, answer);
    if ('missing' in request) into[at] = unjudgeableResult(spec, request.missing);
    else asks.push({ at, spec, request });
  }
  if (asks.length === 0) return;
  const cached = await asGradingError(() => local.lookupJudgeCache({ requests: asks.map((a) => a.request) }));
  await Promise.all(asks.map(async ({ at, spec, request }, i) => {
    const outcome = cached[i] ?? (await asGradingError(() => judging.judge(request)));
    into[at] = judgeResult(spec, outcome);
  }));
}

async function asGradingError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const failure = describeFailure(err);
    throw new GradingError(failure.message, failure.type);
  }
}
