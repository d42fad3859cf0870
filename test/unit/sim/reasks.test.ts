import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REASK_WINDOW_MS } from '../../../src/sim/state/reasks';
import { EMAIL, useSimulator } from './helpers';

const api = useSimulator();
const Q = 'Where is my data stored?';

describe('duplicateSubmissions counts a re-ask whatever the session', () => {
  it('a retry after a dropped submit response, in the new session the server opens, is a duplicate', async () => {
    api().sim.setFaults({ 'chat.async': { dropRate: 1 } });
    await expect(api().chatAsync({ message: Q, email: EMAIL })).rejects.toThrow();
    api().sim.setFaults({});
    const retry = await api().chatAsync({ message: Q, email: EMAIL });
    expect(retry.status).toBe(200);
    expect(api().sim.stats()).toMatchObject({ submitted: 2, duplicateSubmissions: 1, sessions: { total: 2 } });
  });

  it('a re-ask in another caller-chosen session (same email) is a duplicate; in the same one too', async () => {
    await api().chatAsync({ message: Q, email: EMAIL, session_id: randomUUID() });
    const other = randomUUID();
    await api().chatAsync({ message: Q, email: EMAIL.toUpperCase(), session_id: other });
    expect(api().sim.stats().duplicateSubmissions).toBe(1);
    await api().chatAsync({ message: Q, email: EMAIL, session_id: other });
    expect(api().sim.stats().duplicateSubmissions).toBe(2);
  });

  it('a re-ask while the first answer is pending counts even after the submit response arrived (lost request id)', async () => {
    const first = await api().chatAsync({ message: Q, email: EMAIL });
    expect((await api().status(first.body.request_id as string)).body.status).toBe('pending');
    await api().chatAsync({ message: Q, email: EMAIL });
    expect(api().sim.stats().duplicateSubmissions).toBe(1);
  });

  it('asking again in another session after the answer was received is not a re-ask (a dataset may repeat a question)', async () => {
    const first = await api().completed({ message: Q, email: EMAIL });
    expect((await api().status(first.request_id)).body.status).toBe('completed');
    await api().chatAsync({ message: Q, email: EMAIL });
    const sync = await api().chatSync({ message: 'How do I reset my password?', email: EMAIL });
    expect(sync.status).toBe(200);
    await api().chatAsync({ message: 'How do I reset my password?', email: EMAIL });
    expect(api().sim.stats().duplicateSubmissions).toBe(0);
  });

  it('a dropped status response does not count as received', async () => {
    const first = await api().completed({ message: Q, email: EMAIL });
    api().sim.setFaults({ 'requests.status': { dropRate: 1 } });
    await expect(api().status(first.request_id)).rejects.toThrow();
    api().sim.setFaults({});
    await api().chatAsync({ message: Q, email: EMAIL });
    expect(api().sim.stats().duplicateSubmissions).toBe(1);
  });

  it('other askers, other sites, other messages and asks older than the window are not duplicates', async () => {
    await api().chatAsync({ message: Q, email: EMAIL });
    await api().chatAsync({ message: Q, email: 'someone-else@example.com' });
    await api().chatAsync({ message: `${Q} `, email: EMAIL });
    await api().chatAsync({ message: Q, session_id: randomUUID() });
    await api().chatAsync({ message: Q, session_id: randomUUID() });
    api().sim.advanceTime(REASK_WINDOW_MS + 1000);
    await api().chatAsync({ message: Q, email: EMAIL });
    expect(api().sim.stats().duplicateSubmissions).toBe(0);
  });

  it('reset forgets earlier asks', async () => {
    await api().chatAsync({ message: Q, email: EMAIL });
    api().sim.reset();
    await api().chatAsync({ message: Q, email: EMAIL });
    expect(api().sim.stats().duplicateSubmissions).toBe(0);
  });
});
