/**
 * The grader `sitechat grade` uses: the run's assertions for each row (row columns, then the config's defaults),
 * pure graders in process, custom modules loaded here (there is no workflow sandbox offline).
 */
import { assertionsForRow, combineGrades, gradeAnswer, type AssertionResult, type AssertionSpec, type GradingThresholds } from '../grading';
import { runCustomGrader } from '../grading/custom';
import { rowBase } from '../reports/rowResult';
import { Outcome, type RowResult } from '../reports/types';
import type { ItemGrader } from './regrade';

export function createItemGrader(config: { assertions: readonly AssertionSpec[]; thresholds?: GradingThresholds }): ItemGrader {
  return async ({ row, answer, recorded }) => {
    const specs = assertionsForRow(row, config.assertions, config.thresholds);
    const base = gradeAnswer(row, answer, specs);
    const custom: AssertionResult[] = [];
    for (const spec of base.pending ?? []) custom.push(await runCustomGrader(spec.module, row, answer, spec.threshold));
    const grade = combineGrades(base, custom);
    const result: RowResult = {
      ...rowBase(row),
      model: row.model ?? recorded?.model,
      outcome: Outcome.answered,
      answer: answer.answer,
      confidenceScore: answer.confidenceScore,
      confidenceLevel: recorded?.confidenceLevel,
      confidenceReason: recorded?.confidenceReason,
      latencyMs: answer.latencyMs,
      sessionId: recorded?.sessionId,
      requestId: recorded?.requestId,
      finishedAt: new Date().toISOString(),
    };
    return grade.graded ? { ...result, outcome: grade.pass ? Outcome.passed : Outcome.failed, assertions: grade.assertions } : result;
  };
}
