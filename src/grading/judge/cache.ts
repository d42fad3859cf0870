/**
 * The judge cache: verdicts keyed by a hash of (judge model, prompt version, kind, question, rubric or references,
 * answer), one small JSON file each under `<runsDir>/.judge-cache/`, written atomically. Re-grading the same answers
 * with the same model and prompt pays nothing; a new prompt version or model misses.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isNotFound, writeFileAtomic } from '../../shared/fileIo';
import { promptVersion } from './prompts';
import type { Judge, JudgeOutcome, JudgeRequest, JudgeVerdict } from './types';

/** Directory of the cache inside the runs directory (the directory store's root). */
export const JUDGE_CACHE_DIR = '.judge-cache';

/**
 * The cache key of a request judged by `model` with the prompt `version` (the current one of the request's kind by
 * default): hex SHA-256 over every input that decides the verdict.
 */
export function judgeCacheKey(model: string, request: JudgeRequest, version = promptVersion(request.kind)): string {
  const criteria = request.kind === 'rubric' ? request.rubric : request.references;
  const parts = [model, version, request.kind, request.question, criteria, request.answer];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

interface Entry extends JudgeVerdict {
  model: string;
  promptVersion: string;
  createdAt: string;
}

export class JudgeCache {
  /** @param dir the cache directory, e.g. `JudgeCache.inRunsDir(runsDir)`. */
  constructor(readonly dir: string) {}

  /** The cache beside the directory results store: `<runsDir>/.judge-cache/`. */
  static inRunsDir(runsDir: string): JudgeCache {
    return new JudgeCache(join(runsDir, JUDGE_CACHE_DIR));
  }

  /** The cached verdict, or undefined. An unreadable entry (torn by a crash, edited) is a miss. */
  async get(model: string, request: JudgeRequest): Promise<JudgeVerdict | undefined> {
    let entry: Partial<Entry>;
    try {
      entry = JSON.parse(await readFile(this.path(judgeCacheKey(model, request)), 'utf8')) as Partial<Entry>;
    } catch (err) {
      if (isNotFound(err) || err instanceof SyntaxError) return undefined;
      throw err;
    }
    const { verdict, reason, tokens } = entry;
    if ((verdict !== 'pass' && verdict !== 'fail') || typeof reason !== 'string' || typeof tokens !== 'number') return undefined;
    return { verdict, reason, tokens };
  }

  async set(model: string, request: JudgeRequest, verdict: JudgeVerdict): Promise<void> {
    const key = judgeCacheKey(model, request);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const entry: Entry = { ...verdict, model, promptVersion: promptVersion(request.kind), createdAt: new Date().toISOString() };
    await writeFileAtomic(this.path(key), JSON.stringify(entry));
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}

/** A verdict from the cache when there is one (no call), else from `judge`, then cached. */
export async function judgeCached(
  judge: Judge,
  cache: JudgeCache,
  request: JudgeRequest,
  options: { signal?: AbortSignal } = {},
): Promise<JudgeOutcome> {
  const hit = await cache.get(judge.model, request);
  if (hit) return { ...hit, model: judge.model, cached: true };
  const verdict = await judge.judge(request, options);
  await cache.set(judge.model, request, verdict);
  return { ...verdict, model: judge.model, cached: false };
}
