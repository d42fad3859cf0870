import { basename, resolve } from 'node:path';
import { compareVariants } from '../src/analysis/matrixComparison';
import { summarizeMultiSite, type MultiSiteSummaryInput } from '../src/analysis/multiSite';
import { writeMultiSiteReports } from '../src/render/multiSiteRender';
import type { MultiSiteResult } from '../src/domain/multiSite';
import type { ActivityDeps } from './deps';

/** What the combined report of a multi-site run is written from. */
export interface MultiSiteReportInput extends MultiSiteSummaryInput {
  /** The combined report's directory. @default runs/<runId>/ on the worker */
  outDir?: string;
  cancelled: boolean;
}

export function multiSiteActivities(deps: ActivityDeps) {
  return {
    /**
     * The combined report of a multi-site or matrix run, from every variant's stored summary and rows: summary.json
     * with a line per variant and the overall gate, report.md, report.html, junit.xml, and the comparison of the
     * variants (compare.md, .html, .json, .junit.xml). Safe to repeat (same inputs, same files).
     */
    async writeMultiSiteReport(input: MultiSiteReportInput): Promise<MultiSiteResult> {
      const outDir = input.outDir ?? resolve(deps.runsDir, input.runId);
      const compared = await compareVariants(deps.store, input.sites);
      const summary = await summarizeMultiSite(deps.store, input, compared);
      const paths = await writeMultiSiteReports(summary, outDir, compared.comparison, await deps.store.getNotifications(input.runId));
      return { runId: input.runId, summary, reportDir: outDir, reportFiles: paths.map((p) => basename(p)), cancelled: input.cancelled };
    },
  };
}
