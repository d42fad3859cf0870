import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodedText, payloadGroupsIn } from '../../scripts/histories/collect';
import { readHistoryIndex } from '../../scripts/histories/fixtureIndex';
import { historyFromJson } from '../../scripts/histories/historyJson';
import { ENCRYPTED_CANARIES, RECORDING_PAYLOAD_KEYS } from '../../scripts/histories/scenarios';
import { dataConverterFor } from '../../src/codec/dataConverter';
import { EncryptionCodec } from '../../src/codec/encryption';
import { parsePayloadKeys, type PayloadKeys } from '../../src/codec/keys';
import { installQuietRuntime } from '../../src/temporal/sdkRuntime';
import { bundleWorkflows } from '../../src/worker/worker';
import { FIXTURES_DIR, replayFixtures } from './fixtures';

const encrypted = readHistoryIndex(FIXTURES_DIR).fixtures.filter((f) => f.scenario === 'encrypted');
const keys = parsePayloadKeys(RECORDING_PAYLOAD_KEYS) as PayloadKeys;
const history = (file: string): ReturnType<typeof historyFromJson> => historyFromJson(JSON.parse(readFileSync(join(FIXTURES_DIR, file), 'utf8')));

/**
 * A cluster with SITECHAT_PAYLOAD_KEYS keeps ciphertext in its histories: the recorded ones must replay with the
 * codec (a worker decodes before the workflow sees anything), and without the right key must fail by name.
 */
describe('encrypted histories (recorded with the fixed test key)', () => {
  let bundle: WorkflowBundleWithSourceMap;

  beforeAll(async () => {
    installQuietRuntime();
    bundle = await bundleWorkflows();
  });

  it('are recorded: a run and its chunk', () => {
    expect(encrypted.map((f) => f.workflowType).sort()).toEqual(['evaluationRun', 'runChunk']);
  });

  it('hold ciphertext only: no question, email or reference of the dataset in clear, every payload encrypted', async () => {
    for (const f of encrypted) {
      const h = history(f.file);
      const text = decodedText(h);
      for (const canary of Object.values(ENCRYPTED_CANARIES)) expect(text.includes(canary), `${f.file}: "${canary}" in clear`).toBe(false);
      // Patch markers aside: the SDK's core writes them past the codec (a patch id each, nobody's data).
      const payloads = payloadGroupsIn(h).flat();
      expect(payloads.length).toBeGreaterThan(5);
      for (const p of payloads) expect(Buffer.from(p.metadata?.encoding ?? []).toString(), `${f.file}: a payload in clear`).toBe('binary/encrypted');
    }
    // The search reads clear payloads (a clear recording of the same question has it) …
    const clearFixture = readHistoryIndex(FIXTURES_DIR).fixtures.find((f) => f.scenario === 'evaluation-api-error' && f.workflowType === 'runChunk');
    expect(decodedText(history(clearFixture?.file as string))).toContain(ENCRYPTED_CANARIES.question);
    // … and the same payloads through the codec do hold them.
    const chunk = encrypted.find((f) => f.workflowType === 'runChunk');
    const clear = await new EncryptionCodec(keys).decode(payloadGroupsIn(history(chunk?.file as string)).flat());
    const clearText = clear.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n');
    for (const canary of Object.values(ENCRYPTED_CANARIES)) expect(clearText).toContain(canary);
  });

  it('replay with the codec of the key they were written with', async () => {
    const outcomes = await replayFixtures(bundle, encrypted);
    expect(outcomes.map((o) => o.error?.message)).toEqual(encrypted.map(() => undefined));
  });

  it('fail to replay, naming the key id, with other keys; and say what to set with none', async () => {
    // (Messages come back in the core's debug form, quotes escaped.)
    const other = await replayFixtures(bundle, encrypted, FIXTURES_DIR, undefined, dataConverterFor(parsePayloadKeys(`other:${Buffer.alloc(32, 7).toString('base64')}`)));
    for (const o of other) expect(o.error?.message, o.fixture.file).toMatch(/key id \\?"rec-test\\?", which SITECHAT_PAYLOAD_KEYS does not hold/u);
    const wrong = await replayFixtures(bundle, encrypted, FIXTURES_DIR, undefined, dataConverterFor(parsePayloadKeys(`rec-test:${Buffer.alloc(32, 7).toString('base64')}`)));
    for (const o of wrong) expect(o.error?.message, o.fixture.file).toMatch(/key id \\?"rec-test\\?" does not decrypt/u);
    const none = await replayFixtures(bundle, encrypted, FIXTURES_DIR, undefined, dataConverterFor(undefined));
    for (const o of none) expect(o.error?.message, o.fixture.file).toMatch(/encrypted payloads: set SITECHAT_PAYLOAD_KEYS/u);
  });
});
