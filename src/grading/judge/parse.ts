/**
 * Strict reading of the judge model's reply. Only `{"verdict": "pass"|"fail", "reason": "…"}` (optionally inside one
 * Markdown code fence, which local models like to add) is a verdict; anything else is a `JudgeOutputError`, never a
 * guessed pass or fail. Pure: no Node APIs.
 */
import { JudgeOutputError } from './errors';

/** Longest reason kept; a model that writes an essay is cut, not rejected. */
export const MAX_REASON_LENGTH = 500;

const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/iu;

/** Parses the text content of the reply. */
export function parseJudgeReply(content: string | null | undefined): { verdict: 'pass' | 'fail'; reason: string } {
  const text = (content ?? '').trim();
  if (text === '') throw new JudgeOutputError('judge replied with no content', '');
  const body = FENCE.exec(text)?.[1]?.trim() ?? text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new JudgeOutputError(`judge reply is not JSON: ${snippet(text)}`, text);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JudgeOutputError(`judge reply is not a JSON object: ${snippet(text)}`, text);
  }
  const { verdict, reason } = value as { verdict?: unknown; reason?: unknown };
  const normalized = typeof verdict === 'string' ? verdict.trim().toLowerCase() : verdict;
  if (normalized !== 'pass' && normalized !== 'fail') {
    throw new JudgeOutputError(`judge reply has no verdict "pass" or "fail" (got ${JSON.stringify(verdict) ?? 'nothing'}): ${snippet(text)}`, text);
  }
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new JudgeOutputError(`judge reply has no reason: ${snippet(text)}`, text);
  }
  const flat = reason.trim().replace(/\s+/gu, ' ');
  return { verdict: normalized, reason: flat.length > MAX_REASON_LENGTH ? `${flat.slice(0, MAX_REASON_LENGTH - 1)}…` : flat };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/gu, ' ');
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 119)}…` : flat);
}
