import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/** The `no-restricted-syntax` of the project's ESLint config, applied alone (no type information needed). */
let restricted: Linter.RuleEntry;

beforeAll(async () => {
  const config = (await import(pathToFileURL(join(__dirname, '..', '..', '..', 'eslint.config.mjs')).href)) as { default: { rules?: Record<string, unknown> }[] };
  const entry = config.default.find((c) => c.rules?.['no-restricted-syntax'] !== undefined);
  restricted = entry?.rules?.['no-restricted-syntax'] as Linter.RuleEntry;
});

function startsFlagged(code: string): number[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': restricted } }], 'planted.ts');
  return messages.map((m) => m.line);
}

/** `npm run lint` refuses a workflow started by a string name: nothing checks a name or its arguments. */
describe('lint: workflows start by function or through the typed helpers', () => {
  it('flags a string name in a client start, execute or signalWithStart, a child start and a schedule action', () => {
    const planted = [
      "await client.workflow.start('evaluationRun', { taskQueue: 'q', workflowId: 'w', args: [] });",
      'await client.workflow.execute(`labelFeedback`, { taskQueue: \'q\', workflowId: \'w\' });',
      "await client.workflow.signalWithStart('multiSiteRun', { taskQueue: 'q', workflowId: 'w', signal: 'cancel' });",
      "await workflow.start('backfillRun', { taskQueue: 'q', workflowId: 'w' });",
      "await startChild('runChunk', { workflowId: 'c' });",
      "await wf.executeChild('runChunk', { workflowId: 'c' });",
      'await startChild<typeof runDataset>(SITE_WORKFLOW_TYPE, { workflowId: \'c\' });',
      "const a = { type: 'startWorkflow', workflowType: 'sessionCleanup', taskQueue: 'q' };",
      "const b = { ...prev, action: { ...prev.action, workflowType: 'evaluationRun' } };",
    ];
    expect(startsFlagged(planted.join('\n'))).toEqual(planted.map((_, i) => i + 1));
  });

  it('lets the typed starts through', () => {
    const typed = [
      "await startWorkflow(client, 'evaluationRun', { taskQueue: 'q', workflowId: 'w', args: [input] });",
      "await executeWorkflow(client, 'labelFeedback', { taskQueue: 'q', workflowId: 'w', args: [input] });",
      'await client.workflow.start(codecProbe, { taskQueue: \'q\', workflowId: \'w\', args: [q] });',
      'await client.workflow.start<Workflows[N]>(name, options);',
      "await startChild(evaluationRun, { workflowId: 'c', args: [input] });",
      "const action = startWorkflowAction('evaluationRun', { taskQueue: 'q', workflowId: 'w', args: [input] });",
      "const c = { type: 'startWorkflow', workflowType: name };",
      "await server.start('dev');",
    ];
    expect(startsFlagged(typed.join('\n'))).toEqual([]);
  });
});
