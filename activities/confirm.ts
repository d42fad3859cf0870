import { confirmationUnits } from '../src/datasets/confirm';
import type { WorkUnit } from '../src/datasets/types';
import { regressionFailsGate } from '../src/reports/gate';
import { summarize } from '../src/reports/summary';
import { baselineFor } from './baselineFor';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import type { ConfirmInput, ConfirmPlan } from './types';

export function confirmActivities(deps: ActivityDeps) {
  // Reads the run's rows and plan once each: heartbeats show the worker is alive however long that takes.
  return heartbeating({
    /**
     * `--confirm K`: compares the run's rows with its baseline as the gate will; when that comparison would fail the
     * gate, stores a page of the regressed rows' conversations, K times each in fresh sessions, after the plan's own
     * pages. Returns that page, or nothing when there is nothing to confirm. Repeatable: a retry writes the same page.
     */
    async planConfirmation({ runId, input, page }: ConfirmInput): Promise<ConfirmPlan | undefined> {
      const k = input.options.confirm ?? 0;
      if (k < 1 || input.kind !== 'evaluation') return undefined;
      const meta = await deps.store.getMeta(runId);
      if (!meta) return undefined;
      const baseline = (await baselineFor(deps, { runId, input }, meta.datasetSha256))?.baseline;
      if (!baseline) return undefined;
      const cmp = (await summarize(meta, deps.store.read(runId), baseline)).baseline;
      if (!cmp || !regressionFailsGate(cmp)) return undefined;
      const regressed = new Set(cmp.regressed);
      const units: WorkUnit[] = [];
      for (let p = 0; p < page; p++) units.push(...confirmationUnits(await deps.plans.readPage(runId, p), regressed, k));
      if (units.length === 0) return undefined;
      await deps.plans.writeExtraPage(runId, page, units);
      return { page, rows: regressed.size, questions: units.reduce((n, u) => n + u.rows.length, 0) };
    },
  });
}
