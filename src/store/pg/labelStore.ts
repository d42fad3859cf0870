import type { Label, LabelFilter } from '../../domain/label';
import type { LabelStore } from '../store';
import { assertValidLabel, latestByKey } from '../labelRecords';
import type { PgDatabase } from './database';

/** Labels per statement of `putLabels` and per page of `readLabels`. */
const BATCH = 500;

/** Labels of the PostgreSQL store: the `labels` table, upserted by key (the last write wins), read in key pages. */
export class PgLabelStore implements LabelStore {
  constructor(private readonly db: PgDatabase) {}

  async putLabels(labels: readonly Label[]): Promise<void> {
    labels.forEach((label, i) => assertValidLabel(label, i));
    // One statement may not update a row twice: within a batch, too, the last label of a key wins.
    const latest = latestByKey(labels);
    for (let i = 0; i < latest.length; i += BATCH) {
      const chunk = latest.slice(i, i + BATCH);
      await this.db.query(
        `INSERT INTO labels (key, site_id, data)
         SELECT l.key, l.site_id, l.data::json FROM unnest($1::text[], $2::text[], $3::text[]) AS l (key, site_id, data)
         ON CONFLICT (key) DO UPDATE SET site_id = EXCLUDED.site_id, data = EXCLUDED.data`,
        [chunk.map((l) => l.key), chunk.map((l) => l.siteId), chunk.map((l) => JSON.stringify(l))],
      );
    }
  }

  async getLabels(keys: readonly string[]): Promise<Map<string, Label>> {
    const found = new Map<string, Label>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += BATCH) {
      const { rows } = await this.db.query<{ key: string; data: Label }>('SELECT key, data FROM labels WHERE key = ANY($1::text[])', [unique.slice(i, i + BATCH)]);
      for (const row of rows) found.set(row.key, row.data);
    }
    return found;
  }

  async *readLabels(filter: LabelFilter = {}): AsyncGenerator<Label> {
    let after = '';
    for (;;) {
      const { rows } = await this.db.query<{ key: string; data: Label }>(
        `SELECT key, data FROM labels WHERE ($1::text IS NULL OR site_id = $1) AND key > $2 ORDER BY key LIMIT $3`,
        [filter.siteId ?? null, after, BATCH],
      );
      for (const row of rows) yield row.data;
      const last = rows.at(-1);
      if (last === undefined || rows.length < BATCH) return;
      after = last.key;
    }
  }
}
