import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isSameProcess, processIdentity } from '../../../src/temporal/processIdentity';

describe('processIdentity', () => {
  it('recognises the same process, and nothing else under its pid', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const id = processIdentity(child.pid ?? 0);
      expect(id).toMatchObject({ pid: child.pid, cmdline: 'sleep 30' });
      expect(isSameProcess(id)).toBe(true);
      // Same pid, another start time: what a reused pid looks like.
      expect(isSameProcess(id && { ...id, startTicks: id.startTicks - 1 })).toBe(false);
      expect(isSameProcess(id && { ...id, cmdline: 'temporal server start-dev' })).toBe(false);
      expect(isSameProcess(undefined)).toBe(false);
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(isSameProcess(id)).toBe(false);
      expect(processIdentity(child.pid ?? 0)).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
