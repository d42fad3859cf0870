import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/sim';
import { EMAIL, useSimulator } from './helpers';

const api = useSimulator();
const Q = 'Where is my data stored?';

/** A POST whose answer may not be JSON (a proxy's page): status, content type and text. */
async function postRaw(path: string, body: unknown): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${api().sim.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': api().sim.apiKey }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('transientFailRate: a hiccup that a re-ask gets past', () => {
  it('fails a question the first time it is asked on its site, never again, in any session', async () => {
    api().sim.setFaults({ 'chat.async': { transientFailRate: 1 } });
    const first = await api().completed({ message: Q, email: EMAIL });
    expect((await api().status(first.request_id)).body).toMatchObject({ status: 'failed', error: ApiError.ragFailure });
    // Asked again in a fresh session (as a re-asked first turn is), and in the failed one (as a follow-up is).
    const fresh = await api().completed({ message: Q, email: EMAIL, session_id: randomUUID() });
    const same = await api().completed({ message: Q, session_id: first.session_id });
    expect((await api().status(fresh.request_id)).body).toMatchObject({ status: 'completed' });
    expect((await api().status(same.request_id)).body).toMatchObject({ status: 'completed' });
    // Another question has its own hiccup.
    const other = await api().completed({ message: 'How do I reset my password?', email: EMAIL });
    expect((await api().status(other.request_id)).body).toMatchObject({ status: 'failed' });
    expect(api().sim.stats()).toMatchObject({ faults: { transientFailures: 2 }, chatRequests: { failed: 2, completed: 2 } });
  });

  it('sync chat: 500 with the API\'s error, then the answer', async () => {
    api().sim.setFaults({ 'chat.sync': { transientFailRate: 1 } });
    expect(await api().chatSync({ message: Q, email: EMAIL })).toMatchObject({ status: 500, body: { error: ApiError.ragFailure } });
    expect(await api().chatSync({ message: Q, email: EMAIL })).toMatchObject({ status: 200, body: { answer: expect.any(String) } });
  });

  it('a reset forgets which questions had their hiccup', async () => {
    api().sim.setFaults({ 'chat.sync': { transientFailRate: 1 } });
    expect((await api().chatSync({ message: Q, email: EMAIL })).status).toBe(500);
    api().sim.reset();
    expect((await api().chatSync({ message: Q, email: EMAIL })).status).toBe(500);
  });
});

describe('asyncFailError: what a failed request says', () => {
  it('names the error of the requests asyncFailRate fails (a request-level one such as `site not found`)', async () => {
    api().sim.setFaults({ 'chat.async': { asyncFailRate: 1, asyncFailError: ApiError.siteNotFound } });
    const r = await api().completed({ message: Q, email: EMAIL });
    expect((await api().status(r.request_id)).body).toMatchObject({ status: 'failed', error: ApiError.siteNotFound });
  });

  it('is refused when empty', () => {
    expect(() => api().sim.setFaults({ 'chat.async': { asyncFailError: '' } })).toThrow(/asyncFailError/);
  });
});

describe('badGatewayAfterAcceptRate: a proxy\'s 502 page after the question was taken', () => {
  it('async submit: the request is stored, the client gets an HTML 502; sending again in the session is a second submission', async () => {
    const session = randomUUID();
    api().sim.setFaults({ 'chat.async': { badGatewayAfterAcceptRate: 1 } });
    const lost = await postRaw('/m2m/sites/demo-site/chat/async', { message: Q, email: EMAIL, session_id: session });
    expect(lost).toMatchObject({ status: 502, type: 'text/html' });
    expect(lost.text).toContain('502 Bad Gateway');
    api().sim.setFaults({});
    expect((await api().chatAsync({ message: Q, session_id: session })).status).toBe(200);
    expect(api().sim.stats()).toMatchObject({
      submitted: 2, duplicateSubmissions: 1, faults: { badGateway: 1 }, requests: { 'chat.async': { 200: 1, 502: 1 } },
    });
  });

  it('sync chat: the answer is replaced by the page; a re-ask in another session of the same asker is a second submission', async () => {
    api().sim.setFaults({ 'chat.sync': { badGatewayAfterAcceptRate: 1 } });
    expect((await postRaw('/m2m/sites/demo-site/chat', { message: Q, email: EMAIL, session_id: randomUUID() })).status).toBe(502);
    api().sim.setFaults({});
    expect((await api().chatSync({ message: Q, email: EMAIL, session_id: randomUUID() })).status).toBe(200);
    expect(api().sim.stats()).toMatchObject({ submitted: 2, duplicateSubmissions: 1, faults: { badGateway: 1 } });
  });

  it('leaves refusals alone: only a processed request loses its response', async () => {
    api().sim.setFaults({ 'chat.async': { badGatewayAfterAcceptRate: 1 } });
    expect((await api().chatAsync({ message: '' })).status).toBe(400);
    expect(api().sim.stats().faults.badGateway).toBe(0);
  });
});

describe('second submissions in a session', () => {
  it('a question asked again after the service failed it is a re-ask, not a second submission; once answered, it is one', async () => {
    const session = randomUUID();
    api().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    await api().completed({ message: Q, email: EMAIL, session_id: session });
    api().sim.setFaults({});
    await api().completed({ message: Q, session_id: session });
    expect(api().sim.stats().duplicateSubmissions).toBe(0);
    await api().completed({ message: Q, session_id: session });
    expect(api().sim.stats().duplicateSubmissions).toBe(1);
  });
});
