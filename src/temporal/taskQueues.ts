/**
 * The one place task-queue names live; worker, client, tests and docker-compose use these.
 *
 * The API allows 5 requests/second per client IP *and request path*. Submit, feedback, close and session-list
 * are each one path per site, so each gets its own queue and its own budget: a single 5/s queue for everything
 * would cap a run at ~1.25 questions/s. Status polls use a different path per request id and run inside the
 * submit activity, bounded by the poll interval.
 */
export const TaskQueue = {
  /** Workflows and the activities that call no rate-limited path (datasets, results, reports). */
  main: 'sitechat-runner',
  /** POST …/chat/async (and …/chat for sync backfills), plus polling of the request's status. */
  submit: 'sitechat-submit',
  /** POST …/chat/feedback, and recording the finished rows. */
  feedback: 'sitechat-feedback',
  /** POST …/chat/session/close */
  close: 'sitechat-close',
  /** GET …/sessions */
  list: 'sitechat-list',
  /**
   * LLM judge calls: one model call per activity attempt, limited to SITECHAT_JUDGE_RPM / 60 per second (task-queue
   * and worker limits), a budget of the judge provider's, apart from the Site Chat API's.
   */
  judge: 'sitechat-judge',
} as const;
export type TaskQueue = (typeof TaskQueue)[keyof typeof TaskQueue];

/** The queues whose activities call a rate-limited API path. */
export const RATE_LIMITED_QUEUES = [TaskQueue.submit, TaskQueue.feedback, TaskQueue.close, TaskQueue.list] as const;
