/**
 * zod schemas for every request body and response of the spec (§2, §4).
 *
 * Responses are `looseObject`s: unknown extra fields are kept, missing or mistyped spec fields fail.
 * Request bodies are `strictObject`s: a misspelt key (`sessionId`) is caught before sending.
 */
import { z } from 'zod';

/** Status of a chat request (§2). */
export const RequestState = { Pending: 'pending', Completed: 'completed', Failed: 'failed' } as const;
export type RequestState = (typeof RequestState)[keyof typeof RequestState];

/** Confidence level of a sync answer (§2). */
export const ConfidenceLevel = { Low: 'low', Medium: 'medium', High: 'high' } as const;
export type ConfidenceLevel = (typeof ConfidenceLevel)[keyof typeof ConfidenceLevel];

/** Feedback values (§2). */
export const FeedbackValue = { Good: 'good', Bad: 'bad' } as const;
export type FeedbackValue = (typeof FeedbackValue)[keyof typeof FeedbackValue];

// ---- session list (§4.1): the spec marks no Session field optional; closed_at is null while active ----

export const SessionSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  // Relevant only for widget chats (§2); tolerated when absent so an M2M-only session does not break listing.
  visitor_id: z.string().optional(),
  message_count: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
});

export const PaginationSchema = z.looseObject({
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int().nonnegative(),
});

export const SessionListSchema = z.looseObject({
  sessions: z.array(SessionSchema),
  pagination: PaginationSchema,
});

export const ListSessionsQuerySchema = z.strictObject({
  email: z.string().optional(),
  limit: z.number().int().min(1).max(500).optional(),
  offset: z.number().int().nonnegative().optional(),
});

// ---- close (§4.2) ----

export const CloseSessionBodySchema = z.strictObject({ session_id: z.string().min(1) });

export const CloseResponseSchema = z.looseObject({ status: z.literal('ok') });

// ---- chat (§4.3, §4.4, §4.5) ----

export const ChatRequestBodySchema = z
  .strictObject({
    message: z.string(),
    session_id: z.string().min(1).optional(),
    email: z.string().optional(),
    model: z.string().optional(),
    response_language: z.string().optional(),
    ui_locale: z.string().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.session_id === undefined && body.email === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['email'],
        message: 'email is required when no session_id is given (the API creates a new session)',
      });
    }
  });

/** Sync answer. Confidence fields are omitted by the API when unavailable. */
export const SyncChatResponseSchema = z.looseObject({
  session_id: z.string(),
  request_id: z.string(),
  answer: z.string(),
  confidence_score: z.number().int().min(0).max(100).optional(),
  confidence_level: z.enum(ConfidenceLevel).optional(),
  confidence_reason: z.string().optional(),
});

export const AsyncSubmitResponseSchema = z.looseObject({
  request_id: z.string(),
  session_id: z.string(),
  // The spec says "always pending"; any state is accepted so a fast server does not break the boundary.
  status: z.enum(RequestState),
  placeholder: z.string().optional(),
});

export const RequestStatusSchema = z
  .looseObject({
    session_id: z.string(),
    request_id: z.string(),
    status: z.enum(RequestState),
    answer: z.string().optional(),
    error: z.string().optional(),
    // §4.5 does not list them, but §2 describes the chat request "as returned by submit, sync answer and
    // status" with optional confidence fields; accept them here when the server sends them.
    confidence_score: z.number().int().min(0).max(100).optional(),
    confidence_level: z.enum(ConfidenceLevel).optional(),
    confidence_reason: z.string().optional(),
  })
  .superRefine((body, ctx) => {
    // §4.5: the answer becomes available once completed; a completed status without one is unusable.
    if (body.status === RequestState.Completed && body.answer === undefined) {
      ctx.addIssue({ code: 'custom', path: ['answer'], message: 'answer is required when status is completed' });
    }
  });

// ---- feedback (§4.6) ----

export const FeedbackBodySchema = z.strictObject({
  session_id: z.string().min(1),
  request_id: z.string().min(1),
  feedback: z.enum(FeedbackValue),
});

export const FeedbackResponseSchema = z.looseObject({
  status: z.literal('ok'),
  request_id: z.string(),
  feedback: z.enum(FeedbackValue),
  // Optional: the spec says both "original time returned" and "omitted" on resubmission.
  feedback_submitted_at: z.string().optional(),
});

// ---- tenant limits (§4.7): "success is a 2xx response with a JSON body", fields not shown: an object is returned
// as is, any other JSON value (an array, a string, null) as `{}`, a body with no field the runner could read ----

export const TenantLimitsSchema = z.unknown().transform((body): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

// ---- error body (§7): every field optional — the 500 body of most endpoints is not shown (§7 rule 3),
// and proxies may answer with HTML, so the status alone picks the error class ----

export const ErrorBodySchema = z.looseObject({
  error: z.string().optional(),
  message: z.string().optional(),
  // Not in §7, but a sync chat that gives up at its ceiling may say which request it was (§4.3: "the
  // request_id can then be looked up with the status endpoint").
  request_id: z.string().optional(),
  session_id: z.string().optional(),
});

export type Session = z.infer<typeof SessionSchema>;
export type Pagination = z.infer<typeof PaginationSchema>;
export type SessionList = z.infer<typeof SessionListSchema>;
export type ListSessionsQuery = z.input<typeof ListSessionsQuerySchema>;
export type CloseSessionBody = z.input<typeof CloseSessionBodySchema>;
export type CloseResponse = z.infer<typeof CloseResponseSchema>;
export type ChatRequestBody = z.input<typeof ChatRequestBodySchema>;
export type SyncChatResponse = z.infer<typeof SyncChatResponseSchema>;
export type AsyncSubmitResponse = z.infer<typeof AsyncSubmitResponseSchema>;
export type RequestStatus = z.infer<typeof RequestStatusSchema>;
export type FeedbackBody = z.input<typeof FeedbackBodySchema>;
export type FeedbackResponse = z.infer<typeof FeedbackResponseSchema>;
export type TenantLimits = z.infer<typeof TenantLimitsSchema>;
