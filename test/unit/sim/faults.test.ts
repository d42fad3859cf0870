import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/sim';
import { EMAIL, useSimulator } from './helpers';

const api = useSimulator();

describe('fault injection', () => {
  it('is off by default', async () => {
    expect(api().sim.getFaults()).toEqual({});
    expect((await api().get('/__sim/faults')).body).toEqual({});
  });

  it('failRate 1 → 500 failed to call rag service, nothing stored', async () => {
    api().sim.setFaults({ '*': { failRate: 1 } });
    expect(await api().chatAsync({ message: 'hi', email: EMAIL })).toMatchObject({ status: 500, body: { error: ApiError.ragFailure } });
    expect(await api().get('/m2m/sites/demo-site/sessions')).toMatchObject({ status: 500, body: { error: ApiError.ragFailure } });
    expect(api().sim.stats()).toMatchObject({ submitted: 0, sessions: { total: 0, closed: 0 }, faults: { errors: 2 } });
  });

  it('an endpoint entry overrides the "*" entry field by field', async () => {
    api().sim.setFaults({ '*': { failRate: 1 }, 'sessions.list': { failRate: 0 } });
    expect((await api().get('/m2m/sites/demo-site/sessions')).status).toBe(200);
    expect((await api().get('/m2m/tenants/demo-tenant/limits')).status).toBe(500);
  });

  it('auth still comes first: a bad key is 401 even with failRate 1', async () => {
    api().sim.setFaults({ '*': { failRate: 1 } });
    expect((await api().get('/m2m/sites/demo-site/sessions', { key: 'nope' })).status).toBe(401);
  });

  it('dropRate 1 → connection reset after processing; a retry is counted as a duplicate', async () => {
    api().sim.setFaults({ 'chat.async': { dropRate: 1 } });
    await expect(api().chatAsync({ message: 'Where is my data stored?', session_id: 'dup-1', email: EMAIL })).rejects.toThrow();
    api().sim.setFaults({});
    const retry = await api().chatAsync({ message: 'Where is my data stored?', session_id: 'dup-1', email: EMAIL });
    expect(retry.status).toBe(200);
    expect(api().sim.stats()).toMatchObject({ submitted: 2, duplicateSubmissions: 1, faults: { dropped: 1 } });
  });

  it('rateLimitBurst N → the next N requests on that endpoint get 429, then it recovers', async () => {
    api().sim.setFaults({ 'chat.async': { rateLimitBurst: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api().chatAsync({ message: `q${i}`, email: EMAIL })).status);
    expect(statuses).toEqual([429, 429, 200]);
    expect((await api().get('/m2m/sites/demo-site/sessions')).status).toBe(200);
    expect(api().sim.getFaults()).toEqual({ 'chat.async': { rateLimitBurst: 0 } });
    expect(api().sim.stats()).toMatchObject({ rateLimited: 2, faults: { bursts: 2 } });
  });

  it('extraLatencyMs delays the response', async () => {
    api().sim.setFaults({ 'sessions.list': { extraLatencyMs: 150 } });
    const t0 = Date.now();
    await api().get('/m2m/sites/demo-site/sessions');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('asyncFailRate 1 → requests end failed; counted in stats', async () => {
    api().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    const { request_id } = await api().completed({ message: 'hi', email: EMAIL });
    expect((await api().status(request_id)).body).toMatchObject({ status: 'failed', error: ApiError.ragFailure });
    expect(api().sim.stats()).toMatchObject({ chatRequests: { pending: 0, completed: 0, failed: 1 }, faults: { asyncFailures: 1 } });
  });

  it('newRequestNotFoundMs → a new request\'s status is 404 request not found for that long after submit, then it is known', async () => {
    api().sim.setFaults({ 'requests.status': { newRequestNotFoundMs: 5_000 } });
    const { body } = await api().chatAsync({ message: 'How much does the Personal plan cost?', email: EMAIL });
    const id = body.request_id as string;
    expect(await api().status(id)).toMatchObject({ status: 404, body: { error: ApiError.requestNotFound } });
    api().sim.advanceTime(4_000);
    expect((await api().status(id)).status).toBe(404);
    api().sim.advanceTime(1_000);
    expect(await api().status(id)).toMatchObject({ status: 200, body: { request_id: id } });
    expect(api().sim.stats()).toMatchObject({ faults: { errors: 2 } });
  });

  it('PUT /__sim/faults replaces the configuration and validates it', async () => {
    const put = await api().call('PUT', '/__sim/faults', { 'chat.async': { dropRate: 0.5 } });
    expect(put).toMatchObject({ status: 200, body: { 'chat.async': { dropRate: 0.5 } } });
    expect((await api().get('/__sim/faults')).body).toEqual({ 'chat.async': { dropRate: 0.5 } });
    const bad = await api().call('PUT', '/__sim/faults', { 'chat.async': { dropRate: 2 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/chat\.async\.dropRate/);
    const unknown = await api().call('PUT', '/__sim/faults', { 'chat.nope': { failRate: 1 } });
    expect(unknown.status).toBe(400);
  });

  it('fault decisions are reproducible for a seed', async () => {
    const run = async (): Promise<number[]> => {
      api().sim.reset();
      api().sim.setFaults({ 'sessions.list': { failRate: 0.5 } });
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await api().get('/m2m/sites/demo-site/sessions')).status);
      return out;
    };
    const first = await run();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });
});
