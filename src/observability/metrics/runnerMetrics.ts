import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The runner's own metrics, defined once. Labels are bounded on purpose: a site id (a tenant has a few hundred at
 * most), an API path *template* (`/m2m/sites/{site_id}/chat/async`, never a filled-in path), an HTTP status, an
 * outcome or result from a fixed set, a judge model from the configuration. Never a row, session or request id, and
 * never question or answer text: each distinct label value is a time series Prometheus keeps.
 */
export function defineRunnerMetrics(registry: Registry) {
  const registers = [registry];
  return {
    apiRequests: new Counter({
      name: 'sitechat_api_requests_total',
      help: 'Site Chat API requests by method, path template, site and HTTP status (status "none": no response: network error, timeout, abort)',
      labelNames: ['method', 'path', 'site', 'status'] as const,
      registers,
    }),
    apiRateLimited: new Counter({
      name: 'sitechat_api_rate_limited_total',
      help: 'Site Chat API responses with status 429, by path template and site',
      labelNames: ['method', 'path', 'site'] as const,
      registers,
    }),
    apiRequestDuration: new Histogram({
      name: 'sitechat_api_request_duration_seconds',
      help: 'Time from sending a Site Chat API request to its whole response, by method and path template',
      labelNames: ['method', 'path'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    pacerWait: new Histogram({
      name: 'sitechat_pacer_wait_seconds',
      help: "Time an API call waited for its turn in the host's per-path budget (the pacer), by path template and site",
      labelNames: ['method', 'path', 'site'] as const,
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    answerLatency: new Histogram({
      name: 'sitechat_answer_latency_seconds',
      help: 'Time from a question going out to its answer being seen (the latency recorded with the row), by site and result',
      labelNames: ['site', 'result'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 45, 60, 90, 120],
      registers,
    }),
    asksInFlight: new Gauge({
      name: 'sitechat_asks_in_flight',
      help: 'Ask activities running on this worker (sending a question or waiting for its answer), by site',
      labelNames: ['site'] as const,
      registers,
    }),
    rows: new Counter({
      name: 'sitechat_rows_total',
      help: 'Rows recorded in the results store by this worker, by site and outcome (a retried batch is counted again)',
      labelNames: ['site', 'outcome'] as const,
      registers,
    }),
    feedback: new Counter({
      name: 'sitechat_feedback_total',
      help: 'Feedback calls by site and result: ok, refused (a final 4xx, recorded on the row) or retried (429, 5xx, network: the activity is retried)',
      labelNames: ['site', 'result'] as const,
      registers,
    }),
    sessionCloses: new Counter({
      name: 'sitechat_session_closes_total',
      help: 'Session close calls by site and result: ok, refused (final) or retried (the activity is retried)',
      labelNames: ['site', 'result'] as const,
      registers,
    }),
    judgeCalls: new Counter({
      name: 'sitechat_judge_calls_total',
      help: 'LLM judge model calls (cache hits make none) by model and result: ok, or the error class (JudgeRateLimitError …)',
      labelNames: ['model', 'result'] as const,
      registers,
    }),
    judgeTokens: new Counter({
      name: 'sitechat_judge_tokens_total',
      help: 'Tokens (prompt + completion) the judge provider reported for successful calls, by model',
      labelNames: ['model'] as const,
      registers,
    }),
    // One per send of a notification (src/notify/deliver.ts): result ok, refused (a 4xx), retry, unconfigured.
    notifications: new Counter({
      name: 'sitechat_notifications_total',
      help: 'Run notification sends by destination kind (slack, teams, webhook) and result (ok, refused, retry, unconfigured)',
      labelNames: ['destination', 'result'] as const,
      registers,
    }),
  };
}

export type RunnerMetrics = ReturnType<typeof defineRunnerMetrics>;
