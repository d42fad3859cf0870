/** The plan store of the file store: plans in the runs directory, which every worker must see. */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildWorkPlan, readWorkPage, type WorkPlanInfo, type WorkPlanOptions } from '../../datasets/plan';
import type { WorkUnit } from '../../domain/dataset';
import type { PlanStore } from '../store';

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
