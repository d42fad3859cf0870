/**
 * What the runner knows about each notification it sent, by delivery id, kept in the results store's place (the
 * runs directory, or the PostgreSQL store) so every worker sees it. The notify activity writes `sending` before a
 * send and `delivered` right after the receiver's 2xx, before it returns: a retried activity (another attempt, or
 * another worker after a crash) that finds `delivered` does not send again. Only a crash between the 2xx and that
 * write re-sends, with the same delivery id (docs/notifications.md, "Guarantees").
 */
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonIfExists, writeFileAtomic } from '../shared/fileIo';
import type { PgDatabase } from './pg/database';
import type { NotifyKind } from '../domain/notify';

export interface DeliveryRecord {
  deliveryId: string;
  /** `slack (SITECHAT_SLACK_WEBHOOK)`: names only. */
  destination: string;
  kind: NotifyKind;
  /** `sending`: a send began and its answer is not known; `delivered`: 2xx; `failed`: refused, or out of attempts. */
  status: 'sending' | 'delivered' | 'failed';
  /** Sends begun so far (each may have reached the receiver). */
  sends: number;
  error?: string;
  updatedAt: string;
}

export interface NotificationLedger {
  get(deliveryId: string): Promise<DeliveryRecord | undefined>;
  /** Durable when the promise resolves: the worker may die right after. */
  put(record: DeliveryRecord): Promise<void>;
}

const DELIVERY_ID = /^[A-Za-z0-9_-]{1,100}$/u;

function checkId(id: string): void {
  if (!DELIVERY_ID.test(id)) throw new Error(`notification ledger: invalid delivery id ${JSON.stringify(id)}`);
}

/** `<runsDir>/.notifications/<deliveryId>.json`, written atomically and fsynced (file and directory). */
export class FileNotificationLedger implements NotificationLedger {
  constructor(private readonly runsDir: string) {}

  private get dir(): string {
    return join(this.runsDir, '.notifications');
  }

  async get(deliveryId: string): Promise<DeliveryRecord | undefined> {
    checkId(deliveryId);
    return (await readJsonIfExists(join(this.dir, `${deliveryId}.json`))) as DeliveryRecord | undefined;
  }

  async put(record: DeliveryRecord): Promise<void> {
    checkId(record.deliveryId);
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(join(this.dir, `${record.deliveryId}.json`), `${JSON.stringify(record)}\n`);
    // The rename is durable only once the directory is synced.
    const handle = await open(this.dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

/** The `notification_deliveries` table (migration 3). */
export class PgNotificationLedger implements NotificationLedger {
  constructor(private readonly db: PgDatabase) {}

  async get(deliveryId: string): Promise<DeliveryRecord | undefined> {
    const { rows } = await this.db.query<{ data: DeliveryRecord }>('SELECT data FROM notification_deliveries WHERE delivery_id = $1', [deliveryId]);
    return rows[0]?.data;
  }

  async put(record: DeliveryRecord): Promise<void> {
    checkId(record.deliveryId);
    await this.db.query(
      'INSERT INTO notification_deliveries (delivery_id, data) VALUES ($1, $2) ON CONFLICT (delivery_id) DO UPDATE SET data = EXCLUDED.data',
      [record.deliveryId, JSON.stringify(record)],
    );
  }
}
