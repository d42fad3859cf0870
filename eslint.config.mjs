import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** A string where a workflow is named: a literal or a template. */
const STRING = '/^(Literal|TemplateLiteral)$/';
const TYPED_START =
  'Start a workflow by its function (`startChild(evaluationRun, …)` in workflow code) or through startWorkflow / ' +
  'executeWorkflow / startWorkflowAction (workflows/starts.ts), which check the name and the arguments ' +
  'against the workflow function; a string name is checked by nothing.';

/** Workflows started by a string name: a client's start, execute or signalWithStart, a child, a schedule's action. */
const stringStarts = [
  `CallExpression[callee.property.name=/^(start|execute|signalWithStart)$/]:matches([callee.object.property.name='workflow'], [callee.object.name='workflow'])[arguments.0.type=${STRING}]`,
  `CallExpression:matches([callee.name=/^(startChild|executeChild)$/], [callee.property.name=/^(startChild|executeChild)$/])[arguments.0.type=${STRING}]`,
  // A child named by a constant needs its type spelled out (`startChild<typeof f>(NAME, …)`); one started by its function does not.
  `CallExpression:matches([callee.name=/^(startChild|executeChild)$/], [callee.property.name=/^(startChild|executeChild)$/])[typeArguments]`,
  `ObjectExpression:has(> Property[key.name='type'][value.value='startWorkflow']) > Property[key.name='workflowType'][value.type=${STRING}]`,
  `Property[key.name='action'] > ObjectExpression:not(:has(> Property[key.name='type'][value.value='startWorkflow'])) > Property[key.name='workflowType'][value.type=${STRING}]`,
].map((selector) => ({ selector, message: TYPED_START }));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', 'runs/**', 'coverage/**', '**/*.mjs', '**/*.js', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...stringStarts],
    },
  },
  {
    // Workflow code is replayed: it must be deterministic, so no Node APIs and only activity *types*.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must not use Node built-ins (non-deterministic).' })),
        patterns: [{ group: ['../activities', '../activities/*'], allowTypeImports: true, message: 'Workflows import activity types only.' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'process', message: 'No process access in workflows.' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Math.random is replaced deterministically; prefer uuid4() or explicit seeds.' }],
    },
  },
);
