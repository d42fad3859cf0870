/**
 * `sitechat grade` at scale: 25,000 recorded answers re-graded offline by the built CLI, as a user runs it. Measures
 * wall time and the process's peak RSS (VmHWM). Target (issue 9): well under a minute and under 300 MB.
 *
 *   npm run bench:grade                    # 25,000 rows of each mix
 *   npm run bench:grade -- --rows 100000   # another size
 *   npm run bench:grade -- --write-docs    # also replace the grade block of BENCHMARKS.md
 *
 * Two generated inputs, nothing sent anywhere:
 * - `light`: one synthetic question template ("How long are deleted files kept (case i)?") with a chat-style answer
 *   of ~170 characters, right in 4 rows of 5; each row is graded by `reference` against two `|`-separated references
 *   and by `contains-all` (`must_include`). The everyday case.
 * - `heavy`: answers of ~900 characters and eight references per row, graded by `reference`, `contains-any`,
 *   `not-contains` and `regex` from the row's columns, plus `f1`, `rouge-l` and `levenshtein` against a 300-character
 *   reference from the config: the rules whose cost grows with the product of the two texts' lengths.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { csvLine } from '../src/datasets/csvWriter';
import { projectRoot } from '../src/shared/projectRoot';
import { mib, ProcWatcher } from './proc';

const START = '<!-- bench-grade:start -->';
const END = '<!-- bench-grade:end -->';

type Mix = 'light' | 'heavy';

const HEAVY_REFERENCE = 'Deleted files stay in the trash for thirty days on the Free and Personal plans and for one hundred and eighty days on the Business plan; after that they are removed for good and cannot be restored, not even by the support team, so restore them from the web app before then.';

/** The config of the heavy mix: the length-product rules against one long reference. */
const HEAVY_CONFIG = `assertions:\n${['f1', 'rouge-l', 'levenshtein'].map((type) => `  - { type: ${type}, value: ${JSON.stringify(HEAVY_REFERENCE)} }`).join('\n')}\n`;

/** Heavy rows: a long answer, eight references, and every row-column grader that takes text. */
async function writeHeavyInput(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,question,expected,include_any,must_not_include,regex,tags,answer,confidence_score,latency_ms\n');
  const filler = 'Our help center has more on plans, storage, sharing and security, and the support team answers within one business day. ';
  for (let i = 0; i < rows; i++) {
    const days = 7 + (i % 60);
    const references = Array.from({ length: 8 }, (_, k) => `${days + k * 30} days of retention on plan ${k + 1}`).join('|');
    const right = i % 5 !== 0;
    const core = right ? `Deleted files stay in the trash for ${days} days of retention on plan 1, after which they are removed for good.` : 'I am not sure about that one.';
    const answer = `Thanks for asking! ${core} ${filler.repeat(6)}`.trim();
    const line = [`h${i}`, `How long are deleted files kept (case ${i})?`, references, `${days} days|trash|retention`, 'as an AI language model|lorem ipsum', '/\\b\\d+ days\\b/i', 'retention|heavy', answer, String(40 + (i % 60)), String(800 + (i % 4000))];
    if (!out.write(csvLine(line))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Writes `rows` rows: id, question, expected (two references), must_include, tags, answer, confidence, latency. */
async function writeInput(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,question,expected,must_include,tags,answer,confidence_score,latency_ms\n');
  for (let i = 0; i < rows; i++) {
    const days = 7 + (i % 60);
    const right = i % 5 !== 0;
    const answer = right
      ? `Thanks for asking! Deleted files stay in the trash for ${days} days on the Free and Personal plans, after which they are removed for good. You can restore them from the web app before then.`
      : 'I am not sure about that. Please contact our support team, who will be happy to help you with your question.';
    const line = [`r${i}`, `How long are deleted files kept (case ${i})?`, `${days} days|${days} day retention`, 'trash', 'retention|files', answer, String(40 + (i % 60)), String(800 + (i % 4000))];
    if (!out.write(csvLine(line))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

interface Result { mix: Mix; rows: number; graded: number; passed: number; failed: number; wallS: number; rowsPerS: number; peakRssMiB: number; cpuS: number; node: string; cpus: number }

async function measure(dir: string, mix: Mix, rows: number): Promise<Result> {
  const input = join(dir, `${mix}.csv`);
  const args = ['grade', input, '--out', join(dir, `report-${mix}`), '--json'];
  if (mix === 'heavy') {
    await writeHeavyInput(input, rows);
    writeFileSync(join(dir, 'heavy.yaml'), HEAVY_CONFIG);
    args.push('--config', join(dir, 'heavy.yaml'));
  } else {
    await writeInput(input, rows);
  }
  const cli = join(projectRoot(), 'dist', 'src', 'cli', 'main.js');
  const started = Date.now();
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: dir, env: { ...process.env, SITECHAT_RUNS_DIR: join(dir, 'runs') }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const watcher = new ProcWatcher(child.pid ?? 0, 100);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const wallMs = Date.now() - started;
  const usage = watcher.stop();
  if (code !== 0 && code !== 1) throw new Error(`sitechat grade exited ${code}`);
  const summary = JSON.parse(stdout) as { total: number; passed: number; failed: number };
  return {
    mix, rows, graded: summary.total, passed: summary.passed, failed: summary.failed,
    wallS: Math.round(wallMs / 100) / 10, rowsPerS: Math.round((rows / wallMs) * 1000), peakRssMiB: mib(usage.peakRssBytes), cpuS: Math.round(usage.cpuMs / 100) / 10,
    node: process.version, cpus: cpus().length,
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const r = argv.indexOf('--rows');
  const rows = r >= 0 ? Number(argv[r + 1]) : 25_000;
  const dir = mkdtempSync(join(tmpdir(), 'sitechat-bench-grade-'));
  try {
    const results: Result[] = [];
    for (const mix of ['light', 'heavy'] as const) {
      const result = await measure(dir, mix, rows);
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      results.push(result);
    }
    if (argv.includes('--write-docs')) writeDocs(results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MIX_TEXT: Record<Mix, string> = {
  light: 'light: ~170-character answers, `reference` (2 references) + `contains-all`',
  heavy: 'heavy: ~900-character answers, `reference` (8 references), `contains-any`, `not-contains`, `regex`, and `f1`, `rouge-l`, `levenshtein` against a 300-character reference',
};

function writeDocs(results: Result[]): void {
  const file = join(projectRoot(), 'BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  const first = results[0];
  const block = [
    START,
    `Command: \`npm run bench:grade -- --write-docs\` (${first?.cpus ?? '?'} cores, Node ${first?.node ?? '?'}). Generated answers (bench/grade.ts says what each mix holds), graded by the built CLI; nothing is sent anywhere.`,
    '',
    '| mix | rows | wall | rows/s | peak RSS | CPU | passed / failed | target |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map((r) => `| ${MIX_TEXT[r.mix]} | ${r.rows.toLocaleString('en-US')} | ${r.wallS} s | ${r.rowsPerS.toLocaleString('en-US')} | ${r.peakRssMiB} MiB | ${r.cpuS} s | ${r.passed} / ${r.failed} | well under 60 s, < 300 MB |`),
    END,
  ].join('\n');
  const i = text.indexOf(START);
  const j = text.indexOf(END);
  const next = i >= 0 && j > i ? `${text.slice(0, i)}${block}${text.slice(j + END.length)}` : `${text.trimEnd()}\n\n## Offline re-grading (\`sitechat grade\`)\n\n${block}\n`;
  writeFileSync(file, next);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
