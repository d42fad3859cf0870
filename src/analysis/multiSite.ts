/**
 * The combined summary of a multi-site run: one line per site (rows, pass rate, errors, verdict, gate) and an overall
 * verdict that passes only when every site's gate passed. Each site keeps its own full reports; this only adds up.
 */
import type { MultiSiteSummary, SiteLine, SiteRunRef } from '../domain/multiSite';
import { digestOf, referenceReasons, type VariantComparison } from './matrixComparison';
import type { ResultsStore } from '../store/store';
import { CANCELLED_BEFORE_START, lineName, lineNoun, SiteVerdict, unjudgedSites } from '../domain/siteVerdict';
import { summarize } from './summary';
import { GateVerdict, type GateResult, type RowResult, type RunKind, type RunMeta, type RunSummary } from '../domain/results';

export { CANCELLED_BEFORE_START, lineName, lineNoun, overallLabel, SiteVerdict } from '../domain/siteVerdict';

function lineOf(ref: SiteRunRef, summary: RunSummary | undefined): SiteLine {
  const base = { siteId: ref.siteId, ...(ref.variant && { variant: ref.variant }), runId: ref.runId, workflowId: ref.workflowId };
  if (!summary) {
    return {
      ...base, rows: 0, passed: 0, failed: 0, uncertain: 0, answered: 0, error: 0, timedOut: 0, skipped: 0, missing: 0,
      passRate: null, errorRate: null, durationMs: null,
      verdict: ref.failure?.type === CANCELLED_BEFORE_START ? SiteVerdict.cancelled : SiteVerdict.runFailed,
      failure: ref.failure?.message ?? 'the run ended without a summary',
    };
  }
  if (ref.reportDir) Object.assign(base, { reportDir: ref.reportDir });
  const rows = summary.total + summary.missing;
  const verdict: SiteVerdict = ref.failure && !summary.cancelled
    ? SiteVerdict.runFailed
    : (summary.gate?.verdict ?? (summary.cancelled ? SiteVerdict.cancelled : SiteVerdict.noThreshold));
  return {
    ...base,
    rows, passed: summary.passed, failed: summary.failed, uncertain: summary.uncertain ?? 0, answered: summary.answered, error: summary.error,
    timedOut: summary.timedOut, skipped: summary.skipped, missing: summary.missing, passRate: summary.passRate,
    errorRate: rows === 0 ? null : (summary.error + summary.timedOut) / rows, durationMs: summary.durationMs, verdict,
    ...(summary.gate && { gate: summary.gate }),
    ...(ref.failure && { failure: ref.failure.message }),
    ...(summary.baseline && {
      baseline: { runId: summary.baseline.runId, delta: summary.baseline.delta, regressed: summary.baseline.regressed.length, fixed: summary.baseline.fixed.length },
    }),
  };
}

/**
 * The overall verdict: CANCELLED when any site was cancelled; FAILED when any site's gate failed or its run failed
 * (every site's reasons listed, prefixed with the site); PASSED only when every site passed a gate that judged it.
 * A site without a threshold (no `--fail-under`, and no baseline: e.g. `--baseline latest` on a site's first run) was
 * not judged, so it is never counted as passing: with any such site the overall verdict is "no quality threshold set"
 * (exit 0, as for a single run without one), and the warnings name the unjudged sites and those that passed.
 */
export function combineGates(lines: readonly SiteLine[], referenceFailures: readonly string[] = []): GateResult {
  const reasons: string[] = [];
  const warnings: string[] = [];
  for (const s of lines) {
    const who = `${lineNoun([s])} ${lineName(s)}`;
    if (s.verdict === SiteVerdict.runFailed) reasons.push(`${who}: the run failed: ${s.failure ?? 'unknown error'}`);
    else if (s.verdict === SiteVerdict.cancelled) reasons.push(`${who}: the run was cancelled`);
    for (const r of s.verdict === SiteVerdict.cancelled ? [] : (s.gate?.reasons ?? [])) reasons.push(`${who}: ${r}`);
    for (const w of s.gate?.warnings ?? []) if (!w.startsWith('no quality threshold set')) warnings.push(`${who}: ${w}`);
  }
  reasons.push(...referenceFailures);
  const verdicts = new Set(lines.map((s) => s.verdict));
  const { unjudged, passed } = unjudgedSites(lines);
  const verdict = verdicts.has(SiteVerdict.cancelled)
    ? GateVerdict.cancelled
    : reasons.length > 0
      ? GateVerdict.failed
      : unjudged.length === 0 && passed.length > 0 ? GateVerdict.passed : GateVerdict.noThreshold;
  if (verdict === GateVerdict.noThreshold && passed.length > 0) {
    warnings.unshift(`not judged: no quality threshold set on ${lineNoun(lines, unjudged.length)} ${unjudged.join(', ')} (no --fail-under, and no baseline ` +
      `to compare with: with --baseline latest, no earlier run of that ${lineNoun(lines)}), so the run is not called PASSED although ${passed.join(', ')} passed; ` +
      `give --fail-under to judge every ${lineNoun(lines)}`);
  } else if (verdict === GateVerdict.noThreshold) {
    warnings.push('no quality threshold set: give --fail-under or --baseline to judge the answers');
  }
  return { verdict, passed: verdict === GateVerdict.passed || verdict === GateVerdict.noThreshold, reasons, warnings };
}

/** Row ids listed in the combined `askedTwice`, as in a single run's summary. */
const ASKED_TWICE_LISTED = 50;

/** Every site's rows, one site after the other (each in dataset order). */
/**
 * Every site's (variant's) rows, their ids as `<site>:<row id>`: one dataset asks the same ids on every site, and the
 * combined figures that go by row (repeats' k of N, flaky rows) must not merge two sites' answers into one row.
 */
async function* allRows(store: ResultsStore, refs: readonly SiteRunRef[]): AsyncGenerator<RowResult> {
  for (const ref of refs) {
    const name = lineName(ref);
    for await (const row of store.read(ref.runId)) {
      yield { ...row, id: `${name}:${row.id}`, ...(row.baseId !== undefined && { baseId: `${name}:${row.baseId}` }) };
    }
  }
}

export interface MultiSiteSummaryInput {
  runId: string;
  workflowId: string;
  kind: RunKind;
  dataset: string;
  /** When the parent started (ISO); the sites' own starts come later. */
  startedAt: string;
  sites: SiteRunRef[];
  /** `--reference`: the run fails when another variant beats this one significantly. */
  reference?: string;
}

function distinct(values: readonly string[]): string {
  return [...new Set(values)].join(',');
}

function distinctModels(models: readonly (string | undefined)[]): string | undefined {
  const named = models.filter((m): m is string => m !== undefined);
  return named.length === 0 ? undefined : distinct(named);
}

/**
 * Reads every site's stored summary and rows and adds them up (one streamed pass over the rows). `compared` is the
 * comparison of the variants (`compareVariants`): its digest goes into the summary, and with `reference` into the gate.
 */
export async function summarizeMultiSite(store: ResultsStore, input: MultiSiteSummaryInput, compared?: VariantComparison): Promise<MultiSiteSummary> {
  const found = await Promise.all(input.sites.map(async (ref) => ({ ref, meta: await store.getMeta(ref.runId), summary: await store.getSummary(ref.runId) })));
  const lines = found.map(({ ref, summary }) => lineOf(ref, summary));
  const withRows = found.filter((f) => f.meta !== undefined);
  const first = withRows[0]?.meta;
  const meta: RunMeta = {
    runId: input.runId, workflowId: input.workflowId, kind: input.kind, dataset: first?.dataset ?? input.dataset,
    // A matrix run's sites and models, each once, comma-separated (as `--site a,b` and `--model a,b` name them).
    datasetSha256: first?.datasetSha256 ?? '', siteId: distinct(input.sites.map((s) => s.siteId)), model: distinctModels(withRows.map((f) => f.meta?.model)),
    startedAt: input.startedAt, rowCount: withRows.reduce((n, f) => n + (f.meta?.rowCount ?? 0), 0) || undefined, options: {},
    // Every site's run was prepared by a worker of the same cluster: the first one's says where all answers came from.
    ...(first?.provenance && { provenance: first.provenance }),
  };
  const summaries = found.map((f) => f.summary).filter((s): s is RunSummary => s !== undefined);
  const closed = summaries.reduce((n, s) => n + (s.sessions.closed ?? 0), 0);
  const closeFailed = summaries.reduce((n, s) => n + (s.sessions.closeFailed ?? 0), 0);
  const finishedAt = summaries.map((s) => s.finishedAt).filter((t): t is string => t !== null).sort().at(-1) ?? new Date().toISOString();
  const combined = await summarize(meta, allRows(store, withRows.map((f) => f.ref)), undefined, {
    sessionsClosed: closed, sessionsCloseFailed: closeFailed, cancelled: summaries.some((s) => s.cancelled), finishedAt,
  });
  const askedTwice = summaries.reduce((n, s) => n + (s.askedTwice?.count ?? 0), 0);
  const extraSends = summaries.reduce((n, s) => n + (s.askedTwice?.extraSends ?? 0), 0);
  // Row ids repeat across sites (one dataset): each is listed as `<site>:<row id>` (`<variant>:<row id>` in a matrix run).
  const askedTwiceIds = found.flatMap((f) => (f.summary?.askedTwice?.rowIds ?? []).map((id) => `${lineName(f.ref)}:${id}`));
  const digest = compared?.comparison ? digestOf(compared.comparison, compared.leftOut) : undefined;
  const referenceFailures = digest && input.reference !== undefined ? referenceReasons(digest, input.reference) : [];
  return {
    ...combined,
    askedTwice: { count: askedTwice, rowIds: askedTwiceIds.slice(0, ASKED_TWICE_LISTED), extraSends },
    ...(summaries[0]?.gateSettings && { gateSettings: summaries[0].gateSettings }),
    ...(input.kind === 'evaluation' && { gate: combineGates(lines, referenceFailures) }),
    sites: lines,
    ...(digest && { comparison: digest }),
    ...(compared?.unavailable && { comparisonUnavailable: compared.unavailable }),
    ...(input.reference !== undefined && { reference: input.reference }),
  };
}
