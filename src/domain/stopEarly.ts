import { Outcome, type RowResult } from './results';

/**
 * The asks that decide whether a run's error is systematic: when the first this many asks of a run to end all got the
 * same refusal (a non-retryable 4xx) and none was answered, the refusal is the run's, not a row's, and the run stops
 * asking. Ten: a few flaky refusals never line up ten in a row, and ten bad requests are cheap against the thousands
 * a night's run would otherwise send (a mistyped `--model` on a 10,000-row run: 10,000 × 400, 33 minutes at 5/s).
 */
export const FIRST_ASKS = 10;

/** Why a chunk (and so its run) stopped: an error no row can recover from, in the API's words. */
export interface ChunkFailure {
  message: string;
  type: string;
  /** The HTTP status, when the API answered. */
  status?: number;
  /** The API's `error` string, when it gave one. */
  apiError?: string;
  /**
   * The first asks of the run all got this refusal ({@link FIRST_ASKS}): the rows not sent are `skipped`, not `error`,
   * and a 400 (the request as the run builds it is invalid) makes the command exit 2, as a usage error does.
   */
  systematic?: true;
}

/** What describeFailure tells of a failed ask. */
export interface AskFailure {
  message: string;
  type: string;
  status?: number;
  apiError?: string;
}

/** A 4xx that asking again unchanged cannot fix (spec §7 rule 1); 408 and 429 are retried, not refusals. */
function isRefusal(f: AskFailure): f is AskFailure & { status: number } {
  return f.status !== undefined && f.status >= 400 && f.status < 500 && f.status !== 408 && f.status !== 429;
}

/** `400 invalid payload`: the status and the API's error string (or the error's type, when the body had none). */
function refusalText(f: AskFailure & { status: number }): string {
  return `${f.status} ${f.apiError ?? f.type}`;
}

/**
 * Watches the first {@link FIRST_ASKS} asks of a run (page 0's: the first page holds the dataset's first rows) as they
 * end. An ask ends in `closeAsk`; when it got no answer, `failed` is told why just before (settleUnanswered runs in the
 * same step, right before the ask's `finally`), so `ended` knows which kind of end it is.
 */
export class FirstAsks {
  private ends = 0;
  /** The refusal all asks so far ended with. */
  private refusal: (AskFailure & { status: number }) | undefined;
  /** An ask was answered, or ended otherwise: the run's error, if any, is not systematic. */
  private mixed = false;
  private pending: AskFailure | undefined;

  /** The ask about to end got no answer, for this reason. */
  failed(failure: AskFailure): void {
    this.pending = failure;
  }

  /** An ask ended. Returns why the run must stop, once the first {@link FIRST_ASKS} asks all ended with one refusal. */
  ended(): ChunkFailure | undefined {
    const failure = this.pending;
    this.pending = undefined;
    if (this.mixed || this.ends >= FIRST_ASKS) return undefined;
    this.ends += 1;
    if (failure === undefined || !isRefusal(failure) || (this.refusal !== undefined && refusalText(this.refusal) !== refusalText(failure))) {
      this.mixed = true;
      return undefined;
    }
    this.refusal ??= failure;
    return this.ends === FIRST_ASKS ? stoppedOn(this.refusal) : undefined;
  }
}

/** The stop, with what to fix: a 400 is the request as the run builds it, which its flags and columns decide. */
function stoppedOn(f: AskFailure & { status: number }): ChunkFailure {
  const fix = f.status === 400
    ? 'the API refuses the request as this run builds it: check --model and the dataset\'s `model` column (with SITECHAT_TENANT_ID set, ' +
      'models are checked before a run starts), `response_language` and `ui_locale`, then run again'
    : 'the API refuses every question the same way: fix what it refuses, then run again';
  return {
    message: `the first ${FIRST_ASKS} questions all got ${refusalText(f)} and none was answered, so the rest were not asked; ${fix}`,
    type: f.type,
    status: f.status,
    ...(f.apiError !== undefined && { apiError: f.apiError }),
    systematic: true,
  };
}

/** What a row that ended on `f` records of it, so that reports group it by its cause (src/analysis/cause.ts). */
export type ErrorFacts = Pick<RowResult, 'errorType' | 'errorStatus' | 'apiError'>;

export function errorFacts(f: AskFailure): ErrorFacts {
  return { errorType: f.type, ...(f.status !== undefined && { errorStatus: f.status }), ...(f.apiError !== undefined && { apiError: f.apiError }) };
}

/** A row not sent because the run stopped (or was cancelled): its outcome, why, and the stop's error facts. */
export function unsent(fatal: ChunkFailure | undefined): { outcome: typeof Outcome.error | typeof Outcome.skipped; reason: string; facts: ErrorFacts } {
  if (!fatal) return { outcome: Outcome.skipped, reason: 'run cancelled before this row was sent', facts: {} };
  if (fatal.systematic) return { outcome: Outcome.skipped, reason: `not sent: ${fatal.message}`, facts: errorFacts(fatal) };
  return { outcome: Outcome.error, reason: `not sent: the run stopped on ${fatal.message}`, facts: errorFacts(fatal) };
}
