import { sleep } from '@temporalio/workflow';

/**
 * A `sessionCleanup` changed without `patched()`: it now waits before its first page, so its first command is a
 * timer where every recorded cleanup history scheduled a list activity. Bundled by replayDetects.test.ts only.
 */
export async function sessionCleanup(): Promise<void> {
  await sleep('1 second');
}
