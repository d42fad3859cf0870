import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/analysis/compare/types';
import { CLI, sitechat } from '../helpers/cli';

const DEMO = resolve(__dirname, '..', '..', 'datasets', 'demo.csv');

/**
 * `sitechat compare` on real runs of the demo against the embedded simulator: the default model twice and the
 * deliberately weak one once. Nothing here is tuned: the demo's figures are pinned elsewhere (docs/simulator.md).
 */
describe('sitechat compare (the CLI, runs of the demo on the embedded simulator)', () => {
  let dir: string;
  const runIds: Record<'default' | 'again' | 'weak', string> = { default: '', again: '', weak: '' };
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-compare-'));
    for (const [name, model] of [['default', 'gpt-4o-mini'], ['weak', 'gpt-3.5-mini-sim'], ['again', 'gpt-4o-mini']] as const) {
      const ran = await sitechat(dir, ['run', DEMO, '--model', model, '--json']);
      expect(ran.code, ran.stderr).not.toBe(2);
      runIds[name] = (JSON.parse(ran.stdout) as { runId: string }).runId;
    }
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the weak model worse with p < 0.001, and two runs of the same setting not significantly different', async () => {
    const out = join(dir, 'cmp');
    const ran = await sitechat(dir, ['compare', runIds.default, runIds.weak, runIds.again, '--out', out, '--reference', runIds.again]);
    expect(ran.code, ran.stderr).toBe(0);
    const c = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison;
    const pair = (a: number, b: number) => c.pairs.find((p) => p.a === a && p.b === b);
    expect(pair(0, 1)?.adjustedP).toBeLessThan(0.001);
    expect(pair(0, 1)?.wins).toBeGreaterThan(pair(0, 1)?.losses ?? Infinity);
    expect(pair(0, 2)?.significant).toBe(false);
    expect(c.conclusion).toMatch(/No variant is better than every other one; significant pairs: gpt-4o-mini @ demo-site · \S+ > gpt-3\.5-mini-sim @ demo-site/);
    expect(ran.stderr).toMatch(/vs gpt-3\.5-mini-sim @ demo-site: \d+ wins, \d+ ties, \d+ losses, p=\S+, Holm p=\S+ \(significant\)/);
    for (const f of ['compare.md', 'compare.html', 'compare.junit.xml']) expect(existsSync(join(out, f)), f).toBe(true);
  });

  it('exit 1 when the reference is beaten significantly; exit 2 for a run that does not exist, naming it', async () => {
    const beaten = await sitechat(dir, ['compare', runIds.default, `runs/${runIds.weak}`, '--reference', runIds.weak, '--out', join(dir, 'cmp2')]);
    expect(beaten.code, beaten.stderr).toBe(1);
    expect(beaten.stderr).toMatch(/gpt-3\.5-mini-sim @ demo-site is beaten significantly by gpt-4o-mini @ demo-site/);
    const missing = await sitechat(dir, ['compare', runIds.default, '20990101-0000-abcdef']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no run 20990101-0000-abcdef in the results store/);
    const one = await sitechat(dir, ['compare', runIds.default, '--alpha', '5']);
    expect(one.code).toBe(2);
  });
});
