import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadBaseline, loadBaselineFromStore, type BaselineInput } from './baseline';
import { ReportFile } from '../store/files';
import { pct } from './gate';
import type { ResultsStore } from '../store/store';
import { RunKind, type BaselineSelection, type RunMeta, type RunSummary, type SkippedBaseline } from '../domain/results';
import { plural } from '../shared/plural';

/**
 * `--baseline DIR` naming a multi-site or matrix run's combined report: each run of this one compares with its
 * counterpart there — the variant of the same name (a matrix run's `DIR/<variant>/`), else the line of the same site
 * and model (two models on one site are two lines), else the same site's (a multi-site run's `DIR/<site>/`), or the
 * directory the summary names. Any other directory is one run, the baseline of every site and variant.
 */
async function counterpartRunDir(dir: string, target: BaselineTarget): Promise<string> {
  const lines = await combinedLines(dir);
  if (!lines) return dir; // one run's directory; loadBaseline says what is wrong with it, if anything
  const onSite = lines.filter((l) => l.siteId === target.siteId);
  const line = (target.variant ? lines.find((l) => l.variant?.name === target.variant) : undefined)
    ?? (onSite.length > 1 ? onSite.find((l) => (l.variant?.model ?? null) === target.model) : onSite[0]);
  if (!line) {
    const names = lines.map((l) => l.variant?.name ?? l.siteId).join(', ');
    throw new Error(onSite.length > 1
      ? `baseline ${dir} has ${onSite.length} variants on site ${target.siteId}, none named ${target.variant ?? '(no variant)'} or of ${modelName(target.model)} (its variants: ${names})`
      : `baseline ${dir} is a multi-site run without site ${target.siteId} (its sites: ${names})`);
  }
  const here = join(dir, line.variant?.name ?? line.siteId);
  if (existsSync(join(here, ReportFile.results)) || !line.reportDir) return here;
  return line.reportDir;
}

/** What a combined summary.json says of each of its runs. */
interface CombinedLine {
  siteId: string;
  reportDir?: string;
  variant?: { name: string; model?: string };
}

/**
 * The runs a multi-site or matrix run's combined report in `dir` lists (its summary.json's `sites`); undefined for any
 * other directory, or a summary that cannot be read.
 */
export async function combinedLines(dir: string): Promise<CombinedLine[] | undefined> {
  const text = await readFile(join(dir, ReportFile.summary), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const sites = (JSON.parse(text) as { sites?: unknown }).sites;
    return Array.isArray(sites) ? (sites as CombinedLine[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Skipped runs listed in a report before "… N more". */
const MAX_SKIPPED = 20;

/** The run being judged: what a baseline must match. */
export interface BaselineTarget {
  runId: string;
  /** Dataset path as recorded; runs of the same path with another sha256 are listed as skipped. */
  dataset: string;
  datasetSha256: string;
  siteId: string;
  /** The run's model (`--model`); null = the site's default, which counts as its own value. */
  model: string | null;
  /** A matrix run's variant name: `--baseline DIR` of an earlier matrix run picks the variant of that name. */
  variant?: string;
  /** The gate's `maxErrorRate`: a baseline must have done at least as well. */
  maxErrorRate: number;
}

export interface BaselineChoice {
  baseline?: BaselineInput;
  selection: BaselineSelection;
  /** No comparison, and not the run's fault (`latest` found nothing compatible): the gate does not fail for it. */
  unavailable: boolean;
}

export function modelName(model: string | null | undefined): string {
  return model ? `model ${model}` : 'the site default model';
}

function shortSha(sha: string): string {
  return sha.length > 12 ? `${sha.slice(0, 12)}…` : sha;
}

function errorRateOf(s: RunSummary): number {
  const rows = s.total + s.missing;
  return rows === 0 ? 0 : (s.error + s.timedOut) / rows;
}

/** Older summaries have no `cancelled`: skipped rows in them only come from a cancel. */
export function wasCancelled(s: RunSummary): boolean {
  return (s as Partial<RunSummary>).cancelled ?? s.skipped > 0;
}

/** Why a run cannot be the baseline of `target`, or undefined when it can. */
async function incompatibility(store: ResultsStore, meta: RunMeta, target: BaselineTarget): Promise<{ reason?: string; summary?: RunSummary }> {
  if (meta.finishedAt === undefined) return { reason: 'not finished (still running, or it crashed before its reports)' };
  let summary: RunSummary | undefined;
  try {
    summary = await store.getSummary(meta.runId);
  } catch (err) {
    return { reason: `unreadable summary (${err instanceof Error ? err.message : String(err)})` };
  }
  if (!summary || typeof summary.total !== 'number') return { reason: 'no readable summary' };
  if (wasCancelled(summary)) return { reason: `cancelled (${plural(summary.skipped, 'row')} skipped)` };
  if (summary.datasetSha256 !== target.datasetSha256) {
    return { reason: `another version of the dataset (sha256 ${shortSha(summary.datasetSha256)}, this run ${shortSha(target.datasetSha256)})` };
  }
  const model = summary.model ?? null;
  if (model !== target.model) return { reason: `another model (${modelName(model)}; this run uses ${modelName(target.model)})` };
  if (summary.missing > 0) return { reason: `incomplete (${plural(summary.missing, 'row')} without a result)` };
  const rate = errorRateOf(summary);
  if (rate > target.maxErrorRate) return { reason: `error rate ${pct(rate)} above the gate's ${pct(target.maxErrorRate)}` };
  return { summary };
}

/**
 * `--baseline latest`: the newest finished, not cancelled evaluation run of the same dataset sha256, site and model,
 * whose error rate is within the gate's. Runs of the same dataset path or sha256 passed over on the way are
 * listed with the reason, newest first. None compatible: no comparison, and the gate does not fail for that.
 */
export async function selectLatestBaseline(store: ResultsStore, target: BaselineTarget): Promise<BaselineChoice> {
  const runs = await store.listRuns({ siteId: target.siteId, kind: RunKind.evaluation });
  const related = runs.filter((r) => r.runId !== target.runId && (r.datasetSha256 === target.datasetSha256 || r.dataset === target.dataset));
  const skipped: SkippedBaseline[] = [];
  let skippedMore = 0;
  const skip = (runId: string, reason: string): void => {
    if (skipped.length < MAX_SKIPPED) skipped.push({ runId, reason });
    else skippedMore++;
  };
  for (const meta of related) {
    const { reason, summary } = await incompatibility(store, meta, target);
    if (reason || !summary) {
      skip(meta.runId, reason ?? 'no readable summary');
      continue;
    }
    let baseline: BaselineInput;
    try {
      baseline = await loadBaselineFromStore(store, meta.runId);
    } catch (err) {
      skip(meta.runId, `unreadable results (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    if (baseline.outcomes.size !== summary.total) {
      skip(meta.runId, `corrupt results: ${plural(baseline.outcomes.size, 'row')} readable, its summary counts ${summary.total}`);
      continue;
    }
    const reason2 = `newest finished run of the same dataset (sha256 ${shortSha(target.datasetSha256)}), site ${target.siteId} and ${modelName(target.model)}; not cancelled; error rate ${pct(errorRateOf(summary))} within ${pct(target.maxErrorRate)}`;
    return {
      baseline,
      unavailable: false,
      selection: {
        requested: 'latest',
        chosen: { runId: meta.runId, model: summary.model ?? null, datasetSha256: summary.datasetSha256, startedAt: summary.startedAt, reason: reason2 },
        skipped,
        skippedMore,
        warnings: [],
      },
    };
  }
  const message = related.length === 0
    ? `no earlier run of this dataset on site ${target.siteId}: nothing to compare with (a first run)`
    : `no compatible earlier run (same dataset sha256, site, ${modelName(target.model)}, finished, not cancelled, error rate within ${pct(target.maxErrorRate)}): no comparison made`;
  return { unavailable: true, selection: { requested: 'latest', skipped, skippedMore, message, warnings: [] } };
}

/**
 * `--baseline DIR`: the run the user named is compared even when it is of another dataset or model or was
 * cancelled, with a warning saying so in every report. A baseline that cannot be read fails the gate.
 */
export async function loadExplicitBaseline(dir: string, target: BaselineTarget): Promise<BaselineChoice> {
  let baseline: BaselineInput;
  try {
    baseline = await loadBaseline(await counterpartRunDir(resolve(dir), target));
  } catch (err) {
    const message = `the baseline could not be loaded: ${err instanceof Error ? err.message : String(err)}`;
    return { unavailable: false, selection: { requested: dir, skipped: [], skippedMore: 0, message, warnings: [] } };
  }
  const s = baseline.summary;
  const warnings: string[] = [];
  const model = s?.model ?? null;
  if (!s) warnings.push(`baseline ${baseline.runId} has no summary.json: its dataset, model and completeness are unknown`);
  else {
    if (s.datasetSha256 !== target.datasetSha256) {
      warnings.push(`baseline ${baseline.runId} is of another dataset (sha256 ${shortSha(s.datasetSha256)}, this run ${shortSha(target.datasetSha256)}): only rows with the same id are paired`);
    }
    if (model !== target.model) warnings.push(`baseline ${baseline.runId} used ${modelName(model)}; this run uses ${modelName(target.model)}`);
    if (wasCancelled(s)) warnings.push(`baseline ${baseline.runId} was cancelled (${plural(s.skipped, 'row')} skipped)`);
  }
  return {
    baseline,
    unavailable: false,
    selection: {
      requested: dir,
      chosen: { runId: baseline.runId, model, datasetSha256: s?.datasetSha256 ?? 'unknown', startedAt: s?.startedAt ?? null, reason: `given with --baseline ${dir}` },
      skipped: [],
      skippedMore: 0,
      warnings,
    },
  };
}
