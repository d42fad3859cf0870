import { baseIdOf } from '../datasets/repeat';
import { baselineRowsFor, type BaselineInput } from './baseline';
import { ErrorGroups, type ErrorGroup } from './errorGroups';
import type { ResultsStore } from '../store/store';
import { DecidedBy, Outcome, type RowResult, type RunSummary, type SessionCloseFailure } from '../domain/results';

/** An earlier turn of a conversation, shown above a follow-up row. */
export interface PriorTurn {
  id: string;
  turn?: number;
  question: string;
  answer?: string;
  outcome: Outcome;
}

/** What the detailed report sections need beyond the run's own rows; every part is capped. */
export interface ReportContext {
  /** The baseline's rows for the regressed and fixed rows shown, by id. */
  baselineRows: ReadonlyMap<string, RowResult>;
  /** Earlier turns of each follow-up row shown in detail, by row id, oldest first. */
  priorTurns: ReadonlyMap<string, PriorTurn[]>;
  /** Sessions the run could not close: the first `items`, and how many there are. */
  sessionFailures: { items: SessionCloseFailure[]; total: number };
  /** The rows shown in detail, per section (capped), and how many each section has. */
  details: Record<DetailSection, { rows: RowResult[]; total: number }>;
  /** Rows whose feedback was not recorded (capped), and how many. */
  lostFeedback: { rows: RowResult[]; total: number };
  /** Causes two errored rows or more share: one line each in the errors section, instead of a card per row. */
  errorGroups: ErrorGroup[];
}

function emptyDetails(): ReportContext['details'] {
  return {
    regressed: { rows: [], total: 0 }, fixed: { rows: [], total: 0 }, failed: { rows: [], total: 0 }, uncertain: { rows: [], total: 0 },
    errored: { rows: [], total: 0 }, 'passed-by-person': { rows: [], total: 0 },
  };
}

export const EMPTY_CONTEXT: ReportContext = {
  baselineRows: new Map(), priorTurns: new Map(), sessionFailures: { items: [], total: 0 }, details: emptyDetails(), lostFeedback: { rows: [], total: 0 },
  errorGroups: [],
};

/** Which detail section of a report a row belongs to, if any. One rule for every renderer. */
export const DetailSection = {
  regressed: 'regressed',
  fixed: 'fixed',
  failed: 'failed',
  /** Needs review: the graders could not decide and nothing settled the grade. */
  uncertain: 'uncertain',
  errored: 'errored',
  /** Passed by a person's label (a row a label failed is under `failed` or `regressed`): shown with what the graders said. */
  passedByPerson: 'passed-by-person',
} as const;
export type DetailSection = (typeof DetailSection)[keyof typeof DetailSection];

export function detailSectionOf(row: RowResult, regressed: ReadonlySet<string>, fixed: ReadonlySet<string>): DetailSection | undefined {
  // With repeats the comparison is by dataset row: every answer of a row that fell is shown with the row.
  const id = baseIdOf(row);
  if (regressed.has(id)) return DetailSection.regressed;
  if (fixed.has(id)) return DetailSection.fixed;
  if (row.outcome === Outcome.failed) return DetailSection.failed;
  if (row.outcome === Outcome.uncertain) return DetailSection.uncertain;
  if (row.outcome === Outcome.error || row.outcome === Outcome.timedOut) return DetailSection.errored;
  if (row.decision?.by === DecidedBy.label) return DetailSection.passedByPerson;
  return undefined;
}

export interface ContextOptions {
  /** Rows shown in detail per section (the renderers' cap). @default 50 */
  maxRows?: number;
  /** Earlier turns kept per follow-up row (the latest ones). @default 10 */
  maxTurns?: number;
  /** Characters of an earlier turn's answer kept. @default 1000 */
  maxText?: number;
  /** Unclosed sessions listed. @default 100 */
  maxSessions?: number;
}

/** Earlier in the conversation: by `turn` when both rows have one, else by dataset order. */
function isBefore(a: RowResult, b: RowResult): boolean {
  return a.turn !== undefined && b.turn !== undefined ? a.turn < b.turn : a.index < b.index;
}

/**
 * Two streaming passes over the run's rows (which rows are shown in detail, then the earlier turns of the follow-up
 * ones among them), one over the baseline's rows for the regressed and fixed ids shown, and the unclosed sessions.
 * Memory is bounded by the caps, whatever the run's size.
 */
export async function collectReportContext(
  store: ResultsStore,
  runId: string,
  summary: RunSummary,
  baseline?: BaselineInput,
  options: ContextOptions = {},
): Promise<ReportContext> {
  const { maxRows = 50, maxTurns = 10, maxText = 1000, maxSessions = 100 } = options;
  const regressed = new Set(summary.baseline?.regressed);
  const fixed = new Set(summary.baseline?.fixed);
  const details = emptyDetails();
  const lostFeedback: ReportContext['lostFeedback'] = { rows: [], total: 0 };
  const compareIds = new Set<string>();
  const followUps = new Map<string, RowResult[]>();
  const errorGroups = new ErrorGroups();
  for await (const row of store.read(runId)) {
    if (row.feedback === 'failed' && lostFeedback.total++ < maxRows) lostFeedback.rows.push(row);
    errorGroups.add(row);
    const section = detailSectionOf(row, regressed, fixed);
    if (!section) continue;
    const shown = details[section];
    if (shown.total++ >= maxRows) continue;
    shown.rows.push(row);
    if (section === DetailSection.regressed || section === DetailSection.fixed) compareIds.add(baseIdOf(row));
    if (row.conversation !== undefined && (row.turn === undefined || row.turn > 1)) {
      const list = followUps.get(row.conversation) ?? [];
      list.push(row);
      followUps.set(row.conversation, list);
    }
  }

  const priorTurns = new Map<string, PriorTurn[]>();
  if (followUps.size > 0) {
    for await (const row of store.read(runId)) {
      const shown = row.conversation === undefined ? undefined : followUps.get(row.conversation);
      for (const target of shown ?? []) {
        if (row.id === target.id || !isBefore(row, target)) continue;
        const list = priorTurns.get(target.id) ?? [];
        list.push({ id: row.id, turn: row.turn, question: row.question, answer: row.answer?.slice(0, maxText), outcome: row.outcome });
        list.sort((x, y) => (x.turn ?? 0) - (y.turn ?? 0));
        if (list.length > maxTurns) list.shift();
        priorTurns.set(target.id, list);
      }
    }
  }

  const items: SessionCloseFailure[] = [];
  let total = 0;
  for await (const failure of store.readSessionFailures(runId)) {
    if (total++ < maxSessions) items.push(failure);
  }
  return { baselineRows: await baselineRowsFor(baseline, compareIds), priorTurns, sessionFailures: { items, total }, details, lostFeedback, errorGroups: errorGroups.collapsed() };
}
