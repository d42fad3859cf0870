/**
 * `sitechat grade` at scale: 25,000 recorded answers re-graded offline by the built CLI, as a user runs it. Measures
 * wall time and the process's peak RSS (VmHWM). Target (issue 9): well under a minute and under 300 MB.
 *
 *   npm run bench:grade                    # 25,000 rows
 *   npm run bench:grade -- --rows 100000   # another size
 *   npm run bench:grade -- --write-docs    # also replace the grade block of BENCHMARKS.md
 *
 * The input is generated from the demo dataset's questions with verbose, chat-style answers and `|`-separated
 * references, so every row runs the default reference grader and the row-column graders; nothing is sent anywhere.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { projectRoot } from '../src/temporal/projectRoot';
import { mib, ProcWatcher } from './proc';

const START = '<!-- bench-grade:start -->';
const END = '<!-- bench-grade:end -->';

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
    if (!out.write(`${line.map(csvCell).join(',')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const r = argv.indexOf('--rows');
  const rows = r >= 0 ? Number(argv[r + 1]) : 25_000;
  const dir = mkdtempSync(join(tmpdir(), 'sitechat-bench-grade-'));
  try {
    const input = join(dir, 'answers.csv');
    await writeInput(input, rows);
    const cli = join(projectRoot(), 'dist', 'src', 'cli', 'main.js');
    const started = Date.now();
    const child = spawn(process.execPath, [cli, 'grade', input, '--out', join(dir, 'report'), '--json'], {
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
    const result = {
      rows, graded: summary.total, passed: summary.passed, failed: summary.failed,
      wallS: Math.round(wallMs / 100) / 10, rowsPerS: Math.round((rows / wallMs) * 1000), peakRssMiB: mib(usage.peakRssBytes), cpuS: Math.round(usage.cpuMs / 100) / 10,
      node: process.version, cpus: cpus().length,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (argv.includes('--write-docs')) writeDocs(result);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeDocs(r: { rows: number; wallS: number; rowsPerS: number; peakRssMiB: number; cpuS: number; node: string; cpus: number; passed: number; failed: number }): void {
  const file = join(projectRoot(), 'BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  const block = [
    START,
    `Command: \`npm run bench:grade -- --write-docs\` (${r.cpus} cores, Node ${r.node}).`,
    '',
    '| rows | wall | rows/s | peak RSS | CPU | passed / failed | target |',
    '|---|---|---|---|---|---|---|',
    `| ${r.rows.toLocaleString('en-US')} | ${r.wallS} s | ${r.rowsPerS.toLocaleString('en-US')} | ${r.peakRssMiB} MiB | ${r.cpuS} s | ${r.passed} / ${r.failed} | well under 60 s, < 300 MB |`,
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
