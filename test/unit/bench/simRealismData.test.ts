import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT, HELD_OUT, loadSquad, SECOND_SOURCE, splitDevSet, type SquadArticle } from '../../../bench/sim-realism-data';

/** A synthetic file in SQuAD 2.0's shape with the dev set's article titles (not SQuAD data). */
const article = (title: string): SquadArticle => ({
  title,
  paragraphs: [{ context: `About ${title}.`, qas: [{ question: `What about ${title}?`, answers: [{ text: title }] }] }],
});
const DEV_SET_ORDER = [...HELD_OUT, 'Southern_California', 'Huguenot', ...SECOND_SOURCE.slice(1), ...DEVELOPMENT.slice(1)];

async function file(titles: readonly string[]): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'squad-')), 'dev-v2.0.json');
  await writeFile(path, JSON.stringify({ version: 'v2.0', data: titles.map(article) }));
  return path;
}

describe('realism bench data splits', () => {
  it('drops the held-out articles on load and splits the rest into the development file and the second source, in file order', async () => {
    const path = await file(DEV_SET_ORDER);
    const loaded = loadSquad(path, new Set(HELD_OUT));
    expect(loaded.map((a) => a.title)).not.toContain('Normans');
    const { development, second } = splitDevSet(loaded, path);
    expect(development.map((a) => a.title)).toEqual(DEVELOPMENT);
    expect(second.map((a) => a.title)).toEqual(SECOND_SOURCE);
    expect(DEVELOPMENT.length + SECOND_SOURCE.length + HELD_OUT.length).toBe(35);
    expect(DEVELOPMENT.filter((t) => SECOND_SOURCE.includes(t))).toEqual([]);
  });

  it('refuses a file that is not the dev set, naming the article', async () => {
    const extra = await file([...DEV_SET_ORDER, 'Super_Bowl_50']);
    expect(() => splitDevSet(loadSquad(extra, new Set(HELD_OUT)), extra)).toThrow(/not the SQuAD 2.0 dev set: unexpected article "Super_Bowl_50"/);
    const short = await file(DEV_SET_ORDER.filter((t) => t !== 'Rhine'));
    expect(() => splitDevSet(loadSquad(short, new Set(HELD_OUT)), short)).toThrow(/not the SQuAD 2.0 dev set: no article "Rhine"/);
  });
});
