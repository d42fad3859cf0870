/**
 * The pages' scripts and styles are real files (`src/<room>/page/*.ts` and `*.css`: browser code, type-checked with
 * the DOM library by the folder's own tsconfig.json, linted like the rest). The pages inline or serve them as text.
 * `npm run build` compiles each script to JavaScript beside the compiled module that reads it
 * (scripts/build-pages.ts), so a built runner needs no compiler. Run from source (the tests), there is no `.js` next
 * to the `.ts`: it is compiled here, with the same options, by the TypeScript of the dev dependencies.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The browsers of the reports and the review page: current ones; no module system (a classic inline script). */
const COMPILE = { target: 'ES2020', module: 'ESNext', removeComments: false } as const;

/** A page script in JavaScript: its TypeScript with the types removed, comments and layout kept. */
export function compilePageScript(source: string, fileName: string): string {
  // Only a run from source gets here, where the dev dependencies are installed; a built runner reads the .js.
  const ts = createRequire(__filename)('typescript') as typeof import('typescript');
  const { outputText, diagnostics } = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget[COMPILE.target], module: ts.ModuleKind[COMPILE.module], removeComments: COMPILE.removeComments },
  });
  const problem = diagnostics?.[0];
  if (problem) throw new Error(`${fileName}: ${ts.flattenDiagnosticMessageText(problem.messageText, '\n')}`);
  // Inlined in a <script> element, which the first `</script` would close.
  if (/<\/script/iu.test(outputText)) throw new Error(`${fileName}: holds "</script", which would end the inline script early`);
  return outputText;
}

/** `page/<name>.css` of the module in `dir`, as it is. */
export function pageStyle(dir: string, name: string): string {
  return readFileSync(join(dir, 'page', `${name}.css`), 'utf8');
}

/** `page/<name>.ts` of the module in `dir`, in JavaScript: the built `.js` when there is one, else compiled now. */
export function pageScript(dir: string, name: string): string {
  const built = join(dir, 'page', `${name}.js`);
  if (existsSync(built)) return readFileSync(built, 'utf8');
  const source = join(dir, 'page', `${name}.ts`);
  return compilePageScript(readFileSync(source, 'utf8'), source);
}
