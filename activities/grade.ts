import { CustomGraderError, loadCustomGrader, runCustomGrader, type CustomGraderOptions } from '../src/grading/custom';
import { verdictOf } from '../src/grading/grade';
import type { AssertionSpec, GradeResult } from '../src/domain/grade';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import type { CustomGradeInput } from './types';

/** What a worker needs to run custom graders: where they may come from, and how their text is redacted. */
export type GraderDeps = Pick<ActivityDeps, 'gradersDir' | 'scrub'> & Partial<Pick<ActivityDeps, 'planMetadata'>>;

function graderOptions(deps: GraderDeps, module: string): CustomGraderOptions {
  if (deps.gradersDir === undefined) {
    // No directory, no custom code: a workflow input must not pick a file for a worker that holds the keys to run.
    throw new CustomGraderError(`custom grader ${module}: this worker runs no custom graders; set SITECHAT_GRADERS_DIR on the worker to the directory that holds them`, module);
  }
  return { gradersDir: deps.gradersDir, scrub: deps.scrub };
}

/**
 * Loads every custom grader a run's assertions name, as this worker would run them, so a run whose graders this
 * worker cannot run fails before any question is asked rather than on every row.
 */
export async function checkCustomGraders(deps: GraderDeps, assertions: readonly AssertionSpec[]): Promise<void> {
  for (const spec of assertions) {
    if (spec.type === 'custom') await loadCustomGrader(spec.module, graderOptions(deps, spec.module));
  }
}

export function gradeActivities(deps: GraderDeps) {
  // User code may wait on anything (a model, a service): heartbeats show the worker is alive meanwhile.
  return heartbeating({
    /** Custom graders are user code (files, Node APIs), so they run here and never inside the workflow. */
    async gradeCustom({ row: given, answer, modules, source }: CustomGradeInput): Promise<GradeResult> {
      const metadata = source && deps.planMetadata ? (await deps.planMetadata.of(source.runId, source.page)).get(given.id) : undefined;
      const row = metadata ? { ...given, metadata } : given;
      const assertions = [];
      for (const { module, threshold } of modules) assertions.push(await runCustomGrader(module, row, answer, threshold, graderOptions(deps, module)));
      return { graded: assertions.length > 0, pass: assertions.every((a) => a.pass), verdict: verdictOf(assertions), assertions };
    },
  });
}
