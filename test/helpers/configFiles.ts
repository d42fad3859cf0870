import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect } from 'vitest';
import { ConfigError, loadRunConfig } from '../../src/config';

/** A fresh scratch directory per test, and `write(name, text)` into it (returns the file's path). */
export function configScratch(prefix: string): { dir: () => string; write: (name: string, text: string) => Promise<string> } {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  return {
    dir: () => dir,
    write: async (name, text) => {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
  };
}

/** The ConfigError loading `path` fails with (the test fails when it loads). */
export async function configErrorOf(path: string): Promise<ConfigError> {
  const error: unknown = await loadRunConfig(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}
