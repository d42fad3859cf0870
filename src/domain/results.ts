import type { AssertionResult, GradeVerdict } from './grade';
import type { Provenance } from './provenance';

/** Exactly one per dataset row. */
export const Outcome = {
  passed: 'passed',
  failed: 'failed',
  /**
   * Needs review: the row's grade rests on a grader that could not decide (`reference` without evidence either way)
   * and nothing settled it (no judge configured, or the judge could not answer). Not in the pass rate; no feedback.
   */
  uncertain: 'uncertain',
  /** Answered, no assertion to grade it with (backfills, or evaluation rows without assertions). */
  answered: 'answered',
  error: 'error',
  timedOut: 'timed_out',
  skipped: 'skipped',
} as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** One line of results.jsonl. Never contains the API key. */
export interface RowResult {
  id: string;
  /** With `--repeat N` (N > 1): the dataset row's id, shared by its repeats (src/datasets/repeat.ts). */
  baseId?: string;
  /** With `--repeat N` (N > 1): which repeat, 1..N. */
  repeat?: number;
  /**
   * A confirming answer (`--confirm K`), 1..K, of the regressed row `baseId`: not counted in the run's figures, only in
   * `baseline.confirmation`.
   */
  confirm?: number;
  /** Dataset order, so reports and backfill output can be written in file order. */
  index: number;
  line: number;
  question: string;
  conversation?: string;
  turn?: number;
  email?: string;
  model?: string;
  expected?: string;
  tags?: string[];
  metadata?: Record<string, string>;
  outcome: Outcome;
  answer?: string;
  assertions?: AssertionResult[];
  confidenceScore?: number;
  confidenceLevel?: string;
  confidenceReason?: string;
  /** From the question going out to the answer being seen, less `latencyUnobservedMs`. */
  latencyMs?: number;
  /** Time nobody could watch the request (a worker died, Temporal was down) and in which its answer came. */
  latencyUnobservedMs?: number;
  sessionId?: string;
  requestId?: string;
  /**
   * Who or what settled the grade, and why: the graders (`pass`/`fail` on their own, or `uncertain` when they could
   * not decide), or the judge an uncertain row was escalated to. Absent for rows without a grade (and runs before it
   * existed), or a person's label (`by: 'label'`), applied before both.
   */
  decision?: GradeDecision;
  /**
   * The row's label key (`labelKey` of site, question, references, rubric and answer), computed by the run that asked
   * it, so a label given for this row (`sitechat review`) is the one later runs look up. Absent before labels existed.
   */
  labelKey?: string;
  /** Feedback sent for this row: good/bad, `failed` when the API refused it, absent when none was due. */
  feedback?: 'good' | 'bad' | 'failed';
  /** Why the feedback was not recorded (with `feedback: 'failed'`): HTTP status and the API's `error` string. */
  feedbackError?: string;
  /** Human-readable error: HTTP status and the API's `error` string, or the failed request's `error`. */
  error?: string;
  /** Class name of the error (e.g. `AuthenticationError`), for grouping. */
  errorType?: string;
  /** The HTTP status the API refused the row's question with (with `errorType`), for grouping by cause (src/analysis/cause.ts). */
  errorStatus?: number;
  /** The API's `error` string of that refusal, or of a request the service failed (`RequestFailed`). */
  apiError?: string;
  /**
   * Requests of this row the service failed and the run asked again (`--reask-failed`), oldest first: the request
   * id (none for a sync chat's 5xx), its session and the service's `error`. The row's own fields are the last ask's.
   */
  reasked?: ReaskedRequest[];
  /** ISO time the row finished. */
  finishedAt?: string;
}

/** A request the service failed, then asked again (`RowResult.reasked`). */
export interface ReaskedRequest {
  requestId?: string;
  sessionId: string;
  /** The service's `error` (at most 200 characters). */
  error: string;
}

/** Who or what settled a row's grade. */
export const DecidedBy = {
  /** The row's own assertions (the deterministic graders, custom modules, judge assertions it asked for). */
  graders: 'graders',
  /** The LLM judge, asked because the graders were uncertain (escalation). */
  judge: 'judge',
  /** A person's label of the same site, question, references and answer, applied before graders and judge ("settled by label"). */
  label: 'label',
} as const;
export type DecidedBy = (typeof DecidedBy)[keyof typeof DecidedBy];

/** A row's grade as settled, kept with the row (`RowResult.decision`). */
export interface GradeDecision {
  verdict: GradeVerdict;
  by: DecidedBy;
  /** Why, in words: the deciding assertion's reason, the judge's reason, or what left the row uncertain. */
  reason: string;
  /** The row was escalated and the judge could not answer (its error): the row stayed uncertain. */
  judgeError?: string;
  /** Set when a label settled the row afterwards (`sitechat review`): the outcome it had before, for its place in the review queue. */
  was?: Outcome;
  /**
   * With `by: 'label'`: the person's label as given (who, when, the note), which every report shows as "decided by a
   * person". Absent in rows settled before it was kept (their `reason` still names who and the note).
   */
  label?: PersonLabel;
  /**
   * With `by: 'label'`, when a label settled the row after its graders (`sitechat review`): what the graders (or the
   * judge) had decided, kept so the reports show it beside the person's decision. Absent when no grader ran (a run
   * or `sitechat grade` that found the label first) and in rows settled before it was kept.
   */
  graders?: GraderDecision;
}

/** Who labelled a row, when, and why (`GradeDecision.label`): the label's own fields. */
export interface PersonLabel {
  by?: string;
  /** ISO time the label was given. */
  at?: string;
  note?: string;
}

/** A decision of the graders or the judge, as kept beside a person's (`GradeDecision.graders`). */
export type GraderDecision = Pick<GradeDecision, 'verdict' | 'by' | 'reason' | 'judgeError'>;

/** Which workflow produced a run. */
export const RunKind = {
  evaluation: 'evaluation',
  backfill: 'backfill',
} as const;
export type RunKind = (typeof RunKind)[keyof typeof RunKind];

/** What the results store knows about a run before any row is recorded (`meta.json`). */
export interface RunMeta {
  runId: string;
  workflowId: string;
  kind: RunKind;
  /** Dataset reference as given (path); shown in reports and used by `--baseline latest`. */
  dataset: string;
  /** Hex SHA-256 of the dataset file, so a baseline is only matched against the same questions. */
  datasetSha256: string;
  siteId: string;
  model?: string;
  /** ISO time. */
  startedAt: string;
  /** ISO time; set by `ResultsStore.finish`. Absent while the run is in progress. */
  finishedAt?: string;
  /** Number of data rows in the dataset, when known; lets the summary count rows without a result. */
  rowCount?: number;
  /** Run options as given (concurrency, timeouts, thresholds …). Never holds the API key. */
  options: Record<string, unknown>;
  /** Where the answers and grades come from (hosts only, never a key); absent for runs recorded before it existed. */
  provenance?: Provenance;
  /**
   * Where the reports went when not into the run's own directory (`--out`, on the host that wrote them), so the
   * history page can link them.
   */
  reportDir?: string;
}

/** Fixed-width histogram: bin `i` covers `[start + i·width, start + (i+1)·width)`, the last bin is closed. */
export interface Histogram {
  start: number;
  width: number;
  counts: number[];
}

export interface TagStats {
  total: number;
  passed: number;
  failed: number;
  /** Needs review: not in `graded`. @default 0 (summaries before the outcome existed) */
  uncertain?: number;
  /** passed + failed */
  graded: number;
}

/** Exact two-sided McNemar test on the discordant pairs of a paired comparison. */
export interface McNemarResult {
  /** Rows that passed in the baseline and fail now. */
  b: number;
  /** Rows that failed in the baseline and pass now. */
  c: number;
  pValue: number;
  /** `pValue < alpha`. */
  significant: boolean;
  alpha: number;
}

/** Comparison of a run with a baseline run, on rows graded (passed/failed) in both. */
export interface BaselineComparison {
  runId: string;
  passRate: number | null;
  /** passRate − baseline passRate; null when either is null. */
  delta: number | null;
  /** Rows graded in both runs. */
  compared: number;
  /** Ids that passed in the baseline and fail now, in dataset order. */
  regressed: string[];
  /** Ids that failed in the baseline and pass now, in dataset order. */
  fixed: string[];
  mcnemar: McNemarResult;
  /**
   * When either run asked its rows more than once (`--repeat`): the per-row comparison that the gate then uses
   * instead of `mcnemar`; `regressed` and `fixed` then list dataset row ids whose pass rate (k of N) fell or rose.
   */
  repeated?: RepeatedComparison;
  /** `--confirm K`: the regressed rows asked again, and which regressions reproduced (only those count above). */
  confirmation?: Confirmation;
  /** The baseline's own numbers per tag, so reports can show each tag's change. */
  byTag?: Record<string, TagStats>;
}

/**
 * Comparison of runs with repeats, row by row: the Cochran–Mantel–Haenszel test with each row a stratum, and the
 * drop of the mean per-row pass rate, which must reach `minDrop` too (docs/reports.md, "Repeats").
 */
export interface RepeatedComparison {
  /** Answers per row asked by the baseline and by this run (their `--repeat`). */
  baselineRepeat: number;
  runRepeat: number;
  /** Rows graded in both runs. */
  rows: number;
  /** Rows with answers of both outcomes across the two runs: the only ones the test learns from. */
  informative: number;
  /** Continuity-corrected CMH χ² (1 df) and its p-value. */
  statistic: number;
  pValue: number;
  alpha: number;
  /** Mean over the rows graded in both of (baseline pass rate − run pass rate): positive is worse now. */
  drop: number;
  /** Smallest `drop` that fails the gate, with p < alpha. */
  minDrop: number;
  /** p < alpha and drop ≥ minDrop, with the run worse. */
  significant: boolean;
}

/** One confirming answer of a regressed row. */
export interface ConfirmingAnswer {
  confirm: number;
  outcome: Outcome;
  answer?: string;
}

/**
 * `--confirm K`: a regressed row counts only when most of its K confirming answers (asked in fresh sessions) fail too:
 * more failed than not among those graded (both of 2, 2 of 3). A row whose confirming answers all errored keeps its
 * regression: nothing spoke against it.
 */
export interface Confirmation {
  /** Confirming answers asked per regressed row. */
  k: number;
  /** Regressed rows asked again, and the questions that cost (earlier turns of their conversations included). */
  rows: number;
  questions: number;
  /** Regressions that reproduced: they are `regressed`. */
  reproduced: string[];
  /** Regressions that did not: taken as noise, out of `regressed` and of the test. */
  notReproduced: string[];
  /**
   * Regressed rows never asked again: sequential confirmation stopped once the verdict no longer depended on them.
   * They stay in `regressed`, as their first answers say. Absent in summaries written before sequential confirmation.
   */
  unconfirmed?: string[];
  /**
   * The unconfirmed rows could still change the verdict: confirmation was cut short (a cancel), or they regressed after
   * it (a review label changed a first answer).
   */
  undecided?: boolean;
  /** The first confirmed rows' confirming answers (cut short), by row id. */
  answers: { id: string; answers: ConfirmingAnswer[] }[];
}

/** A row whose repeats disagree, with its answers (`RepeatSummary.flakyRows`). */
export interface FlakyRow {
  id: string;
  question: string;
  passed: number;
  graded: number;
  /** Its answers, one per repeat, cut to a few hundred characters. */
  answers: { repeat: number; outcome: Outcome; answer?: string }[];
}

/** A run with `--repeat N` (N > 1): the rows' pass rates over their repeats. */
export interface RepeatSummary {
  /** Repeats asked per row. */
  n: number;
  /** Dataset rows with a result. */
  rows: number;
  /** Rows whose graded repeats all passed / all failed / disagree (flaky); `ungraded` had none graded. */
  allPassed: number;
  allFailed: number;
  flaky: number;
  ungraded: number;
  /** Rows by "k/n": k of their n graded repeats passed. */
  kOfN: Record<string, number>;
  /**
   * Pass rate of all graded answers with a 95 % interval that counts rows, not answers, as the independent units
   * (Wilson at the effective sample size of the clustered answers: src/analysis/repeatStats.ts).
   */
  passRate: { value: number; low: number; high: number; effectiveN: number; answers: number; rows: number } | null;
  /** The first flaky rows in dataset order (capped), with their differing answers. */
  flakyRows: FlakyRow[];
}

/** A run `--baseline latest` looked at and did not take, and why. */
export interface SkippedBaseline {
  runId: string;
  reason: string;
}

/** How the baseline was chosen (or why there is none); shown in every report. */
export interface BaselineSelection {
  /** `--baseline` as given: `latest` or a directory. */
  requested: string;
  /** The run compared against, and why it was chosen. Absent when none was usable. */
  chosen?: { runId: string; model: string | null; datasetSha256: string; startedAt: string | null; reason: string };
  /** Newer runs passed over, newest first, capped; `skippedMore` counts the rest. */
  skipped: SkippedBaseline[];
  skippedMore: number;
  /** Why there is no comparison (no compatible run, or the baseline could not be read). */
  message?: string;
  /** An explicit baseline of another dataset, model, or a cancelled run: compared, with these warnings. */
  warnings: string[];
}

/** The cause most errors of a run share (`RunSummary.cause`). */
export interface RunCause {
  /** "the API refused the key (401 invalid_api_key): check SITECHAT_API_KEY" (src/analysis/cause.ts, `causeText`). */
  text: string;
  /** Rows that errored or timed out for this cause … */
  rows: number;
  /** … of all rows that errored or timed out. */
  errors: number;
  /** The error's class (`AuthenticationError`, `RequestFailed`, `TimedOut` …). */
  type: string;
  /** The HTTP status, when the API answered. */
  status?: number;
  /** The API's `error` string, when it gave one. */
  error?: string;
}

/** The CI verdict of a run. */
export const GateVerdict = {
  passed: 'passed',
  failed: 'failed',
  /** The run was cancelled: never a pass, whatever its rows say. */
  cancelled: 'cancelled',
  /** Nothing failed, but neither `--fail-under` nor a baseline comparison was there to judge quality by. */
  noThreshold: 'no_threshold',
} as const;
export type GateVerdict = (typeof GateVerdict)[keyof typeof GateVerdict];

/** The gate settings a run was judged by (`summary.gateSettings`), shown in every report. */
export interface GateSettings {
  /** Minimum pass rate (0..1); absent when not set. */
  failUnder?: number;
  /** Maximum share of rows ending in `error` or `timed_out` (0..1). @default 0 */
  maxErrorRate: number;
  /** Maximum share of rows left `uncertain` (0..1). Absent in summaries written before the setting existed. */
  maxUncertainRate?: number;
  /** Lost feedback and sessions left open only warn instead of failing. @default false */
  allowSideEffectFailures: boolean;
  /** `--baseline` as given (`latest` or a directory); absent when none. */
  baseline?: string;
}

/** Result of the quality gate; see `evaluateGate`. */
export interface GateResult {
  verdict: GateVerdict;
  /** True for `passed` and `no_threshold`. */
  passed: boolean;
  /** Why the gate failed (or the run was cancelled); empty when it passed. */
  reasons: string[];
  /** Worth reading even when the gate passed (e.g. regressions within noise). */
  warnings: string[];
}

/** Headline numbers of a run (`summary.json`). Counts by outcome add up to `total`. */
export interface RunSummary {
  runId: string;
  workflowId: string;
  kind: RunKind;
  dataset: string;
  datasetSha256: string;
  siteId: string;
  model: string | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  /** Rows with a result. */
  total: number;
  /** Dataset rows without any result (`RunMeta.rowCount − total`); 0 when the row count is unknown. */
  missing: number;
  passed: number;
  failed: number;
  /** Rows whose grade nobody could settle (needs review); not in `graded` nor the pass rate. */
  uncertain: number;
  answered: number;
  error: number;
  timedOut: number;
  skipped: number;
  /** passed + failed: rows with a settled grade. */
  graded: number;
  /** passed / graded; null when no row was graded. */
  passRate: number | null;
  feedback: { good: number; bad: number; failed: number };
  /**
   * `closed` and `closeFailed` are null when the caller did not report them. Sessions that could not be closed
   * are listed with their reasons in the reports (the results store keeps them).
   */
  sessions: { opened: number; closed: number | null; closeFailed: number | null };
  /**
   * Rows whose question may have reached the API twice: a send that may have been taken (its response lost, a 5xx,
   * a time-out), then sent again. Up to 50 row ids are listed. Absent when the store has no submission records (runs
   * before they existed). Re-asks after the service failed a request are not in it: they are `reasked`.
   */
  askedTwice?: {
    count: number;
    rowIds: string[];
    /** Sends of those rows beyond the first of each ask: what a server counts as second submissions, at most. @default 0 */
    extraSends?: number;
  };
  /**
   * Rows asked again because the service failed their request (`--reask-failed`): `rows` of them, `requests` failed
   * requests re-asked, `answered` rows that got an answer on a re-ask (the others are still `error`). Up to 50 row ids
   * are listed. Absent when no row was re-asked.
   */
  reasked?: { rows: number; requests: number; answered: number; rowIds: string[] };
  /**
   * Sessions the API has (a question in them was accepted) but the run never closed, because none of their turns got
   * an answer recorded: the run was cancelled or failed while they waited. Up to 20 ids are listed; close them with
   * `sitechat cleanup`. Absent when there is none, or when sessions were to be kept open.
   */
  sessionsLeftOpen?: { count: number; sessionIds: string[] };
  /** Nearest-rank percentiles over rows with a latency; null when there is none. */
  latencyMs: {
    p50: number | null; p95: number | null; max: number | null;
    /** Rows whose answer came while nobody could watch (a worker died, Temporal was down): their latency leaves that time out. */
    unobservedRows?: number;
  };
  distributions: { latencyMs: Histogram; confidence: Histogram };
  byTag: Record<string, TagStats>;
  /** `errorType` (or `TimedOut`) → rows, over `error` and `timed_out` outcomes. */
  errorsByType: Record<string, number>;
  /**
   * The cause more than half of the `error` and `timed_out` rows share, in the words the terminal uses: every report
   * leads with it. Absent when no cause is shared by most of them, or nothing errored.
   */
  cause?: RunCause;
  /** The run was cancelled (`sitechat cancel`, Ctrl-C): its verdict is CANCELLED, never PASSED. */
  cancelled: boolean;
  /**
   * Why the run stopped before asking every row, with what to fix: an error no row can recover from (a bad key, a plan
   * without API access, an unknown site), or its first questions all refused alike (src/domain/stopEarly.ts).
   */
  stopped?: string;
  baseline?: BaselineComparison;
  /** Runs with `--repeat N` (N > 1) only: each row's k of N, flaky rows, the clustered interval. */
  repeats?: RepeatSummary;
  /** How the baseline was chosen, the runs passed over, warnings; present when `--baseline` was given. */
  baselineSelection?: BaselineSelection;
  /** Gate settings applied; evaluation runs only. */
  gateSettings?: GateSettings;
  /** Evaluation runs only: backfills have no verdict. */
  gate?: GateResult;
  /**
   * LLM judge use, from the rows' assertions: `calls` made by this run and the `tokens` they used; `cached` verdicts
   * reused at no cost. Absent when no row was judged.
   */
  judge?: { calls: number; cached: number; tokens: number };
  /**
   * Rows the graders were uncertain about and sent to the judge (`rows`), how the judge settled them, and what that
   * cost (`calls`, `cached`, `tokens`: already counted in `judge` too). `unsettled` rows stayed `uncertain` (the judge
   * could not answer). Absent when no row was escalated.
   */
  escalated?: { rows: number; passed: number; failed: number; unsettled: number; calls: number; cached: number; tokens: number };
  /** Rows settled by a person's label (`decision.by: 'label'`), as "reviewed: 2 rows settled by labels". Absent when none. */
  reviewed?: number;
  /** Where the answers and grades come from (`RunMeta.provenance`); absent for runs recorded before it existed. */
  provenance?: Provenance;
}

/** A session the run could not close, with the reason (`ResultsStore.recordSessionFailures`). */
export interface SessionCloseFailure {
  sessionId: string;
  /** HTTP status and the API's `error` string, or the network error. */
  error: string;
}

/**
 * What the runner knows about sending one row's question (`ResultsStore.recordSubmission`), kept outside Temporal's
 * heartbeat so that a retry after a lost heartbeat resumes polling instead of asking again.
 */
export interface Submission {
  rowId: string;
  /**
   * Sends of the question (in this ask of the row, see `ask`) that may have reached the API: incremented before each
   * send, taken back only when the API refused it with a 4xx (src/api/failureRules.ts, `mayHaveBeenTaken`). More than 1
   * means the row may have been asked twice (a response lost on the way back, a 5xx, a time-out).
   */
  sends: number;
  /**
   * Which ask of the row the record is about: absent (0) the first, k its k-th re-ask after the service failed it
   * (`--reask-failed`). A re-ask counts its own sends, and never polls an earlier ask's request.
   */
  ask?: number;
  /**
   * Possible second asks among the sends of the row's earlier asks (those a re-ask followed): they keep the row in
   * `askedTwice` (src/api/failureRules.ts, `extraSends`). @default 0
   */
  earlierExtraSends?: number;
  /**
   * An earlier ask had a send whose outcome the runner never learned (it was sent again): it may have been answered,
   * so every later send of the row, a re-ask's first one too, may be a second ask. @default false
   */
  earlierUnknown?: boolean;
  /** Set once the API accepted the question. */
  requestId?: string;
  sessionId?: string;
  submittedAtMs?: number;
}

/** A call to the API that ended for good: done, or refused with its status and `error` string. */
export type SettledCall = { ok: true } | { ok: false; error: string };

/**
 * What a row's settle has done on the API (`ResultsStore.recordSettled`): its feedback and its session's close, each
 * written as soon as the call ended for good, so a retried settle of a batch never sends them again.
 */
export interface SettleMark {
  rowId: string;
  feedback?: SettledCall;
  close?: SettledCall;
}
