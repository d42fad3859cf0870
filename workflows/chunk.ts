import {
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  setHandler,
} from '@temporalio/workflow';
import { feedbackFor, gradedResult, gradeRow } from '../src/grading/gradeRow';
import type { GradeResult } from '../src/grading/types';
import { Outcome, type RowResult } from '../src/reports/types';
import type { AskResult, FinishItem, PlannedRow, PlannedUnit } from '../activities/types';
import { asking, closing, finishing, local } from './activities';
import { Batcher } from './batcher';
import { answeredResult, unansweredResult } from '../src/reports/rowResult';
import { activityGrader } from './grading';
import { describeFailure, isFatal } from './outcome';
import { cancelSignal, chunkProgressSignal } from './signals';
import { emptyCounts, type ChunkInput, type ChunkResult, type OutcomeCounts } from './types';

/**
 * Rows per feedback/record activity and sessions per close activity. Feedback runs at the same 5/s as submitting,
 * so a batch is also how far feedback trails the answers: 10 keeps the run's tail short at ~0.3 events per row.
 */
const BATCH = 10;
/** Finished rows between two progress signals to the run (each costs the run's history ~4 events). */
const REPORT_EVERY = 20;
/** Once the last question is sent, batches shrink so the chunk's tail finishes soon after its last answer. */
const TAIL_BATCH = 3;

/**
 * One page of the work plan: its conversations run concurrently up to `window`, the turns of each in order in
 * one API session. A child workflow per page keeps every history bounded, whatever the dataset's size.
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
  let sessionsCloseFailed = 0;
  const sessionsToClose = new Set<string>();

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
  const finisher = new Batcher<FinishItem>(BATCH, async (items) => {
    await finishing.finishRows({ runId: input.runId, siteId: options.siteId, items });
    if (Object.values(unreported).reduce((a, b) => a + b, 0) >= REPORT_EVERY) await report();
  });
  const closer = new Batcher<string>(BATCH, async (sessionIds) => {
    const res = await closing.closeSessions({ runId: input.runId, siteId: options.siteId, sessionIds });
    sessionsClosed += res.closed;
    sessionsCloseFailed += res.failed.length;
  });

  const finish = (result: RowResult, feedback?: 'good' | 'bad'): void => {
    counts[result.outcome] += 1;
    unreported[result.outcome] = (unreported[result.outcome] ?? 0) + 1;
    finisher.add({ result, feedback });
  };

  // Cleanup must run even when the run is cancelled, so the body never inherits cancellation; `stop` turns a
  // cancel into "ask nothing new", a second one into "abandon the questions in flight".
  return CancellationScope.nonCancellable(async () => {
    const units = await local.readPage({ runId: input.runId, page: input.page, resume: input.resume });
    const ask = asking(options.answerTimeoutMs);

    const runTurn = async (row: PlannedRow, sessionId: string | undefined): Promise<string | undefined> => {
      const scope = new CancellationScope();
      askScopes.add(scope);
      inFlight += 1;
      let answer: AskResult;
      try {
        answer = await scope.run(() =>
          ask.ask({
            siteId: options.siteId,
            mode: options.mode,
            message: row.question,
            sessionId: sessionId ?? row.session_id,
            email: row.email ?? options.defaultEmail,
            model: row.model ?? options.model,
            responseLanguage: row.response_language,
            uiLocale: row.ui_locale,
            answerTimeoutMs: options.answerTimeoutMs,
          }),
        );
      } catch (err) {
        if (isCancellation(err) || cancelled) {
          finish(unansweredResult(row, Outcome.skipped, 'run cancelled while waiting for the answer', new Date().toISOString()));
          return sessionId;
        }
        const failure = describeFailure(err);
        if (isFatal(failure)) {
          fatal ??= failure;
          abandonInFlight();
        }
        finish(unansweredResult(row, Outcome.error, failure.message, new Date().toISOString(), { errorType: failure.type, sessionId }));
        return sessionId;
      } finally {
        inFlight -= 1;
        askScopes.delete(scope);
      }
      let result = answeredResult(row, answer, row.model ?? options.model, new Date().toISOString());
      let grade: GradeResult | undefined;
      if (input.kind === 'evaluation' && answer.status === 'completed') {
        const graded = { answer: answer.answer ?? '', confidenceScore: answer.confidenceScore, latencyMs: answer.latencyMs };
        grade = await gradeRow(row, graded, options, activityGrader(row, graded));
        // Judging takes time: the row finished when its grade was in.
        result = { ...gradedResult(result, grade), finishedAt: new Date().toISOString() };
      }
      const verdict = feedbackFor(grade);
      const feedback = options.feedback === 'graded' && answer.requestId ? verdict : undefined;
      finish(result, feedback);
      return answer.sessionId ?? sessionId;
    };

    const runConversation = async (unit: PlannedUnit): Promise<void> => {
      let sessionId: string | undefined;
      for (const row of unit.rows) {
        if (row.prior) {
          // Answered by an earlier attempt of this run: counted, never sent again, its session continues.
          counts[row.prior.outcome] += 1;
          unreported[row.prior.outcome] = (unreported[row.prior.outcome] ?? 0) + 1;
          sessionId = row.prior.sessionId ?? sessionId;
          continue;
        }
        if (cancelled) {
          const reason = fatal ? `not sent: the run stopped on ${fatal.message}` : 'run cancelled before this row was sent';
          finish(unansweredResult(row, fatal ? Outcome.error : Outcome.skipped, reason, new Date().toISOString(), { errorType: fatal?.type }));
          continue;
        }
        sessionId = await runTurn(row, sessionId);
      }
      if (sessionId && options.closeSessions && !sessionsToClose.has(sessionId)) {
        sessionsToClose.add(sessionId);
        closer.add(sessionId);
      }
    };

    let next = 0;
    // The last conversation has started: the run may start the next chunk, and our batches shrink.
    const onLastStarted = (): void => {
      finisher.resize(TAIL_BATCH);
      closer.resize(TAIL_BATCH);
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
    await Promise.all([finisher.drain(), closer.drain()]);
    // Rows a resumed run had answered before are counted without a batch; make sure the run hears of them.
    if (Object.keys(unreported).length > 0) await report();
    return { counts, sessionsClosed, sessionsCloseFailed, cancelled: cancelled && !fatal, fatal };
  });
}
