import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REASK_WINDOW_MS } from '../../../src/sim/state/reasks';
import { EMAIL, useSimulator } from './helpers';

const api = useSimulator();
const Q = 'Where is my data stored?';

describe('duplicateSubmissions counts a retry after a lost response whatever the session', () => {
  it('a retry after a dropped submit response, in the new session the server opens, is a duplicate', async () => {
    api().sim.setFaults({ 'chat.async': { dropRate: 1 } });
    await expect(api().chatAsync({ message: Q, email: EMAIL })).rejects.toThrow();
    api().sim.setFaults({});
    const retry = await api().chatAsync({ message: Q, email: EMAIL });
    expect(retry.status).toBe(200);
    expect(api().sim.stats()).toMatchObject({ submitted: 2, duplicateSubmissions: 1, sessions: { total: 2 } });
  });

  it('a retry after a dropped response in another caller-chosen session (same email) is a duplicate; in the same one too', async () => {
    api().sim.setFaults({ 'chat.async': { dropRate: 1 } });
    await expect(api().chatAsync({ message: Q, email: EMAIL, session_id: randomUUID() })).rejects.toThrow();
    api().sim.setFaults({});
    const other = randomUUID();
    await api().chatAsync({ message: Q, email: EMAIL.toUpperCase(), session_id: other });
    expect(api().sim.stats().duplicateSubmissions).toBe(1);
    await api().chatAsync({ message: Q, email: EMAIL, session_id: other });
    expect(api().sim.stats().duplicateSubmissions).toBe(2);
  });

  it('the same question asked at once in several sessions, responses received, is not a re-ask (a dataset may repeat a question)', async () => {
    await Promise.all([1, 2, 3].map(() => api().chatAsync({ message: Q, email: EMAIL })));
    await Promise.all([1, 2].map(() => api().chatSync({ message: 'How do I reset my password?', email: EMAIL })));
    expect(api().sim.stats()).toMatchObject({ submitted: 5, duplicateSubmissions: 0 });
  });

  it('a lost sync answer counts too', async () => {
    api().sim.setFaults({ 'chat.sync': { dropRate: 1 } });
    await expect(api().chatSync({ message: Q, email: EMAIL })).rejects.toThrow();
    api().sim.setFaults({});
    expect((await api().chatSync({ message: Q, email: EMAIL })).status).toBe(200);
    expect(api().sim.stats().duplicateSubmissions).toBe(1);
  });

  it('other askers, other messages and asks older than the window are not duplicates', async () => {
    api().sim.setFaults({ 'chat.async': { dropRate: 1 } });
    await expect(api().chatAsync({ message: Q, email: EMAIL })).rejects.toThrow();
    await expect(api().chatAsync({ message: Q, session_id: 'no-email' })).rejects.toThrow();
    api().sim.setFaults({});
    await api().chatAsync({ message: Q, email: 'someone-else@example.com' });
    await api().chatAsync({ message: `${Q} `, email: EMAIL });
    await api().chatAsync({ message: Q, session_id: randomUUID() });
    api().sim.advanceTime(REASK_WINDOW_MS + 1000);
    await api().chatAsync({ message: Q, email: EMAIL });
    expect(api().sim.stats().duplicateSubmissions).toBe(0);
  });

  it('reset forgets earlier asks', async () => {
    api().sim.setFaults({ 'chat.async': { dropRate: 1 } });
    await expect(api().chatAsync({ message: Q, email: EMAIL })).rejects.toThrow();
    api().sim.reset();
    api().sim.setFaults({});
    await api().chatAsync({ message: Q, email: EMAIL });
    expect(api().sim.stats().duplicateSubmissions).toBe(0);
  });
});
