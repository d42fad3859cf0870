/**
 * Every shell example of README.md and docs/*.md that can run here runs, as written, on the embedded defaults (the
 * simulator and an embedded Temporal dev server per command: an embedded simulator's worker joins no server its
 * command did not start), in a scratch directory that has the repository's datasets/ and examples/. `npx sitechat` is this build's CLI: nothing is fetched. The
 * ones that cannot run here say why in a `<!-- docs-test: skip (reason) -->` line before the fence; they are listed.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandsOf, docFiles, fencesOf, SHELL_LANGUAGES } from '../helpers/docExamples';
import { CLI } from '../helpers/cli';
import { failOnWarnings } from '../helpers/warnings';

const ROOT = join(__dirname, '..', '..');
const fences = docFiles(ROOT).flatMap((file) => fencesOf(ROOT, file));
const shell = fences.filter((f) => SHELL_LANGUAGES.has(f.language));
const skipped = shell.filter((f) => f.skip !== undefined);
const runnable = shell.filter((f) => f.skip === undefined);

/** `npx sitechat …` is this checkout's CLI; any other npx would download something, and is refused. */
const PREAMBLE = `npx() { if [ "$1" = sitechat ]; then shift; node ${JSON.stringify(CLI)} "$@"; else echo "docs test: npx $1 is not run here" >&2; return 127; fi; }`;

function bash(cwd: string, command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `${PREAMBLE}\n${command}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    failOnWarnings(command, child);
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('docs examples', () => {
  const dirs = new Map<string, string>();
  afterAll(() => {
    for (const dir of dirs.values()) rmSync(dir, { recursive: true, force: true });
  });

  /** One scratch directory per document: its examples build on each other (a baseline run, then a comparison). */
  function scratchFor(file: string): string {
    let dir = dirs.get(file);
    if (!dir) {
      dir = mkdtempSync(join(tmpdir(), 'sitechat-docs-'));
      symlinkSync(join(ROOT, 'datasets'), join(dir, 'datasets'));
      cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
      dirs.set(file, dir);
    }
    return dir;
  }

  it('every fence names its language, and every skipped shell example says why', () => {
    const untagged = fences.filter((f) => f.language === '').map((f) => `${f.file}:${f.line}`);
    expect(untagged, 'fences without a language').toEqual([]);
    for (const f of skipped) expect(f.skip?.trim(), `${f.file}:${f.line}`).not.toBe('');
    // Listed in the test output, so a reader sees what is not run and why.
    console.info(`docs examples: ${runnable.length} shell examples run, ${skipped.length} not run here:\n${skipped.map((f) => `  ${f.file}:${f.line}: ${f.skip}`).join('\n')}`);
    expect(runnable.length).toBeGreaterThan(0);
  });

  it('the README\'s sample config is examples/sitechat.config.yaml, word for word, and the grader it names exists', () => {
    const sample = fences.find((f) => f.file === 'README.md' && f.language === 'yaml' && f.body.startsWith('# examples/sitechat.config.yaml'));
    expect(sample, 'README.md: the yaml fence of examples/sitechat.config.yaml').toBeDefined();
    expect(`${sample?.body}\n`).toBe(readFileSync(join(ROOT, 'examples', 'sitechat.config.yaml'), 'utf8'));
    for (const [, module] of (sample?.body ?? '').matchAll(/module: (\S+?) ?\}/gu)) expect(existsSync(join(ROOT, 'examples', module ?? '')), module).toBe(true);
  });

  // The documents side by side, each document's examples in order in one test: every command waits on its own
  // embedded server and simulator far more than it computes, so the documents take about as long as the longest one.
  for (const file of new Set(runnable.map((f) => f.file))) {
    it.concurrent(`${file}: every shell example runs as written, in order`, async ({ expect }) => {
      const cwd = scratchFor(file);
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_') && !k.startsWith('npm_')));
      const env = { ...clean, SITECHAT_SIM_LATENCY_SCALE: '0.02' };
      for (const fence of runnable.filter((f) => f.file === file)) {
        const commands = commandsOf(fence.body);
        expect(commands.length, `${fence.file}:${fence.line}: a shell example without a command`).toBeGreaterThan(0);
        for (const command of commands) {
          const ran = await bash(cwd, command.text, env);
          expect(ran.code, `${fence.file}:${fence.line}: \`${command.text}\`\n${ran.output.slice(-3000)}`).toBe(command.expectedExit);
        }
      }
    }, 300_000);
  }
});

