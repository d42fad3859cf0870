/**
 * Custom graders: a user module exporting `grade(row, answer)`. This file uses Node (it loads code
 * by path), so it runs in activities only and is not exported from `./index`.
 *
 * Supported modules: `.js`, `.mjs`, `.cjs` (ESM or CommonJS; `grade` as a named export, as
 * `default.grade`, or as the default export). A `.ts` module loads only where the runtime strips
 * types itself (Node >= 22.18, or under vitest); on Node 20 compile it to `.js` first.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatasetRow } from '../domain/dataset';
import type { AnswerForGrading, AssertionResult } from '../domain/grade';
import { clamp01, fmt } from './reasons';

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

/** Where custom graders may come from and what their text passes through. */
export interface CustomGraderOptions {
  /**
   * The only directory modules are loaded from: a relative module path resolves against it, and the module's real
   * path (symlinks followed) must lie inside it. A worker sets it from SITECHAT_GRADERS_DIR, so a workflow input
   * cannot make a worker run an arbitrary file. @default none: any path (`sitechat grade`, the user's own process)
   */
  gradersDir?: string;
  /** Applied to every text a grader produces (a thrown error, a reason) before it reaches a result. @default identity */
  scrub?: (text: string) => string;
}

/**
 * The real path of `modulePath` inside `gradersDir`, or a `CustomGraderError` saying why not: the directory is
 * missing, the module is missing, or it resolves (through `..` or a symlink) outside the directory.
 */
export async function resolveGraderModule(modulePath: string, gradersDir: string): Promise<string> {
  const dir = await realpath(gradersDir).catch(() => {
    throw new CustomGraderError(`custom grader ${modulePath}: the graders directory ${gradersDir} (SITECHAT_GRADERS_DIR) does not exist`, modulePath);
  });
  const candidate = isAbsolute(modulePath) ? modulePath : resolve(dir, modulePath);
  const real = await realpath(candidate).catch(() => {
    throw new CustomGraderError(`custom grader ${modulePath}: file not found: ${candidate}`, modulePath);
  });
  if (!isInside(dir, real)) {
    throw new CustomGraderError(`custom grader ${modulePath} resolves to ${real}, outside the graders directory ${dir} (SITECHAT_GRADERS_DIR): graders load only from there`, modulePath);
  }
  return real;
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}

/**
 * Loads the module at `modulePath` and returns its `grade` function. Relative paths resolve against
 * `options.gradersDir`, or the working directory when there is none. Node's module cache makes repeated loads cheap.
 */
export async function loadCustomGrader(modulePath: string, options: CustomGraderOptions = {}): Promise<CustomGradeFunction> {
  const absolute = options.gradersDir !== undefined ? await resolveGraderModule(modulePath, options.gradersDir)
    : isAbsolute(modulePath) ? modulePath : resolve(modulePath);
  let loaded: unknown;
  try {
    loaded = await import(pathToFileURL(absolute).href);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const hint = code === 'ERR_UNKNOWN_FILE_EXTENSION' && absolute.endsWith('.ts')
      ? ' (this Node cannot load .ts: compile the grader to .js, or use Node >= 22.18)'
      : '';
    const detail = (options.scrub ?? String)(error instanceof Error ? error.message : String(error));
    throw new CustomGraderError(`cannot load custom grader ${modulePath}: ${detail}${hint}`, modulePath);
  }
  const grade = findGrade(loaded);
  if (grade === undefined) {
    throw new CustomGraderError(`custom grader ${modulePath} exports no grade(row, answer) function`, modulePath);
  }
  return grade;
}

/**
 * Runs a custom grader. A number result passes when it is >= `threshold`; an exception thrown by
 * `grade`, or a result of the wrong shape, becomes a failed assertion naming the module. The reason passes
 * `options.scrub`: a grader runs in a process that holds keys, and may echo them.
 * @param threshold pass mark for numeric scores. @default 0.5
 */
export async function runCustomGrader(
  modulePath: string,
  row: DatasetRow,
  answer: AnswerForGrading,
  threshold = 0.5,
  options: CustomGraderOptions = {},
): Promise<AssertionResult> {
  const grade = await loadCustomGrader(modulePath, options);
  const scrub = options.scrub ?? ((text: string) => text);
  let value: unknown;
  try {
    value = await grade(row, answer);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { type: 'custom', pass: false, score: 0, reason: scrub(`custom grader ${modulePath} threw: ${message}`) };
  }
  const result = toResult(value, modulePath, threshold);
  return { ...result, reason: scrub(result.reason) };
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
