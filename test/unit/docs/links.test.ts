import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const DOCS = [
  'README.md', 'CONTRIBUTING.md', 'BENCHMARKS.md', 'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
].filter((f) => existsSync(join(ROOT, f)));

/** The lines of a markdown file outside code fences, with inline code blanked (links there are examples, not links). */
function prose(path: string): { line: number; text: string }[] {
  let fenced = false;
  return readFileSync(path, 'utf8').split('\n').flatMap((text, i) => {
    if (/^\s*```/u.test(text)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line: i + 1, text: text.replace(/`[^`]*`/gu, '') }];
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading.replace(/`/gu, '').trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /gu, '-');
}

/** The anchors of a markdown file's headings; a repeated heading gets `-1`, `-2` … as on GitHub. */
function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (/^\s*```/u.test(text)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/u.exec(text);
    if (!heading) continue;
    const base = slug(heading[1] ?? '');
    const n = seen.get(base) ?? 0;
    anchors.add(n === 0 ? base : `${base}-${n}`);
    seen.set(base, n + 1);
  }
  return anchors;
}

describe('relative links in the docs', () => {
  it('slugs headings as GitHub does', () => {
    expect(slug('Nightly false alarms: `--repeat` and `--confirm`')).toBe('nightly-false-alarms---repeat-and---confirm');
    expect(slug("The simulator's realism (2026-11-24, issue 25)")).toBe('the-simulators-realism-2026-11-24-issue-25');
  });

  it('every relative link of README.md, CONTRIBUTING.md, BENCHMARKS.md, CHANGELOG.md and docs/ reaches a file, and its #anchor a heading', () => {
    const dead: string[] = [];
    for (const doc of DOCS) {
      const path = join(ROOT, doc);
      for (const { line, text } of prose(path)) {
        for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/gu)) {
          if (/^[a-z]+:/u.test(target)) continue; // https:, mailto:
          const [file = '', anchor] = target.split('#');
          const to = file === '' ? path : join(dirname(path), file);
          if (!existsSync(to)) dead.push(`${doc}:${line}: ${target} (no ${relative(ROOT, to)})`);
          else if (anchor && to.endsWith('.md') && !anchorsOf(to).has(anchor)) dead.push(`${doc}:${line}: ${target} (no such heading)`);
        }
      }
    }
    expect(dead).toEqual([]);
  });
});
