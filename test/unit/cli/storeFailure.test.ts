import { describe, expect, it } from 'vitest';
import { isStoreConnectFailure, storeFailureMessage } from '../../../src/cli/store/storeFailure';
import { StoreDatabaseError, StoreUnavailableError } from '../../../src/store/errors';

describe('a results store that cannot be connected to', () => {
  it('says what to check, naming SITECHAT_STORE_URL and the file store instead, without the URL', () => {
    expect(storeFailureMessage(new StoreUnavailableError('connect ECONNREFUSED 127.0.0.1:5999'))).toBe(
      'connect ECONNREFUSED 127.0.0.1:5999. Check that the PostgreSQL server is running and reachable from this host, and the host, port, '
        + 'database, user and password in SITECHAT_STORE_URL (or unset it to keep results in files under SITECHAT_RUNS_DIR)',
    );
  });

  it('is a socket error or a refused login, not a failed statement', () => {
    expect(isStoreConnectFailure(new StoreUnavailableError('down'))).toBe(true);
    expect(isStoreConnectFailure(new StoreDatabaseError('password authentication failed', '28P01'))).toBe(true);
    expect(isStoreConnectFailure(new StoreDatabaseError('syntax error', '42601'))).toBe(false);
    expect(isStoreConnectFailure(new Error('x'))).toBe(false);
  });
});
