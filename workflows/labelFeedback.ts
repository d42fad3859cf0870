import { ApplicationFailure } from '@temporalio/workflow';
import { local, settling } from './activityProxies';
import { describeFailure } from './activityFailure';
import type { LabelFeedbackInput, LabelFeedbackResult } from './labelFeedbackTypes';

/**
 * The feedback of a row a person settled on the review page (`sitechat review`): one `settle` call on the feedback
 * queue (the same activity, queue, fairness key and deadline as a run's feedback), then the row's feedback state
 * recorded in the results store. Started with the id `labelFeedbackWorkflowId(run, row)` and a policy that refuses a
 * second start of that id, so a save repeated after a crash, or a second save of the row, never sends it twice.
 */
export async function labelFeedback(input: LabelFeedbackInput): Promise<LabelFeedbackResult> {
  const { runId, rowId, siteId, sessionId, requestId, value } = input;
  if (!sessionId || !requestId) throw ApplicationFailure.nonRetryable('label feedback needs the row\'s session and request ids', 'LabelFeedbackInputError');
  let result: LabelFeedbackResult;
  try {
    const settled = await settling(siteId, input.api).settle({ siteId, feedback: { sessionId, requestId, value } });
    result = settled.feedback?.ok === false ? { feedback: 'failed', feedbackError: settled.feedback.error } : { feedback: value };
  } catch (err) {
    // Past the side-effect deadline (an API down for an hour): recorded as lost, as a run records it.
    result = { feedback: 'failed', feedbackError: describeFailure(err).message };
  }
  await local.recordLabelFeedback({ runId, rowId, ...result });
  return result;
}
