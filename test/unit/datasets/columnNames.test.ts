/** Misspelt column names: the distance rule, the message, and how the readers apply it per command. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnRulesFor } from '../../../src/cli/commands/run/preflight';
import { formatIssue, KNOWN_COLUMNS, scanDataset, type DatasetReadOptions } from '../../../src/datasets';
import { allowedEdits, closeColumns, columnNameProblem, DECLARE_AS_METADATA, looseName, swapEditDistance } from '../../../src/datasets/columnNames';
import { gradeColumnRules, openFileInput } from '../../../src/regrade/fileInput';

async function tempFile(name: string, content: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'dataset-columns-')), name);
  await writeFile(file, content);
  return file;
}

async function problems(file: string, options: DatasetReadOptions): Promise<string[]> {
  const scan = await scanDataset(file, options);
  return scan.issues.map((i) => formatIssue({ ...i, file: basename(i.file) }));
}

describe('swapEditDistance (optimal string alignment)', () => {
  it('counts an insertion, a deletion, a substitution and a swap of neighbours as one edit each', () => {
    expect(swapEditDistance('expected', 'expected')).toBe(0);
    expect(swapEditDistance('expeted', 'expected')).toBe(1);
    expect(swapEditDistance('questoin', 'question')).toBe(1);
    expect(swapEditDistance('mustinlcude', 'mustinclude')).toBe(1);
    expect(swapEditDistance('rubrik', 'rubric')).toBe(1);
    expect(swapEditDistance('tunr', 'turn')).toBe(1);
    expect(swapEditDistance('', 'abc')).toBe(3);
    expect(swapEditDistance('abc', '')).toBe(3);
    // Optimal string alignment: a swapped pair is not edited again.
    expect(swapEditDistance('ca', 'abc')).toBe(3);
    expect(swapEditDistance('url', 'turn')).toBe(2);
    // Code points, not UTF-16 units.
    expect(swapEditDistance('frage😀', 'frage')).toBe(1);
  });

  it('is symmetric', () => {
    for (const [a, b] of [['expeted', 'expected'], ['ca', 'abc'], ['session', 'sessionid'], ['kitten', 'sitting']] as const) {
      expect(swapEditDistance(a, b)).toBe(swapEditDistance(b, a));
    }
  });
});

describe('closeColumns: the rule', () => {
  it('reads case, `_`, `-`, spaces and dots as one name', () => {
    expect(looseName(' Must-Include ')).toBe('mustinclude');
    expect(looseName('session.id')).toBe('sessionid');
    expect(closeColumns('Must-Include', KNOWN_COLUMNS)).toEqual(['must_include']);
    expect(closeColumns('must include', KNOWN_COLUMNS)).toEqual(['must_include']);
    expect(closeColumns('SessionId', KNOWN_COLUMNS)).toEqual(['session_id']);
  });

  it('finds the misspellings of known columns', () => {
    const typos: Record<string, string> = {
      expeted: 'expected', exepcted: 'expected', expect: 'expected', questoin: 'question', qeustion: 'question', questions: 'question',
      must_inlcude: 'must_include', must_includes: 'must_include', mustnotinclude: 'must_not_include', include_anyy: 'include_any',
      regexp: 'regex', min_confidance: 'min_confidence', tag: 'tags', rubrik: 'rubric', tunr: 'turn', emial: 'email',
      conversation_id: 'conversation', session: 'session_id', locale: 'ui_locale', mode: 'model',
    };
    for (const [typo, known] of Object.entries(typos)) expect(closeColumns(typo, KNOWN_COLUMNS), typo).toEqual([known]);
  });

  it('leaves names far from every known one alone: they stay metadata', () => {
    for (const name of ['source', 'notes', 'note', 'url', 'category', 'topic', 'answer', 'context', 'language', 'lang', 'priority',
      'uid', 'no', 'x', 'title', 'expected_answer', 'reference', 'intent', 'team', 'user', 'date', 'name', 'score']) {
      expect(closeColumns(name, KNOWN_COLUMNS), name).toEqual([]);
    }
  });

  it('allows fewer edits to short names: none up to 3 letters, one up to 5, two beyond', () => {
    expect([allowedEdits('id'), allowedEdits('tags'), allowedEdits('model'), allowedEdits('rubric'), allowedEdits('mustinclude')]).toEqual([0, 1, 1, 2, 2]);
    expect(closeColumns('ids', KNOWN_COLUMNS)).toEqual([]);
    expect(closeColumns('I-D', KNOWN_COLUMNS)).toEqual(['id']);
    expect(closeColumns('turns', KNOWN_COLUMNS)).toEqual(['turn']);
    expect(closeColumns('trun', KNOWN_COLUMNS)).toEqual(['turn']);
    expect(closeColumns('trnz', KNOWN_COLUMNS)).toEqual([]);
  });

  it('names every known column at the same smallest distance, and never a name that is itself known', () => {
    expect(closeColumns('abcd', ['abce', 'abcf', 'abcdxy'])).toEqual(['abce', 'abcf']);
    expect(closeColumns('abcdx', ['abcd', 'abcdxy'])).toEqual(['abcd', 'abcdxy']);
    expect(closeColumns('answer', ['answer', 'answers'])).toEqual([]);
  });
});

describe('columnNameProblem', () => {
  const rules = { read: KNOWN_COLUMNS, fix: DECLARE_AS_METADATA };

  it('names the column and the guess, and how to keep it as metadata', () => {
    expect(columnNameProblem('expeted', rules)).toBe(
      'unknown column `expeted`: did you mean `expected`? Rename it; or, if it is metadata, declare it in the config: `metadata: [expeted]`.',
    );
    expect(columnNameProblem('abcd', { read: ['abce', 'abcf', 'abcg'], fix: '' })).toBe('unknown column `abcd`: did you mean `abce`, `abcf` or `abcg`?');
    expect(columnNameProblem('notes', rules)).toBeUndefined();
  });

  it('accepts a column declared as metadata (without regard to case) and the command\'s other columns', () => {
    expect(columnNameProblem('mode', { ...rules, metadata: ['Mode'] })).toBeUndefined();
    expect(columnNameProblem('mode', { ...rules, metadata: ['locale'] })).toContain('did you mean `model`?');
    expect(columnNameProblem('tag', { ...rules, alsoKnown: ['tag'] })).toBeUndefined();
  });
});

describe('the readers with column rules', () => {
  it('CSV: the header line, in line order with the other issues; without rules the column is metadata as before', async () => {
    const file = await tempFile('typo.csv', 'id,question,expeted,notes\nq1,,Paris,x\n');
    expect(await problems(file, { columnNames: columnRulesFor('evaluation') })).toEqual([
      'typo.csv:1: unknown column `expeted`: did you mean `expected`? Rename it; or, if it is metadata, declare it in the config: `metadata: [expeted]`.',
      'typo.csv:2: `question` is empty',
    ]);
    expect(await problems(file, {})).toEqual(['typo.csv:2: `question` is empty']);
    expect(await problems(file, { columnNames: columnRulesFor('evaluation', { assertions: [], metadata: ['expeted'] }) })).toEqual(['typo.csv:2: `question` is empty']);
  });

  it('CSV: a misspelt `question` is named beside the missing column', async () => {
    const file = await tempFile('q.csv', 'id,questoin\nq1,Where?\n');
    expect(await problems(file, { columnNames: columnRulesFor('evaluation') })).toEqual([
      'q.csv:1: unknown column `questoin`: did you mean `question`? Rename it; or, if it is metadata, declare it in the config: `metadata: [questoin]`.',
      'q.csv:1: the header has no `question` column (columns: id, questoin)',
    ]);
  });

  it('JSONL: the first line that names the column, once', async () => {
    const file = await tempFile('typo.jsonl', '{"question": "a"}\n{"question": "b", "must_inlcude": ["x"]}\n{"question": "c", "must_inlcude": ["y"]}\n');
    const found = await problems(file, { columnNames: columnRulesFor('evaluation') });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^typo\.jsonl:2: unknown column `must_inlcude`: did you mean `must_include`\?/u);
  });

  it('backfill: only the columns that shape what is asked; a grading column\'s misspelling grades nothing there', async () => {
    const file = await tempFile('ask.csv', 'question,expeted,conversaton\nWhere?,Paris,c1\n');
    expect(await problems(file, { columnNames: columnRulesFor('backfill') })).toEqual([
      'ask.csv:1: unknown column `conversaton`: did you mean `conversation`? Rename it (a backfill takes no config to declare it as metadata in).',
    ]);
  });

  it('grade: the answer columns too, and a backfill\'s answers file as it is written', async () => {
    expect(closeColumns('anwser', gradeColumnRules().read)).toEqual(['answer']);
    const answers = await tempFile('answers.csv', 'id,line,conversation,turn,email,question,outcome,answer,session_id,request_id,confidence_score,confidence_level,confidence_reason,latency_ms,error\n' +
      'q1,2,,,,Where?,answered,Paris,s1,r1,80,high,ok,120,\n');
    expect((await openFileInput(answers, {})).issues).toEqual([]);
    const typo = await tempFile('typo.csv', 'question,anwser,expected\nWhere?,Paris,Paris\n');
    const input = await openFileInput(typo, {});
    expect(input.issues.map((i) => formatIssue({ ...i, file: basename(i.file) }))[0]).toBe(
      'typo.csv:1: unknown column `anwser`: did you mean `answer`? Rename it; or, if it is metadata, declare it in the config: `metadata: [anwser]`.',
    );
    expect((await openFileInput(typo, { metadata: ['anwser'] })).issues.map((i) => i.column)).toEqual(['answer']);
  });
});
