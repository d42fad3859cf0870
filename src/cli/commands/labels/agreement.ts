import { JudgeCache } from '../../../grading/judge/cache';
import { labelAgreement, type AgreementReport, type GraderAgreement } from '../../../labels/agreement';
import { labelledAnswersOfLabels, labelledAnswersOfRun } from '../../../labels/agreementSources';
import { plural } from '../../../shared/plural';
import { RunKind } from '../../../domain/results';
import { LabelsExit, withLabelsStore } from './store';
import { createLogger, type Logger } from '../../logger';
import { runsDir } from '../run/preflight';
import { checkRunRef } from '../../runRef';
import { UsageError } from '../../usageError';

export interface LabelsAgreementFlags {
  site?: string;
  run?: string;
  json?: boolean;
}

const f3 = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : x.toFixed(3));
const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);

/**
 * The figures as a fixed-width table, then the threshold the labels support. Under `wanted` labels it says how many
 * more are needed first; graders that could grade none of the labels (no references) are left out of the table.
 */
export function formatAgreement(report: AgreementReport): string[] {
  const header = ['grader', 'rows', 'decided', 'coverage', 'agreement', 'two-way', 'false fails', 'false passes'];
  const graded = report.graders.filter((g) => g.rows > 0);
  const rows = graded.map((g: GraderAgreement) => [
    g.grader, String(g.rows), String(g.decided), pct(g.coverage), f3(g.agreement), g.agreementTwoWay === undefined ? '' : f3(g.agreementTwoWay),
    String(g.falseFails), String(g.falsePasses),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const table = [header, ...rows].map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd());
  const { supported } = report;
  const few = report.moreNeeded > 0;
  const verdict = supported
    ? `${few ? `on these ${plural(report.labelled, 'label')}, reference threshold ${supported.threshold} agrees best` : `the labels support reference threshold ${supported.threshold}`}: agreement ${f3(supported.agreement)} deciding ${pct(supported.coverage)} of the labelled rows (default ${report.defaultThreshold})`
    : `no reference threshold decides ${pct(report.coverageFloor)} of the labelled rows: the labels support none yet`;
  const count = `${plural(report.labelled, 'labelled row')}: ${report.passLabels} pass, ${report.failLabels} fail`;
  return [
    few ? `${count}; too few to go by: label ${report.moreNeeded} more (${report.wanted} wanted) before changing a threshold on these figures` : count,
    ...(graded.length > 0 ? table : ['no grader could grade these labels: none has references (a rubric-only label is graded by the judge alone)']),
    verdict,
  ];
}

/**
 * `sitechat labels agreement`: each grader's agreement with the labels and its coverage, on the labels themselves or
 * on a run's labelled rows (`--run`). Exit 0; 2 for a bad flag or an unknown run; 3 when the store cannot be read.
 */
export async function labelsAgreementAction(flags: LabelsAgreementFlags, io: { log?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  const env = io.env ?? process.env;
  if (flags.run !== undefined && flags.run !== 'latest') {
    try {
      checkRunRef(flags.run, '--run');
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      log.error(err.message);
      return LabelsExit.usage;
    }
  }
  return withLabelsStore(log, env, async ({ store, location }) => {
    let items;
    let measuredOn: string;
    if (flags.run === undefined) {
      items = await labelledAnswersOfLabels(store, flags.site === undefined ? {} : { siteId: flags.site });
      measuredOn = `the labels${flags.site ? ` of site ${flags.site}` : ''} in ${location} (their normalized answers)`;
    } else {
      const runId = flags.run === 'latest'
        ? (await store.listRuns({ finished: true, kind: RunKind.evaluation, siteId: flags.site }))[0]?.runId
        : flags.run;
      const meta = runId === undefined ? undefined : await store.getMeta(runId);
      if (runId === undefined || meta === undefined) {
        log.error(runId === undefined ? `--run latest: no finished evaluation run${flags.site ? ` of site ${flags.site}` : ''} in ${location}` : `--run: no run ${runId} in ${location}`);
        return LabelsExit.usage;
      }
      if (flags.site !== undefined && meta.siteId !== flags.site) {
        log.error(`--run ${runId} ran on site ${meta.siteId}, not ${flags.site}`);
        return LabelsExit.usage;
      }
      const model = env.SITECHAT_JUDGE_MODEL?.trim();
      const judge = model ? { cache: JudgeCache.inRunsDir(runsDir(env)), model } : undefined;
      items = await labelledAnswersOfRun(store, runId, meta.siteId, judge);
      measuredOn = `the labelled rows of run ${runId} (site ${meta.siteId})`;
    }
    const report = labelAgreement(items);
    if (flags.json) log.out(JSON.stringify({ measuredOn, ...report }, null, 2));
    else if (report.labelled === 0) log.info(`no labelled rows in ${measuredOn}`);
    else {
      log.info(`agreement with ${measuredOn}`);
      log.out(formatAgreement(report).join('\n'));
    }
    return LabelsExit.ok;
  });
}
