/** The notification ledger of the PostgreSQL store. */
import { assertValidDeliveryId, type DeliveryRecord, type NotificationLedger } from '../store';
import type { PgDatabase } from './database';

/** The `notification_deliveries` table (migration 3). */
export class PgNotificationLedger implements NotificationLedger {
  constructor(private readonly db: PgDatabase) {}

  async get(deliveryId: string): Promise<DeliveryRecord | undefined> {
    const { rows } = await this.db.query<{ data: DeliveryRecord }>('SELECT data FROM notification_deliveries WHERE delivery_id = $1', [deliveryId]);
    return rows[0]?.data;
  }

  async put(record: DeliveryRecord): Promise<void> {
    assertValidDeliveryId(record.deliveryId);
    await this.db.query(
      'INSERT INTO notification_deliveries (delivery_id, data) VALUES ($1, $2) ON CONFLICT (delivery_id) DO UPDATE SET data = EXCLUDED.data',
      [record.deliveryId, JSON.stringify(record)],
    );
  }
}
