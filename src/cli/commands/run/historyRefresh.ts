/**
 * The history page of this host (`<SITECHAT_RUNS_DIR>/history.html`), written again by every command that ends a run
 * here: the worker that finalized it may be on another host (`run --no-worker` in a cluster), and then only this
 * command can bring this host's page up to date.
 */
import { writeHistory } from '../../../render/historyPage';
import type { OpenedStore } from '../../../store/open';
import type { Logger } from '../../logger';
import { runsDir } from './preflight';

/** A page that cannot be written is a warning: the run it follows has finished either way. */
export async function refreshHistory(opened: OpenedStore, log: Logger): Promise<void> {
  try {
    log.debug(`history: ${await writeHistory(opened.store, runsDir(), undefined, { onSkip: (warning) => log.warn(warning) })}`);
  } catch (err) {
    log.warn(`history.html not updated: ${err instanceof Error ? err.message : String(err)}`);
  }
}
