/**
 * Where the labelled answers of `labelAgreement` come from: the labels themselves (graded on their normalized
 * answers), or a run's rows that have a label (their raw answers, and the judge's verdict recorded on the row or
 * cached for it). `sitechat labels agreement` and the review page read them the same way.
 */
import { escalationRequest } from '../grading/escalation';
import type { JudgeCache } from '../grading/judge/cache';
import { formatReferences, parseReferences } from '../grading/references';
import type { ResultsStore } from '../store/store';
import { Outcome, type RowResult } from '../domain/results';
import type { LabelledAnswer } from './agreement';
import { labelKey } from './key';
import type { LabelFilter } from '../domain/label';

/** Label lookups per store call. */
const BATCH = 500;

const GRADED = new Set<string>([Outcome.passed, Outcome.failed, Outcome.uncertain]);

/** Every label matching `filter`, as a labelled answer (no judge verdict: the raw answer is not kept with a label). */
export async function labelledAnswersOfLabels(store: ResultsStore, filter: LabelFilter = {}): Promise<LabelledAnswer[]> {
  const items: LabelledAnswer[] = [];
  for await (const label of store.readLabels(filter)) {
    items.push({ question: label.question, references: label.references, answer: label.answer, verdict: label.verdict });
  }
  return items;
}

/** The judge cache and the model whose verdicts count (`SITECHAT_JUDGE_MODEL`); absent: only verdicts on the rows. */
export interface CachedJudge {
  cache: JudgeCache;
  model: string;
}

/**
 * The graded rows of `runId` that have a label of `siteId`. A row's key is the one the run recorded (`labelKey`), else
 * computed from its question, `expected` and answer. The references are the label's (what the person judged against).
 */
export async function labelledAnswersOfRun(store: ResultsStore, runId: string, siteId: string, judge?: CachedJudge): Promise<LabelledAnswer[]> {
  const items: LabelledAnswer[] = [];
  let batch: { key: string; row: RowResult }[] = [];
  const flush = async (): Promise<void> => {
    const found = await store.getLabels(batch.map((b) => b.key));
    for (const { key, row } of batch) {
      const label = found.get(key);
      if (!label) continue;
      const answer = row.answer ?? '';
      const item: LabelledAnswer = { question: row.question, references: label.references, answer, verdict: label.verdict };
      const verdict = recordedJudge(row) ?? (judge ? await cachedJudge(judge, row.question, label.references, answer) : undefined);
      items.push(verdict ? { ...item, judge: verdict } : item);
    }
    batch = [];
  };
  for await (const row of store.read(runId)) {
    if (!GRADED.has(row.outcome) || row.answer === undefined) continue;
    const key = row.labelKey ?? labelKey({ siteId, question: row.question, references: parseReferences(row.expected ?? ''), answer: row.answer });
    batch.push({ key, row });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return items;
}

/** The judge's verdict of the row's answer when the run asked it (an escalation or a judge assertion). */
function recordedJudge(row: RowResult): 'pass' | 'fail' | undefined {
  return row.assertions?.find((a) => a.judge !== undefined)?.judge?.verdict;
}

async function cachedJudge(judge: CachedJudge, question: string, references: readonly string[], answer: string): Promise<'pass' | 'fail' | undefined> {
  const request = escalationRequest({ question, expected: formatReferences(references) }, { answer }, [{ type: 'reference' }]);
  return request ? (await judge.cache.get(judge.model, request))?.verdict : undefined;
}
