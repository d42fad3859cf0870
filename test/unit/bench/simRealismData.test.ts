import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELD_OUT, loadSquad, type SquadArticle } from '../../../bench/sim-realism-data';

/** A synthetic file in SQuAD 2.0's shape (not SQuAD data). */
const article = (title: string): SquadArticle => ({
  title,
  paragraphs: [{ context: `About ${title}.`, qas: [{ question: `What about ${title}?`, answers: [{ text: title }] }] }],
});

async function file(data: unknown): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'squad-')), 'dev-v2.0.json');
  await writeFile(path, JSON.stringify({ version: 'v2.0', data }));
  return path;
}

describe('realism bench data', () => {
  it('drops the held-out articles by title, written with underscores or spaces, and keeps the rest in file order', async () => {
    const path = await file(['Normans', 'Rhine', 'Computational complexity theory', 'Black_Death'].map(article));
    expect(loadSquad(path, new Set(HELD_OUT)).map((a) => a.title)).toEqual(['Rhine', 'Black_Death']);
    expect(loadSquad(path, new Set(['rhine', 'Black Death'])).map((a) => a.title)).toEqual(['Normans', 'Computational complexity theory']);
  });

  it('refuses a file that is not in SQuAD\'s shape, naming the field', async () => {
    expect(() => loadSquad(join(tmpdir(), 'no-such-squad.json'), new Set())).toThrow(/no-such-squad\.json/);
    const notArray = await file({ title: 'Rhine' });
    expect(() => loadSquad(notArray, new Set())).toThrow(/`data` must be an array of SQuAD articles/);
    const noParagraphs = await file([article('Rhine'), { title: 'Oxygen' }]);
    expect(() => loadSquad(noParagraphs, new Set())).toThrow(/`data\[1\]` must have a `title` and `paragraphs`/);
  });
});
