import { basename, join, resolve } from 'node:path';
import { compareRuns } from '../../../analysis/compare/compare';
import { intervalOf, pctOf } from '../../../render/compare/markdown';
import { formatP } from '../../../analysis/stats';
import { CompareInputError, labelAndRun } from '../../../analysis/compare/rows';
import { plural } from '../../../shared/plural';
import type { Comparison } from '../../../analysis/compare/types';
import { writeComparison } from '../../../render/compare/write';
import { createLogger, type Logger } from '../../logger';
import { runsDir } from '../run/preflight';
import { UsageError } from '../../usageError';
import { openCliStore } from '../../store/storeReports';
import { isStoreConnectFailure, storeFailureMessage } from '../../store/storeFailure';

export interface CompareFlags {
  out?: string;
  alpha?: string;
  reference?: string;
  anyDataset?: boolean;
  json?: boolean;
}

const EXIT_OK = 0;
const EXIT_REFERENCE_BEATEN = 1;
const EXIT_USAGE = 2;
const EXIT_FAILED = 3;

/** A run id as given, or the run id of a run directory (`runs/<runId>`, with or without a trailing slash). */
export function runIdOf(ref: string): string {
  return /[\\/]/u.test(ref) ? decodeURIComponent(basename(ref.replace(/[\\/]+$/u, ''))) : ref;
}

function parseAlpha(raw: string | undefined): number {
  if (raw === undefined) return 0.05;
  const alpha = Number(raw);
  if (!/^\s*(0?\.\d+)\s*$/u.test(raw) || !(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be a probability between 0 and 1 such as 0.05, got ${JSON.stringify(raw)}`);
  return alpha;
}

/** Variants significantly better than the reference (after Holm). */
export function beatingReference(c: Comparison, reference: number): number[] {
  return c.pairs.filter((p) => p.significant && (p.a === reference ? p.better === 'b' : p.b === reference && p.better === 'a'))
    .map((p) => (p.a === reference ? p.b : p.a));
}

function printSummary(c: Comparison, log: Logger): void {
  log.info(c.conclusion);
  for (const [i, v] of c.variants.entries()) {
    const s = c.stats[i];
    if (s) log.info(`  ${labelAndRun(v)}: ${pctOf(s.passRate)} [${intervalOf(s)}] of ${s.decided} graded, ${s.uncertain} need review, ${plural(s.errors, 'error')}`);
  }
  for (const p of c.pairs) {
    log.info(`  ${c.variants[p.a]?.label} vs ${c.variants[p.b]?.label}: ${p.wins} wins, ${p.ties} ties, ${p.losses} losses, ${p.test === 'cmh' ? 'CMH ' : ''}p=${formatP(p.pValue)}, Holm p=${formatP(p.adjustedP)}${p.significant ? ' (significant)' : ''}`);
  }
  if (c.unpairedRows) log.info(`  ${c.unpairedRows} of ${plural(c.rows.length, 'row')} cannot be paired (listed in the report)`);
}

/** `sitechat compare RUN RUN [RUN…]`: 0 written, 1 the reference is beaten, 2 usage, 3 store unreachable. */
export async function compareAction(refs: readonly string[], flags: CompareFlags, io: { log?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  let opened;
  try {
    const alpha = parseAlpha(flags.alpha);
    const runIds = refs.map(runIdOf);
    const reference = flags.reference === undefined ? undefined : runIds.indexOf(runIdOf(flags.reference));
    if (reference === -1) throw new UsageError(`--reference ${flags.reference} is not one of the compared runs (${runIds.join(', ')})`);
    opened = openCliStore(io.env);
    const comparison = await compareRuns(opened.store, runIds, { alpha, anyDataset: flags.anyDataset });
    const outDir = resolve(flags.out ?? join(runsDir(io.env), `compare-${runIds[0]}-vs-${runIds.length - 1}-more`));
    const paths = await writeComparison(comparison, outDir);
    if (flags.json) {
      const { rows: _rows, ...rest } = comparison;
      log.out(JSON.stringify({ ...rest, files: paths }, null, 2));
    }
    printSummary(comparison, log);
    log.info(`Comparison: ${paths.html} (also compare.md, compare.json, compare.junit.xml)`);
    if (reference !== undefined) {
      const better = beatingReference(comparison, reference);
      if (better.length) {
        log.error(`${comparison.variants[reference]?.label} is beaten significantly by ${better.map((b) => comparison.variants[b]?.label).join(', ')}`);
        return EXIT_REFERENCE_BEATEN;
      }
    }
    return EXIT_OK;
  } catch (err) {
    if (err instanceof UsageError || err instanceof CompareInputError) {
      log.error(err.message);
      return EXIT_USAGE;
    }
    if (isStoreConnectFailure(err)) {
      log.error(storeFailureMessage(err));
      return EXIT_FAILED;
    }
    throw err;
  } finally {
    await opened?.close();
  }
}
