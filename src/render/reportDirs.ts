/**
 * Where this host wrote a run's reports when not into the run's own directory (`--out`), so the history page on this
 * host can link them. Kept per host, in the runs directory: a path means something only on the host that wrote it,
 * and a shared results store (PostgreSQL) is read from several hosts.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Append-only: one `{ runId, dir }` per line, the last line of a run wins. */
export const REPORT_DIRS_FILE = '.report-dirs.jsonl';

/** Notes that `runId`'s reports were written into `dir`; nothing when that is the run's own directory under `runsDir`. */
export async function recordReportDir(runsDir: string, runId: string, dir: string): Promise<void> {
  const absolute = resolve(dir);
  if (absolute === resolve(runsDir, encodeURIComponent(runId))) return;
  await mkdir(runsDir, { recursive: true });
  await appendFile(join(runsDir, REPORT_DIRS_FILE), `${JSON.stringify({ runId, dir: absolute })}\n`, 'utf8');
}

/** Run id → the last directory recorded for it. A line that cannot be read is passed over (a crash mid-append). */
export async function readReportDirs(runsDir: string): Promise<Map<string, string>> {
  const text = await readFile(join(runsDir, REPORT_DIRS_FILE), 'utf8').catch(() => '');
  const dirs = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const { runId, dir } = JSON.parse(line) as { runId?: unknown; dir?: unknown };
      if (typeof runId === 'string' && typeof dir === 'string') dirs.set(runId, dir);
    } catch {
      // A torn last line: the others still count.
    }
  }
  return dirs;
}
