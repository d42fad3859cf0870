import { basename, dirname } from 'node:path';

/**
 * The namespace globalSetup created for a test file: its folder and its name without `.test.ts`
 * (`test/cli/stopEarly.test.ts` → `test-cli-stopEarly`). The folder is part of it because test/cli and
 * test/integration hold files of the same name, which run at the same time: in one namespace their workers would take
 * each other's tasks.
 */
export function namespaceForFile(file: string): string {
  const name = `${basename(dirname(file))}-${basename(file).replace(/\.test\.ts$/, '')}`;
  return `test-${name.replace(/[^a-zA-Z0-9-]/g, '-')}`;
}
