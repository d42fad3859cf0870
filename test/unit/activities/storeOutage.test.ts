import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { failureForRetry, LOCAL_MAX_ATTEMPTS } from '../../../activities/storeOutage';
import { isTransientStoreError, StoreUnavailableError } from '../../../src/store/errors';
import { TaskQueue } from '../../../src/temporal/taskQueues';

const HOUR = 3_600_000;

describe('failureForRetry: what an activity error becomes for the retry policy', () => {
  const info = (attempt: number, taskQueue: string = TaskQueue.main, scheduledAgoMs = 1000) => ({ attempt, taskQueue, scheduledTimestampMs: Date.now() - scheduledAgoMs });
  const outage = new StoreUnavailableError('results store (postgres://u@db/r): connect ECONNREFUSED');

  it('keeps a store outage retryable within the limit, whatever the attempt', () => {
    const f = failureForRetry(outage, info(50), HOUR) as ApplicationFailure;
    expect(f).toBeInstanceOf(ApplicationFailure);
    expect(f).toMatchObject({ type: 'StoreUnavailableError', nonRetryable: false });
    expect(f.message).toContain('waiting for it');
  });

  it('makes it final once the store has been away longer than the limit, naming the setting', () => {
    const f = failureForRetry(outage, info(3, TaskQueue.main, 2 * HOUR), HOUR) as ApplicationFailure;
    expect(f).toMatchObject({ type: 'StoreUnavailableError', nonRetryable: true });
    expect(f.message).toContain('SITECHAT_STORE_OUTAGE_LIMIT');
    expect(f.message).toContain('1 h');
  });

  it('bounds other errors of main-queue work at LOCAL_MAX_ATTEMPTS', () => {
    const bug = new TypeError('cannot read x of undefined');
    expect(failureForRetry(bug, info(LOCAL_MAX_ATTEMPTS - 1), HOUR)).toBe(bug);
    expect(failureForRetry(bug, info(LOCAL_MAX_ATTEMPTS), HOUR)).toMatchObject({ type: 'TypeError', nonRetryable: true, message: bug.message });
    const retryable = ApplicationFailure.retryable('disk busy', 'IOError', { path: 'x' });
    expect(failureForRetry(retryable, info(LOCAL_MAX_ATTEMPTS), HOUR)).toMatchObject({ type: 'IOError', nonRetryable: true, details: [{ path: 'x' }] });
  });

  it('leaves the API queues to their own policies, and cancellations alone', () => {
    const apiError = ApplicationFailure.retryable('500 upstream', 'InternalServerError');
    expect(failureForRetry(apiError, info(9, TaskQueue.submit), HOUR)).toBe(apiError);
    const cancelled = new CancelledFailure('CANCELLED');
    expect(failureForRetry(cancelled, info(9), HOUR)).toBe(cancelled);
  });
});

describe('isTransientStoreError', () => {
  const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['an administrator shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up', withCode('the database system is starting up', '57P03')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a connect time-out', new Error('timeout exceeded when trying to connect')],
  ])('%s is transient', (_, err) => expect(isTransientStoreError(err)).toBe(true));

  it.each([
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['a foreign key violation', withCode('insert violates foreign key constraint', '23503')],
    ['a plain error', new Error('dataset changed')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not', (_, err) => expect(isTransientStoreError(err)).toBe(false));
});
