import type { GateResult, RunSummary } from './types';

export interface GateOptions {
  /** Minimum pass rate as a fraction in [0, 1] (0.9 = 90%). @default undefined (no minimum) */
  failUnder?: number;
  /** A baseline was requested (`--baseline`); its comparison must then be present in the summary. */
  baselineGiven: boolean;
  /** Maximum share of all rows ending in `error` or `timed_out`, in [0, 1]. @default undefined (not checked) */
  maxErrorRate?: number;
}

/** Regressed ids quoted in one reason or warning before "… N more". */
const MAX_IDS = 20;

/**
 * The CI verdict of a run. It fails when:
 * - dataset rows have no result (`summary.missing > 0`): an incomplete run never passes;
 * - `failUnder` is set and the pass rate is below it, or no row was graded at all;
 * - a baseline was given and the run regressed *significantly*: exact McNemar p < α (0.05) with
 *   more regressed than fixed rows. Regressions within noise (too few discordant pairs, or as many
 *   fixed as regressed) do not fail the gate: a nightly run would otherwise flap on every flaky
 *   row. They are always listed, in `warnings` then;
 * - a baseline was given but the summary holds no comparison (it could not be loaded);
 * - `maxErrorRate` is set and more rows than that errored or timed out.
 */
export function evaluateGate(summary: RunSummary, options: GateOptions): GateResult {
  const reasons: string[] = [];
  const warnings: string[] = [];
  if (summary.missing > 0) reasons.push(`${summary.missing} dataset rows have no result`);

  if (options.failUnder !== undefined) {
    assertFraction('failUnder', options.failUnder);
    if (summary.passRate === null) reasons.push(`no row was graded, so the pass rate cannot reach ${pct(options.failUnder)}`);
    else if (summary.passRate < options.failUnder) {
      reasons.push(`pass rate ${pct(summary.passRate)} is below ${pct(options.failUnder)}`);
    }
  }

  const cmp = summary.baseline;
  if (options.baselineGiven && !cmp) reasons.push('a baseline was requested but no comparison was made');
  if (cmp && cmp.regressed.length > 0) {
    const { b, c, pValue, significant } = cmp.mcnemar;
    const ids = listIds(cmp.regressed);
    if (significant && b > c) {
      reasons.push(`significant regression against ${cmp.runId} (McNemar p = ${pValue.toPrecision(3)}): ${b} rows regressed, ${c} fixed: ${ids}`);
    } else {
      warnings.push(`${b} rows regressed against ${cmp.runId}, within noise (McNemar p = ${pValue.toPrecision(3)}, ${c} fixed): ${ids}`);
    }
  }

  if (options.maxErrorRate !== undefined) {
    assertFraction('maxErrorRate', options.maxErrorRate);
    const errored = summary.error + summary.timedOut;
    const rate = summary.total === 0 ? 0 : errored / summary.total;
    if (rate > options.maxErrorRate) {
      reasons.push(`${errored} rows errored or timed out (${pct(rate)}), above ${pct(options.maxErrorRate)}`);
    }
  }
  return { passed: reasons.length === 0, reasons, warnings };
}

function assertFraction(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`quality gate: \`${name}\` must be a fraction between 0 and 1, got ${value}`);
}

/** A rate as a percentage with one decimal. */
export function pct(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_IDS).join(', ');
  return ids.length > MAX_IDS ? `${shown} … ${ids.length - MAX_IDS} more` : shown;
}
