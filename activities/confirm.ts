import { confirmationUnits } from '../src/datasets/confirm';
import type { WorkUnit } from '../src/domain/dataset';
import { BaselineDiff } from '../src/analysis/baseline';
import { ConfirmTally } from '../src/analysis/confirmTally';
import { confirmOrder, nextConfirmStep } from '../src/analysis/confirmSequence';
import { regressionFailsGate } from '../src/analysis/gate';
import { baseIdOf } from '../src/datasets/repeat';
import type { BaselineInput } from '../src/analysis/baseline';
import type { RunMeta } from '../src/domain/results';
import { baselineFor } from './baselineFor';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import type { ConfirmPlan, ConfirmRoundInput } from './types';

export function confirmActivities(deps: ActivityDeps) {
  /** The run's K, meta and baseline when it confirms at all (an evaluation with `--confirm K` and a baseline). */
  async function confirming(runId: string, input: ConfirmRoundInput['input']): Promise<{ k: number; meta: RunMeta; baseline: BaselineInput } | undefined> {
    const k = input.options.confirm ?? 0;
    if (k < 1 || input.kind !== 'evaluation') return undefined;
    const meta = await deps.store.getMeta(runId);
    if (!meta) return undefined;
    const baseline = (await baselineFor(deps, { runId, input }, meta.datasetSha256))?.baseline;
    return baseline ? { k, meta, baseline } : undefined;
  }

  /** The plan's own pages (`0 … pages - 1`), read one after the other. */
  async function* planUnits(runId: string, pages: number): AsyncGenerator<WorkUnit> {
    for (let p = 0; p < pages; p++) yield* await deps.plans.readPage(runId, p);
  }

  // Reads the run's rows and plan once each: heartbeats show the worker is alive however long that takes.
  return heartbeating({
    /**
     * One round of sequential `--confirm K` (docs/reports.md, "Confirm before alarm"): compares the run's first
     * answers with the baseline, counts the confirming answers of the rounds before (pages `firstPage … page - 1`),
     * and, while the verdict still depends on regressed rows not asked again, stores page `page` with the next few of
     * them, K times each in fresh sessions. Returns that page, or nothing once the verdict is decided (or there was
     * nothing to confirm). Repeatable: a retry reads the same rows and writes the same page.
     */
    async planConfirmationRound({ runId, input, firstPage, page }: ConfirmRoundInput): Promise<ConfirmPlan | undefined> {
      const run = await confirming(runId, input);
      if (!run) return undefined;
      const { k, baseline } = run;
      const diff = new BaselineDiff(baseline);
      const tally = new ConfirmTally();
      for await (const row of deps.store.read(runId)) {
        if (row.confirm === undefined) diff.add(row);
        else tally.add(row);
      }
      const first = diff.without(null, new Set());
      if (!regressionFailsGate(first)) return undefined;
      // Asked: every row of the rounds' pages (earlier turns of a conversation included), answered or not.
      const asked = new Set<string>();
      for (let p = firstPage; p < page; p++) for (const unit of await deps.plans.readPage(runId, p)) for (const row of unit.rows) asked.add(baseIdOf(row));
      const step = nextConfirmStep({
        order: confirmOrder(runId, first.regressed),
        asked,
        notReproduced: tally.judge(first.regressed).notReproduced,
        fails: (noise) => regressionFailsGate(diff.without(null, noise)),
      });
      if (!step.rows) return undefined;
      const units: WorkUnit[] = [];
      for await (const unit of planUnits(runId, firstPage)) units.push(...confirmationUnits([unit], new Set(step.rows), k));
      if (units.length === 0) return undefined;
      await deps.plans.writeExtraPage(runId, page, units);
      return { page, rows: step.rows.length, questions: units.reduce((n, u) => n + u.rows.length, 0) };
    },
  });
}
