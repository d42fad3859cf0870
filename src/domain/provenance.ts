/**
 * Where a run's numbers come from: which API answered (its host only), whether that was the built-in simulator, which
 * judge graded, with which graders, and which build of the runner. Computed by the activities and the CLI from their
 * settings, never from a secret: a URL is reduced to its host, so a key or password in it never reaches a report.
 */
import type { AssertionSpec, GradingThresholds } from './grade';
import { BUILT_IN_SIMULATOR_API, type ApiIdentity } from '../api/identity';
import { hostOf } from '../api/shownUrl';
export { hostOf };

/** Where the answers came from. */
export const AnswerSource = {
  /** The simulator built into the runner (no SITECHAT_BASE_URL): not a real site. */
  simulator: 'simulator',
  /** A Site Chat API at `host`. */
  api: 'api',
  /** Answers read from a file (`sitechat grade` of a CSV or JSONL file): nobody was asked. */
  file: 'file',
} as const;
export type AnswerSource = (typeof AnswerSource)[keyof typeof AnswerSource];

export interface Provenance {
  answers: {
    from: AnswerSource;
    /** Host (and port) of the API asked; absent for answers from a file. */
    host?: string;
    /** `sitechat grade`: the file or run directory graded. */
    input?: string;
    /** `sitechat grade` of a run directory: the run whose answers were graded again. */
    regradeOf?: string;
    /** `sitechat grade` of a run whose answers came from the built-in simulator. */
    simulator?: boolean;
  };
  /** The judge configured for judge assertions and uncertain rows; absent when none was. */
  judge?: {
    model: string;
    host: string;
    /** The built-in simulator's judge route (a deterministic test double, not a model). */
    simulator: boolean;
  };
  /** The graders every row was graded by (rows may add their own assertions), and their pass marks. */
  grading: {
    assertions: { type: string; threshold?: number }[];
    thresholds?: GradingThresholds;
  };
  runner: { version: string; commit: string };
}

/** What a worker (or a CLI that grades) knows of itself: everything but the graders, which come with each run. */
export type WorkerProvenance = Omit<Provenance, 'grading'>;

/**
 * Where a run's answers come from: the API the run asks (its input, `RunOptions.api`), whichever worker writes it
 * down. The worker's own description when it asks that API (it knows whether it is the built-in simulator), else
 * the run's API by its host.
 */
export function runAnswers(runApi: ApiIdentity, worker: { api: ApiIdentity; answers: Provenance['answers'] }): Provenance['answers'] {
  if (runApi === worker.api) return worker.answers;
  if (runApi === BUILT_IN_SIMULATOR_API) return { from: AnswerSource.simulator };
  return { from: AnswerSource.api, host: hostOf(runApi) };
}

/** Each assertion's type and pass mark: the settings, not their texts (a rubric can be long). */
export function gradingOf(assertions: readonly AssertionSpec[] | undefined, thresholds?: GradingThresholds): Provenance['grading'] {
  return {
    assertions: (assertions ?? []).map((spec) => ({
      type: spec.type,
      ...('threshold' in spec && typeof spec.threshold === 'number' && { threshold: spec.threshold }),
    })),
    ...(thresholds && Object.keys(thresholds).length > 0 && { thresholds }),
  };
}

/** The banner a report shows first when its answers are not from a real site. */
export const SIMULATOR_BANNER = 'answers from the built-in simulator, not a real site';

/** One line of where the answers came from, for every renderer. */
export function answersLine(p: Provenance): string {
  const { answers } = p;
  if (answers.from === AnswerSource.simulator) return `${SIMULATOR_BANNER} (${answers.host ?? 'local'})`;
  if (answers.from === AnswerSource.api) return `answers from the Site Chat API at ${answers.host ?? 'unknown'}`;
  const origin = answers.simulator ? ` ${SIMULATOR_BANNER}` : answers.host ? ` from ${answers.host}` : '';
  const again = answers.regradeOf ? ` (answers of run ${answers.regradeOf}${origin})` : '';
  return `answers read from ${answers.input ?? 'a file'}${again}; nothing was asked`;
}

function graderLine(g: Provenance['grading']): string {
  const listed = g.assertions.map((a) => (a.threshold === undefined ? a.type : `${a.type} ≥ ${a.threshold}`));
  const marks = Object.entries(g.thresholds ?? {}).map(([k, v]) => `${k} ${String(v)}`);
  const base = listed.length > 0 ? `${listed.join(', ')} on every row, and each row's own` : 'each row\'s own (from its dataset columns)';
  return marks.length > 0 ? `${base}; pass marks: ${marks.join(', ')}` : base;
}

/** Label and text of each provenance fact, in the order reports show them. */
export function provenanceItems(p: Provenance): { key: string; label: string; text: string }[] {
  const judge = p.judge
    ? `${p.judge.model} at ${p.judge.host}${p.judge.simulator ? ' (the built-in simulator\'s judge route: a test double, not a model)' : ''}`
    : 'none configured';
  return [
    { key: 'answers', label: 'Answers', text: answersLine(p) },
    { key: 'judge', label: 'Judge', text: judge },
    { key: 'graders', label: 'Graders', text: graderLine(p.grading) },
    { key: 'runner', label: 'Runner', text: `sitechat-runner ${p.runner.version}, commit ${p.runner.commit}` },
  ];
}

/** True when the answers came from the built-in simulator (also for a re-grade of such a run). */
export function fromSimulator(p: Provenance | undefined): boolean {
  return p?.answers.from === AnswerSource.simulator || p?.answers.simulator === true;
}
