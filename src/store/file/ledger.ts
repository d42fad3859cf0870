/** The notification ledger of the file store: one JSON file per delivery id in `<runsDir>/.notifications/`. */
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonIfExists, writeFileAtomic } from '../../shared/fileIo';
import { assertValidDeliveryId, type DeliveryRecord, type NotificationLedger } from '../store';

/** `<runsDir>/.notifications/<deliveryId>.json`, written atomically and fsynced (file and directory). */
export class FileNotificationLedger implements NotificationLedger {
  constructor(private readonly runsDir: string) {}

  private get dir(): string {
    return join(this.runsDir, '.notifications');
  }

  async get(deliveryId: string): Promise<DeliveryRecord | undefined> {
    assertValidDeliveryId(deliveryId);
    return (await readJsonIfExists(join(this.dir, `${deliveryId}.json`))) as DeliveryRecord | undefined;
  }

  async put(record: DeliveryRecord): Promise<void> {
    assertValidDeliveryId(record.deliveryId);
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

