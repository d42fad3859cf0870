import { describe, expect, it } from 'vitest';
import { I_DONT_KNOW, startSimulator, WEAK_MODEL } from '../../../src/sim';
import { isUuid } from '../../../src/sim/prng';
import { EMAIL, SimClient, useSimulator } from './helpers';

const api = useSimulator();

async function ask(message: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await api().chatSync({ message, email: EMAIL, ...extra });
  expect(res.status).toBe(200);
  return res.body;
}

describe('answers from the knowledge base', () => {
  it('a Q&A document that matches well gives its answer, with high confidence', async () => {
    const a = await ask('How do I reset my password?');
    expect(a.answer).toBe('Click Forgot password on the sign-in page and enter your email address. We send you a reset link that is valid for 1 hour. If the email does not arrive, check your spam folder.');
    expect(a).toMatchObject({ confidence_level: 'high', confidence_reason: expect.stringContaining('Resetting your password') });
  });

  it('otherwise the best sentences of the most relevant text document', async () => {
    const a = await ask('How are my files encrypted?');
    expect(a.answer).toContain('AES-256');
    expect(String(a.answer).split('. ').length).toBeLessThanOrEqual(3);
    expect(a.confidence_reason).toContain('Encryption and data security');
  });

  it('tolerates small typos', async () => {
    expect((await ask('I forgot my pasword, how do I reset it?')).answer).toContain('Forgot password');
  });

  it('includes the antecedent of a sentence that starts with "It"', async () => {
    const a = await ask('How do I recover my files after a ransomware attack?');
    expect(a.answer).toMatch(/^Rewind restores .* It helps after a ransomware attack/);
  });

  it('says it does not know, with low confidence, when nothing is relevant', async () => {
    const a = await ask('What will the weather be like in Berlin tomorrow?');
    expect(a).toMatchObject({ answer: I_DONT_KNOW, confidence_level: 'low' });
    expect(Number(a.confidence_score)).toBeLessThan(30);
  });

  it('a site without documents never knows', async () => {
    const res = await api().chatSync({ message: 'How do I reset my password?', email: EMAIL }, 'demo-empty-site');
    expect(res.body.answer).toBe(I_DONT_KNOW);
  });

  it('follow-ups use the previous questions of the session', async () => {
    const first = await api().chatSync({ message: 'What does the Business plan cost?', email: EMAIL });
    const follow = await api().chatSync({ message: 'How much storage does each user get?', session_id: first.body.session_id });
    expect(follow.body.answer).toContain('5 TB of storage per user');
  });

  it('documents added through the document route are answered at once', async () => {
    const added = await api().post('/m2m/sites/demo-site/documents', { title: 'Dark mode', question: 'Is there a dark mode?', answer: 'Yes. Turn on dark mode under Settings > Appearance.', category: 'Apps' });
    expect(added.status).toBe(201);
    expect((await ask('Is there a dark mode?')).answer).toBe('Yes. Turn on dark mode under Settings > Appearance.');
  });

  it('the weak model answers shorter, from a truncated context, with lower confidence', async () => {
    const strong = await ask('How do I cancel my subscription?');
    const weak = await ask('How do I cancel my subscription?', { model: WEAK_MODEL });
    expect(String(weak.answer).length).toBeLessThan(String(strong.answer).length);
    expect(Number(weak.confidence_score)).toBeLessThan(Number(strong.confidence_score));
  });
});

describe('determinism', () => {
  /** Answers and confidences of a short conversation, plus its request and session ids. */
  async function transcript(seed: number): Promise<{ answers: unknown[]; ids: string[] }> {
    const client = new SimClient(await startSimulator({ seed, rateLimit: 0, latencyScale: 0.001 }));
    try {
      const answers: unknown[] = [];
      const ids: string[] = [];
      let session: unknown;
      for (const message of ['How do I share a folder?', 'Can I protect the link with a password?', 'Where is my data stored?']) {
        const res = await client.chatSync({ message, ...(session ? { session_id: session } : { email: EMAIL }), model: WEAK_MODEL });
        const { request_id: requestId, session_id: sessionId, ...rest } = res.body as { request_id: string; session_id: string };
        session = sessionId;
        ids.push(requestId, sessionId);
        answers.push(rest);
      }
      return { answers, ids };
    } finally {
      await client.sim.close();
    }
  }

  it('the same seed gives the same answers and confidences, but never the same ids', async () => {
    const a = await transcript(7);
    const b = await transcript(7);
    expect(b.answers).toEqual(a.answers);
    expect(a.ids.every((id) => isUuid(id))).toBe(true);
    expect(b.ids.filter((id) => a.ids.includes(id))).toEqual([]);
  });

  it('reset() gives the same answer again under a new request id', async () => {
    const question = { message: 'How do I reset my password?', email: EMAIL };
    const first = await api().completed(question);
    const answer = (await api().status(first.request_id)).body;
    api().sim.reset();
    const again = await api().completed(question);
    const answerAgain = (await api().status(again.request_id)).body;
    expect(again.request_id).not.toBe(first.request_id);
    expect(again.session_id).not.toBe(first.session_id);
    expect(answer).toMatchObject({ status: 'completed', answer: expect.stringContaining('Forgot password') });
    expect(answerAgain).toMatchObject({ status: 'completed', answer: answer.answer });
  });
});
