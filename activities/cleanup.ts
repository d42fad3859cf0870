import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Context } from '@temporalio/activity';
import { selectPage } from '../src/cleanup/select';
import type { CleanupPage, CleanupPageInput, CleanupReport } from '../src/cleanup/types';
import type { ActivityDeps } from './deps';
import { asFailure } from './failures';

/** `runs/cleanup-<reportId>.json` */
export function cleanupReportPath(runsDir: string, reportId: string): string {
  return join(runsDir, `cleanup-${reportId}.json`);
}

export function cleanupActivities(deps: ActivityDeps) {
  return {
    /**
     * One `GET …/sessions` page, selected here: only counts, a few examples and the ids to close go back into
     * workflow history, never the page itself. Runs on the list queue, paced by the per-path limiter.
     */
    async listCleanupPage(input: CleanupPageInput): Promise<CleanupPage> {
      const signal = Context.current().cancellationSignal;
      const { sessions, pagination } = await asFailure(() =>
        deps.limiter.run(`GET /m2m/sites/${input.siteId}/sessions`, () =>
          deps.api.sessions.list(input.siteId, { email: input.email, limit: input.limit, offset: input.offset }, { signal }), signal));
      return selectPage(sessions, pagination.total, {
        rule: input.rule, wantIds: input.wantIds, samples: input.samples, ignoreIds: input.ignoreIds,
      });
    },

    /** Writes the report next to the run reports (atomically: a reader never sees half a file); returns its path. */
    async writeCleanupReport(report: CleanupReport): Promise<string> {
      const path = cleanupReportPath(deps.runsDir, report.reportId);
      await mkdir(deps.runsDir, { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      const provenance = { answers: deps.provenance.answers, runner: deps.provenance.runner };
      await writeFile(tmp, `${JSON.stringify({ provenance, ...report, reportPath: path }, null, 2)}\n`, 'utf8');
      await rename(tmp, path);
      return path;
    },
  };
}
