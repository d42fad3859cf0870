/**
 * The CLI's side of the results store. With the PostgreSQL store (`SITECHAT_STORE_URL`) the worker that finalizes a
 * run may be on another host, so its report files land there; the CLI renders them again from the store onto this
 * host, where the user asked for them (`--out`, or `<SITECHAT_RUNS_DIR>/<runId>/`).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBackfillOutput } from '../../render/backfillOutput';
import { loadBaselineFromStore, type BaselineInput } from '../../analysis/baseline';
import { ReportFile } from '../../store/files';
import { openStore, storeUrlFromEnv, type OpenedStore } from '../../store/open';
import { recordReportDir } from '../../render/reportDirs';
import { writeReports } from '../../render/writeReports';
import type { Logger } from '../logger';
import { runsDir } from '../commands/run/preflight';
import { UsageError } from '../usageError';

/** The store of this process's environment; a bad `SITECHAT_STORE_URL` is a `UsageError` that does not echo it. */
export function openCliStore(env: NodeJS.ProcessEnv = process.env): OpenedStore {
  try {
    return openStore(runsDir(env), storeUrlFromEnv(env));
  } catch (err) {
    if (err instanceof TypeError) throw new UsageError(err.message);
    throw err;
  }
}

/** Where a run's report files go on this host by default. */
export function localRunDir(dir: string, runId: string): string {
  return join(dir, encodeURIComponent(runId));
}

/** What to render a finished run into on this host. */
export interface LocalTargets {
  /** Report directory. */
  outDir: string;
  /** A backfill's answers file (`.csv` / `.jsonl`). */
  outFile?: string;
}

/**
 * Writes a finished run's five report files (and a backfill's answers file) from the store. Returns false, writing
 * nothing, while the run has no summary (still running, or it failed before its reports).
 */
export async function renderFromStore(opened: OpenedStore, runId: string, targets: LocalTargets, log: Logger): Promise<boolean> {
  const { store } = opened;
  const summary = await store.getSummary(runId);
  if (!summary) return false;
  // The regressed and fixed rows show the baseline's answers when the baseline run is in the same store.
  const baselineId = summary.baseline?.runId;
  const baseline: BaselineInput | undefined = baselineId && (await store.getMeta(baselineId)) ? await loadBaselineFromStore(store, baselineId) : undefined;
  const { paths } = await writeReports(store, runId, targets.outDir, { baseline });
  await recordReportDir(runsDir(), runId, targets.outDir);
  log.info(`reports from the results store (${opened.location}) written here: ${Object.values(paths).join(', ')}`);
  if (targets.outFile && summary.kind === 'backfill') {
    await writeBackfillOutput(targets.outFile, store.read(runId));
    log.info(`answers: ${targets.outFile}`);
  }
  return true;
}

/** Renders the reports of the given finished runs that have no report.html under `dir` yet; returns how many. */
export async function renderMissingReports(opened: OpenedStore, dir: string, runIds: readonly string[], log: Logger): Promise<number> {
  let rendered = 0;
  for (const runId of runIds) {
    const outDir = localRunDir(dir, runId);
    if (await stat(join(outDir, ReportFile.html)).then((s) => s.isFile(), () => false)) continue;
    if (await renderFromStore(opened, runId, { outDir }, { ...log, info: (line: string) => log.debug(line) })) rendered++;
  }
  return rendered;
}
