/** Writes `history.html`: the history of a results store's runs (history.ts) as one page (historyHtml.ts). */
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../shared/fileIo';
import type { ResultsStore } from '../store/store';
import { collectHistory, HISTORY_FILE, parentGroups, parentReport, relativeHref, type HistoryOptions } from './history';
import { renderHistoryHtml } from './historyHtml';

/**
 * Writes the history page of every finished run in `store` (atomically) and returns its path.
 * @param file where the page goes. @default `<runsDir>/history.html`
 */
export async function writeHistory(store: ResultsStore, runsDir: string, file = join(runsDir, HISTORY_FILE), options: HistoryOptions = {}): Promise<string> {
  const entries = await collectHistory(store, runsDir, options);
  await mkdir(dirname(resolve(file)), { recursive: true });
  const parents = await Promise.all(parentGroups(entries).map(async (g) => {
    const reportHtml = await parentReport(runsDir, g);
    return reportHtml ? { ...g, reportHtml } : g;
  }));
  const html = renderHistoryHtml(entries, {
    href: (entry) => (entry.reportHtml ? relativeHref(file, entry.reportHtml) : undefined),
    parents: parents.map((g) => ({ ...g, href: g.reportHtml ? relativeHref(file, g.reportHtml) : undefined })),
    generatedAt: new Date().toISOString(),
  });
  await writeFileAtomic(file, html);
  return file;
}
