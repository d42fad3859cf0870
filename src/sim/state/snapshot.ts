import { z } from 'zod';
import { describeIssue } from '../fixtures';
import type { ChatRequestRecord } from './requests';
import type { SessionRecord } from './sessions';

/** Format version of the `--state` file; a file of another version is refused. */
export const STATE_VERSION = 1;

const answerSchema = z.object({
  answer: z.string(),
  confidenceScore: z.number(),
  confidenceLevel: z.enum(['low', 'medium', 'high']),
  confidenceReason: z.string(),
  source: z.object({
    kind: z.enum(['qa', 'passage', 'none']),
    documentId: z.string().optional(),
    title: z.string().optional(),
    coverage: z.number(),
    similarity: z.number().optional(),
  }),
});

const requestSchema = z.object({
  id: z.string().min(1),
  siteId: z.string().min(1),
  sessionId: z.string().min(1),
  mode: z.enum(['sync', 'async']),
  message: z.string(),
  model: z.string().min(1),
  email: z.string().optional(),
  responseLanguage: z.string().optional(),
  uiLocale: z.string().optional(),
  createdAt: z.number(),
  readyAt: z.number(),
  status: z.enum(['pending', 'completed', 'failed']),
  outcome: z.enum(['completed', 'failed']),
  result: answerSchema,
  error: z.string().optional(),
  feedback: z.object({ value: z.enum(['good', 'bad']), submittedAt: z.number() }).optional(),
});

const sessionSchema = z.object({
  siteId: z.string().min(1),
  id: z.string().min(1),
  seq: z.number().int(),
  email: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  closedAt: z.number().nullable(),
  messageCount: z.number().int().min(0),
  recentUserMessages: z.array(z.string()),
  userMessages: z.array(z.string()),
});

const snapshotSchema = z.object({
  version: z.literal(STATE_VERSION),
  savedAt: z.string(),
  /** Simulated-time offset, so that time never goes back across a restart. */
  clockOffsetMs: z.number().min(0),
  sessions: z.array(sessionSchema),
  requests: z.array(requestSchema),
});

export type StateSnapshot = z.output<typeof snapshotSchema>;

/** The JSON form of a session (its duplicate-detection set as an array). */
export function sessionToJson(s: SessionRecord): StateSnapshot['sessions'][number] {
  return { ...s, userMessages: [...s.userMessages] };
}

export function sessionFromJson(s: StateSnapshot['sessions'][number]): SessionRecord {
  return { ...s, userMessages: new Set(s.userMessages) };
}

export function requestFromJson(r: StateSnapshot['requests'][number]): ChatRequestRecord {
  return r as ChatRequestRecord;
}

/** Parses and validates the text of a state file; throws with the file and the field at fault. */
export function parseSnapshot(file: string, text: string): StateSnapshot {
  const label = `state file ${file}`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${label}: not valid JSON (${err instanceof Error ? err.message : String(err)}); move it away or pass another --state file`);
  }
  const parsed = snapshotSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${describeIssue(label, parsed.error)}; not a simulator state file of version ${STATE_VERSION}`);
  return parsed.data;
}
