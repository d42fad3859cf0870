/**
 * `sitechat runs | head -1`: once the reader of a pipe is gone, every write to it fails with EPIPE, and the stream's
 * unhandled 'error' event would end the process with a stack trace. Output nobody reads is dropped instead, and the
 * command goes on to its own exit code, as if it had been read: a run being followed must still finish and write
 * its reports.
 */
export function dropOutputToClosedPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
}
