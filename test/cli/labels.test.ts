import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgreementReport } from '../../src/labels/agreement';
import { LABELS_FILE } from '../../src/store/files';
import { CLI, sitechat } from '../helpers/cli';
import { describeWithPostgres } from '../helpers/usePostgres';

/** Labels with what CSV and JSONL make hard: commas, quotes, a line break, a literal bar, a rubric-only row, non-ASCII. */
const LABELS_CSV = [
  'site,question,references,rubric,answer,verdict,note,by,at',
  'demo-site,How much does the Personal plan cost?,$9.99 per month|9.99 a month,,"The Personal plan is $9.99 per month.",pass,,ana,2026-11-20T10:00:00Z',
  'demo-site,Which payment methods do you accept?,gold bars,,"We accept cards, PayPal and ""gift"" codes.",fail,"wrong, says ""gift""",bo,',
  'demo-site,Is the answer friendly?,,greets the user,"Hello!\nHappy to help.",pass,"a note\non two lines",,2026-11-21T08:30:00+01:00',
  'site-2,Qu\'est-ce que « a\\|b » ?,a\\|b,,a|b est un symbole,pass,,,2026-11-22T00:00:00Z',
].join('\n');

describe('sitechat labels (the built CLI, file store)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-labels-'));
    writeFileSync(join(dir, 'labels.csv'), `${LABELS_CSV}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const envFor = (store: string): Record<string, string> => ({ SITECHAT_RUNS_DIR: join(dir, store) });

  it('exports what it imported, and an import of the export into an empty store exports the same (CSV and JSONL)', async () => {
    for (const ext of ['csv', 'jsonl']) {
      const first = envFor(`rt-${ext}-1`);
      const second = envFor(`rt-${ext}-2`);
      const imported = await sitechat(dir, ['labels', 'import', 'labels.csv'], first);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toMatch(/4 labels of 2 sites imported/);
      const a = await sitechat(dir, ['labels', 'export', `a.${ext}`], first);
      expect(a.code, a.stderr).toBe(0);
      const again = await sitechat(dir, ['labels', 'import', `a.${ext}`], second);
      expect(again.code, again.stderr).toBe(0);
      expect((await sitechat(dir, ['labels', 'export', `b.${ext}`], second)).code).toBe(0);
      const exported = readFileSync(join(dir, `a.${ext}`), 'utf8');
      expect(readFileSync(join(dir, `b.${ext}`), 'utf8')).toBe(exported);
      // Four labels, every field kept: the quotes, the note's line break (answers are kept normalized: one line) and the
      // literal bar survive both formats.
      const text = ext === 'csv' ? exported : exported.split('\n').filter(Boolean).map((l) => JSON.stringify(JSON.parse(l))).join('\n');
      expect(text.split('\n').filter(Boolean).length).toBe(ext === 'csv' ? 6 : 4);
      expect(text).toContain(ext === 'csv' ? '"wrong, says ""gift"""' : 'wrong, says \\"gift\\"');
      expect(text).toContain(ext === 'csv' ? 'a\\|b' : '"references":["a|b"]');
      expect(text).toContain('2026-11-21T07:30:00.000Z');
    }
    // Only one site, as JSONL.
    const site = await sitechat(dir, ['labels', 'export', 'site2.jsonl', '--site', 'site-2'], envFor('rt-csv-1'));
    expect(site.code, site.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'site2.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { site: string; answer: string });
    expect(lines).toEqual([expect.objectContaining({ site: 'site-2', answer: 'a|b est un symbole' })]);
  });

  it('an import with errors exits 2, names file, line and column, and writes nothing', async () => {
    const env = envFor('bad');
    expect((await sitechat(dir, ['labels', 'import', 'labels.csv'], env)).code).toBe(0);
    const before = readFileSync(join(dir, 'bad', LABELS_FILE));
    const bad = [
      'site,question,references,answer,verdict,key',
      'demo-site,A good question?,yes,yes it is,pass,',
      'demo-site,Another?,no,nope,maybe,',
      ',Third?,x,y,fail,',
      'demo-site,Fourth?,x,y,fail,0000',
      'demo-site,A good question?,yes,Yes it is.,fail,',
    ].join('\n');
    // Line 7: a byte that is not UTF-8.
    writeFileSync(join(dir, 'bad.csv'), Buffer.concat([Buffer.from(`${bad}\ndemo-site,Fifth?,x,`), Buffer.from([0xff]), Buffer.from(',fail,\n')]));
    const ran = await sitechat(dir, ['labels', 'import', 'bad.csv'], env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('bad.csv:3: `verdict` must be pass or fail (got "maybe")');
    expect(ran.stderr).toContain('bad.csv:4: `site` is empty');
    expect(ran.stderr).toMatch(/bad\.csv:5: `key` does not match the label's site, question, references, rubric and answer \(they give [0-9a-f]{64}\)/);
    expect(ran.stderr).toContain('bad.csv:6: the same label as line 2');
    expect(ran.stderr).toMatch(/bad\.csv:7:\d+: .*UTF-8/);
    expect(ran.stderr).toMatch(/problem\(s\) in bad\.csv; no label was imported/);
    expect(readFileSync(join(dir, 'bad', LABELS_FILE))).toEqual(before);

    // JSONL: wrong types and unknown fields, each named; still nothing written.
    writeFileSync(join(dir, 'bad.jsonl'), [
      JSON.stringify({ site: 'demo-site', question: 'Q?', references: 'a|b', answer: 'a', verdict: 'pass' }),
      JSON.stringify({ site: 'demo-site', question: 'Q2?', references: [1], answer: 'a', verdict: 'pass' }),
      JSON.stringify({ site: 'demo-site', question: 'Q3?', answer: 'a', verdict: 'pass', verdit: 'x' }),
      '{"site": "demo-site",',
    ].join('\n'));
    const jsonl = await sitechat(dir, ['labels', 'import', 'bad.jsonl'], env);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toContain('bad.jsonl:2: `references` must be a list of strings');
    expect(jsonl.stderr).toContain('bad.jsonl:3: `verdit` is not a label field');
    expect(jsonl.stderr).toMatch(/bad\.jsonl:4: invalid JSON/);
    expect(readFileSync(join(dir, 'bad', LABELS_FILE))).toEqual(before);

    const missing = await sitechat(dir, ['labels', 'import', 'nope.csv'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.csv: file not found/);
  });

  it('agreement: figures of each grader on the labels, as JSON and as a table', async () => {
    const env = envFor('agree');
    writeFileSync(join(dir, 'agree.csv'), [
      'site,question,references,answer,verdict',
      'demo-site,What is the capital of France?,Paris,The capital of France is Paris.,pass',
      'demo-site,What is the capital of France?,Paris,The capital of France is Lyon.,fail',
      'demo-site,Which plan includes priority support?,the Business plan with annual billing,Priority support comes with the Business plan.,pass',
      'demo-site,Which plan includes priority support?,the Business plan with annual billing,Priority support is available on selected plans.,pass',
    ].join('\n'));
    expect((await sitechat(dir, ['labels', 'import', 'agree.csv'], env)).code).toBe(0);
    const ran = await sitechat(dir, ['labels', 'agreement', '--json'], env);
    expect(ran.code, ran.stderr).toBe(0);
    const report = JSON.parse(ran.stdout) as AgreementReport;
    const by = new Map(report.graders.map((g) => [g.grader, g]));
    // By hand: Paris passes, Lyon fails on evidence, "Business plan" passes at 0.5 and is uncertain at 0.6, "selected
    // plans" fails (the person passed it).
    expect(report).toMatchObject({ labelled: 4, passLabels: 3, failLabels: 1 });
    expect(by.get('reference @ 0.5')).toMatchObject({ decided: 4, agreeing: 3, coverage: 1, falseFails: 1 });
    expect(by.get('reference @ 0.6')).toMatchObject({ decided: 3, agreeing: 2, coverage: 0.75, falseFails: 1, uncertain: 1 });
    expect(by.get('contains (normalized)')).toMatchObject({ decided: 4, agreeing: 2, falseFails: 2 });
    // No judge ran: no judge row. Four labels are too few to go by.
    expect(by.get('judge')).toBeUndefined();
    expect(report).toMatchObject({ wanted: 30, moreNeeded: 26 });
    expect(report.supported).toEqual({ threshold: 0.5, agreement: 0.75, coverage: 1 });

    const table = await sitechat(dir, ['labels', 'agreement', '--site', 'demo-site'], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^reference @ 0\.6\s+4\s+3\s+75\.0%\s+0\.667\s+0\.500\s+1\s+0$/mu);
    expect(table.stdout).toContain('label 26 more (30 wanted)');
    // The line's wording is pinned in test/unit/labels/agreement.test.ts; here, its figures (those of --json above).
    expect(table.stdout).toContain('on these 4 labels, reference threshold 0.5 agrees best');
    expect(table.stdout).toContain(': agreement 0.750 deciding 100.0% ');
    expect(table.stdout).not.toMatch(/^judge/mu);
    const noRun = await sitechat(dir, ['labels', 'agreement', '--run', 'latest'], env);
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toContain('--run latest: no finished evaluation run');
  });
});

describeWithPostgres('sitechat labels with the PostgreSQL store (the built CLI)', (pg) => {
  it('round-trips labels through the labels table and refuses a bad file without writing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitechat-labels-pg-'));
    try {
      writeFileSync(join(dir, 'labels.csv'), `${LABELS_CSV}\n`);
      const first = { SITECHAT_STORE_URL: await pg.freshDatabase(), SITECHAT_RUNS_DIR: join(dir, 'runs') };
      const second = { SITECHAT_STORE_URL: await pg.freshDatabase(), SITECHAT_RUNS_DIR: join(dir, 'runs') };
      expect((await sitechat(dir, ['labels', 'import', 'labels.csv'], first)).code).toBe(0);
      expect((await sitechat(dir, ['labels', 'export', 'a.jsonl'], first)).code).toBe(0);
      writeFileSync(join(dir, 'bad.csv'), 'site,question,answer,verdict\ndemo-site,Q?,a,pass\ndemo-site,Q2?,a,nope\n');
      expect((await sitechat(dir, ['labels', 'import', 'bad.csv'], second)).code).toBe(2);
      expect((await sitechat(dir, ['labels', 'import', 'a.jsonl'], second)).code).toBe(0);
      expect((await sitechat(dir, ['labels', 'export', 'b.jsonl'], second)).code).toBe(0);
      const a = readFileSync(join(dir, 'a.jsonl'), 'utf8');
      expect(a.trim().split('\n')).toHaveLength(4);
      // Nothing of bad.csv is in the second store: its export is the first's exactly.
      expect(readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(a);
      expect(existsSync(join(dir, 'runs', LABELS_FILE))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
