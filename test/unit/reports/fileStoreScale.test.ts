import { describe, expect, it } from 'vitest';
import { FileResultsStore } from '../../../src/reports/fileStore';
import { meta, row, tempDir } from './fixtures';

const ROWS = 100_000;
const BATCH = 2_000;

describe('FileResultsStore at 100,000 rows', () => {
  it('reads every row once, in order, without holding the rows in memory', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const store = new FileResultsStore(dir);
      await store.init('big', meta({ runId: 'big' }));
      const answer = 'lorem ipsum dolor sit amet '.repeat(50); // ≈1.4 KB per row
      // Batches in reverse order, and the first batch written twice, so read must sort and dedupe.
      for (let start = ROWS - BATCH; start >= 0; start -= BATCH) {
        await store.append('big', Array.from({ length: BATCH }, (_, i) => row(start + i, { answer })));
      }
      await store.append('big', Array.from({ length: BATCH }, (_, i) => row(ROWS - BATCH + i, { answer })));

      const baseline = process.memoryUsage().heapUsed;
      let peak = 0;
      let expected = 0;
      for await (const r of store.read('big')) {
        if (r.index !== expected) throw new Error(`row ${expected} expected, got ${r.index}`);
        expected++;
        if (expected % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
      expect(expected).toBe(ROWS);
      // The rows total ≈150 MB as text; the offset index is a few MB.
      expect(peak).toBeLessThan(80 * 1024 * 1024);
    } finally {
      await cleanup();
    }
  }, 120_000);
});
