/**
 * A review note is held to the rules of a label file's import when it is saved, so `labels export` → `labels import`
 * gives back every note the page accepted.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelCsvHeader, labelCsvLine, readLabelFile } from '../../../src/labels/file';
import { labelKey } from '../../../src/labels/key';
import { LabelVerdict, type Label } from '../../../src/domain/label';
import { seededRandom } from '../../../src/review/sample';
import { noteProblem } from '../../../src/review/save';

describe('noteProblem', () => {
  it('refuses control characters a label file may not hold, naming the character and where it is', () => {
    expect(noteProblem('red \u001b[31m text')).toMatch(/^the note holds control character U\+001B \(escape\) at character 5: a note may hold text, tabs and line breaks/u);
    expect(noteProblem('nul\u0000')).toContain('control character U+0000 (NUL) at character 4');
    expect(noteProblem('a\rb')).toContain('U+000D (carriage return) at character 2');
    expect(noteProblem('🚀\u0008')).toContain('U+0008 (backspace) at character 2');
    expect(noteProblem('half \ud800 pair')).toContain('a lone surrogate U+D800');
    for (const ok of ['plain', 'tab\there', 'two\nlines', 'crlf\r\nlines', '=HYPERLINK("x")', 'emoji 🚀', 'del \u007f and nel \u0085']) {
      expect(noteProblem(ok), JSON.stringify(ok)).toBeUndefined();
    }
  });

  it('every note it accepts comes back from a CSV export by an import, byte for byte (400 seeded random notes)', async () => {
    // Every C0 control now and then; DEL, C1's NEL, separators, quotes, formula starts, the writer's own quote, a lone surrogate.
    const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i));
    const others = ['\u007f', '\u0085', '\u2028', '\ufeff', ' ', '"', ',', ';', "'", '=', '+', '-', '@', '|', '\\', 'a', 'Z', 'é', '🚀', '\ud800'];
    const random = seededRandom('review notes');
    const pick = (list: string[]): string => list[Math.floor(random() * list.length)] ?? '';
    const notes = Array.from({ length: 400 }, () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(random() < 0.1 ? controls : others)).join(''));
    // What the page sends (trimmed), where the page and the server accept it.
    const accepted = notes.map((n) => n.trim()).filter((n) => n !== '' && noteProblem(n) === undefined);
    expect(accepted.length).toBeGreaterThan(100);
    expect(accepted.length).toBeLessThan(notes.length);
    const labels: Label[] = accepted.map((note, i) => {
      const subject = { siteId: `site-${i}`, question: 'Q?', references: ['R'], answer: 'a' };
      return { key: labelKey(subject), ...subject, verdict: LabelVerdict.pass, note, at: '2026-01-02T03:04:05.000Z' };
    });
    const file = join(await mkdtemp(join(tmpdir(), 'notes-')), 'labels.csv');
    await writeFile(file, labelCsvHeader() + labels.map((l) => labelCsvLine(l)).join(''));
    const read = await readLabelFile(file);
    expect(read.issues).toEqual([]);
    expect(read.labels.map((l) => l.note)).toEqual(accepted);
  });
});
