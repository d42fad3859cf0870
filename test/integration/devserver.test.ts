import { Client, Connection } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';

describe('the Temporal dev server started by globalSetup', () => {
  it('answers on the address it was started on', async () => {
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      const client = new Client({ connection });
      const info = await client.workflowService.getSystemInfo({});
      expect(info.capabilities).toBeTruthy();
    } finally {
      await connection.close();
    }
  });
});
