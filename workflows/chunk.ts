import {
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import { feedbackFor, gradedResult, gradeRow } from '../src/grading/gradeRow';
import type { GradeResult } from '../src/grading/types';
import { Outcome, type RowResult, type SessionCloseFailure } from '../src/reports/types';
import type { AskResult, CallOutcome, PlannedRow, PlannedUnit } from '../activities/types';
import { asking, local, localWork, settling } from './activities';
import { Batcher } from './batcher';
import { answeredResult, unansweredResult } from '../src/reports/rowResult';
import { activityEscalator, activityGrader } from './grading';
import { describeFailure, isFatal } from './outcome';
import { cancelSignal, chunkProgressSignal } from './signals';
import { emptyCounts, type ChunkInput, type ChunkResult, type OutcomeCounts } from './types';

/**
 * Rows per record activity. Recording is local (no API path), so a batch costs one activity instead of ten; 10 keeps
 * the results store at most a few seconds behind the answers.
 */
const BATCH = 10;
/** Finished rows between two progress signals to the run (each costs the run's history ~4 events). */
const REPORT_EVERY = 20;
/** Once the last question is sent, batches shrink so the chunk's tail finishes soon after its last answer. */
const TAIL_BATCH = 3;
/**
 * Three-way grades: an uncertain row is escalated to the judge (new activities), gets no feedback (one activity less)
 * and ends `uncertain`. Histories recorded before it grade two ways, as they did.
 */
export const UNCERTAIN_GRADES_PATCH = 'uncertain-grades';

/**
 * One page of the work plan: its conversations run concurrently up to `window`, the turns of each in order in
 * one API session. A child workflow per page keeps every history bounded, whatever the dataset's size.
 *
 * Each conversation's session id is chosen here (a UUID, spec §2: "chosen by the caller") unless the row names one,
 * so a question asked again after a lost response lands in the same session and no session is left unclosed.
 * Feedback and closes are one activity per call, retried by Temporal until they succeed or meet a non-retryable
 * answer; what finally fails is recorded with the reason.
 */
export async function runChunk(input: ChunkInput): Promise<ChunkResult> {
  const { options } = input;
  const counts = emptyCounts();
  let unreported: Partial<OutcomeCounts> = {};
  let inFlight = 0;
  let cancelled = false;
  let fatal: { message: string; type: string } | undefined;
  const askScopes = new Set<CancellationScope>();
  let sessionsClosed = 0;
  const closeFailures: SessionCloseFailure[] = [];
  const sessionsToClose = new Set<string>();
  const sideEffectsDone = new Set<Promise<void>>();

  // A cancel is graceful: nothing new is asked, and questions already sent are waited for (at most the answer
  // timeout) so their answers are recorded and their sessions known and closed. A second cancel, or a fatal
  // API error, abandons the questions in flight too.
  const abandonInFlight = (): void => {
    cancelled = true;
    for (const scope of askScopes) scope.cancel();
  };
  const stop = (): void => {
    if (cancelled) abandonInFlight();
    cancelled = true;
  };
  setHandler(cancelSignal, stop);
  CancellationScope.current().cancelRequested.catch(stop);

  const parent = getExternalWorkflowHandle(input.parentWorkflowId);
  const report = async (drained?: boolean): Promise<void> => {
    const delta = unreported;
    unreported = {};
    await parent.signal(chunkProgressSignal, { page: input.page, counts: delta, inFlight, drained });
  };
  const recorder = new Batcher<RowResult>(BATCH, async (results) => {
    await local.recordRows({ runId: input.runId, page: input.page, results });
    if (Object.values(unreported).reduce((a, b) => a + b, 0) >= REPORT_EVERY) await report();
  });
  const settle = settling(options.siteId);

  /** Runs a side effect in the background; the chunk waits for all of them before it ends. */
  const inBackground = (work: Promise<void>): void => {
    const p = work.finally(() => sideEffectsDone.delete(p));
    sideEffectsDone.add(p);
  };

  const record = (result: RowResult): void => {
    counts[result.outcome] += 1;
    unreported[result.outcome] = (unreported[result.outcome] ?? 0) + 1;
    recorder.add(result);
  };

  const closed = (sessionId: string, outcome: CallOutcome): void => {
    if (outcome.ok) sessionsClosed += 1;
    else closeFailures.push({ sessionId, error: outcome.error });
  };

  /**
   * Sends the verdict's feedback and, after a conversation's last turn, closes its session — one activity for both —
   * then records the row with what became of its feedback.
   */
  const finish = (result: RowResult, verdict?: 'good' | 'bad', closeSessionId?: string): void => {
    const feedback = verdict && result.requestId && result.sessionId ? { sessionId: result.sessionId, requestId: result.requestId, value: verdict } : undefined;
    if (!feedback && !closeSessionId) return record(result);
    inBackground(settle.settle({ siteId: options.siteId, feedback, closeSessionId }).then(
      (res) => {
        if (closeSessionId && res.closeAgain) closeOnly(closeSessionId);
        else if (closeSessionId && res.close) closed(closeSessionId, res.close);
        if (!feedback || !res.feedback) return record(result);
        record(res.feedback.ok ? { ...result, feedback: feedback.value } : { ...result, feedback: 'failed', feedbackError: res.feedback.error });
      },
      (err: unknown) => {
        // Past the deadline: the last attempt's error names the call that failed (feedback is sent first).
        const { message } = describeFailure(err);
        const feedbackFailed = feedback !== undefined && !message.startsWith('close:');
        if (closeSessionId) closed(closeSessionId, { ok: false, error: feedbackFailed ? `not closed: the feedback before it kept failing (${message})` : message });
        if (!feedback) return record(result);
        record(feedbackFailed ? { ...result, feedback: 'failed', feedbackError: message } : { ...result, feedback: feedback.value });
      },
    ));
  };

  const closeOnly = (sessionId: string): void => {
    inBackground(settle.settle({ siteId: options.siteId, closeSessionId: sessionId }).then(
      (res) => closed(sessionId, res.close ?? { ok: true }),
      (err: unknown) => closed(sessionId, { ok: false, error: describeFailure(err).message }),
    ));
  };

  // Cleanup must run even when the run is cancelled, so the body never inherits cancellation; `stop` turns a
  // cancel into "ask nothing new", a second one into "abandon the questions in flight".
  return CancellationScope.nonCancellable(async () => {
    const units = await localWork.readPage({ runId: input.runId, page: input.page, resume: input.resume });
    const ask = asking(options.answerTimeoutMs, options.siteId);

    /** The answered row and its feedback verdict, to finish; undefined when the row was finished already (no answer). */
    const runTurn = async (row: PlannedRow, sessionId: string): Promise<{ result: RowResult; verdict?: 'good' | 'bad' } | undefined> => {
      const scope = new CancellationScope();
      askScopes.add(scope);
      inFlight += 1;
      let answer: AskResult;
      try {
        answer = await scope.run(() =>
          ask.ask({
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
          }),
        );
      } catch (err) {
        if (isCancellation(err)) {
          finish(unansweredResult(row, Outcome.skipped, 'run cancelled while waiting for the answer (it may have been asked)', new Date().toISOString()));
          return undefined;
        }
        // An ask that failed on its own is an error even during a cancel: it may have been asked, so never `skipped`.
        const failure = describeFailure(err);
        if (!cancelled && isFatal(failure)) {
          fatal ??= failure;
          abandonInFlight();
        }
        finish(unansweredResult(row, Outcome.error, failure.message, new Date().toISOString(), { errorType: failure.type, sessionId }));
        return undefined;
      } finally {
        inFlight -= 1;
        askScopes.delete(scope);
      }
      let result = answeredResult(row, answer, row.model ?? options.model, new Date().toISOString());
      let grade: GradeResult | undefined;
      if (input.kind === 'evaluation' && answer.status === 'completed') {
        const graded = { answer: answer.answer ?? '', confidenceScore: answer.confidenceScore, latencyMs: answer.latencyMs };
        const threeWay = patched(UNCERTAIN_GRADES_PATCH);
        const external = activityGrader(row, graded, { runId: input.runId, page: input.page });
        grade = await gradeRow(row, graded, { ...options, threeWay }, external, threeWay ? activityEscalator() : undefined);
        // Judging takes time: the row finished when its grade was in.
        result = { ...gradedResult(result, grade), finishedAt: new Date().toISOString() };
      }
      const verdict = feedbackFor(grade);
      return { result, verdict: options.feedback === 'graded' && answer.requestId ? verdict : undefined };
    };

    const runConversation = async (unit: PlannedUnit): Promise<void> => {
      const first = unit.rows[0];
      // A row's own session id (a continued conversation) wins; else one of ours, the same for every retry.
      let sessionId = first?.prior?.sessionId ?? first?.session_id ?? uuid4();
      let seen = false;
      const close = (): string | undefined => {
        if (!seen || !options.closeSessions || sessionsToClose.has(sessionId)) return undefined;
        sessionsToClose.add(sessionId);
        return sessionId;
      };
      for (const [i, row] of unit.rows.entries()) {
        if (row.prior) {
          // Answered by an earlier attempt of this run: counted, never sent again, its session continues.
          counts[row.prior.outcome] += 1;
          unreported[row.prior.outcome] = (unreported[row.prior.outcome] ?? 0) + 1;
          sessionId = row.prior.sessionId ?? sessionId;
          seen ||= row.prior.sessionId !== undefined;
          continue;
        }
        if (cancelled) {
          const reason = fatal ? `not sent: the run stopped on ${fatal.message}` : 'run cancelled before this row was sent';
          finish(unansweredResult(row, fatal ? Outcome.error : Outcome.skipped, reason, new Date().toISOString(), { errorType: fatal?.type }));
          continue;
        }
        const answered = await runTurn(row, sessionId);
        if (!answered) continue;
        seen = true;
        // The last turn's feedback and the session's close go out together.
        finish(answered.result, answered.verdict, i === unit.rows.length - 1 ? close() : undefined);
      }
      // The last turn was not answered (or not sent): close what the API has seen on its own.
      const leftOpen = close();
      if (leftOpen) closeOnly(leftOpen);
    };

    let next = 0;
    // The last conversation has started: the run may start the next chunk, and our batches shrink.
    const onLastStarted = (): void => {
      recorder.resize(TAIL_BATCH);
      void report(true).catch(() => undefined);
    };
    const lane = async (): Promise<void> => {
      while (next < units.length) {
        const unit = units[next++] as PlannedUnit;
        if (next === units.length) onLastStarted();
        await runConversation(unit);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(input.window, units.length)) }, lane));
    while (sideEffectsDone.size > 0) await Promise.all([...sideEffectsDone]);
    await recorder.drain();
    if (closeFailures.length > 0) await local.recordSessionFailures({ runId: input.runId, failures: closeFailures });
    // Rows a resumed run had answered before are counted without a batch; make sure the run hears of them.
    if (Object.keys(unreported).length > 0) await report();
    return { counts, sessionsClosed, sessionsCloseFailed: closeFailures.length, cancelled: cancelled && !fatal, fatal };
  });
}
