import { isCancellation } from '@temporalio/workflow';
import type { AskInput, AskResult, PlannedRow } from '../activities/types';
import { feedbackFor, gradedResult } from '../src/grading/gradeRow';
import { answeredResult, unansweredResult } from '../src/domain/rowResult';
import { Outcome, type ReaskedRequest, type RowResult } from '../src/domain/results';
import { labelLookupOf } from '../src/labels/subject';
import { gradeTurn, labelledTurn, looksUpLabels } from './chunkGrade';
import type { ConversationSession } from './conversationSession';
import { reaskable, waitToReask } from './chunkReask';
import { settleRow } from './chunkSettle';
import type { ChunkState } from './chunkState';
import { describeFailure, isFatal } from './activityFailure';
import { errorFacts } from '../src/domain/stopEarly';

/** An answered turn: its result (graded when the run grades) and the feedback to send for it, if any. */
export interface AnsweredTurn {
  result: RowResult;
  verdict?: 'good' | 'bad';
}

/**
 * One turn of a conversation: ask the question in the conversation's session (again, after a backoff, while the
 * service fails it: chunkReask.ts), then grade the answer. Returns the answered row to settle; undefined when the row
 * got no answer (it is settled here, as `error` or `skipped`), so the conversation goes on with its next turn.
 */
export async function askTurn(state: ChunkState, row: PlannedRow, session: ConversationSession): Promise<AnsweredTurn | undefined> {
  const lookup = looksUpLabels(state);
  const reasked: ReaskedRequest[] = [];
  let answer: AskResult;
  for (;;) {
    const scope = state.openAsk(row.id);
    try {
      answer = await scope.run(() => state.ask.ask(askInput(state, row, session.id, lookup, reasked.length)));
    } catch (err) {
      settleUnanswered(state, row, session.id, err, reasked);
      return undefined;
    } finally {
      state.closeAsk(scope);
    }
    const failed = reaskable(state, answer, reasked.length, session.id);
    if (!failed || !(await waitToReask(state, row.id, session, failed, reasked))) break;
  }
  const { options } = state.input;
  const answered = withReasks(answeredResult(row, answer, row.model ?? options.model, new Date().toISOString()), reasked);
  const feedback = (verdict: 'good' | 'bad' | undefined): 'good' | 'bad' | undefined => (options.feedback === 'graded' && answer.requestId ? verdict : undefined);
  // A person's label settles the row before any grader or judge.
  const labelled = lookup ? labelledTurn(state, answered, answer) : undefined;
  if (labelled) return { result: labelled.result, verdict: feedback(labelled.verdict) };
  const grading = gradeTurn(state, row, answer);
  const grade = grading === undefined ? undefined : await grading;
  // Judging takes time: a graded row finished when its grade was in. Its label key lets a label given later find it.
  const withKey = answer.labelKey ? { labelKey: answer.labelKey } : {};
  const result = grade ? { ...gradedResult(answered, grade), finishedAt: new Date().toISOString(), ...withKey } : answered;
  return { result, verdict: feedback(feedbackFor(grade)) };
}

/** The row with the requests re-asked before its last ask; a row still failing says so in its error. */
function withReasks(result: RowResult, reasked: ReaskedRequest[]): RowResult {
  if (reasked.length === 0) return result;
  const still = result.outcome === Outcome.error && result.error ? { error: `${result.error} (still failing after ${reasked.length} re-ask${reasked.length > 1 ? 's' : ''})` } : {};
  return { ...result, ...still, reasked };
}

function askInput(state: ChunkState, row: PlannedRow, sessionId: string, lookUpLabel: boolean, reask: number): AskInput {
  const { input } = state;
  const { options } = input;
  return {
    runId: input.runId,
    rowId: row.id,
    siteId: options.siteId,
    mode: options.mode,
    message: row.question,
    sessionId,
    email: row.email ?? options.defaultEmail,
    model: row.model ?? options.model,
    responseLanguage: row.response_language,
    uiLocale: row.ui_locale,
    answerTimeoutMs: options.answerTimeoutMs,
    ...(reask > 0 && { ask: reask }),
    ...(lookUpLabel ? { label: labelLookupOf(row) } : {}),
  };
}

/**
 * A question that got no answer. Abandoned (a second cancel, another conversation's fatal error, or the run's first
 * asks all refused alike): `skipped`. Failed on its own: `error`, even during a cancel, since it may have been asked;
 * a failure no row can recover from (bad key, plan, site) stops the chunk and abandons the other questions in flight.
 * Every failure is told to the state, which watches the run's first asks (stopEarly.ts).
 */
function settleUnanswered(state: ChunkState, row: PlannedRow, sessionId: string, err: unknown, reasked: ReaskedRequest[]): void {
  const extra = reasked.length > 0 ? { reasked } : {};
  if (isCancellation(err)) {
    const why = state.fatal?.systematic ? `stopped while waiting for the answer (it may have been asked): ${state.fatal.message}` : 'run cancelled while waiting for the answer (it may have been asked)';
    settleRow(state, unansweredResult(row, Outcome.skipped, why, new Date().toISOString(), extra));
    return;
  }
  const failure = describeFailure(err);
  state.askFailed(failure);
  if (!state.cancelled && isFatal(failure)) {
    state.fatal ??= failure;
    state.abandonInFlight();
  }
  settleRow(state, unansweredResult(row, Outcome.error, failure.message, new Date().toISOString(), { ...errorFacts(failure), sessionId, ...extra }));
}
