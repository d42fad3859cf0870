import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatasetRow } from '../../../src/domain/dataset';
import { CustomGraderError, loadCustomGrader, resolveGraderModule, runCustomGrader } from '../../../src/grading/custom';

const root = mkdtempSync(join(tmpdir(), 'graders-dir-'));
const dir = join(root, 'graders');
mkdirSync(join(dir, 'nested'), { recursive: true });
writeFileSync(join(dir, 'ok.mjs'), 'export function grade() { return true; }\n');
writeFileSync(join(dir, 'nested', 'deep.mjs'), 'export function grade() { return 1; }\n');
writeFileSync(join(root, 'outside.mjs'), 'export function grade() { return true; }\n');
symlinkSync(join(root, 'outside.mjs'), join(dir, 'link.mjs'));
writeFileSync(join(dir, 'leaky.mjs'), 'export function grade() { throw new Error(`call failed with key ${process.env.LEAK_KEY}`); }\n');
writeFileSync(join(dir, 'leaky-reason.mjs'), 'export function grade() { return { pass: false, reason: `sent ${process.env.LEAK_KEY}` }; }\n');
const row: DatasetRow = { id: '1', index: 0, line: 2, question: 'q', metadata: {} };

describe('custom graders load only from the graders directory', () => {
  it('resolves relative paths against the directory, absolute ones only when inside it', async () => {
    expect(await resolveGraderModule('ok.mjs', dir)).toBe(join(dir, 'ok.mjs'));
    expect(await resolveGraderModule('nested/deep.mjs', dir)).toBe(join(dir, 'nested', 'deep.mjs'));
    expect(await resolveGraderModule(join(dir, 'ok.mjs'), dir)).toBe(join(dir, 'ok.mjs'));
    expect(typeof (await loadCustomGrader('ok.mjs', { gradersDir: dir }))).toBe('function');
  });

  it('refuses `..`, absolute paths elsewhere and symlinks that lead out, naming the module and the directory', async () => {
    await expect(resolveGraderModule('../outside.mjs', dir)).rejects.toThrow(/custom grader \.\.\/outside\.mjs resolves to .*outside\.mjs, outside the graders directory .*graders \(SITECHAT_GRADERS_DIR\)/);
    await expect(resolveGraderModule(join(root, 'outside.mjs'), dir)).rejects.toBeInstanceOf(CustomGraderError);
    await expect(resolveGraderModule('link.mjs', dir)).rejects.toThrow(/outside the graders directory/);
    await expect(resolveGraderModule('/etc/passwd', dir)).rejects.toThrow(/outside the graders directory/);
    await expect(resolveGraderModule('missing.mjs', dir)).rejects.toThrow(/file not found: .*missing\.mjs/);
    await expect(resolveGraderModule('ok.mjs', join(root, 'nope'))).rejects.toThrow(/graders directory .*nope \(SITECHAT_GRADERS_DIR\) does not exist/);
    await expect(runCustomGrader('../outside.mjs', row, { answer: '' }, 0.5, { gradersDir: dir })).rejects.toBeInstanceOf(CustomGraderError);
  });

  it("passes a grader's error text and reason through the redaction", async () => {
    process.env.LEAK_KEY = 'sk-live-0123456789';
    const scrub = (text: string): string => text.split('sk-live-0123456789').join('[REDACTED]');
    const thrown = await runCustomGrader('leaky.mjs', row, { answer: '' }, 0.5, { gradersDir: dir, scrub });
    expect(thrown.reason).toBe('custom grader leaky.mjs threw: call failed with key [REDACTED]');
    const reason = await runCustomGrader('leaky-reason.mjs', row, { answer: '' }, 0.5, { gradersDir: dir, scrub });
    expect(reason.reason).toBe('sent [REDACTED]');
    delete process.env.LEAK_KEY;
  });
});
