/**
 * Records workflow histories as replay fixtures (test/fixtures/histories/): runs each scenario of
 * scripts/histories/scenarios.ts on a Temporal dev server with the simulator and in-process workers, fetches every
 * history it made, and writes them with an index (file, workflow type, commit, date). The replay test replays them
 * all against the current workflow code. See CONTRIBUTING.md for when to record.
 *
 *   npm run record-histories                          every scenario, with this checkout's code
 *   npm run record-histories -- --only cleanup,backfill
 *   npm run record-histories -- --at 82a7f2c^ --only evaluation --note "before patched('bounded-open-chunks')"
 *   npm run record-histories -- --list
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/shared/projectRoot';
import { recordAtCommit } from './histories/atCommit';
import { writeRecordings } from './histories/fixtureFiles';
import { git, recordedCommit } from './histories/git';
import { recordScenarios } from './histories/recorder';
import { SCENARIOS, type Scenario } from './histories/scenarios';

const USAGE = `usage: node dist/scripts/record-histories.js [--only NAME,…] [--at REV] [--note TEXT] [--out DIR] [--list]
  --only NAME,…  record these scenarios (default: all; --list names them)
  --at REV       record with the code of commit REV (checked out and built in a temporary worktree)
  --note TEXT    why this recording exists, kept in the index
  --out DIR      fixtures folder (default: test/fixtures/histories)
  --list         print the scenarios and exit`;

class UsageError extends Error {
  override name = 'UsageError';
}

interface Flags {
  scenarios: Scenario[];
  out: string;
  at?: string;
  note?: string;
  list: boolean;
}

function parseFlags(argv: string[], root: string): Flags {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { only: { type: 'string' }, at: { type: 'string' }, note: { type: 'string' }, out: { type: 'string' }, list: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const names = values.only === undefined ? SCENARIOS.map((s) => s.name) : values.only.split(',').map((s) => s.trim());
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(`--only: unknown scenario ${unknown.map((n) => `"${n}"`).join(', ') || '""'} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`);
  }
  if (values.note !== undefined && values.note.trim() === '') throw new UsageError('--note: must not be empty');
  if (values.at !== undefined) {
    try {
      git(root, 'rev-parse', '--verify', '--quiet', `${values.at}^{commit}`);
    } catch {
      throw new UsageError(`--at: "${values.at}" is not a commit of this repository`);
    }
  }
  return {
    scenarios: SCENARIOS.filter((s) => names.includes(s.name)),
    out: resolve(values.out ?? join(root, 'test', 'fixtures', 'histories')),
    at: values.at,
    note: values.note,
    list: values.list ?? false,
  };
}

async function main(): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`record-histories: ${line}\n`);
  const root = projectRoot();
  let flags: Flags;
  try {
    flags = parseFlags(process.argv.slice(2), root);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`record-histories: ${err.message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (flags.list) {
    for (const s of SCENARIOS) process.stdout.write(`${s.name}\n  ${s.about}\n`);
    return;
  }
  if (flags.at !== undefined) {
    const forwarded = ['--only', flags.scenarios.map((s) => s.name).join(','), ...(flags.note ? ['--note', flags.note] : [])];
    process.exitCode = recordAtCommit(root, flags.at, flags.out, forwarded, log);
    return;
  }
  const at = recordedCommit(root);
  if (at.commit.endsWith('-dirty')) log('workflows/, activities/ or src/ has uncommitted changes: the recording is labelled -dirty');
  log(`recording ${flags.scenarios.map((s) => s.name).join(', ')} with the code of ${at.dir} (version ${at.version})`);
  const recorded = await recordScenarios(flags.scenarios, log);
  const written = writeRecordings(flags.out, at, recorded, flags.note);
  for (const f of written) process.stdout.write(`${f.file}  ${f.workflowType}  ${f.events} events${f.patches.length ? `  patches: ${f.patches.join(', ')}` : ''}\n`);
  log(`${written.length} histories written to ${flags.out} (index.json updated)`);
}

main().catch((err: unknown) => {
  process.stderr.write(`record-histories: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
