/**
 * The one place that picks the results store: `SITECHAT_STORE_URL=postgres://…` selects PostgreSQL (workers on
 * several hosts share nothing but the database), otherwise the file store in the runs directory (one machine, or
 * a shared filesystem). Every command and the worker open their store here.
 */
import { FilePlanStore } from './file/planStore';
import { type PlanStore } from './store';
import { FileNotificationLedger } from './file/ledger';
import { PgNotificationLedger } from './pg/ledger';
import { type NotificationLedger } from './store';
import { FileResultsStore } from './file/resultsStore';
import { PgDatabase, redactStoreUrl } from './pg/database';
import { PgPlanStore } from './pg/planStore';
import { PgResultsStore } from './pg/resultsStore';
import type { ResultsStore } from './store';

/** The variable that selects and locates the PostgreSQL store. It may hold a password: never log it. */
export const STORE_URL_VARIABLE = 'SITECHAT_STORE_URL';

export interface OpenedStore {
  store: ResultsStore;
  plans: PlanStore;
  /** Notifications sent, by delivery id: beside the results, so every worker sees them. */
  ledger: NotificationLedger;
  /** Where results live, for messages: the runs directory, or the store URL with its password replaced. */
  location: string;
  /**
   * True for PostgreSQL: workers on other hosts record the rows and write their report files there, so a command
   * that wants report files on this host renders them from the store.
   */
  remote: boolean;
  close(): Promise<void>;
}

/** `SITECHAT_STORE_URL` when set and not empty. */
export function storeUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env[STORE_URL_VARIABLE];
  return url === undefined || url.trim() === '' ? undefined : url.trim();
}

/**
 * @param runsDir the runs directory: the file store's root; with PostgreSQL only where this host's report files go
 *   (plans are built in the OS temp directory, then stored in the database).
 * @param storeUrl a `postgres://` URL; absent: the file store. A bad URL throws a `TypeError` that does not echo it.
 */
export function openStore(runsDir: string, storeUrl?: string): OpenedStore {
  if (storeUrl === undefined) {
    return { store: new FileResultsStore(runsDir), plans: new FilePlanStore(runsDir), ledger: new FileNotificationLedger(runsDir), location: runsDir, remote: false, close: () => Promise.resolve() };
  }
  const db = new PgDatabase(storeUrl);
  return {
    store: new PgResultsStore(db),
    plans: new PgPlanStore(db),
    ledger: new PgNotificationLedger(db),
    location: redactStoreUrl(storeUrl),
    remote: true,
    close: () => db.close(),
  };
}
