import { readFileSync, rmSync } from 'node:fs';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/main';
import { UsageError } from '../../../src/cli/usageError';
import { DatasetValidationError } from '../../../src/datasets/issues';

describe('exitCodeFor: what an error that left a command becomes', () => {
  const run = async (err: unknown): Promise<{ code: number; said: string }> => {
    let said = '';
    const code = await exitCodeFor(err, (text) => void (said += text));
    return { code, said };
  };

  it('help and version exit 0, commander usage errors 2', async () => {
    expect((await run(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).code).toBe(0);
    expect((await run(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--nope'"))).code).toBe(2);
  });

  it('input and settings errors are usage errors (exit 2), by class', async () => {
    expect(await run(new UsageError('--concurrency must be a whole number'))).toEqual({ code: 2, said: 'sitechat: --concurrency must be a whole number\n' });
    expect((await run(new DatasetValidationError('x.csv', [{ file: 'x.csv', line: 3, message: '`question` is empty' }]))).code).toBe(2);
  });

  it('a crash exits 3 with a short message naming the file that holds its stack, secrets scrubbed', async () => {
    const key = 'sk-site-chat-0123456789abcdef';
    const before = process.env.SITECHAT_API_KEY;
    process.env.SITECHAT_API_KEY = key;
    try {
      const { code, said } = await run(new TypeError(`cannot read properties of undefined (key ${key})`, { cause: new Error('the cause') }));
      expect(code).toBe(3);
      expect(said).toMatch(/^sitechat: unexpected error: cannot read properties of undefined/);
      expect(said).not.toContain(key);
      const path = /the stack trace is in (\S+);/.exec(said)?.[1];
      expect(path).toBeDefined();
      const report = readFileSync(path as string, 'utf8');
      rmSync(path as string);
      expect(report).toContain('TypeError: cannot read properties of undefined');
      expect(report).toMatch(/at .*crash\.test\.ts/);
      expect(report).toContain('caused by:');
      expect(report).toContain('the cause');
      expect(report).not.toContain(key);
    } finally {
      if (before === undefined) delete process.env.SITECHAT_API_KEY;
      else process.env.SITECHAT_API_KEY = before;
    }
  });
});
