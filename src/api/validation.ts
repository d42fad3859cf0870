import type { z } from 'zod';
import { RequestValidationError, ResponseValidationError, type ValidationIssue } from './errors';

/** `['sessions', 0, 'closed_at']` → `sessions[0].closed_at`; `[]` → `(body)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

function describe(issues: readonly ValidationIssue[]): string {
  return issues.slice(0, 5).map((i) => `\`${i.path}\`: ${i.message}`).join('; ');
}

/** Parses a caller-supplied body or query; failures become a {@link RequestValidationError}. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, endpoint: string, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = toIssues(result.error);
  throw new RequestValidationError(`${endpoint}: invalid ${what}: ${describe(issues)} — fix the ${what} before sending`, {
    endpoint,
    issues,
  });
}

/**
 * Parses a 2xx body against the spec's shape; failures become a {@link ResponseValidationError}.
 * `scrub` removes the key from any text that is derived from the body.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  text: string,
  ctx: { endpoint: string; status: number; scrub: (s: string) => string },
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const snippet = ctx.scrub(text.trim().slice(0, 200));
    const issues = [{ path: '(body)', message: `not JSON: ${JSON.stringify(snippet)}` }];
    throw new ResponseValidationError(
      `${ctx.status} response from ${ctx.endpoint} is not JSON (${JSON.stringify(snippet)}) — check that SITECHAT_BASE_URL points at the Site Chat API`,
      { endpoint: ctx.endpoint, status: ctx.status, issues },
    );
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issues = toIssues(result.error).map((i) => ({ path: i.path, message: ctx.scrub(i.message) }));
  throw new ResponseValidationError(
    `${ctx.status} response from ${ctx.endpoint} does not match the API contract: ${describe(issues)} — the server or a proxy changed the response shape`,
    { endpoint: ctx.endpoint, status: ctx.status, issues },
  );
}
