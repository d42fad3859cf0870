import { DatasetFileError, formatIssue } from '../../../datasets';
import { readLabelFile } from '../../../labels/file';
import { LabelsExit, withLabelsStore } from './store';
import { createLogger, type Logger } from '../../logger';
import { capLines } from '../run/validate';

export interface LabelsImportFlags {
  delimiter?: string;
}

/**
 * `sitechat labels import FILE`: the whole file is read and validated first (file, line and column of each problem,
 * exit 2, nothing written), then its labels are written; a label of a key already in the store replaces it.
 */
export async function labelsImportAction(file: string, flags: LabelsImportFlags, io: { log?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  let read;
  try {
    read = await readLabelFile(file, { delimiter: flags.delimiter });
  } catch (err) {
    if (!(err instanceof DatasetFileError)) throw err;
    log.error(err.message);
    return LabelsExit.usage;
  }
  if (read.issueCount > 0) {
    for (const line of capLines(read.issues.map(formatIssue), undefined, read.issueCount)) log.error(line);
    log.error(`${read.issueCount} problem(s) in ${file}; no label was imported. Fix them and run again.`);
    return LabelsExit.usage;
  }
  const { labels } = read;
  return withLabelsStore(log, io.env ?? process.env, async ({ store, location }) => {
    const replaced = (await store.getLabels(labels.map((l) => l.key))).size;
    await store.putLabels(labels);
    const sites = new Set(labels.map((l) => l.siteId));
    log.info(`${labels.length} label${labels.length === 1 ? '' : 's'} of ${sites.size} site${sites.size === 1 ? '' : 's'} imported into ${location}${replaced > 0 ? ` (${replaced} replaced an earlier label of the same answer)` : ''}`);
    return LabelsExit.ok;
  });
}
