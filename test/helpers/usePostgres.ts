import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresBinaries, startPostgres, type PostgresOptions, type PostgresServer } from './postgres';
import { assertMet, skippable } from './requirements';

/**
 * `describe` with a PostgreSQL server started for the suite and stopped after it; `describe.skip` (with the reason
 * printed) only when the server cannot be installed and this is not CI, where the suite fails instead.
 */
export function describeWithPostgres(name: string, body: (pg: { server(): PostgresServer; freshDatabase(): Promise<string> }) => void, options: PostgresOptions = {}): void {
  const { binDir, reason } = postgresBinaries();
  if (!binDir && skippable(`PostgreSQL is unavailable (${reason ?? 'not found'})`)) {
    describe.skip(`${name} (PostgreSQL unavailable)`, () => body({ server: () => unavailable(), freshDatabase: () => unavailable() }));
    return;
  }
  describe(name, () => {
    let server: PostgresServer | undefined;
    beforeAll(async () => {
      // In CI the suite runs, and fails here, rather than skip.
      assertMet(binDir ? undefined : `PostgreSQL (${reason ?? 'initdb/pg_ctl not found'})`);
      server = await startPostgres(binDir as string, options);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });
    const get = (): PostgresServer => server ?? unavailable();
    body({ server: get, freshDatabase: () => get().createDatabase(`t_${randomBytes(6).toString('hex')}`) });
  });
}

function unavailable(): never {
  throw new Error('the PostgreSQL test server is not running');
}
