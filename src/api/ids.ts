/** A canonical 8-4-4-4-12 hex UUID (any version). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/**
 * Whether the API is sure to take `id` as a session or request id for feedback: spec §1, "feedback validation may
 * reject identifiers that are not valid UUIDs", and §7 answers that with 400 `feedback must be 'good' or 'bad'`.
 */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * What most likely made the API refuse a feedback call with 400 `feedback must be 'good' or 'bad'`: the spec's §7 gives
 * that one answer for a missing field, an id that is not a UUID and a wrong value, and a row whose feedback was `good`
 * does not tell which.
 */
export function feedbackRefusalCause(body: { session_id: string; request_id: string; feedback: string }): string {
  const session = isUuid(body.session_id) ? undefined : `the session id ${JSON.stringify(body.session_id)} is not a UUID (use UUIDs as session ids, or --feedback none)`;
  const request = isUuid(body.request_id) ? undefined : `the request id ${JSON.stringify(body.request_id)} the API returned is not a UUID`;
  const causes = [session, request].filter((c) => c !== undefined);
  if (causes.length > 0) return `likely cause: ${causes.join('; ')}; the API may refuse feedback for ids that are not UUIDs`;
  return `the session and request ids are UUIDs and the value was ${JSON.stringify(body.feedback)}: the server gave no other reason`;
}
