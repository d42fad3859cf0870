import { describe, expect, it } from 'vitest';
import { runTogether, type GroupMember } from '../../../src/worker/workerGroup';

/** A worker whose run ends when it is shut down, or fails when told to. */
class FakeWorker implements GroupMember {
  state = 'RUNNING';
  private end!: (err?: Error) => void;
  private readonly ran = new Promise<void>((resolve, reject) => (this.end = (err) => (err ? reject(err) : resolve())));
  run(): Promise<void> {
    return this.ran;
  }
  shutdown(): void {
    this.state = 'STOPPED';
    this.end();
  }
  getState(): string {
    return this.state;
  }
  fail(err: Error): void {
    this.state = 'FAILED';
    this.end(err);
  }
}

describe('runTogether: the workers of one process', () => {
  it('stops the others and rejects with the error when one worker fails, after closing', async () => {
    const workers = [new FakeWorker(), new FakeWorker(), new FakeWorker()];
    let closed = 0;
    const group = runTogether(workers, async () => void (closed += 1));
    workers[1]?.fail(new Error('connection lost for good'));
    await expect(group.done).rejects.toThrow('connection lost for good');
    expect(workers.map((w) => w.state)).toEqual(['STOPPED', 'FAILED', 'STOPPED']);
    expect(closed).toBe(1);
  });

  it('resolves once every worker has stopped on shutdown', async () => {
    const workers = [new FakeWorker(), new FakeWorker()];
    let closed = 0;
    const group = runTogether(workers, async () => void (closed += 1));
    await group.shutdown();
    await expect(group.done).resolves.toBeUndefined();
    expect(workers.every((w) => w.state === 'STOPPED')).toBe(true);
    expect(closed).toBe(1);
  });
});
