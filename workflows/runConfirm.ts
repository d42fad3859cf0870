import { localWork } from './activityProxies';
import { startChunk } from './runPages';
import type { RunState } from './runState';

/**
 * `--confirm K` (docs/reports.md, "Confirm before alarm"): when the comparison with the baseline would fail the gate,
 * the regressed rows are asked K more times, a round (a chunk of its own, after the plan's pages) at a time, until
 * the rows not asked could no longer change the verdict. Only an evaluation with a baseline that asked every row
 * confirms; any other run issues no command here.
 */
export async function confirmRegressions(state: RunState): Promise<void> {
  const { input, plan, progress } = state;
  if (input.kind !== 'evaluation' || (input.options.confirm ?? 0) <= 0 || !input.options.baseline || state.nextPage < plan.pages || state.stopping()) return;
  const confirmInput = { runId: input.runId, input: { ...input, carry: undefined } };
  for (let page = plan.pages; !state.stopping(); page++) {
    const round = await localWork.planConfirmationRound({ ...confirmInput, firstPage: plan.pages, page });
    if (!round) break;
    progress.phase = 'running';
    progress.total += round.questions;
    progress.chunks += 1;
    const { done } = await startChunk(state, round.page);
    await done;
    progress.phase = 'finishing';
  }
}
