import { countRows } from './metrics';
import { unansweredResult } from '../src/domain/rowResult';
import { slimRow } from '../src/datasets/limits';
import { gradingOf, runAnswers } from '../src/domain/provenance';
import type { RowResult } from '../src/domain/results';
import { sendsFeedback, type OutcomeCounts, type RunInput } from '../src/domain/run';
import type { ActivityDeps } from './deps';
import { checkCustomGraders } from './grade';
import { heartbeating } from './heartbeat';
import type { PlanInfo, PlannedUnit, SkipPagesInput } from './types';

/**
 * Conversations per plan page, i.e. per chunk workflow. 100 single-turn rows cost ~1,300 history events in a chunk
 * (ask, settle, records and their workflow tasks), far below the ~10k where histories get slow; the plan also ends
 * a page early when its rows pass `RowLimit.pageBytes`, so the page stays a small payload.
 */
export const PAGE_SIZE = 100;

export function planActivities(deps: ActivityDeps) {
  // Each may read or write a whole dataset's worth of plan pages: alive-checked by heartbeats, not a long timeout.
  return heartbeating({
    /**
     * Validates the dataset in one streaming pass, checks it is the file the run was started with (sha256), and
     * stores the work plan (conversations grouped, paged) next to the results. Repeatable: a retry rebuilds the same plan.
     */
    async prepareRun({ input, workflowId }: { input: RunInput; workflowId: string }): Promise<PlanInfo> {
      await checkCustomGraders(deps, input.options.assertions);
      // The API the run asks from now on: the one it was started with, else this worker's.
      const api = input.options.api ?? deps.apiIdentity;
      const plan = await deps.plans.build(input.runId, input.dataset.path, {
        pageSize: PAGE_SIZE,
        delimiter: input.options.delimiter,
        defaultEmail: input.options.defaultEmail,
        // A variant's language and locale fill the rows that leave them empty, as `--model` does for `model`.
        ...((input.options.responseLanguage !== undefined || input.options.uiLocale !== undefined) && {
          rowDefaults: { response_language: input.options.responseLanguage, ui_locale: input.options.uiLocale },
        }),
        // Empty for scheduled runs: the file is pinned now, and every page comes from this plan.
        expectedSha256: input.dataset.sha256 || undefined,
        // A backfill records one answer per row, whatever a shared config file says.
        repeat: input.kind === 'evaluation' ? input.options.repeat : undefined,
        // Also checked by the CLI before it starts a run; a scheduled run meets it here, before any question.
        uuidSessionIds: sendsFeedback(input.kind, input.options.feedback),
      });
      const { outDir: _outDir, ...options } = input.options;
      await deps.store.init(input.runId, {
        runId: input.runId,
        workflowId,
        kind: input.kind,
        dataset: input.dataset.path,
        datasetSha256: plan.sha256,
        siteId: input.options.siteId,
        model: input.options.model,
        startedAt: new Date().toISOString(),
        rowCount: plan.rows,
        options: { ...options, api },
        provenance: {
          ...deps.provenance,
          answers: runAnswers(api, { api: deps.apiIdentity, answers: deps.provenance.answers }),
          grading: gradingOf(input.options.assertions, input.options.thresholds),
        },
      });
      return { rows: plan.rows, units: plan.units, pages: plan.pages, api };
    },

    /** A page of the plan; when resuming, rows that already have an answer carry it and are not sent again. */
    async readPage({ runId, page, resume }: { runId: string; page: number; resume?: boolean }): Promise<PlannedUnit[]> {
      // Rows without their metadata columns: the page is an activity result in the chunk's history, and metadata
      // can be megabytes per row. Recording and custom grading put it back from the plan.
      const units = (await deps.plans.readPage(runId, page)).map((u) => ({ ...u, rows: u.rows.map(slimRow) }));
      if (!resume) return units;
      const answers = await deps.resume.get(runId);
      return units.map((u) => ({ ...u, rows: u.rows.map((row) => ({ ...row, prior: answers.get(row.id) })) }));
    },

    /** Records every row of pages that never ran (cancel, or a fatal API error), so each row has an outcome. */
    async skipPages({ runId, fromPage, toPage, reason, outcome, facts, resume }: SkipPagesInput): Promise<Partial<OutcomeCounts>> {
      let rows = 0;
      // A resumed run keeps the answers its earlier attempt recorded.
      const answered = resume ? await deps.resume.get(runId) : new Map<string, unknown>();
      const finishedAt = new Date().toISOString();
      for (let page = fromPage; page < toPage; page++) {
        const units = await deps.plans.readPage(runId, page);
        const results: RowResult[] = units.flatMap((u) => u.rows).filter((row) => !answered.has(row.id))
          .map((row) => unansweredResult(row, outcome, reason, finishedAt, facts));
        await deps.store.append(runId, results);
        await countRows(deps.store, runId, results);
        rows += results.length;
      }
      return { [outcome]: rows };
    },
  });
}
