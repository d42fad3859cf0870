import { describe, expect, it } from 'vitest';
import { apiIdentity, BUILT_IN_SIMULATOR_API, workerApi } from '../../../src/api/identity';

describe('the API a run asks (its identity)', () => {
  it('is the base URL\'s origin and path: the same API however its URL is written, another for another path or port', () => {
    expect(apiIdentity('https://Chat.Example.com/api/v1/')).toBe('https://chat.example.com/api/v1');
    expect(apiIdentity('https://chat.example.com:443/api/v1')).toBe('https://chat.example.com/api/v1');
    expect(apiIdentity('https://chat.example.com/tenant-a/api/v1')).toBe('https://chat.example.com/tenant-a/api/v1');
    expect(apiIdentity('http://127.0.0.1:8787/api/v1')).not.toBe(apiIdentity('http://127.0.0.1:8788/api/v1'));
  });

  it('never carries a user, password, query or fragment: a URL with them is named by its origin alone', () => {
    const named = apiIdentity('https://user:s3cret-pass@chat.example.com/api/v1?key=sk-live-123#x');
    expect(named).toBe('https://chat.example.com');
    for (const secret of ['user', 's3cret-pass', 'sk-live-123']) expect(named).not.toContain(secret);
    expect(apiIdentity('not a url sk-live-123')).not.toContain('sk-live-123');
  });

  it('a worker started with the embedded simulator asks the built-in simulator, whatever its port', () => {
    expect(workerApi({ baseUrl: 'http://127.0.0.1:40973/api/v1', builtInSimulator: { judge: true } })).toBe(BUILT_IN_SIMULATOR_API);
    expect(workerApi({ baseUrl: 'http://127.0.0.1:40973/api/v1' })).toBe('http://127.0.0.1:40973/api/v1');
  });
});
