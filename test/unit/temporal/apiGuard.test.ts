import { describe, expect, it } from 'vitest';
import { refusal, runApiOf } from '../../../src/worker/apiGuard';
import { WRONG_API_ERROR } from '../../../src/temporal/wrongApi';

const RUN = 'https://chat.example.com/api/v1';
const WORKER = 'http://127.0.0.1:8787/api/v1';

describe('a worker refusing the tasks of a run of another API', () => {
  it('takes the tasks of a run of its own API, and of runs that name none (started before runs carried it)', () => {
    expect(refusal(RUN, RUN, 1, 'ask')).toBeUndefined();
    expect(refusal(undefined, WORKER, 1, 'ask')).toBeUndefined();
  });

  it('refuses another API\'s task naming both APIs: for good on a first attempt (the run asks again), retryably on a later one', () => {
    const first = refusal(RUN, WORKER, 1, 'ask of sitechat-evaluation-x/chunk-0');
    expect(first).toMatchObject({ type: WRONG_API_ERROR, nonRetryable: true, details: [{ runApi: RUN, workerApi: WORKER }] });
    expect(first?.message).toContain(`the run asks ${RUN}, this worker asks ${WORKER}; refused, nothing sent`);
    // A later attempt keeps what the earlier ones left for it (an ask's request id): the same activity goes on.
    expect(refusal(RUN, WORKER, 2, 'ask')).toMatchObject({ type: WRONG_API_ERROR, nonRetryable: false });
  });

  it('reads the run\'s API from an activity\'s input, and nothing else', () => {
    expect(runApiOf({ siteId: 's', api: RUN })).toBe(RUN);
    expect(runApiOf({ siteId: 's' })).toBeUndefined();
    expect(runApiOf({ api: 42 })).toBeUndefined();
    expect(runApiOf('x')).toBeUndefined();
  });
});
