import { errorTypeOf } from '../../analysis/cause';
import type { MultiSiteSummary } from '../../domain/multiSite';
import type { ResultsStore } from '../../store/store';
import type { RunSummary } from '../../domain/results';
import { openCliStore } from '../store/storeReports';
/** The first row's message (and id) of each error type, reading the runs' rows until every type has one. */
export async function firstErrors(store: ResultsStore, runIds: readonly string[], types: readonly string[]): Promise<Record<string, string>> {
  const wanted = new Set(types);
  const found: Record<string, string> = {};
  for (const runId of runIds) {
    for await (const row of store.read(runId)) {
      const type = errorTypeOf(row);
      if (type === undefined || !wanted.has(type) || found[type] !== undefined) continue;
      found[type] = `${row.error ?? 'no message'} (row ${row.id})`;
      if (Object.keys(found).length === wanted.size) return found;
    }
  }
  return found;
}

/**
 * The first message of each error type of a finished run, from this host's results store (a multi-site run's from
 * its sites' runs); empty when the store cannot be read: the summary then shows the types alone.
 */
export async function errorSamplesFor(summary: RunSummary): Promise<Record<string, string>> {
  const types = Object.keys(summary.errorsByType);
  if (types.length === 0) return {};
  const sites = (summary as Partial<MultiSiteSummary>).sites;
  const runIds = Array.isArray(sites) ? sites.map((s) => s.runId) : [summary.runId];
  let opened;
  try {
    opened = openCliStore();
    return await firstErrors(opened.store, runIds, types);
  } catch {
    return {};
  } finally {
    await opened?.close().catch(() => undefined);
  }
}
