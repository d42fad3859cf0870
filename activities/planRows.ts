import type { PlanStore } from '../src/store/store';
import type { RowResult } from '../src/domain/results';

/** Pages whose metadata a worker keeps at hand: the pages of the chunks it is working on. */
const PAGES_KEPT = 16;

/**
 * The metadata columns of a run's rows, read from its plan. Workflows carry rows without them (they can be megabytes
 * per row: a RAG context, a long transcript), so the activities that record or grade a row put them back here.
 */
export class PlanMetadata {
  private readonly pages = new Map<string, Promise<Map<string, Record<string, string>>>>();

  constructor(private readonly plans: PlanStore) {}

  /** Metadata by row id for one page (rows without metadata are absent). */
  of(runId: string, page: number): Promise<Map<string, Record<string, string>>> {
    const key = `${runId}\n${page}`;
    let found = this.pages.get(key);
    if (found) {
      // Most recently used last, so the oldest page is the one let go.
      this.pages.delete(key);
    } else {
      found = this.load(runId, page);
      found.catch(() => this.pages.delete(key));
    }
    this.pages.set(key, found);
    while (this.pages.size > PAGES_KEPT) this.pages.delete(this.pages.keys().next().value as string);
    return found;
  }

  /** The results with their rows' metadata back. */
  async attach(runId: string, page: number, results: RowResult[]): Promise<RowResult[]> {
    const metadata = await this.of(runId, page);
    return results.map((r) => {
      const m = metadata.get(r.id);
      return m ? { ...r, metadata: m } : r;
    });
  }

  private async load(runId: string, page: number): Promise<Map<string, Record<string, string>>> {
    const byRow = new Map<string, Record<string, string>>();
    for (const unit of await this.plans.readPage(runId, page)) {
      for (const row of unit.rows) if (Object.keys(row.metadata).length > 0) byRow.set(row.id, row.metadata);
    }
    return byRow;
  }
}
