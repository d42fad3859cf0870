import { describe, expect, it } from 'vitest';
import { startSimulator, WEAK_MODEL, type SimulatorOptions } from '../../../src/sim';
import { EMAIL, SimClient, useSimulator } from './helpers';

/** Questions of the demo knowledge base that several documents match, so another document gives another answer. */
const QUESTIONS = [
  'How much does the Personal plan cost?',
  'How much storage do I get for free?',
  'Can I get a refund for my annual subscription?',
  'Which payment methods do you accept?',
  'How do I reset my password?',
  'How do I share a folder with someone?',
  'Can I recover a deleted file?',
  'How do I turn on two-factor authentication?',
];

async function answerOf(api: SimClient, message: string): Promise<string> {
  const { request_id } = await api.completed({ message, email: EMAIL });
  const status = await api.status(request_id);
  return String(status.body.answer);
}

async function answersOf(api: SimClient, questions: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const q of questions) out.set(q, [...(out.get(q) ?? []), await answerOf(api, q)]);
  return out;
}

async function withSimulator<T>(options: SimulatorOptions, fn: (api: SimClient) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ rateLimit: 0, latencyScale: 0.01, ...options });
  try {
    return await fn(new SimClient(sim));
  } finally {
    await sim.close();
  }
}

describe('model noise (per request)', () => {
  const quiet = useSimulator();

  it('without noise, the same question gets the same answer every time', async () => {
    const first = await answersOf(quiet(), QUESTIONS);
    const again = await answersOf(quiet(), QUESTIONS);
    expect(again).toEqual(first);
  });

  it('with noise, repeated asks of the same questions differ, and the same seed repeats the whole sequence', async () => {
    const twice = [...QUESTIONS, ...QUESTIONS, ...QUESTIONS];
    const a = await withSimulator({ seed: 7, modelNoise: 0.5 }, (api) => answersOf(api, twice));
    const b = await withSimulator({ seed: 7, modelNoise: 0.5 }, (api) => answersOf(api, twice));
    expect(b).toEqual(a);
    const varied = [...a.values()].filter((answers) => new Set(answers).size > 1);
    expect(varied.length).toBeGreaterThan(0);
  });

  it('draws per question, not by arrival order: another interleaving gives each question the same answers', async () => {
    const forward = await withSimulator({ seed: 3, modelNoise: 0.5 }, (api) => answersOf(api, [...QUESTIONS, ...QUESTIONS]));
    const backward = await withSimulator({ seed: 3, modelNoise: 0.5 }, (api) => answersOf(api, [...QUESTIONS].reverse().flatMap((q) => [q, q])));
    for (const q of QUESTIONS) expect(backward.get(q)).toEqual(forward.get(q));
  });

  it('another seed gives another sequence', async () => {
    const twice = [...QUESTIONS, ...QUESTIONS, ...QUESTIONS];
    const a = await withSimulator({ seed: 1, modelNoise: 0.5 }, (api) => answersOf(api, twice));
    const b = await withSimulator({ seed: 2, modelNoise: 0.5 }, (api) => answersOf(api, twice));
    expect(b).not.toEqual(a);
  });

  it('noise set for one model leaves the others deterministic; reset starts the draws over', async () => {
    await withSimulator({ seed: 7, modelNoise: { 'gpt-4o': 1 } }, async (api) => {
      const first = await answersOf(api, [...QUESTIONS, ...QUESTIONS]);
      for (const answers of first.values()) expect(new Set(answers).size).toBe(1);
      api.sim.reset();
      expect(await answersOf(api, [...QUESTIONS, ...QUESTIONS])).toEqual(first);
    });
  });

  it('rejects an unknown model or a rate outside 0..1', async () => {
    await expect(startSimulator({ modelNoise: { 'gpt-9': 0.1 } })).rejects.toThrow(/unknown model "gpt-9"/);
    await expect(startSimulator({ modelNoise: 1.5 })).rejects.toThrow(/probability from 0 to 1/);
  });
});

describe('PUT /__sim/sites/:site/answer-model (a site made worse between two runs)', () => {
  const api = useSimulator();

  it('answers every question with the forced model until undone; the request still records the model asked for', async () => {
    const before = await answersOf(api(), QUESTIONS);
    const set = await api().call('PUT', '/__sim/sites/demo-site/answer-model', { model: WEAK_MODEL });
    expect(set).toMatchObject({ status: 200, body: { site: 'demo-site', model: WEAK_MODEL, before: null } });
    const worse = await answersOf(api(), QUESTIONS);
    expect(worse).not.toEqual(before);
    const { request_id } = await api().completed({ message: QUESTIONS[0], email: EMAIL, model: 'gpt-4o-mini' });
    expect((await api().get(`/__sim/requests/${request_id}`)).body).toMatchObject({ model: 'gpt-4o-mini' });
    const undo = await api().call('PUT', '/__sim/sites/demo-site/answer-model', { model: null });
    expect(undo.body).toMatchObject({ model: null, before: WEAK_MODEL });
    expect(await answersOf(api(), QUESTIONS)).toEqual(before);
  });

  it('refuses an unknown site or model, and reset undoes it', async () => {
    expect((await api().call('PUT', '/__sim/sites/nope/answer-model', { model: WEAK_MODEL })).status).toBe(404);
    const bad = await api().call('PUT', '/__sim/sites/demo-site/answer-model', { model: 'gpt-9' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid answer model' } });
    await api().call('PUT', '/__sim/sites/demo-site/answer-model', { model: WEAK_MODEL });
    api().sim.reset();
    expect(api().sim.simulator.degraded.size).toBe(0);
  });
});
