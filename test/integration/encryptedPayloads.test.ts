import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Connection, type Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataConverterFor } from '../../src/codec/dataConverter';
import { PayloadCodecError } from '../../src/codec/errors';
import { parsePayloadKeys } from '../../src/codec/keys';
import { createTemporalClient } from '../../src/temporal/client';
import type { RunResult } from '../../src/domain/run';
import { progressQuery } from '../../workflows/signals';
import { ExitCode, followRun } from '../../src/cli/follow/follow';
import { payloadGroupsIn } from '../../scripts/histories/collect';
import { historyText } from '../helpers/history';
import { DEMO_QUESTIONS, readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';

const KEYS = `int-old:${randomBytes(32).toString('base64')},int-1:${randomBytes(32).toString('base64')}`;
/** The demo questions, each with a person's email and a reference answer: none may reach Temporal in clear. */
const ROWS = DEMO_QUESTIONS.map((line, i) => {
  const [question, reference] = line.split(',') as [string, string];
  return { id: `e${i + 1}`, email: `person${i + 1}.private@example.com`, question, reference };
});

async function codecError(work: Promise<unknown>): Promise<PayloadCodecError> {
  const err = await work.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(PayloadCodecError);
  return err as PayloadCodecError;
}

describe('a run with SITECHAT_PAYLOAD_KEYS (real Temporal + simulator over HTTP)', () => {
  let stack: Stack;
  let connection: Connection;
  /** A client as a process without keys would have it: the run's histories are read through it. */
  let keyless: Client;
  let result: RunResult;
  let workflowId: string;

  beforeAll(async () => {
    stack = await startStack(__filename, {}, {}, dataConverterFor(parsePayloadKeys(KEYS)));
    await stack.startWorkers();
    connection = await Connection.connect({ address: inject('temporalAddress') });
    keyless = createTemporalClient(connection, { namespace: stack.namespace, dataConverter: dataConverterFor(undefined) });
    const dataset = writeDataset(stack, 'id,email,question,must_include', ROWS.map((r) => `${r.id},${r.email},${r.question},${r.reference}`));
    const handle = await startRun(stack, dataset);
    workflowId = handle.workflowId;
    result = (await handle.result()) as RunResult;
  });
  afterAll(async () => {
    await connection?.close();
    await stack?.close();
  });

  it('grades and reports as without keys', () => {
    const s = result.summary;
    expect(s.total).toBe(ROWS.length);
    expect(s.passed).toBe(ROWS.length);
    const rows = readResults(result.reportDir);
    expect(rows.map((r) => r.id).sort()).toEqual(ROWS.map((r) => r.id).sort());
    for (const r of rows) {
      expect(r.outcome).toBe('passed');
      expect(r.answer?.length).toBeGreaterThan(20);
      // The results store is this team's own: the rows are there in clear, as the activities read them.
      expect(r.question).toBe(ROWS.find((row) => row.id === r.id)?.question);
    }
    for (const f of ['summary.json', 'results.jsonl', 'report.md', 'junit.xml', 'report.html']) expect(existsSync(join(result.reportDir, f))).toBe(true);
    expect(readFileSync(join(result.reportDir, 'report.md'), 'utf8')).toContain('5 total: 5 passed');
  });

  it("keeps every question, email, reference and answer out of Temporal's histories", async () => {
    const answers = readResults(result.reportDir).map((r) => r.answer ?? '');
    const texts = [await historyText(keyless, workflowId), await historyText(keyless, `${workflowId}/chunk-0`)];
    // Every payload, the client's (the run's input) and the workers', is ciphertext (patch markers aside).
    for (const id of [workflowId, `${workflowId}/chunk-0`]) {
      const payloads = payloadGroupsIn(await keyless.workflow.getHandle(id).fetchHistory()).flat();
      expect(payloads.length).toBeGreaterThan(5);
      for (const p of payloads) expect(Buffer.from(p.metadata?.encoding ?? []).toString(), `${id}: a payload in clear`).toBe('binary/encrypted');
    }
    for (const text of texts) {
      // Payloads are decoded from base64 by historyText: what is there is the ciphertext.
      expect(text).toContain('binary/encrypted');
      for (const r of ROWS) {
        for (const secret of [r.question, r.email, r.reference]) expect(text.includes(secret), `"${secret}" in a history`).toBe(false);
      }
      for (const answer of answers) expect(text.includes(answer.slice(0, 40)), 'an answer in a history').toBe(false);
    }
  });

  it('refuses, by name, to read the run without the keys or with other ones', async () => {
    const missing = await codecError(keyless.workflow.getHandle(workflowId).result());
    expect(missing.message).toMatch(/^encrypted payloads: set SITECHAT_PAYLOAD_KEYS/u);
    await codecError(keyless.workflow.getHandle(workflowId).query(progressQuery));

    const other = createTemporalClient(connection, { namespace: stack.namespace, dataConverter: dataConverterFor(parsePayloadKeys(`int-2:${randomBytes(32).toString('base64')}`)) });
    // The wording is pinned in test/unit/codec/encryption.test.ts; here, that it reaches the client, naming both ids.
    const unheld = (await codecError(other.workflow.getHandle(workflowId).result())).message;
    expect(unheld).toContain('key id "int-1"');
    expect(unheld).toContain('(it holds "int-2")');
    const wrong = createTemporalClient(connection, { namespace: stack.namespace, dataConverter: dataConverterFor(parsePayloadKeys(`int-1:${randomBytes(32).toString('base64')}`)) });
    expect((await codecError(wrong.workflow.getHandle(workflowId).result())).message).toMatch(/key id "int-1" does not decrypt/u);
  });

  it("following a run without the keys stops at the first progress it cannot read, saying what to set, while the run goes on", async () => {
    // Slow answers: the run is still going when the first progress query comes back encrypted.
    stack.sim.setFaults({ 'chat.async': { processingDelayMs: 1500 } });
    const dataset = writeDataset(stack, 'id,email,question,must_include', ROWS.map((r) => `${r.id},${r.email},${r.question},${r.reference}`));
    const handle = await startRun(stack, dataset);
    const errors: string[] = [];
    const log = { info: () => undefined, warn: () => undefined, debug: () => undefined, out: () => undefined, error: (line: string) => void errors.push(line) };
    expect(await followRun(keyless, handle.workflowId, { log, json: true, intervalMs: 100 })).toBe(ExitCode.runFailed);
    expect(errors.join('\n')).toMatch(/^encrypted payloads: set SITECHAT_PAYLOAD_KEYS/u);
    expect(errors.join('\n')).toContain('the run goes on without this process');
    expect(errors.join('\n')).toContain(`(npx sitechat watch ${handle.workflowId})`);
    stack.sim.setFaults({});
    expect(((await handle.result()) as RunResult).summary.total).toBe(ROWS.length);
  });

  it('a worker with other keys fails the tasks it cannot decode, naming the key id, and the run ends once one with the key takes over', async () => {
    await stack.workers?.shutdown();
    await stack.startWorkers({}, dataConverterFor(parsePayloadKeys(`int-2:${randomBytes(32).toString('base64')}`)));
    const dataset = writeDataset(stack, 'id,email,question,must_include', ROWS.slice(0, 1).map((r) => `${r.id},${r.email},${r.question},${r.reference}`));
    const handle = await startRun(stack, dataset);
    // The workflow task fails, again and again, with the codec's message in clear.
    let failure = '';
    for (let i = 0; i < 200 && !failure; i++) {
      const history = await handle.fetchHistory();
      failure = history.events?.find((e) => e.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes?.failure?.message ?? '';
      if (!failure) await new Promise((r) => setTimeout(r, 100));
    }
    expect(failure).toMatch(/key id "int-1", which SITECHAT_PAYLOAD_KEYS does not hold/u);
    await stack.workers?.shutdown();
    await stack.startWorkers();
    const done = (await handle.result()) as RunResult;
    expect(done.summary.passed).toBe(1);
  });
});
