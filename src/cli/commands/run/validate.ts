/**
 * Checks of command-line flags that need no network: every value, path and file a run depends on, so a usage
 * error exits 2 before the dataset is planned, before Temporal or the simulator start, and before any question
 * is sent. Only what the API alone can judge (a model id, a site's existence) is left to the run.
 */
import { constants, type Stats } from 'node:fs';
import { access, lstat, mkdir, readlink, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { ConfigError, DurationError, loadRunConfig, parseDuration, type RunConfig } from '../../../config';
import { DatasetFileError, normalizeDelimiter } from '../../../datasets';
import { EMAIL_PATTERN } from '../../../datasets/schema';
import { loadCustomGrader } from '../../../grading/custom';
import { combinedLines } from '../../../analysis/baselineSelect';
import { ReportFile } from '../../../store/files';
import { isNotFound } from '../../../shared/fileIo';
import type { RunFlags } from './flags';
import { temporalConfigured } from '../../../temporal/configured';
import { gradersDirFor } from './graders';
import { parseConfirm, parsePositiveInt, parseRate, parseReaskFailed, parseRepeat } from './runOptions';
import { UsageError } from '../../usageError';
import { isSiteList, parseSiteList } from './siteList';
import { checkReference, isModelList, resolveVariants } from './variants';
import type { VariantSpec } from '../../../domain/multiSite';
import { notifyProblems } from './notifyOptions';

/** Problems shown before "… and N more", as for dataset issues. */
export const SHOWN_PROBLEMS = 20;

/** File extensions a backfill's answers file may have. */
export const ANSWER_FILE_EXTENSIONS = ['.csv', '.jsonl', '.ndjson'] as const;

/** Run ids and workflow ids as `sitechat` makes them: letters, digits, `.`, `_`, `-`; no path separators. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/u;

/** Collects usage problems in the order they are found (flags in the order `--help` lists them). */
export class UsageProblems {
  readonly lines: string[] = [];

  add(flag: string, message: string): void {
    this.lines.push(`${flag}: ${message}`);
  }

  /** Runs `check`, recording a thrown UsageError / DurationError / ConfigError as a problem of `flag`. */
  try<T>(flag: string, check: () => T): T | undefined {
    try {
      return check();
    } catch (err) {
      if (!(err instanceof UsageError || err instanceof DurationError)) throw err;
      this.add(flag, err.message.replace(`${flag} `, '').replace(/^: /u, ''));
      return undefined;
    }
  }
}

/** At most `max` lines, then "… and N more". */
export function capLines(lines: readonly string[], max = SHOWN_PROBLEMS, total = lines.length): string[] {
  const shown = lines.slice(0, max);
  return total > shown.length ? [...shown, `… and ${total - shown.length} more`] : shown;
}

/** A duration of more than zero, e.g. 90s or 5m. */
export function parsePositiveDuration(raw: string, flag: string): number {
  const ms = parseDuration(raw);
  if (ms <= 0) throw new UsageError(`${flag} must be more than 0, got ${JSON.stringify(raw)}`);
  return ms;
}

export function isEmail(text: string): boolean {
  return EMAIL_PATTERN.test(text.trim());
}

/** A run id or workflow id safe to use as a directory name and a workflow id. */
export function checkRunId(id: string, flag: string): void {
  if (!SAFE_ID.test(id) || id.includes('..')) {
    throw new UsageError(`${flag} must be a run id such as 20261122-0412-5f3a9c (letters, digits, ".", "_", "-"; no "/" or ".."), got ${JSON.stringify(id)}`);
  }
}

/** File-system errors in words; the others keep Node's message. */
const FS_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many levels of symbolic links (a link that points to itself?)',
  EROFS: 'the file system is read-only',
  ENAMETOOLONG: 'the name is too long',
  ENOSPC: 'no space left on the device',
  EEXIST: 'something else exists there',
};

/** An error of the file system about `path`, named in words: `/srv/out: permission denied`. */
function fsProblem(path: string, err: unknown): string {
  const { code, message } = err as NodeJS.ErrnoException;
  return `${path}: ${(code !== undefined ? FS_ERRORS[code] : undefined) ?? message}`;
}

/**
 * What is at `path` (links followed): its stats, nothing (absent), or a problem. A symbolic link whose target is
 * missing is a problem rather than "absent": neither a directory nor a file could be created through it here.
 */
async function inspectPath(path: string): Promise<{ info?: Stats; problem?: string }> {
  try {
    return { info: await stat(path) };
  } catch (err) {
    if (!isNotFound(err)) return { problem: fsProblem(path, err) };
    const link = await lstat(path).catch(() => undefined);
    if (!link?.isSymbolicLink()) return {};
    const target = await readlink(path).catch(() => '?');
    return { problem: `${path} is a symbolic link to ${target}, which does not exist: create it, or give another path` };
  }
}

/** The closest existing directory at or above `path`, or a problem when it is a file or cannot be written. */
async function writableAncestor(path: string): Promise<string | undefined> {
  let dir = resolve(path);
  for (;;) {
    const { info, problem } = await inspectPath(dir);
    if (problem) return problem;
    if (info) {
      if (!info.isDirectory()) return `${dir} is a file, not a directory`;
      return access(dir, constants.W_OK).then(() => undefined, () => `${dir} is not writable`);
    }
    const parent = dirname(dir);
    if (parent === dir) return `no existing directory above ${path}`;
    dir = parent;
  }
}

/**
 * `run --out`: a directory (created when absent); an existing file is refused. Every failure is returned as a
 * problem of the flag, never thrown: a bad `--out` is a usage error (exit 2), whatever the file system said.
 */
export async function checkOutDir(path: string): Promise<string | undefined> {
  const { info, problem } = await inspectPath(path);
  if (problem) return problem;
  if (info && !info.isDirectory()) return `${path} is a file; give a directory for the report files`;
  const above = await writableAncestor(path);
  if (above) return above;
  return mkdir(path, { recursive: true }).then(() => undefined, (err: unknown) => fsProblem(path, err));
}

/** `backfill --out`: a .csv or .jsonl file whose directory can be written. Failures are returned, as for a run's. */
export async function checkOutFile(path: string): Promise<string | undefined> {
  const ext = extname(path).toLowerCase();
  if (!(ANSWER_FILE_EXTENSIONS as readonly string[]).includes(ext)) return `${path}: use a .csv or .jsonl file name for the answers`;
  const { info, problem } = await inspectPath(path);
  if (problem) return problem;
  if (info?.isDirectory()) return `${path} is a directory; give a file name ending in .csv or .jsonl`;
  if (info) return access(path, constants.W_OK).then(() => undefined, () => `${path} exists and is not writable`);
  return writableAncestor(dirname(resolve(path)));
}

/**
 * `--baseline`: `latest`, a finished run's report directory (or a file in it) holding results.jsonl, or a multi-site
 * or matrix run's combined report directory (its summary.json lists the runs; each site or variant of this run is
 * compared with its counterpart there).
 */
export async function checkBaseline(ref: string): Promise<string | undefined> {
  if (ref === 'latest') return undefined;
  const info = await stat(ref).catch(() => undefined);
  if (!info) return `${ref}: no such run directory (give a finished run's directory, e.g. runs/<runId>, or latest)`;
  const dir = info.isDirectory() ? ref : dirname(ref);
  const results = await stat(join(dir, ReportFile.results)).catch(() => undefined);
  if (results?.isFile() || ((await combinedLines(dir))?.length ?? 0) > 0) return undefined;
  return `${dir} is not a finished run directory: it has no ${ReportFile.results} (were its reports written?)`;
}

/**
 * Loads a run config and every custom grader module it names, from `gradersDir` only when given (what the run's
 * worker allows); problems name the file, the key and the module.
 */
export async function checkConfig(path: string, gradersDir?: string): Promise<{ config?: RunConfig; problems: string[] }> {
  let config: RunConfig;
  try {
    config = await loadRunConfig(path);
  } catch (err) {
    if (err instanceof ConfigError) return { problems: err.message.split('\n') };
    throw err;
  }
  const problems: string[] = [];
  for (const [i, spec] of config.assertions.entries()) {
    if (spec.type !== 'custom') continue;
    try {
      await loadCustomGrader(spec.module, { gradersDir });
    } catch (err) {
      problems.push(`${path}: \`assertions[${i}].module\` ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { config, problems };
}

/** `--site a,b,c`: valid names, and only where several sites make sense (an evaluation that is not resumed). */
function checkSiteList(p: UsageProblems, kind: 'evaluation' | 'backfill', flags: ValidatedFlags, site: string, from: string): void {
  if (p.try(from, () => parseSiteList(site, from)) === undefined) return;
  if (kind === 'backfill') p.add(from, 'a backfill asks one site (its answers file is per site): run one backfill per site');
  if (flags.resume !== undefined) p.add('--resume', 'resume a multi-site run one site at a time: --site SITE --resume <runId>-SITE');
}

/**
 * `--model a,b`, the config's `variants:` and `--reference`: variants that can be named and told apart, only where a
 * matrix makes sense (an evaluation that is not resumed), and a reference that is one of them.
 */
function checkMatrix(p: UsageProblems, kind: 'evaluation' | 'backfill', flags: ValidatedFlags, config: RunConfig | undefined, site: string, siteFrom: string): void {
  const model = flags.model ?? config?.model;
  const modelFrom = flags.model !== undefined ? '--model' : `--config ${flags.config ?? ''}: \`model\``;
  let variants: VariantSpec[] | undefined;
  try {
    variants = resolveVariants({ site, siteFrom, model, modelFrom, config, configFile: flags.config });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    p.lines.push(err.message);
    return;
  }
  // A list of sites alone is judged by checkSiteList, with the messages multi-site runs always had.
  if (variants && (isModelList(model) || config?.variants)) {
    const from = isModelList(model) ? modelFrom : `--config ${flags.config ?? ''}: \`variants\``;
    if (kind === 'backfill') p.add(from, 'a backfill asks one variant (its answers file is per run): run one backfill per model or variant');
    if (flags.resume !== undefined) p.add('--resume', 'resume a matrix run one variant at a time: --resume <runId>-<variant> with that variant\'s settings');
  }
  if (flags.reference !== undefined) {
    if (kind === 'backfill') p.add('--reference', 'a backfill has no gate: --reference is for evaluation runs');
    else p.try('--reference', () => checkReference(flags.reference as string, variants));
  }
}

/** Flags of `run` and `backfill`; `maxErrorRate` and `maxUncertainRate` are the quality gate's ceilings where the command has them. */
export type ValidatedFlags = RunFlags & { maxErrorRate?: string; maxUncertainRate?: string };

export interface FlagCheck {
  problems: string[];
  /** The loaded run config, when `--config` was given and loads. */
  config?: RunConfig;
}

/**
 * Every flag of `run` / `backfill` that can be judged here, in `--help` order. `defaultSiteId` is what the
 * runtime would use without `--site`. `--out` of a run is created when absent.
 */
export async function validateRunFlags(kind: 'evaluation' | 'backfill', flags: ValidatedFlags, env: NodeJS.ProcessEnv, defaultSiteId?: string): Promise<FlagCheck> {
  const p = new UsageProblems();
  let config: RunConfig | undefined;
  if (flags.config !== undefined) {
    const loaded = await checkConfig(flags.config, gradersDirFor(flags.config, env));
    config = loaded.config;
    for (const line of loaded.problems) p.lines.push(`--config ${line}`);
  }
  const site = flags.site ?? config?.site ?? defaultSiteId;
  if (site === undefined || site.trim() === '') p.add('--site', 'no site given: pass --site ID or set SITECHAT_SITE_ID');
  else {
    const siteFrom = flags.site !== undefined ? '--site' : config?.site !== undefined ? `--config ${flags.config ?? ''}: \`site\`` : 'SITECHAT_SITE_ID';
    const before = p.lines.length;
    if (isSiteList(site)) checkSiteList(p, kind, flags, site, siteFrom);
    if (p.lines.length === before) checkMatrix(p, kind, flags, config, site, siteFrom);
  }
  if (flags.concurrency !== undefined) p.try('--concurrency', () => parsePositiveInt(flags.concurrency as string, '--concurrency'));
  if (flags.answerTimeout !== undefined) p.try('--answer-timeout', () => parsePositiveDuration(flags.answerTimeout as string, '--answer-timeout'));
  if (flags.email !== undefined && !isEmail(flags.email)) p.add('--email', `must be an email address, got ${JSON.stringify(flags.email)}`);
  else if (flags.email === undefined && env.SITECHAT_EMAIL && !isEmail(env.SITECHAT_EMAIL)) p.add('SITECHAT_EMAIL', `must be an email address, got ${JSON.stringify(env.SITECHAT_EMAIL)}`);
  if (flags.baseline !== undefined) {
    const problem = await checkBaseline(flags.baseline);
    if (problem) p.add('--baseline', problem);
  }
  if (flags.failUnder !== undefined) p.try('--fail-under', () => parseRate(flags.failUnder as string, '--fail-under'));
  if (flags.maxErrorRate !== undefined) p.try('--max-error-rate', () => parseRate(flags.maxErrorRate as string, '--max-error-rate'));
  if (flags.maxUncertainRate !== undefined) p.try('--max-uncertain-rate', () => parseRate(flags.maxUncertainRate as string, '--max-uncertain-rate'));
  if (flags.reaskFailed !== undefined) p.try('--reask-failed', () => parseReaskFailed(flags.reaskFailed as string));
  if (flags.confirm !== undefined) {
    if (kind === 'backfill') p.add('--confirm', 'a backfill has no gate: --confirm is for evaluation runs');
    else p.try('--confirm', () => parseConfirm(flags.confirm as string));
  }
  if (flags.repeat !== undefined) {
    if (kind === 'backfill') p.add('--repeat', 'a backfill records one answer per row: --repeat is for evaluation runs');
    else p.try('--repeat', () => parseRepeat(flags.repeat as string));
  }
  p.lines.push(...notifyProblems(flags, config, env, flags.worker, flags.config));
  if (flags.out !== undefined) {
    const problem = kind === 'evaluation' ? await checkOutDir(flags.out) : await checkOutFile(flags.out);
    if (problem) p.add('--out', problem);
  }
  if (flags.delimiter !== undefined) {
    try {
      normalizeDelimiter('--delimiter', flags.delimiter);
    } catch (err) {
      if (!(err instanceof DatasetFileError)) throw err;
      p.lines.push(err.message);
    }
  }
  if (flags.resume !== undefined) p.try('--resume', () => checkRunId(flags.resume as string, '--resume'));
  if (flags.detach && (!temporalConfigured(env) || (flags.worker && !env.SITECHAT_BASE_URL))) {
    p.add('--detach', 'needs a Temporal server and an API that outlive this command, and here both are embedded in it: set TEMPORAL_ADDRESS ' +
      '(e.g. from `npx sitechat server`) and SITECHAT_BASE_URL, and run `npx sitechat worker`');
  }
  return { problems: p.lines, config };
}
