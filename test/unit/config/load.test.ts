import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRunConfig, loadRunConfig } from '../../../src/config';
import { configErrorOf as errorOf, configScratch } from '../../helpers/configFiles';

const { write, dir: scratch } = configScratch('config-');

describe('loadRunConfig', () => {
  it('loads a full YAML config', async () => {
    await write('grader.mjs', 'export const grade = () => true;');
    const path = await write('sitechat.config.yaml', `
site: demo
concurrency: 8
feedback: none
answerTimeout: 3m
email: bot@example.com
failUnder: 0.9
model: gpt-4o-mini
thresholds: { reference: 0.7, f1: 0.6, rougeL: 0.3 }
assertions:
  - { type: reference, value: 'Paris|City of Paris', threshold: 0.5 }
  - { type: not-contains, values: [as an AI] }
  - { type: max-latency, ms: 30s }
  - { type: regex, pattern: '\\d+', flags: i }
  - { type: custom, module: ./grader.mjs }
`);
    const config = await loadRunConfig(path);
    expect(config).toEqual({
      site: 'demo', concurrency: 8, feedback: 'none', answerTimeout: '3m', answerTimeoutMs: 180_000,
      email: 'bot@example.com', failUnder: 0.9, model: 'gpt-4o-mini', thresholds: { reference: 0.7, f1: 0.6, rougeL: 0.3 },
      assertions: [
        { type: 'reference', value: 'Paris|City of Paris', threshold: 0.5 },
        { type: 'not-contains', values: ['as an AI'] },
        { type: 'max-latency', ms: 30_000 },
        { type: 'regex', pattern: '\\d+', flags: 'i' },
        { type: 'custom', module: join(scratch(), 'grader.mjs') },
      ],
    });
  });

  it('loads JSON and defaults assertions to []', async () => {
    const path = await write('c.json', '{ "site": "x" }');
    expect(await loadRunConfig(path)).toEqual({ site: 'x', assertions: [] });
  });

  it('accepts an empty YAML file', async () => {
    expect(await loadRunConfig(await write('empty.yaml', ''))).toEqual({ assertions: [] });
  });

  it('names the file and every bad key path', async () => {
    const path = await write('bad.yaml', `
concurrency: 0
feedback: always
answerTimeout: 5
failUnder: 1.5
thresholds: { f1: 2, f2: 0.1, reference: -0.1 }
sites: demo
assertions:
  - { type: f1, threshold: -1 }
  - { type: nope }
  - { type: contains-all, values: [] }
  - { type: regex, pattern: '(' }
  - { type: contains }
  - { type: max-latency, ms: soon }
  - { type: reference, threshold: 1.5 }
`);
    const error = await errorOf(path);
    const lines = error.message.split('\n');
    expect(lines).toEqual(expect.arrayContaining([
      `${path}: \`concurrency\` must be >= 1`,
      `${path}: \`feedback\` must be one of "graded", "none"`,
      `${path}: \`answerTimeout\` must be a string`,
      `${path}: \`failUnder\` must be <= 1`,
      `${path}: \`thresholds.f1\` must be <= 1`,
      `${path}: \`thresholds.reference\` must be >= 0`,
      `${path}: \`thresholds\` unknown key \`f2\``,
      `${path}: unknown key \`sites\``,
      `${path}: \`assertions[0].threshold\` must be >= 0`,
      expect.stringMatching(/`assertions\[1\]\.type` must be one of equals, contains, .*custom, llm-rubric, llm-correctness$/),
      `${path}: \`assertions[2].values\` must not be empty`,
      expect.stringMatching(/`assertions\[3\]\.pattern` does not compile: /),
      `${path}: \`assertions[4].value\` is required`,
      `${path}: \`assertions[5].ms\` must be milliseconds or a duration such as "30s"`,
      `${path}: \`assertions[6].threshold\` must be <= 1`,
    ]));
    expect(lines).toHaveLength(15);
    expect(error.issues).toContainEqual({ path: 'concurrency', message: 'must be >= 1' });
  });

  it('rejects a bad duration string and a bad email', async () => {
    const error = await errorOf(await write('d.yaml', 'answerTimeout: 5 minutes\nemail: nobody'));
    expect(error.issues).toEqual([
      { path: 'answerTimeout', message: 'must be a duration such as "90s", "5m" or "1h"' },
      { path: 'email', message: 'must be an email address' },
    ]);
  });

  it('takes dataset columns declared as metadata, but none the runner reads, and allowUngraded', async () => {
    expect(await loadRunConfig(await write('m.yaml', 'metadata: [mode, " locale "]\nallowUngraded: true\n'))).toEqual({ assertions: [], metadata: ['mode', 'locale'], allowUngraded: true });
    const error = await errorOf(await write('known.yaml', 'metadata: [notes, Model]\n'));
    expect(error.issues).toEqual([{ path: 'metadata[1]', message: '"Model" is a column the runner reads: only other columns can be declared as metadata (docs/datasets.md)' }]);
  });

  it('reports a missing custom grader module', async () => {
    const error = await errorOf(await write('c.yaml', 'assertions: [{ type: custom, module: ./missing.js }]'));
    expect(error.issues).toEqual([{ path: 'assertions[0].module', message: `file not found: ${join(scratch(), 'missing.js')}` }]);
  });

  it('reports syntax errors, missing files and unknown formats', async () => {
    expect((await errorOf(await write('s.yaml', 'a: [1,\n'))).message).toMatch(/s\.yaml: invalid YAML: /);
    expect((await errorOf(await write('dup.yaml', 'site: a\nsite: b\n'))).message).toMatch(/invalid YAML: .*unique/i);
    expect((await errorOf(await write('s.json', '{ "site": '))).message).toMatch(/s\.json: invalid JSON: /);
    expect((await errorOf(join(scratch(), 'none.yaml'))).message).toBe(`${join(scratch(), 'none.yaml')}: file not found`);
    expect((await errorOf(await write('c.toml', 'x=1'))).message).toContain('unsupported config format ".toml"');
    expect((await errorOf(await write('list.yaml', '- 1\n'))).message).toContain('must be an object');
  });
});

describe('findRunConfig', () => {
  it('finds the first known name', async () => {
    expect(await findRunConfig(scratch())).toBeUndefined();
    await write('sitechat.config.json', '{}');
    expect(await findRunConfig(scratch())).toBe(join(scratch(), 'sitechat.config.json'));
    await write('sitechat.config.yml', '');
    expect(await findRunConfig(scratch())).toBe(join(scratch(), 'sitechat.config.yml'));
  });
});
