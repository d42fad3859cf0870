import type { AnswerRecord } from '../src/domain/rowResult';
import type { ResultsStore } from '../src/store/store';
import type { RowResult } from '../src/domain/results';
import { metrics, metricsEnabled } from '../src/observability/metrics/registry';

/**
 * The ask activity, counted: in flight while it runs (sending, or waiting for the answer), and the latency it
 * recorded for the row once it returns (by how it ended: completed, failed, timed_out). A thrown attempt (retried by
 * Temporal) has no latency to record.
 */
export function measuredAsk<I extends { siteId: string }, R extends AnswerRecord>(inner: (input: I) => Promise<R>): (input: I) => Promise<R> {
  // Named as the activity it wraps: the name shows in stack traces.
  return async function ask(input: I): Promise<R> {
    const m = metrics();
    m.asksInFlight.inc({ site: input.siteId });
    try {
      const result = await inner(input);
      m.answerLatency.observe({ site: input.siteId, result: result.status }, result.latencyMs / 1000);
      return result;
    } finally {
      m.asksInFlight.dec({ site: input.siteId });
    }
  };
}

/** Run id → site, from the run's meta in the store: rows carry no site, and a worker works on few runs at a time. */
const sites = new Map<string, Promise<string>>();
const SITES_KEPT = 256;

function siteOfRun(store: ResultsStore, runId: string): Promise<string> {
  let site = sites.get(runId);
  if (site === undefined) {
    site = store.getMeta(runId).then((meta) => meta?.siteId ?? '', () => '');
    sites.set(runId, site);
    if (sites.size > SITES_KEPT) sites.delete(sites.keys().next().value as string);
  }
  return site;
}

/** Rows just recorded, by site and outcome. Reads the run's site from the store only when metrics are on. */
export async function countRows(store: ResultsStore, runId: string, rows: readonly Pick<RowResult, 'outcome'>[]): Promise<void> {
  if (!metricsEnabled() || rows.length === 0) return;
  const site = await siteOfRun(store, runId);
  const byOutcome = new Map<string, number>();
  for (const row of rows) byOutcome.set(row.outcome, (byOutcome.get(row.outcome) ?? 0) + 1);
  for (const [outcome, n] of byOutcome) metrics().rows.inc({ site, outcome }, n);
}
