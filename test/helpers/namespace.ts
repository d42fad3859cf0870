import { basename } from 'node:path';

/** The namespace globalSetup created for a test file: its name without `.test.ts`. */
export function namespaceForFile(file: string): string {
  return `test-${basename(file).replace(/\.test\.ts$/, '').replace(/[^a-zA-Z0-9-]/g, '-')}`;
}
