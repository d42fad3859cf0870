import { describe, expect, it } from 'vitest';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { appendReversed, meta, readInOrder, row, tempDir } from './fixtures';

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
      await appendReversed(store, 'big', ROWS, BATCH, answer);
      await store.append('big', Array.from({ length: BATCH }, (_, i) => row(ROWS - BATCH + i, { answer })));

      const { rows, peakHeapBytes } = await readInOrder(store, 'big');
      expect(rows).toBe(ROWS);
      // The rows total ≈150 MB as text; the offset index is a few MB. Live heap measured: 9.6 MB.
      expect(peakHeapBytes).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await cleanup();
    }
  }, 120_000);
});
