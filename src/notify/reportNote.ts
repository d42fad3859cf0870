/**
 * Puts what became of a run's notifications into its report directory: `notifications.json`, and a
 * "Notifications" section at the end of report.md. Rewritten whole on every call (a retried activity leaves one
 * section), so a failed delivery is listed where the run's readers look.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../reports/fileIo';
import { ReportFile } from '../reports/files';
import { isNotFound } from '../reports/fileIo';
import { outcomeLine, type NotifyOutcome } from './spec';

export const NOTIFICATIONS_FILE = 'notifications.json';
const SECTION = '\n<!-- sitechat:notifications -->\n';

export async function writeReportNote(reportDir: string, outcomes: readonly NotifyOutcome[]): Promise<void> {
  await writeFileAtomic(join(reportDir, NOTIFICATIONS_FILE), `${JSON.stringify(outcomes, null, 2)}\n`);
  const md = join(reportDir, ReportFile.markdown);
  let text: string;
  try {
    text = await readFile(md, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  const at = text.indexOf(SECTION);
  const head = at < 0 ? text.replace(/\n*$/u, '\n') : text.slice(0, at);
  const lines = outcomes.map((o) => `- ${outcomeLine(o)}`);
  await writeFileAtomic(md, `${head}${SECTION}\n## Notifications\n\n${lines.join('\n')}\n\nA failed notification does not change the verdict.\n`);
}
