import type { Client } from '@temporalio/client';
import { decodedText } from '../../scripts/histories/collect';

/** A workflow's whole history as text, payloads decoded, so a secret can be searched for in it. */
export async function historyText(client: Client, workflowId: string): Promise<string> {
  return decodedText(await client.workflow.getHandle(workflowId).fetchHistory());
}

/** Number of events in a workflow's history. */
export async function historyLength(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return history.events?.length ?? 0;
}
