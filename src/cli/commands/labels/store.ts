/** What every `sitechat labels` command does around its work: open the store, say why it failed, close it. */
import type { OpenedStore } from '../../../store/open';
import type { Logger } from '../../logger';
import { UsageError } from '../../usageError';
import { openCliStore } from '../../store/storeReports';
import { isStoreConnectFailure, storeFailureMessage } from '../../store/storeFailure';

export const LabelsExit = { ok: 0, usage: 2, failed: 3 } as const;

/** Runs `work` with the store of the environment: a bad store URL exits 2, a store that cannot be reached 3. */
export async function withLabelsStore(log: Logger, env: NodeJS.ProcessEnv, work: (opened: OpenedStore) => Promise<number>): Promise<number> {
  let opened: OpenedStore;
  try {
    opened = openCliStore(env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    log.error(err.message);
    return LabelsExit.usage;
  }
  try {
    return await work(opened);
  } catch (err) {
    if (!isStoreConnectFailure(err)) throw err;
    log.error(storeFailureMessage(err));
    return LabelsExit.failed;
  } finally {
    await opened.close();
  }
}
