/**
 * A previous run's directory as input: its `results.jsonl` holds every row's question, `expected`, tags and answer.
 * The row columns that results do not carry (must_include, regex, min_confidence …) come from the run's dataset
 * when that file is still there unchanged; otherwise the run is re-graded from what the results hold, and says so.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256File, walkDataset, type DatasetIssue, type DatasetRow } from '../datasets';
import { isNotFound, readJsonIfExists, scanLines } from '../shared/fileIo';
import { ReportFile } from '../store/files';
import { Outcome, type RowResult, type RunSummary } from '../domain/results';
import type { GradeInput, GradeItem } from './types';

/** Outcomes that carry an answer worth grading again (uncertain ones too); the others (error, timed_out, skipped) are kept as they were. */
const ANSWERED = new Set<string>([Outcome.passed, Outcome.failed, Outcome.uncertain, Outcome.answered]);

async function datasetRows(summary: RunSummary, warnings: string[]): Promise<Map<string, DatasetRow> | undefined> {
  const sha = await sha256File(summary.dataset).catch(() => undefined);
  if (sha === undefined || sha !== summary.datasetSha256) {
    warnings.push(`the run's dataset ${summary.dataset} is ${sha === undefined ? 'not readable' : 'changed since the run'}: `
      + 'rows are graded from results.jsonl alone (question, expected, tags); row columns such as must_include, regex or min_confidence are not applied');
    return undefined;
  }
  const rows = new Map<string, DatasetRow>();
  await walkDataset(summary.dataset, { requireEmail: false }, (row) => void rows.set(row.id, row));
  return rows;
}

function rowOf(result: RowResult, fromDataset: DatasetRow | undefined): DatasetRow {
  if (fromDataset) return fromDataset;
  const { id, index, line, question, conversation, turn, email, model, expected, tags, metadata } = result;
  const row: DatasetRow = { id, index, line, question, metadata: metadata ?? {} };
  return Object.assign(row, Object.fromEntries(Object.entries({ conversation, turn, email, model, expected, tags }).filter(([, v]) => v !== undefined)));
}

export async function isRunDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

export async function openRunInput(dir: string): Promise<GradeInput> {
  const issues: DatasetIssue[] = [];
  const warnings: string[] = [];
  const summary = (await readJsonIfExists(join(dir, ReportFile.summary)).catch(() => undefined)) as RunSummary | undefined;
  const resultsPath = join(dir, ReportFile.results);
  if (!summary || typeof summary.datasetSha256 !== 'string') issues.push({ file: dir, line: 0, message: `no readable ${ReportFile.summary}: not a run directory written by \`sitechat run\`` });
  const present = await stat(resultsPath).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
  if (!present) issues.push({ file: dir, line: 0, message: `no ${ReportFile.results}: not a run directory written by \`sitechat run\`` });
  let rows = 0;
  if (issues.length === 0) {
    for await (const { text, line } of scanLinesNumbered(resultsPath)) {
      if (text.trim() === '') continue;
      try {
        const r = JSON.parse(text) as Partial<RowResult>;
        if (typeof r.id !== 'string' || typeof r.question !== 'string' || typeof r.index !== 'number') throw new Error('a row needs `id`, `index` and `question`');
        rows += 1;
      } catch (err) {
        issues.push({ file: resultsPath, line, message: `not a result row: ${err instanceof Error ? err.message : String(err)}` });
      }
    }
  }
  const base = summary as RunSummary;
  return {
    source: { kind: 'run', path: dir, runId: base?.runId, siteId: base?.siteId, model: base?.model ?? undefined, answers: base?.provenance?.answers },
    dataset: base?.dataset ?? dir,
    datasetSha256: base?.datasetSha256 ?? '',
    rows,
    issues,
    issueCount: issues.length,
    warnings,
    async *items(): AsyncGenerator<GradeItem> {
      const dataset = await datasetRows(base, warnings);
      for await (const { text } of scanLines(resultsPath)) {
        if (text.trim() === '') continue;
        const result = JSON.parse(text) as RowResult;
        const row = rowOf(result, dataset?.get(result.id));
        if (!ANSWERED.has(result.outcome)) {
          yield { row, answer: undefined, kept: result };
          continue;
        }
        yield { row, answer: { answer: result.answer ?? '', confidenceScore: result.confidenceScore, latencyMs: result.latencyMs }, recorded: result };
      }
    },
  };
}

async function* scanLinesNumbered(path: string): AsyncGenerator<{ text: string; line: number }> {
  let line = 0;
  for await (const { text } of scanLines(path)) yield { text, line: ++line };
}
