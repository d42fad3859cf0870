/** A wrong flag, argument or combination of them: the command says which, and exits 2 before anything is sent. */
export class UsageError extends Error {
  override name = 'UsageError';
}
