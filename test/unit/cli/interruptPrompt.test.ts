import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askInterrupt, INTERRUPT_QUESTION, INTERRUPT_QUESTION_NO_DETACH } from '../../../src/cli/follow/interruptPrompt';
import { ProgressView } from '../../../src/cli/follow/progress';

/** A pretend terminal: an input that records raw-mode switches, an output that records what was written. */
function terminal(tty = true) {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode(on: boolean): unknown; modes: boolean[] };
  input.isTTY = tty;
  input.isRaw = false;
  input.modes = [];
  input.setRawMode = (on: boolean) => {
    input.isRaw = on;
    input.modes.push(on);
    return input;
  };
  const output = new PassThrough() as PassThrough & { isTTY: boolean; columns: number; text: string };
  output.isTTY = true;
  output.columns = 80;
  output.text = '';
  output.on('data', (d: Buffer) => (output.text += d.toString()));
  const io = { input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream };
  return { input, output, io, view: new ProgressView(output as unknown as NodeJS.WriteStream) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('askInterrupt', () => {
  it('takes one key in raw mode, restores the terminal and shows the answer', async () => {
    for (const [key, choice] of [['c', 'cancel'], ['D', 'detach'], ['\r', undefined], ['\u0003', 'leave']] as const) {
      const t = terminal();
      const asked = askInterrupt(t.view, new AbortController().signal, t.io);
      expect(t.view.paused).toBe(true);
      t.input.write(`x${key}`);
      expect(await asked).toBe(choice);
      await tick();
      expect(t.input.modes).toEqual([true, false]);
      expect(t.view.paused).toBe(false);
      expect(t.output.text.startsWith(INTERRUPT_QUESTION)).toBe(true);
    }
  });

  it('does not offer detaching when it is not possible (embedded server and simulator)', async () => {
    const t = terminal();
    const asked = askInterrupt(t.view, new AbortController().signal, t.io, { detach: false });
    t.input.write('c');
    expect(await asked).toBe('cancel');
    expect(t.output.text.startsWith(INTERRUPT_QUESTION_NO_DETACH)).toBe(true);
    expect(t.output.text).not.toContain('detach');
  });

  it('goes away by itself when the run ends before an answer', async () => {
    const t = terminal();
    const ended = new AbortController();
    const asked = askInterrupt(t.view, ended.signal, t.io);
    ended.abort();
    expect(await asked).toBeUndefined();
    await tick();
    expect(t.output.text).toBe(`${INTERRUPT_QUESTION}\r\x1b[K`);
    expect(t.input.modes).toEqual([true, false]);
    t.input.write('c');
    await tick();
    expect(t.output.text).toBe(`${INTERRUPT_QUESTION}\r\x1b[K`);
  });

  it('without a terminal, Ctrl-C cancels gracefully and nothing is asked', async () => {
    const t = terminal(false);
    expect(await askInterrupt(t.view, new AbortController().signal, t.io)).toBe('cancel');
    expect(t.output.text).toBe('');
  });
});
