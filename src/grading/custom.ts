/**
 * Custom graders: a user module exporting `grade(row, answer)`. This file uses Node (it loads code
 * by path), so it runs in activities only and is not exported from `./index`.
 *
 * Supported modules: `.js`, `.mjs`, `.cjs` (ESM or CommonJS; `grade` as a named export, as
 * `default.grade`, or as the default export). A `.ts` module loads only where the runtime strips
 * types itself (Node >= 22.18, or under vitest); on Node 20 compile it to `.js` first.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatasetRow } from '../datasets/types';
import type { AnswerForGrading, AssertionResult } from './types';
import { clamp01, fmt } from './util';

/** What a module's `grade` may return. */
export type CustomGradeValue = boolean | number | { pass: boolean; score?: number; reason?: string };

/** The signature a custom grader module exports. */
export type CustomGradeFunction = (row: DatasetRow, answer: AnswerForGrading) => CustomGradeValue | Promise<CustomGradeValue>;

/** The module cannot be loaded or exports no `grade` function: a setup problem, not worth a retry. */
export class CustomGraderError extends Error {
  override readonly name = 'CustomGraderError';
  constructor(message: string, readonly modulePath: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Loads the module at `modulePath` (relative paths resolve against the working directory) and
 * returns its `grade` function. Node's module cache makes repeated loads cheap.
 */
export async function loadCustomGrader(modulePath: string): Promise<CustomGradeFunction> {
  const absolute = isAbsolute(modulePath) ? modulePath : resolve(modulePath);
  let loaded: unknown;
  try {
    loaded = await import(pathToFileURL(absolute).href);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const hint = code === 'ERR_UNKNOWN_FILE_EXTENSION' && absolute.endsWith('.ts')
      ? ' (this Node cannot load .ts: compile the grader to .js, or use Node >= 22.18)'
      : '';
    const detail = error instanceof Error ? error.message : String(error);
    throw new CustomGraderError(`cannot load custom grader ${modulePath}: ${detail}${hint}`, modulePath, { cause: error });
  }
  const grade = findGrade(loaded);
  if (grade === undefined) {
    throw new CustomGraderError(`custom grader ${modulePath} exports no grade(row, answer) function`, modulePath);
  }
  return grade;
}

/**
 * Runs a custom grader. A number result passes when it is >= `threshold`; an exception thrown by
 * `grade`, or a result of the wrong shape, becomes a failed assertion naming the module.
 * @param threshold pass mark for numeric scores. @default 0.5
 */
export async function runCustomGrader(
  modulePath: string,
  row: DatasetRow,
  answer: AnswerForGrading,
  threshold = 0.5,
): Promise<AssertionResult> {
  const grade = await loadCustomGrader(modulePath);
  let value: unknown;
  try {
    value = await grade(row, answer);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { type: 'custom', pass: false, score: 0, reason: `custom grader ${modulePath} threw: ${message}` };
  }
  return toResult(value, modulePath, threshold);
}

function toResult(value: unknown, modulePath: string, threshold: number): AssertionResult {
  if (typeof value === 'boolean') {
    return { type: 'custom', pass: value, score: value ? 1 : 0, reason: `custom grader ${value ? 'passed' : 'failed'}` };
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    const score = clamp01(value);
    const pass = score >= threshold;
    return { type: 'custom', pass, score, reason: `custom score ${fmt(score)} ${pass ? '>=' : '<'} ${fmt(threshold)}` };
  }
  if (typeof value === 'object' && value !== null && typeof (value as { pass?: unknown }).pass === 'boolean') {
    const { pass, score, reason } = value as { pass: boolean; score?: unknown; reason?: unknown };
    return {
      type: 'custom',
      pass,
      score: typeof score === 'number' ? clamp01(score) : pass ? 1 : 0,
      reason: typeof reason === 'string' && reason !== '' ? reason : `custom grader ${pass ? 'passed' : 'failed'}`,
    };
  }
  const shown = JSON.stringify(value) ?? String(value);
  return {
    type: 'custom',
    pass: false,
    score: 0,
    reason: `custom grader ${modulePath} returned ${shown.slice(0, 80)}; expected a boolean, a number or { pass, score?, reason? }`,
  };
}

function findGrade(loaded: unknown): CustomGradeFunction | undefined {
  const mod = loaded as { grade?: unknown; default?: unknown };
  const fallback = mod.default as { grade?: unknown } | undefined;
  const candidates = [mod.grade, fallback?.grade, mod.default];
  return candidates.find((c): c is CustomGradeFunction => typeof c === 'function');
}
