/**
 * The question Ctrl-C asks while a run is followed: one key, no Enter needed, and it clears itself when the run
 * ends before anyone answers.
 */
import type { ProgressView } from './progress';

/** What Ctrl-C should do: cancel the run, detach from it, or (Ctrl-C again) leave at once. */
export type Interrupt = 'cancel' | 'detach' | 'leave';

export const INTERRUPT_QUESTION = 'Cancel the run (c), detach and leave it running (d), or continue (Enter)? ';

/** The question when detaching is not possible (embedded server and simulator); `d` then gets the reason. */
export const INTERRUPT_QUESTION_NO_DETACH = 'Cancel the run (c) or continue (Enter)? ';

export interface AskOptions {
  /** Offer detaching. @default true */
  detach?: boolean;
}

/** The terminal the question is asked on; process.stdin / process.stderr unless a test supplies its own. */
export interface PromptIo {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

const KEYS: Record<string, Interrupt | 'continue'> = {
  c: 'cancel',
  d: 'detach',
  '\r': 'continue',
  '\n': 'continue',
  // Raw mode turns Ctrl-C into a byte instead of SIGINT: pressed at the question, it means "interrupted again".
  '\u0003': 'leave',
};

/**
 * Asks on a terminal what Ctrl-C should do, reading one key in raw mode (c, d, Enter; other keys are ignored).
 * Without a terminal the answer is 'cancel' (a graceful cancel). Resolves undefined, meaning "continue", on Enter
 * or when `signal` aborts: the run ended meanwhile, and the question is erased from the screen.
 */
export function askInterrupt(view: ProgressView, signal: AbortSignal, io: PromptIo = { input: process.stdin, output: process.stderr }, options: AskOptions = {}): Promise<Interrupt | undefined> {
  const { input, output } = io;
  if (!input.isTTY || !view.tty) return Promise.resolve('cancel');
  if (signal.aborted) return Promise.resolve(undefined);
  view.end();
  view.paused = true;
  const wasRaw = input.isRaw;
  input.setRawMode(true);
  input.resume();
  output.write(options.detach === false ? INTERRUPT_QUESTION_NO_DETACH : INTERRUPT_QUESTION);
  return new Promise((resolve) => {
    const finish = (choice: Interrupt | undefined, echo: string | undefined): void => {
      input.off('data', onData);
      signal.removeEventListener('abort', onAbort);
      input.setRawMode(wasRaw);
      input.pause();
      // The answer stays on screen; an unanswered question is erased.
      output.write(echo === undefined ? '\r\x1b[K' : `${echo}\n`);
      view.paused = false;
      resolve(choice);
    };
    const onData = (data: Buffer | string): void => {
      for (const char of String(data).toLowerCase()) {
        const key = KEYS[char];
        if (key === undefined) continue;
        finish(key === 'continue' ? undefined : key, key === 'leave' ? '^C' : key === 'continue' ? '' : char);
        return;
      }
    };
    const onAbort = (): void => finish(undefined, undefined);
    input.on('data', onData);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
