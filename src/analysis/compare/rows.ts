/** Reads finished runs from the results store and lines their rows up by dataset row. */
import type { ResultsStore } from '../../store/store';
import type { RowCounts } from '../repeatStats';
import { Outcome, type RowResult, type RunMeta } from '../../domain/results';
import { isDecided } from './statistics';
import type { Cell, ComparedRow, Variant } from './types';

/** A run that cannot be compared: the CLI reports it as a usage error (exit 2). */
export class CompareInputError extends Error {
  override readonly name = 'CompareInputError';
}

/** Each run's meta, checked: it exists, finished, graded (not a backfill) and, unless allowed, on one dataset. */
export async function loadVariants(store: ResultsStore, runIds: readonly string[], opts: { anyDataset?: boolean } = {}): Promise<Variant[]> {
  if (runIds.length < 2) throw new CompareInputError(`compare needs at least two runs, got ${runIds.length}`);
  const seen = new Set<string>();
  const metas: RunMeta[] = [];
  for (const runId of runIds) {
    if (seen.has(runId)) throw new CompareInputError(`run ${runId} is named twice`);
    seen.add(runId);
    const meta = await store.getMeta(runId);
    if (!meta) throw new CompareInputError(`no run ${runId} in the results store (see \`npx sitechat runs\` for the run ids)`);
    if (!meta.finishedAt) throw new CompareInputError(`run ${runId} has not finished: compare it once it has (or \`npx sitechat watch ${runId}\`)`);
    if (meta.kind !== 'evaluation') throw new CompareInputError(`run ${runId} is a ${meta.kind}, which has no grades to compare`);
    metas.push(meta);
  }
  const first = metas[0] as RunMeta;
  const other = metas.find((m) => m.datasetSha256 !== first.datasetSha256);
  if (other && !opts.anyDataset) {
    throw new CompareInputError(`runs ${first.runId} and ${other.runId} asked different datasets (${first.dataset} sha256 ${first.datasetSha256.slice(0, 12)}…, ` +
      `${other.dataset} sha256 ${other.datasetSha256.slice(0, 12)}…): compare runs of one dataset, or pass --any-dataset to pair rows by id and question`);
  }
  return labelled(metas);
}

/** Between a label and the run id that tells two equal labels apart. */
const RUN_SEPARATOR = ' · ';

/** `model @ site`; the run id is added where two labels would read the same. */
function labelled(metas: readonly RunMeta[]): Variant[] {
  const variants = metas.map((m): Variant => ({
    label: `${m.model ?? 'default model'} @ ${m.siteId}`, runId: m.runId, siteId: m.siteId, dataset: m.dataset,
    datasetSha256: m.datasetSha256, startedAt: m.startedAt, ...(m.model ? { model: m.model } : {}),
  }));
  const count = new Map<string, number>();
  for (const v of variants) count.set(v.label, (count.get(v.label) ?? 0) + 1);
  return variants.map((v) => ((count.get(v.label) ?? 0) > 1 ? { ...v, label: `${v.label}${RUN_SEPARATOR}${v.runId}` } : v));
}

/** The label and the run id, each once: "default model @ demo-site · 20261128-0041-a04a8a", "gpt-4o @ shop (20261128-…)". */
export function labelAndRun(v: Pick<Variant, 'label' | 'runId'>): string {
  return v.label.endsWith(`${RUN_SEPARATOR}${v.runId}`) ? v.label : `${v.label} (${v.runId})`;
}

/** The label without the run id that tells it apart, for a table that shows the run id in a column of its own. */
export function labelBesideRun(v: Pick<Variant, 'label' | 'runId'>): string {
  const suffix = `${RUN_SEPARATOR}${v.runId}`;
  return v.label.endsWith(suffix) ? v.label.slice(0, -suffix.length) : v.label;
}

function cellOf(row: RowResult): Cell {
  const failed = row.assertions?.find((a) => !a.pass);
  const reason = row.decision?.reason ?? row.error ?? failed?.reason ?? row.assertions?.[0]?.reason;
  return {
    outcome: row.outcome,
    ...(row.answer !== undefined ? { answer: row.answer } : {}),
    ...(reason ? { reason } : {}),
    ...(row.latencyMs !== undefined ? { latencyMs: row.latencyMs } : {}),
    ...(row.confidenceScore !== undefined ? { confidenceScore: row.confidenceScore } : {}),
  };
}

/**
 * Every row of every run, in dataset order, with each run's cell: its first answer, and with repeats the count of all
 * its answers. A row is paired by id; with runs of different datasets, the question must also be the same.
 * Confirming answers (`--confirm`) are left out and counted: asked only for rows that regressed, they would tilt a
 * pair. Memory: one cell per run and row (first answers included).
 */
export async function lineUpRows(store: ResultsStore, variants: readonly Variant[], skipped = { confirmations: 0 }): Promise<ComparedRow[]> {
  const rows = new Map<string, ComparedRow>();
  const conflicts = new Map<string, string>();
  // Per variant: every graded answer of a dataset row (repeats included), and whether the run repeated at all.
  const counts = variants.map(() => new Map<string, RowCounts>());
  const repeated = variants.map(() => false);
  for (const [v, variant] of variants.entries()) {
    for await (const result of store.read(variant.runId)) {
      if (result.confirm !== undefined) {
        skipped.confirmations++;
        continue;
      }
      tally(counts[v] as Map<string, RowCounts>, result);
      if ((result.repeat ?? 1) > 1) {
        repeated[v] = true;
        continue;
      }
      let row = rows.get(result.id);
      if (!row) {
        row = {
          id: result.id, index: result.index, question: result.question, cells: new Array<Cell | undefined>(variants.length).fill(undefined), disagree: false,
          ...(result.conversation ? { conversation: result.conversation } : {}), ...(result.turn !== undefined ? { turn: result.turn } : {}),
        };
        rows.set(result.id, row);
      } else if (row.question !== result.question && !conflicts.has(result.id)) {
        conflicts.set(result.id, `the question differs in ${variant.label}`);
      }
      row.cells[v] = cellOf(result);
    }
  }
  for (const row of rows.values()) {
    row.cells.forEach((cell, v) => {
      if (cell && repeated[v]) cell.repeats = counts[v]?.get(row.id) ?? { passed: 0, graded: 0 };
    });
  }
  const out = [...rows.values()].sort((a, b) => a.index - b.index || a.id.localeCompare(b.id));
  for (const row of out) {
    const conflict = conflicts.get(row.id);
    if (conflict) row.mismatched = true;
    const unpaired = conflict ?? whyUnpaired(row, variants);
    if (unpaired) row.unpaired = unpaired;
    const grades = new Set(row.cells.filter(isDecided).map((c) => c.outcome));
    row.disagree = grades.size > 1 || (!!unpaired && row.cells.some(isDecided));
  }
  return out;
}

/** Adds one answer to its dataset row's count (a repeat's row is its `baseId`); only passed and failed are graded. */
function tally(counts: Map<string, RowCounts>, result: RowResult): void {
  const id = result.baseId ?? result.id;
  const c = counts.get(id) ?? { passed: 0, graded: 0 };
  if (result.outcome === Outcome.passed || result.outcome === Outcome.failed) c.graded++;
  if (result.outcome === Outcome.passed) c.passed++;
  counts.set(id, c);
}

/** Why a row is not graded by every variant: no result, or an outcome without a grade (uncertain, error …). */
function whyUnpaired(row: ComparedRow, variants: readonly Variant[]): string | undefined {
  const reasons: string[] = [];
  row.cells.forEach((cell, v) => {
    const name = variants[v]?.label ?? `variant ${v + 1}`;
    if (!cell) reasons.push(`no result in ${name}`);
    else if (!isDecided(cell)) reasons.push(`${cell.outcome === Outcome.uncertain ? 'needs review' : cell.outcome} in ${name}`);
  });
  return reasons.length ? reasons.join('; ') : undefined;
}
