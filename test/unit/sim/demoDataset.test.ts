import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, startSimulator, WEAK_MODEL } from '../../../src/sim';
import { SimClient } from './helpers';

/**
 * Keeps datasets/demo.csv consistent with what the simulator answers: with the default model most
 * rows pass (token F1 >= 0.5 against `expected`, every `must_include` phrase present, …), with the
 * weak model noticeably fewer. Grading here mirrors the runner's column → assertion mapping.
 */
interface Row {
  id: string;
  conversation: string;
  question: string;
  expected: string;
  must_include: string;
  include_any: string;
  must_not_include: string;
  min_confidence: string;
}

const rows = parse(readFileSync(join(__dirname, '../../../datasets/demo.csv')), { columns: true }) as Row[];
const list = (cell: string): string[] => (cell ? cell.split('|') : []);

/** SQuAD token F1. */
function f1(prediction: string, reference: string): number {
  const tokens = (t: string) => t.toLowerCase().replace(/[\p{P}\p{S}]/gu, '').replace(/(^|\s)(?:a|an|the)(?=\s|$)/gu, '$1 ').split(/\s+/).filter(Boolean);
  const pred = tokens(prediction);
  const counts = new Map<string, number>();
  for (const t of tokens(reference)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  let common = 0;
  for (const t of pred) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return 0;
  const p = common / pred.length;
  const r = common / total;
  return (2 * p * r) / (p + r);
}

function passes(row: Row, answer: string, confidence: number): boolean {
  const a = answer.toLowerCase();
  return (!row.expected || f1(answer, row.expected) >= 0.5)
    && list(row.must_include).every((m) => a.includes(m.toLowerCase()))
    && (list(row.include_any).length === 0 || list(row.include_any).some((m) => a.includes(m.toLowerCase())))
    && !list(row.must_not_include).some((m) => a.includes(m.toLowerCase()))
    && (!row.min_confidence || confidence >= Number(row.min_confidence));
}

let api: SimClient;
beforeAll(async () => {
  api = new SimClient(await startSimulator({ rateLimit: 0, latencyScale: 0.0005 }));
});
afterAll(async () => api.sim.close());

async function passRate(model: string): Promise<number> {
  const sessions = new Map<string, unknown>();
  let passed = 0;
  for (const row of rows) {
    const session = row.conversation ? sessions.get(row.conversation) : undefined;
    const res = await api.chatSync({ message: row.question, model, ...(session ? { session_id: session } : { email: 'qa@example.com' }) });
    if (row.conversation) sessions.set(row.conversation, res.body.session_id);
    if (passes(row, String(res.body.answer), Number(res.body.confidence_score))) passed++;
  }
  return passed / rows.length;
}

describe('datasets/demo.csv against the demo knowledge base', () => {
  it('has >= 50 questions, >= 5 multi-turn conversations and a few unanswerable ones', () => {
    expect(rows.length).toBeGreaterThanOrEqual(50);
    const turns = new Map<string, number>();
    for (const r of rows) if (r.conversation) turns.set(r.conversation, (turns.get(r.conversation) ?? 0) + 1);
    expect([...turns.values()].filter((n) => n >= 2).length).toBeGreaterThanOrEqual(5);
    expect(rows.filter((r) => r.must_include === "I don't know").length).toBeGreaterThanOrEqual(3);
  });

  it('passes 85–95 % with the default model and at least 20 points less with the weak one', async () => {
    const strong = await passRate(DEFAULT_MODEL);
    const weak = await passRate(WEAK_MODEL);
    expect(strong).toBeGreaterThanOrEqual(0.85);
    expect(strong).toBeLessThanOrEqual(0.95);
    expect(weak).toBeLessThanOrEqual(strong - 0.2);
  });
});
