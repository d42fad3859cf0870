/**
 * The fenced examples of README.md and docs/*.md, as the docs examples test runs them. A shell fence (sh, bash, shell,
 * console) is run unless the line before it is `<!-- docs-test: skip (reason) -->`; every fence must name its
 * language, so a shell example cannot hide in an untagged one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
const SKIP = /^<!-- docs-test: skip \((.+)\) -->$/u;

export interface Fence {
  /** Path from the repository root, and the line of the opening fence (1-based). */
  file: string;
  line: number;
  language: string;
  body: string;
  /** Why it is not run, from the marker before it. */
  skip?: string;
}

/** One command of a shell fence: continuation lines joined, and the exit code its `# exit N` comment expects. */
export interface ExampleCommand {
  text: string;
  expectedExit: number;
}

export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => join(root, 'docs', f));
  return [join(root, 'README.md'), ...docs];
}

export function fencesOf(root: string, path: string): Fence[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(.*)$/u.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^\s*```\s*$/u.test(lines[i] ?? '')) body.push(lines[i] ?? '');
    const marker = SKIP.exec((lines[start - 1] ?? '').trim());
    fences.push({ file: relative(root, path), line: start + 1, language: (open[1] ?? '').trim(), body: body.join('\n'), ...(marker?.[1] && { skip: marker[1] }) });
  }
  return fences;
}

/** The commands of a shell fence, comment lines dropped; a trailing `# exit N` says the exit code the docs promise. */
export function commandsOf(body: string): ExampleCommand[] {
  const joined = body.replace(/\\\n\s*/gu, ' ');
  return joined.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')).map((text) => {
    const exit = /#\s*exit (\d+)\b/u.exec(text);
    return { text, expectedExit: exit ? Number(exit[1]) : 0 };
  });
}
