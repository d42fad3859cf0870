import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileNotificationLedger } from '../../../src/store/file/ledger';
import { PgNotificationLedger } from '../../../src/store/pg/ledger';
import { type DeliveryRecord, type NotificationLedger } from '../../../src/store/store';
import { PgDatabase } from '../../../src/store/pg/database';
import { describeWithPostgres } from '../../helpers/usePostgres';

function record(overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return { deliveryId: 'a1b2', destination: 'slack (X)', kind: 'slack', status: 'sending', sends: 1, updatedAt: '2026-01-01T00:00:00.000Z', ...overrides };
}

/** What the notify activity relies on: the last record of an id wins, and another process sees it. */
async function contract(ledger: NotificationLedger, other: NotificationLedger): Promise<void> {
  expect(await ledger.get('a1b2')).toBeUndefined();
  await ledger.put(record());
  expect(await other.get('a1b2')).toEqual(record());
  await ledger.put(record({ status: 'delivered' }));
  expect((await other.get('a1b2'))?.status).toBe('delivered');
  await expect(ledger.put(record({ deliveryId: '../escape' }))).rejects.toThrow(/invalid delivery id/u);
}

describe('FileNotificationLedger', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  it('keeps the last record of each delivery id, visible to another instance on the same directory', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-ledger-'));
    await contract(new FileNotificationLedger(dir), new FileNotificationLedger(dir));
  });
});

describeWithPostgres('PgNotificationLedger', (pg) => {
  it('keeps the last record of each delivery id, visible to another connection pool (migration 4)', async () => {
    const url = await pg.freshDatabase();
    const [a, b] = [new PgDatabase(url), new PgDatabase(url)];
    try {
      await contract(new PgNotificationLedger(a), new PgNotificationLedger(b));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
