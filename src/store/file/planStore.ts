/**
 * Where a run's work plan lives between `prepareRun` and the chunks that read its pages. Activities run on any
 * worker: the file implementation needs every worker to see the same runs directory; the PostgreSQL one
 * (`PgPlanStore`) keeps the pages in the results database, so workers share nothing but it.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildWorkPlan, readWorkPage, type WorkPlanInfo, type WorkPlanOptions } from '../../datasets/plan';
import type { WorkUnit } from '../../domain/dataset';

export interface PlanStore {
  /**
   * Validates the dataset in one streaming pass and stores the run's paged plan. Repeatable: a retry rebuilds the
   * same plan over the old one.
   */
  build(runId: string, datasetPath: string, options: WorkPlanOptions): Promise<WorkPlanInfo>;
  /** One page (0-based) of the run's plan; a `RangeError` for a page the plan does not have. */
  readPage(runId: string, page: number): Promise<WorkUnit[]>;
  /**
   * Stores a page after the plan's own ones (`page` ≥ its page count), e.g. the rows `--confirm` asks again.
   * Repeatable: writing the same page again replaces it.
   */
  writeExtraPage(runId: string, page: number, units: WorkUnit[]): Promise<void>;
  /**
   * Makes a dataset file the run is started with readable by every worker that may prepare the run (the workers
   * then find it by its sha256 when its path does not exist on their host). Repeatable.
   */
  shareDataset(datasetPath: string, sha256: string): Promise<void>;
}

/** Plans in `<runsDir>/<runId>/plan/` (`plan.jsonl` and its page index). */
export class FilePlanStore implements PlanStore {
  /** @param rootDir the runs directory, shared by every worker. */
  constructor(readonly rootDir: string) {}

  planDir(runId: string): string {
    return join(this.rootDir, runId, 'plan');
  }

  build(runId: string, datasetPath: string, options: WorkPlanOptions): Promise<WorkPlanInfo> {
    return buildWorkPlan(datasetPath, this.planDir(runId), options);
  }

  async readPage(runId: string, page: number): Promise<WorkUnit[]> {
    const extra = await readFile(this.extraPagePath(runId, page), 'utf8').catch(() => undefined);
    return extra === undefined ? readWorkPage(this.planDir(runId), page) : (JSON.parse(extra) as WorkUnit[]);
  }

  async writeExtraPage(runId: string, page: number, units: WorkUnit[]): Promise<void> {
    const path = this.extraPagePath(runId, page);
    await writeFile(`${path}.tmp`, JSON.stringify(units));
    await rename(`${path}.tmp`, path);
  }

  private extraPagePath(runId: string, page: number): string {
    return join(this.planDir(runId), `extra-page-${page}.json`);
  }

  /** Nothing to copy: with the file store, datasets are read from their path, which every worker must see. */
  shareDataset(): Promise<void> {
    return Promise.resolve();
  }
}
