import { join } from 'node:path';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import { finalizeRun } from '../../src/render/writeReports';
import { recordReportDir } from '../../src/render/reportDirs';
import type { Provenance } from '../../src/domain/provenance';
import type { Outcome, RowResult, RunKind } from '../../src/domain/results';

/** A finished run to write into a runs directory: its outcomes decide pass rate and errors. */
export interface SeededRun {
  runId: string;
  startedAt: string;
  dataset?: string;
  siteId?: string;
  kind?: RunKind;
  model?: string;
  outcomes: Outcome[];
  failUnder?: number;
  maxErrorRate?: number;
  /** A re-grade, as `sitechat grade` records one (its `grade` option and workflow id). */
  regrade?: boolean;
  /** Reports written here instead of the run's directory (`--out`), and noted as `recordReportDir` does. */
  outDir?: string;
  /** Where the answers came from, as a worker records it. @default none (a run recorded before provenance) */
  provenance?: Provenance;
  /** The first this-many rows' feedback was not recorded (the API refused it). @default 0 */
  lostFeedback?: number;
}

/**
 * Writes finished runs into `runsDir` the way a worker does: meta, rows, then finalizeRun (summary, gate, and
 * the five report files in the run's directory).
 */
export async function seedRuns(runsDir: string, runs: readonly SeededRun[]): Promise<FileResultsStore> {
  const store = new FileResultsStore(runsDir);
  for (const run of runs) {
    const dataset = run.dataset ?? '/data/questions.csv';
    await store.init(run.runId, {
      runId: run.runId, workflowId: `sitechat-${run.regrade ? 'grade' : (run.kind ?? 'evaluation')}-${run.runId}`, kind: run.kind ?? 'evaluation', dataset,
      datasetSha256: `${dataset.length.toString(16).padStart(8, '0')}${'ab'.repeat(28)}`, siteId: run.siteId ?? 'site-a', model: run.model,
      startedAt: run.startedAt, rowCount: run.outcomes.length, options: run.regrade ? { grade: { input: '/x' } } : {},
      ...(run.provenance && { provenance: run.provenance }),
    });
    const rows: RowResult[] = run.outcomes.map((outcome, index) => ({
      id: `q${index}`, index, line: index + 2, question: `Question ${index}?`, outcome, latencyMs: 1000 + index,
      ...(outcome === 'error' ? { error: 'HTTP 500: failed to call rag service', errorType: 'InternalServerError' } : { answer: `Answer ${index}` }),
      ...(index < (run.lostFeedback ?? 0) && { feedback: 'failed' as const, feedbackError: '500 failed to record feedback' }),
    }));
    await store.append(run.runId, rows);
    const finishedAt = new Date(Date.parse(run.startedAt) + 60_000).toISOString();
    const outDir = run.outDir ?? join(runsDir, run.runId);
    await finalizeRun(store, run.runId, { outDir, finishedAt, gate: { failUnder: run.failUnder, maxErrorRate: run.maxErrorRate } });
    await recordReportDir(runsDir, run.runId, outDir);
  }
  return store;
}
