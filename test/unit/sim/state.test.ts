import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorOptions } from '../../../src/sim';
import { EMAIL, SimClient } from './helpers';

let dir: string;
const open: SimClient[] = [];

async function start(options: SimulatorOptions = {}): Promise<SimClient> {
  const client = new SimClient(await startSimulator({ rateLimit: 0, latencyScale: 0.01, seed: 3, ...options }));
  open.push(client);
  return client;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-state-'));
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.sim.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('ids', () => {
  it('two instances with one seed hand out different request and session ids', async () => {
    const a = await start();
    const b = await start();
    const x = await a.chatAsync({ message: 'How do I reset my password?', email: EMAIL });
    const y = await b.chatAsync({ message: 'How do I reset my password?', email: EMAIL });
    expect(x.body.request_id).not.toBe(y.body.request_id);
    expect(x.body.session_id).not.toBe(y.body.session_id);
  });
});

describe('--state', () => {
  it('a restart keeps sessions, requests and feedback: a request asked before it is polled after it with the same answer', async () => {
    const state = join(dir, 'state.json');
    const before = await start({ state, latencyScale: 1 });
    const done = await before.completed({ message: 'How do I reset my password?', email: EMAIL });
    const answered = await before.status(done.request_id);
    expect(answered.body.status).toBe('completed');
    const feedback = await before.post('/m2m/sites/demo-site/chat/feedback', { ...done, feedback: 'good' });
    expect(feedback.status).toBe(200);
    // Submitted with the full 5–30 s still to go: processing when the simulator stops.
    const inFlight = await before.chatAsync({ message: 'How are my files encrypted?', session_id: done.session_id });
    await before.sim.close();

    const after = await start({ state, latencyScale: 1 });
    const again = await after.status(done.request_id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(answered.body);
    const resubmit = await after.post('/m2m/sites/demo-site/chat/feedback', { ...done, feedback: 'good' });
    expect(resubmit.body.feedback_submitted_at).toBe(feedback.body.feedback_submitted_at);
    const list = await after.get(`/m2m/sites/demo-site/sessions?email=${EMAIL}`);
    expect(list.body).toMatchObject({ pagination: { total: 1 }, sessions: [{ id: done.session_id, message_count: 3 }] });

    const requestId = String(inFlight.body.request_id);
    expect((await after.status(requestId)).body.status).toBe('pending');
    after.sim.advanceTime(31_000);
    const settled = await after.status(requestId);
    expect(settled.body).toMatchObject({ status: 'completed', answer: expect.stringContaining('AES-256') });
  });

  it('the file is written atomically, debounced, and is valid JSON after every write', async () => {
    const state = join(dir, 'state.json');
    const sim = await start({ state });
    await sim.chatAsync({ message: 'hi', email: EMAIL });
    await new Promise((r) => setTimeout(r, 400));
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { version: number; sessions: unknown[]; requests: unknown[] };
    expect(saved).toMatchObject({ version: 1, sessions: [expect.any(Object)], requests: [expect.any(Object)] });
  });

  it('a corrupt file is refused with a message naming it', async () => {
    const state = join(dir, 'broken.json');
    writeFileSync(state, '{"version": 1, "sessions": [');
    await expect(start({ state })).rejects.toThrow(`state file ${state}: not valid JSON`);
    writeFileSync(state, JSON.stringify({ version: 1, savedAt: 'x', clockOffsetMs: 0, sessions: [{ id: 1 }], requests: [] }));
    await expect(start({ state })).rejects.toThrow(`state file ${state}: \`sessions[0].siteId\``);
  });

  it('without --state, a restart starts empty', async () => {
    const a = await start();
    const done = await a.completed({ message: 'hi', email: EMAIL });
    await a.sim.close();
    const b = await start();
    expect((await b.status(done.request_id)).status).toBe(404);
  });
});
