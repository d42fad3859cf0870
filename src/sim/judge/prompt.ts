/** Reads the runner's judge prompt (Chat Completions `messages`) back into its tagged inputs. */
import type { SimJudgeInput } from './verdict';

/** The text of the last user message, or undefined when `messages` is not a Chat Completions message list. */
export function lastUserText(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown } | null;
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      return m.content.map((p: { type?: unknown; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
    }
    return undefined;
  }
  return undefined;
}

function sections(text: string, tag: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`, 'gu');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1] ?? '');
  return out;
}

/** The judge inputs of a prompt, or undefined when it has no `<answer>` and no `<rubric>`/`<reference>`. */
export function parseJudgePrompt(text: string): SimJudgeInput | undefined {
  const answer = sections(text, 'answer')[0];
  const question = sections(text, 'question')[0] ?? '';
  if (answer === undefined) return undefined;
  const rubric = sections(text, 'rubric')[0];
  if (rubric !== undefined) return { kind: 'rubric', question, answer, rubric };
  const references = sections(text, 'reference');
  return references.length > 0 ? { kind: 'correctness', question, answer, references } : undefined;
}
