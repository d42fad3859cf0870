import type { Client } from '@temporalio/client';

/** A workflow's whole history as text, payloads decoded, so a secret can be searched for in it. */
export async function historyText(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return JSON.stringify(history, (_key, value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value);
}

/** Number of events in a workflow's history. */
export async function historyLength(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return history.events?.length ?? 0;
}
