import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresBinaries, startPostgres, type PostgresServer } from './postgres';

/**
 * `describe` with a PostgreSQL server started for the suite and stopped after it; `describe.skip` (with the reason
 * printed) only when the server cannot be installed.
 */
export function describeWithPostgres(name: string, body: (pg: { server(): PostgresServer; freshDatabase(): Promise<string> }) => void): void {
  const { binDir } = postgresBinaries();
  if (!binDir) {
    describe.skip(`${name} (PostgreSQL unavailable)`, () => body({ server: () => unavailable(), freshDatabase: () => unavailable() }));
    return;
  }
  describe(name, () => {
    let server: PostgresServer | undefined;
    beforeAll(async () => {
      server = await startPostgres(binDir);
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
