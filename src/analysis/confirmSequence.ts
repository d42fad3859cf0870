/**
 * Sequential confirmation (`--confirm K`): the regressed rows are asked again a few at a time, and after each round the
 * gate is computed again at both extremes of what the rows not yet asked could show. Once both extremes give the same
 * verdict, those rows cannot change it and nothing more is asked: a real regression costs the few reproductions the
 * test needs to stay significant, not K × every regressed row.
 */
import { createHash } from 'node:crypto';

/** Regressed rows asked again per round: small, so a decided verdict stops the asking soon. */
export const CONFIRM_ROUND_ROWS = 5;

export type ConfirmStep =
  /** The verdict no longer depends on the rows not asked: `alarm` fails the gate, `quiet` does not. */
  | { decided: 'alarm' | 'quiet'; rows?: undefined }
  /** Ask these rows again next (at most {@link CONFIRM_ROUND_ROWS}). */
  | { decided?: undefined; rows: string[] };

export interface ConfirmState {
  /** The rows that regressed on their first answers, in the order they are to be asked (see {@link confirmOrder}). */
  order: readonly string[];
  /** Rows already asked again (their confirming answers are in, or were asked for). */
  asked: ReadonlySet<string>;
  /** Rows asked again whose regression did not reproduce (taken as noise). */
  notReproduced: readonly string[];
  /** Whether the gate fails on the comparison that leaves the `noise` rows' regressions out. */
  fails: (noise: ReadonlySet<string>) => boolean;
  /** @default {@link CONFIRM_ROUND_ROWS} */
  roundRows?: number;
}

/**
 * What to do next. The gate is monotone in the regressions it counts (fewer regressed rows never make it fail
 * where more did not: exactly so for McNemar; with repeats, the CMH test and the mean drop nearly always, not
 * provably), so
 * - if it passes with every row not yet asked counted as regressed, it passes whatever they show → `quiet`;
 * - if it fails with every row not yet asked taken as noise, it fails whatever they show → `alarm`;
 * - otherwise the next few rows are asked.
 */
export function nextConfirmStep(state: ConfirmState): ConfirmStep {
  const unconfirmed = state.order.filter((id) => !state.asked.has(id));
  const noise = new Set(state.notReproduced);
  if (!state.fails(noise)) return { decided: 'quiet' };
  if (state.fails(new Set([...noise, ...unconfirmed]))) return { decided: 'alarm' };
  return { rows: unconfirmed.slice(0, Math.max(1, state.roundRows ?? CONFIRM_ROUND_ROWS)) };
}

/**
 * The order the regressed rows are asked in: shuffled by a hash of the run id and the row id, so a round is a fair
 * sample of the regressed rows (not the dataset's first topic) and a retried activity picks the same rows.
 */
export function confirmOrder(runId: string, regressed: readonly string[]): string[] {
  const key = (id: string): string => createHash('sha256').update(`${runId}\n${id}`).digest('hex');
  return regressed.map((id) => ({ id, k: key(id) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0)).map((x) => x.id);
}
