/** Input and result of the `labelFeedback` workflow: ids and a verdict, never text of the row nor a secret. */
export interface LabelFeedbackInput {
  runId: string;
  rowId: string;
  siteId: string;
  sessionId: string;
  requestId: string;
  value: 'good' | 'bad';
  /** The run's API (`RunOptions.api`), when the run recorded it: only a worker of that API sends the feedback. */
  api?: string;
}

export interface LabelFeedbackResult {
  feedback: 'good' | 'bad' | 'failed';
  /** With `failed`: the API's refusal (status and `error` string), or the last error past the deadline. */
  feedbackError?: string;
}

/** One workflow per (run, row): the id that makes a row's label feedback go out once. */
export function labelFeedbackWorkflowId(runId: string, rowId: string): string {
  return `sitechat-label-feedback/${encodeURIComponent(runId)}/${encodeURIComponent(rowId)}`;
}
