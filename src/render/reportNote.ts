/**
 * What became of a run's notifications, as its report directory shows it: `notifications.json`, and a "Notifications"
 * section at the end of report.md. The report writers render both from the results store (writeReports,
 * writeMultiSiteReports); the notify activity, which runs after them, records the outcomes in the store and puts
 * them into the files already written with the same text. Rewritten whole on every call (a retried activity leaves
 * one section), so a failed delivery is listed where the run's readers look.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isNotFound, writeFileAtomic } from '../shared/fileIo';
import { outcomeLine, type NotifyOutcome } from '../domain/notify';
import { notificationsJson, ReportFile, StoreFile } from '../store/files';

export { notificationsJson };

export const NOTIFICATIONS_FILE = StoreFile.notifications;
const SECTION = '\n<!-- sitechat:notifications -->\n';

/** report.md with its Notifications section for `outcomes` (replacing the one it has); unchanged without outcomes. */
export function withNotificationsSection(markdown: string, outcomes: readonly NotifyOutcome[] | undefined): string {
  if (outcomes === undefined) return markdown;
  const at = markdown.indexOf(SECTION);
  const head = at < 0 ? markdown.replace(/\n*$/u, '\n') : markdown.slice(0, at);
  const lines = outcomes.map((o) => `- ${outcomeLine(o)}`);
  return `${head}${SECTION}\n## Notifications\n\n${lines.join('\n')}\n\nA failed notification does not change the verdict.\n`;
}

/** Both files of a report directory already written; a directory without report.md gets notifications.json only. */
export async function writeReportNote(reportDir: string, outcomes: readonly NotifyOutcome[]): Promise<void> {
  await writeFileAtomic(join(reportDir, NOTIFICATIONS_FILE), notificationsJson(outcomes));
  const md = join(reportDir, ReportFile.markdown);
  let text: string;
  try {
    text = await readFile(md, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  await writeFileAtomic(md, withNotificationsSection(text, outcomes));
}
