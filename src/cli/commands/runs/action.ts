import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenedStore } from '../../../store/open';
import { plural } from '../../../shared/plural';
import { collectHistory, HISTORY_FILE, parentGroups, verdictWords, type HistoryEntry, type HistoryOptions } from '../../../render/history';
import { writeHistory } from '../../../render/historyPage';
import { createLogger, type Logger } from '../../logger';
import { runsDir } from '../run/preflight';
import { parsePositiveInt } from '../run/runOptions';
import { UsageError } from '../../usageError';
import { openCliStore, renderMissingReports } from '../../store/storeReports';
import { isStoreConnectFailure, storeFailureMessage } from '../../store/storeFailure';

export interface RunsFlags {
  dataset?: string;
  site?: string;
  limit?: string;
  json?: boolean;
  /** true for the default file, or the file to write. */
  html?: string | boolean;
}

/** ExitCode.ok / usage (./follow loads the Temporal client, which this command never needs). */
const EXIT_OK = 0;
const EXIT_USAGE = 2;
const EXIT_FAILED = 3;

/** Rows listed when `--limit` is not given. */
export const DEFAULT_LIMIT = 20;

function pct(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

/**
 * A fixed-width table, one run a line, newest first. The variants of a matrix or multi-site run sit together under a
 * line naming their parent (at the place of its newest variant), their run ids indented.
 */
export function formatRuns(entries: readonly HistoryEntry[]): string[] {
  const header = ['run', 'started (UTC)', 'dataset', 'site', 'model', 'rows', 'pass rate', 'uncertain', 'errors', 'verdict'];
  const line = (e: HistoryEntry, indent: string): string[] => [
    `${indent}${e.runId}`, e.startedAt.slice(0, 16).replace('T', ' '), e.dataset.split(/[\\/]/u).pop() ?? e.dataset, e.siteId, e.model ?? '-',
    String(e.rows), e.kind === 'backfill' ? '-' : pct(e.passRate), e.kind === 'backfill' ? '-' : String(e.uncertain), String(e.errors), verdictWords(e),
  ];
  const groups = new Map(parentGroups(entries).map((g) => [g.runId, g]));
  const rows: string[][] = [];
  const shown = new Set<string>();
  for (const e of entries) {
    const group = e.parent ? groups.get(e.parent.runId) : undefined;
    if (!group) {
      rows.push(line(e, ''));
      continue;
    }
    if (shown.has(group.runId)) continue;
    shown.add(group.runId);
    const names = [...group.variants].reverse().map((v) => v.parent?.variant ?? v.runId);
    rows.push([group.runId, '', `${plural(group.variants.length, 'variant')}: ${names.join(', ')}`]);
    for (const v of [...group.variants].reverse()) rows.push(line(v, '  '));
  }
  // A parent's line spans the columns after its run id: it is not counted in their widths.
  const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => r.length === header.length).map((r) => (r[i] ?? '').length)));
  return [header, ...rows].map((r) => (r.length === header.length
    ? r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
    : `${(r[0] ?? '').padEnd(widths[0] ?? 0)}  ${r[2] ?? ''}`));
}

/** `sitechat runs`: list finished runs; `--html` writes history.html. Exit 0 (a run with a corrupt file left out, with a warning), 2 for bad flags. */
export async function runsAction(flags: RunsFlags, io: { log?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  let limit = DEFAULT_LIMIT;
  try {
    if (flags.limit !== undefined) limit = parsePositiveInt(flags.limit, '--limit');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    log.error(err.message);
    return EXIT_USAGE;
  }
  // A shorter prefix would match too many datasets by chance, so history.ts ignores it; say so instead of listing nothing.
  if (flags.dataset !== undefined && /^[0-9a-f]{1,7}$/iu.test(flags.dataset) && !existsSync(flags.dataset)) {
    log.error(`--dataset: a sha256 prefix needs at least 8 hex digits, got ${flags.dataset.length} (${JSON.stringify(flags.dataset)}); or give the dataset's path or file name`);
    return EXIT_USAGE;
  }
  const dir = runsDir(io.env);
  let opened;
  try {
    opened = openCliStore(io.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    log.error(err.message);
    return EXIT_USAGE;
  }
  try {
    return await listRuns(opened, dir, flags, limit, log);
  } catch (err) {
    if (!isStoreConnectFailure(err)) throw err;
    log.error(storeFailureMessage(err));
    return EXIT_FAILED;
  } finally {
    await opened.close();
  }
}

async function listRuns(opened: OpenedStore, dir: string, flags: RunsFlags, limit: number, log: Logger): Promise<number> {
  const { store } = opened;
  // A corrupt run file is named once (the runs are read up to three times) and its run left out: exit 0 all the same.
  const warned = new Set<string>();
  const onSkip = (warning: string): void => {
    if (!warned.has(warning)) log.warn(warning);
    warned.add(warning);
  };
  const filter: HistoryOptions = { dataset: flags.dataset, siteId: flags.site, onSkip };
  let entries = await collectHistory(store, dir, filter);
  // Workers elsewhere wrote the report files on their hosts: the runs listed get theirs here, linked from the page.
  if (opened.remote && (await renderMissingReports(opened, dir, entries.slice(0, limit).map((e) => e.runId), log)) > 0) {
    entries = await collectHistory(store, dir, filter);
  }
  const shown = entries.slice(0, limit);
  if (flags.json) log.out(JSON.stringify(shown, null, 2));
  else if (entries.length === 0) log.info(`no finished runs in ${opened.location}${flags.dataset || flags.site ? ' matching the filters' : ''}`);
  else {
    log.out(formatRuns(shown).join('\n'));
    if (entries.length > shown.length) log.info(`… and ${entries.length - shown.length} older (--limit N shows more)`);
  }
  if (flags.html !== undefined) {
    const file = typeof flags.html === 'string' ? flags.html : join(dir, HISTORY_FILE);
    try {
      log.info(`history: ${await writeHistory(store, dir, file, filter)}`);
    } catch (err) {
      log.error(`cannot write the history page ${file}: ${err instanceof Error ? err.message : String(err)}`);
      return EXIT_FAILED;
    }
  }
  return EXIT_OK;
}
