import { resolve } from 'node:path';
import { datasetFormat, type DatasetFormat } from '../../../datasets/format';
import { DatasetFileError } from '../../../datasets/issues';
import { labelCsvHeader, labelCsvLine, labelJsonLine } from '../../../labels/file';
import type { LabelFilter } from '../../../domain/label';
import { writeFileAtomic } from '../../../shared/fileIo';
import { LabelsExit, withLabelsStore } from './store';
import { createLogger, type Logger } from '../../logger';

export interface LabelsExportFlags {
  site?: string;
}

/** `sitechat labels export FILE`: every label (of `--site`), ordered by key, streamed into the file (atomically). */
export async function labelsExportAction(file: string, flags: LabelsExportFlags, io: { log?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  let format: DatasetFormat;
  try {
    format = datasetFormat(file);
  } catch (err) {
    if (!(err instanceof DatasetFileError)) throw err;
    log.error(err.message);
    return LabelsExit.usage;
  }
  const delimiter = file.toLowerCase().endsWith('.tsv') ? '\t' : ',';
  const filter: LabelFilter = flags.site === undefined ? {} : { siteId: flags.site };
  return withLabelsStore(log, io.env ?? process.env, async ({ store, location }) => {
    let count = 0;
    async function* lines(): AsyncGenerator<string> {
      if (format === 'csv') yield labelCsvHeader(delimiter);
      for await (const label of store.readLabels(filter)) {
        count += 1;
        yield format === 'csv' ? labelCsvLine(label, delimiter) : labelJsonLine(label);
      }
    }
    try {
      await writeFileAtomic(resolve(file), lines());
    } catch (err) {
      if (!(err instanceof Error) || (err as NodeJS.ErrnoException).code === undefined) throw err;
      log.error(`cannot write ${file}: ${err.message}`);
      return LabelsExit.failed;
    }
    log.info(`${count} label${count === 1 ? '' : 's'}${flags.site ? ` of site ${flags.site}` : ''} from ${location} written to ${file}`);
    return LabelsExit.ok;
  });
}
