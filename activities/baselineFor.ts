import { loadExplicitBaseline, selectLatestBaseline, type BaselineChoice } from '../src/analysis/baselineSelect';
import type { RunInput } from '../src/domain/run';
import type { ActivityDeps } from './deps';

/**
 * `--baseline latest` is resolved when the run ends (and when `--confirm` looks for regressions just before), so a
 * scheduled run compares with the newest compatible run (same dataset sha256, site and model, finished, not
 * cancelled, error rate within the gate's).
 */
export async function baselineFor(deps: ActivityDeps, { runId, input }: { runId: string; input: RunInput }, datasetSha256: string): Promise<BaselineChoice | undefined> {
  const ref = input.options.baseline;
  if (!ref || input.kind !== 'evaluation') return undefined;
  const target = {
    runId,
    dataset: input.dataset.path,
    datasetSha256,
    siteId: input.options.siteId,
    model: input.options.model ?? null,
    variant: input.options.variant?.name,
    maxErrorRate: input.options.maxErrorRate ?? 0,
  };
  return ref === 'latest' ? selectLatestBaseline(deps.store, target) : loadExplicitBaseline(ref, target);
}
