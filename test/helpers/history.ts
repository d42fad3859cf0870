import type { Client } from '@temporalio/client';

/** A workflow's whole history as text, payloads decoded, so a secret can be searched for in it. */
export async function historyText(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  // Payload bytes arrive as Uint8Array or, in the JSON form of the history, as base64 strings under `data`.
  return JSON.stringify(history, (key, value: unknown) => {
    if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
    if (key === 'data' && typeof value === 'string') return Buffer.from(value, 'base64').toString('utf8');
    return value;
  });
}

/** Number of events in a workflow's history. */
export async function historyLength(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return history.events?.length ?? 0;
}
