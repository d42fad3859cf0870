/**
 * Span attribute names. HTTP ones are OpenTelemetry's semantic conventions (stable HTTP client spans); the runner's
 * own are under `sitechat.`.
 */
export const SpanAttr = {
  httpMethod: 'http.request.method',
  httpRoute: 'http.route',
  httpStatus: 'http.response.status_code',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  site: 'sitechat.site',
  attempt: 'sitechat.attempt',
  requestId: 'sitechat.request_id',
  question: 'sitechat.question',
  answer: 'sitechat.answer',
  judgeModel: 'gen_ai.request.model',
  judgeTokens: 'sitechat.judge.tokens',
  judgeVerdict: 'sitechat.judge.verdict',
} as const;
