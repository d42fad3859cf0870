import { readFileSync } from 'node:fs';
import { Connection } from '@temporalio/client';
import { createTemporalClient } from '../../src/temporal/client';
import { describe, expect, inject, it } from 'vitest';
import { locateTemporalCli } from '../../src/temporal/cliLocator';
import { spawnDevServer } from '../../src/temporal/devServerProcess';

describe('the Temporal dev server started by globalSetup', () => {
  it('answers on the address it was started on', async () => {
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      const client = createTemporalClient(connection);
      const info = await client.workflowService.getSystemInfo({});
      expect(info.capabilities).toBeTruthy();
    } finally {
      await connection.close();
    }
  });
});

describe('the embedded dev server sitechat starts', () => {
  it('does not inherit the API key or the judge key', async () => {
    const { path } = await locateTemporalCli();
    if (!path) throw new Error('no Temporal CLI binary (globalSetup provisions one)');
    process.env.SITECHAT_API_KEY = 'sk-secret-for-env-test';
    process.env.SITECHAT_JUDGE_API_KEY = 'judge-secret-for-env-test';
    try {
      const server = await spawnDevServer({ cliPath: path, namespaces: ['default'], dynamicConfig: [] });
      try {
        const environ = readFileSync(`/proc/${server.pid}/environ`, 'utf8');
        expect(environ).toContain('PATH=');
        expect(environ).not.toContain('sk-secret-for-env-test');
        expect(environ).not.toContain('judge-secret-for-env-test');
      } finally {
        await server.stop();
      }
    } finally {
      delete process.env.SITECHAT_API_KEY;
      delete process.env.SITECHAT_JUDGE_API_KEY;
    }
  }, 60_000);
});
