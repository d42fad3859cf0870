/**
 * Everything `run` and `backfill` check before anything starts: the flags, the config and its graders, the
 * dataset, and the run a `--resume` continues. Problems are printed in order, capped, and the command exits 2
 * before Temporal, the simulator or the API are touched.
 */
import { resolve } from 'node:path';
import type { RunConfig } from '../../../config';
import { DatasetFileError, formatIssue, walkDataset, type DatasetScan } from '../../../datasets';
import { DECLARE_AS_METADATA, type ColumnNameRules } from '../../../datasets/columnNames';
import { ASKING_COLUMNS, KNOWN_COLUMNS } from '../../../datasets/columns';
import { openStore, storeUrlFromEnv, STORE_URL_VARIABLE } from '../../../store/open';
import { parseStoreUrl } from '../../../store/pg/database';
import { sendsFeedback, type RunKind } from '../../../domain/run';
import { DEMO } from '../../../sim/constants';
import type { Logger } from '../../logger';
import { feedbackMode } from './runOptions';
import { isGradedRow, ungradedMessage } from './ungradedCheck';
import { capLines, SHOWN_PROBLEMS, validateRunFlags, type ValidatedFlags } from './validate';

/** Demo address the embedded simulator's runs use when no email is configured. */
export const DEMO_EMAIL = 'demo.user@example.com';

/** What a run may start with once every check passed. */
export interface Preflight {
  scan: DatasetScan;
  config?: RunConfig;
}

/** The site used when `--site` is not given: SITECHAT_SITE_ID, or the demo site of the embedded simulator. */
export function defaultSiteId(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.SITECHAT_SITE_ID ?? (env.SITECHAT_BASE_URL ? undefined : DEMO.siteId);
}

/** The results store directory of this process (and of its in-process worker). */
export function runsDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SITECHAT_RUNS_DIR ?? 'runs');
}

/** A SITECHAT_STORE_URL that is no PostgreSQL URL, described without echoing it (it may hold a password). */
export function storeUrlProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = storeUrlFromEnv(env);
  if (url === undefined) return undefined;
  try {
    parseStoreUrl(url, STORE_URL_VARIABLE);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Which column names a run's dataset may not have: an evaluation reads every known column, and takes the config's
 * declared metadata; a backfill reads only the columns that shape what is asked, and has no config.
 */
export function columnRulesFor(kind: RunKind, config?: RunConfig): ColumnNameRules {
  if (kind === 'backfill') return { read: ASKING_COLUMNS, fix: 'Rename it (a backfill takes no config to declare it as metadata in).' };
  return { read: KNOWN_COLUMNS, metadata: config?.metadata, fix: DECLARE_AS_METADATA };
}

/** `--resume <id>` must name a run of the same kind over the same dataset bytes. */
async function resumeProblem(kind: RunKind, id: string, scan: DatasetScan, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const opened = openStore(runsDir(env), storeUrlFromEnv(env));
  const meta = await opened.store.getMeta(id).finally(() => opened.close());
  if (!meta) return `--resume: no run ${id} in ${opened.location}${opened.remote ? '' : ' (run ids are the directory names there)'}`;
  if (meta.kind !== kind) return `--resume: run ${id} is ${meta.kind === 'evaluation' ? 'an evaluation' : 'a backfill'}, not ${kind === 'evaluation' ? 'an evaluation' : 'a backfill'}`;
  if (meta.datasetSha256 !== scan.sha256) {
    return `--resume: run ${id} was started with another dataset (${meta.dataset}, sha256 ${meta.datasetSha256.slice(0, 12)}…); this file's sha256 is ${scan.sha256.slice(0, 12)}…`;
  }
  return undefined;
}

/** Runs every check; prints the problems and returns undefined when there is any. */
export async function preflight(kind: RunKind, dataset: string, flags: ValidatedFlags, log: Logger, env: NodeJS.ProcessEnv = process.env): Promise<Preflight | undefined> {
  const { problems, config } = await validateRunFlags(kind, flags, env, defaultSiteId(env));
  const storeProblem = storeUrlProblem(env);
  if (storeProblem) problems.push(storeProblem);
  const defaultEmail = flags.email ?? config?.email ?? env.SITECHAT_EMAIL ?? (env.SITECHAT_BASE_URL ? undefined : DEMO_EMAIL);
  let scan: DatasetScan | undefined;
  let graded = false;
  const assertions = config?.assertions ?? [];
  try {
    // An unusable --delimiter is already listed; the dataset is then read with the detected one.
    const delimiter = problems.some((p) => p.startsWith('--delimiter')) ? undefined : flags.delimiter;
    scan = await walkDataset(resolve(dataset), {
      delimiter, defaultEmail, uuidSessionIds: sendsFeedback(kind, feedbackMode(flags, config)), columnNames: columnRulesFor(kind, config),
    }, (row) => void (graded ||= isGradedRow(row, assertions)));
  } catch (err) {
    if (!(err instanceof DatasetFileError)) throw err;
    problems.push(err.message.replace(resolve(dataset), dataset));
  }
  if (scan && flags.resume !== undefined && !problems.some((p) => p.startsWith('--resume') || p.startsWith(STORE_URL_VARIABLE))) {
    const problem = await resumeProblem(kind, flags.resume, scan, env);
    if (problem) problems.push(problem);
  }
  const issues = scan?.issues ?? [];
  // Judged only on a file without problems and a config that loaded: the rows and the assertions are then known.
  const configLoaded = flags.config === undefined || config !== undefined;
  const allowUngraded = flags.allowUngraded ?? config?.allowUngraded ?? false;
  const ungraded = kind === 'evaluation' && scan && issues.length === 0 && configLoaded && !graded && !allowUngraded
    ? ungradedMessage({ dataset, columns: scan.columns, assertions, configFile: flags.config })
    : [];
  if (problems.length === 0 && issues.length === 0 && ungraded.length === 0 && scan) return { scan, config };

  for (const line of capLines(problems)) log.error(line);
  for (const line of capLines(issues.map((i) => formatIssue({ ...i, file: dataset })), SHOWN_PROBLEMS, scan?.issueCount)) log.error(line);
  for (const line of ungraded) log.error(line);
  const counts = [
    problems.length > 0 ? `${problems.length} usage problem${problems.length === 1 ? '' : 's'}` : '',
    issues.length > 0 ? `${dataset}: ${scan?.issueCount ?? issues.length} problem(s)` : '',
    ungraded.length > 0 ? `${dataset}: nothing to grade` : '',
  ].filter(Boolean).join('; ');
  // Nothing to grade alone: its own lines said what to do.
  const fix = issues.length > 0 ? ' Fix the file and run again.' : problems.length > 0 ? ' Fix the command and run again.' : '';
  log.error(`${counts}; nothing was sent.${fix}`);
  return undefined;
}
