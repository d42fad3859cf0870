import { plural } from '../shared/plural';
import { GateVerdict, type BaselineComparison, type GateResult, type GateSettings, type RunSummary } from '../domain/results';

export interface GateOptions {
  /** Minimum pass rate as a fraction in [0, 1] (0.9 = 90%). @default undefined (no minimum) */
  failUnder?: number;
  /** A baseline was requested (`--baseline`). */
  baselineGiven: boolean;
  /**
   * The requested baseline could not be used for a reason that is not the run's fault (`latest` found no
   * compatible run): reported, but the gate does not fail for it. @default false
   */
  baselineUnavailable?: boolean;
  /** Maximum share of rows ending in `error` or `timed_out`, in [0, 1]. @default 0 */
  maxErrorRate?: number;
  /**
   * Maximum share of the graded rows (passed + failed + uncertain) left `uncertain`, in [0, 1].
   * @default {@link DEFAULT_MAX_UNCERTAIN_RATE}
   */
  maxUncertainRate?: number;
  /** Lost feedback and sessions left open warn instead of failing the gate. @default false */
  allowSideEffectFailures?: boolean;
}

/**
 * Uncertain rows are not in the pass rate, so the pass rate of a run with many of them speaks for few rows: with
 * a share `u` uncertain, the pass rate of all graded rows could lie anywhere within `u` of the one reported.
 * 10 % keeps that within 10 points by default, and is about twice the share of uncertain answers of the
 * development set (docs/reports.md): a run above it has references that do not fit its answers, or wants a judge.
 */
export const DEFAULT_MAX_UNCERTAIN_RATE = 0.1;

/** Regressed ids quoted in one reason or warning before "… N more". */
const MAX_IDS = 20;

/** The settings as applied (defaults filled in), for `summary.gateSettings`. */
export function gateSettingsOf(options: GateOptions & { baseline?: string }): GateSettings {
  return {
    ...(options.failUnder !== undefined && { failUnder: options.failUnder }),
    maxErrorRate: options.maxErrorRate ?? 0,
    maxUncertainRate: options.maxUncertainRate ?? DEFAULT_MAX_UNCERTAIN_RATE,
    allowSideEffectFailures: options.allowSideEffectFailures ?? false,
    ...(options.baseline !== undefined && { baseline: options.baseline }),
  };
}

/**
 * The CI verdict of a run (README, "Quality gate"). A run passes only when
 * - it was not cancelled (a cancelled run is `cancelled`, never `passed`);
 * - every dataset row has a result, and none was skipped;
 * - rows ending in `error`/`timed_out` are within `maxErrorRate` (default 0). They never count towards the pass
 *   rate, so a run whose questions could not be asked cannot pass on the few that were;
 * - rows left `uncertain` (needs review) are within `maxUncertainRate` of the graded rows (default 10 %); they are not
 *   in the pass rate either, and below the limit they only warn;
 * - every feedback and every session close succeeded (or `allowSideEffectFailures`);
 * - the pass rate meets `failUnder`, when set;
 * - there is no significant regression against the baseline, when one was given: exact McNemar p < α with more
 *   regressed than fixed rows. Regressions within noise only warn: a nightly run would otherwise flap. With repeats
 *   on either side, rows are compared by pass rate (CMH p < α and a mean drop of at least `MIN_REPEATED_DROP`).
 * Without `failUnder` and without a baseline comparison the verdict is `no_threshold` (it does not fail).
 * Every reason is listed.
 */
export function evaluateGate(summary: RunSummary, options: GateOptions): GateResult {
  const reasons: string[] = [];
  const warnings: string[] = [];
  const maxErrorRate = options.maxErrorRate ?? 0;
  assertFraction('maxErrorRate', maxErrorRate);
  if (options.failUnder !== undefined) assertFraction('failUnder', options.failUnder);
  const maxUncertainRate = options.maxUncertainRate ?? DEFAULT_MAX_UNCERTAIN_RATE;
  assertFraction('maxUncertainRate', maxUncertainRate);

  if (summary.stopped !== undefined) reasons.push(`the run stopped before asking every question: ${summary.stopped}`);
  const skipped = `${plural(summary.skipped, 'row')} ${summary.skipped === 1 ? 'was' : 'were'} skipped (no answer: not sent, or abandoned by a cancel)`;
  if (summary.cancelled) reasons.push(`the run was cancelled: ${skipped}`);
  if (summary.missing > 0) reasons.push(`${plural(summary.missing, 'dataset row')} ${summary.missing === 1 ? 'has' : 'have'} no result`);
  if (!summary.cancelled && summary.skipped > 0) reasons.push(skipped);

  const errored = summary.error + summary.timedOut;
  const rows = summary.total + summary.missing;
  const errorRate = rows === 0 ? 0 : errored / rows;
  if (errorRate > maxErrorRate) {
    const types = Object.entries(summary.errorsByType).sort((x, y) => y[1] - x[1]).map(([t, n]) => `${t} ${n}`).join(', ');
    reasons.push(
      `${errored} of ${plural(rows, 'row')} errored or timed out (${pct(errorRate)}${types ? `: ${types}` : ''}), above the allowed ${pct(maxErrorRate)} (--max-error-rate); they are not in the pass rate`,
    );
  }

  // Summaries written before the outcome existed have no `uncertain`.
  const uncertain = summary.uncertain ?? 0;
  if (uncertain > 0) {
    const uncertainRate = uncertain / (summary.graded + uncertain);
    const text = `${uncertain} of ${plural(summary.graded + uncertain, 'graded row')} ${uncertain === 1 ? 'is' : 'are'} uncertain (${pct(uncertainRate)}): the graders could not decide and nothing settled them; they need review and are not in the pass rate`;
    if (uncertainRate > maxUncertainRate) reasons.push(`${text}; above the allowed ${pct(maxUncertainRate)} (--max-uncertain-rate)`);
    else warnings.push(`${text} (within ${pct(maxUncertainRate)}, --max-uncertain-rate)`);
  }

  const sideEffects: string[] = [];
  if (summary.feedback.failed > 0) sideEffects.push(`feedback was not recorded for ${plural(summary.feedback.failed, 'row')}`);
  const closeFailed = summary.sessions.closeFailed ?? 0;
  if (closeFailed > 0) sideEffects.push(`${plural(closeFailed, 'session')} could not be closed`);
  for (const text of sideEffects) {
    if (options.allowSideEffectFailures) warnings.push(`${text} (allowed by --allow-side-effect-failures)`);
    else reasons.push(`${text} (see the report; --allow-side-effect-failures accepts this)`);
  }

  if (options.failUnder !== undefined) {
    if (summary.passRate === null) reasons.push(`no row was graded, so the pass rate cannot reach ${pct(options.failUnder)}`);
    else if (summary.passRate < options.failUnder) {
      reasons.push(`pass rate ${pct(summary.passRate)} (${summary.passed} / ${summary.graded} graded) is below ${pct(options.failUnder)} (--fail-under)`);
    }
  }

  const cmp = summary.baseline;
  if (options.baselineGiven && !cmp && !options.baselineUnavailable) {
    reasons.push(`a baseline was requested but no comparison was made${summary.baselineSelection?.message ? `: ${summary.baselineSelection.message}` : ''}`);
  }
  if (cmp?.repeated && cmp.regressed.length > 0) {
    const r = cmp.repeated;
    const figures = `CMH p = ${r.pValue.toPrecision(3)}, mean per-row pass rate down ${points(r.drop)} points; ${r.baselineRepeat} vs ${r.runRepeat} answers per row`;
    const ids = listIds(cmp.regressed);
    if (r.significant) {
      reasons.push(`significant regression against ${cmp.runId} (${figures}): ${plural(cmp.regressed.length, 'row')} fell, ${cmp.fixed.length} rose: ${ids}`);
    } else {
      const why = r.pValue < r.alpha && r.drop > 0 ? `below the ${points(r.minDrop)}-point minimum drop` : 'within noise';
      warnings.push(`${plural(cmp.regressed.length, 'row')} fell against ${cmp.runId}, ${why} (${figures}, ${cmp.fixed.length} rose): ${ids}`);
    }
  } else if (cmp && cmp.regressed.length > 0) {
    const { b, c, pValue, significant } = cmp.mcnemar;
    const ids = listIds(cmp.regressed);
    if (significant && b > c) {
      reasons.push(`significant regression against ${cmp.runId} (McNemar p = ${pValue.toPrecision(3)}): ${plural(b, 'row')} regressed, ${c} fixed: ${ids}`);
    } else {
      warnings.push(`${plural(b, 'row')} regressed against ${cmp.runId}, within noise (McNemar p = ${pValue.toPrecision(3)}, ${c} fixed): ${ids}`);
    }
  }
  const confirmation = cmp?.confirmation;
  if (confirmation && confirmation.notReproduced.length > 0) {
    warnings.push(`${plural(confirmation.notReproduced.length, 'regressed row')} did not reproduce in ${plural(confirmation.k, 'confirming answer')} each (--confirm) and ${confirmation.notReproduced.length === 1 ? 'is' : 'are'} taken as noise: ${listIds(confirmation.notReproduced)}`);
  }
  const unconfirmed = confirmation?.unconfirmed ?? [];
  if (confirmation && unconfirmed.length > 0) {
    const one = unconfirmed.length === 1;
    const why = confirmation.undecided
      ? `${one ? 'it' : 'they'} could still change the verdict (confirmation was cut short, or ${one ? 'it' : 'they'} regressed after it, e.g. by a review label)`
      : `the verdict was decided without ${one ? 'it' : 'them'}: it is the same whichever way ${one ? 'it' : 'they'} would go`;
    const counted = one ? 'was not asked again (--confirm) and counts as its first answer says' : 'were not asked again (--confirm) and count as their first answers say';
    warnings.push(`${plural(unconfirmed.length, 'regressed row')} ${counted}; ${why}: ${listIds(unconfirmed)}`);
  }
  for (const warning of summary.baselineSelection?.warnings ?? []) warnings.push(warning);

  const verdict = summary.cancelled
    ? GateVerdict.cancelled
    : reasons.length > 0
      ? GateVerdict.failed
      : options.failUnder === undefined && !cmp
        ? GateVerdict.noThreshold
        : GateVerdict.passed;
  if (verdict === GateVerdict.noThreshold) warnings.push('no quality threshold set: give --fail-under or --baseline to judge the answers');
  return { verdict, passed: verdict === GateVerdict.passed || verdict === GateVerdict.noThreshold, reasons, warnings };
}

/** The baseline comparison alone fails the gate: a significant regression (with repeats: and the minimum drop). */
export function regressionFailsGate(cmp: BaselineComparison): boolean {
  if (cmp.repeated) return cmp.repeated.significant && cmp.regressed.length > 0;
  return cmp.mcnemar.significant && cmp.mcnemar.b > cmp.mcnemar.c;
}

/** The verdict as people read it. */
export function verdictLabel(verdict: GateVerdict): string {
  switch (verdict) {
    case GateVerdict.passed: return 'PASSED';
    case GateVerdict.failed: return 'FAILED';
    case GateVerdict.cancelled: return 'CANCELLED';
    case GateVerdict.noThreshold: return 'no quality threshold set';
  }
}

/** One line per gate setting, for reports. */
export function describeGateSettings(s: GateSettings): string[] {
  return [
    `pass rate: ${s.failUnder === undefined ? 'no minimum (--fail-under not set)' : `at least ${pct(s.failUnder)} of graded rows`}`,
    `errors and time-outs: at most ${pct(s.maxErrorRate)} of rows (--max-error-rate)`,
    ...(s.maxUncertainRate === undefined ? [] : [`uncertain (needs review): at most ${pct(s.maxUncertainRate)} of graded rows (--max-uncertain-rate)`]),
    `lost feedback / unclosed sessions: ${s.allowSideEffectFailures ? 'allowed (--allow-side-effect-failures)' : 'fail the gate'}`,
    `baseline: ${s.baseline === undefined ? 'none' : `${s.baseline} (fails on a significant regression, McNemar p < 0.05)`}`,
    'every dataset row must have a result; a cancelled run is never a pass',
  ];
}

function assertFraction(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`quality gate: \`${name}\` must be a fraction between 0 and 1, got ${value}`);
}

/** A difference of rates in percentage points, one decimal. */
function points(rate: number): string {
  return (rate * 100).toFixed(1);
}

/** A rate as a percentage with one decimal. */
export function pct(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_IDS).join(', ');
  return ids.length > MAX_IDS ? `${shown} … ${ids.length - MAX_IDS} more` : shown;
}
