/**
 * Starting the feedback of a labelled row: a `labelFeedback` workflow per (run, row), never a call from the web
 * request. Exactly once by two guards: the row's recorded feedback state (kept as long as the run), and the workflow
 * id with a reuse policy that refuses a second start (covers the moment between the start and that record).
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { TaskQueue } from '../temporal/taskQueues';
import { startWorkflow } from '../../workflows/starts';
import type { RowResult, RunMeta } from '../domain/results';
import { labelFeedbackWorkflowId, type LabelFeedbackInput } from '../../workflows/labelFeedbackTypes';
import type { FeedbackStart } from './types';

/** Why no feedback goes out for a labelled row, or undefined when it is due. */
export function feedbackNotDue(meta: Pick<RunMeta, 'options'>, row: RowResult): FeedbackStart | undefined {
  if (row.feedback) return { state: 'sent-before', value: row.feedback };
  if (meta.options.feedback === 'none') return { state: 'not-due', why: 'the run sends no feedback (--feedback none)' };
  if (!row.requestId || !row.sessionId) return { state: 'not-due', why: 'the row has no answered request to rate' };
  return undefined;
}

export async function startLabelFeedback(client: Client, meta: Pick<RunMeta, 'options' | 'runId' | 'siteId'>, row: RowResult): Promise<FeedbackStart> {
  const notDue = feedbackNotDue(meta, row);
  if (notDue) return notDue;
  const verdict = row.decision?.verdict;
  if (verdict !== 'pass' && verdict !== 'fail') return { state: 'not-due', why: 'the row is not settled' };
  const input: LabelFeedbackInput = {
    runId: meta.runId, rowId: row.id, siteId: meta.siteId, sessionId: row.sessionId ?? '', requestId: row.requestId ?? '',
    value: verdict === 'pass' ? 'good' : 'bad',
    // The feedback goes to the API that answered the row: only a worker of the run's API sends it.
    ...(typeof meta.options.api === 'string' && { api: meta.options.api }),
  };
  const workflowId = labelFeedbackWorkflowId(meta.runId, row.id);
  try {
    await startWorkflow(client, 'labelFeedback', {
      taskQueue: TaskQueue.main, workflowId, args: [input], workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
    return { state: 'started', workflowId };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { state: 'already-started', workflowId };
    throw err;
  }
}
