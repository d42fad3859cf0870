import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptionCodec, MissingKeysCodec } from '../../../src/codec/encryption';
import { createTemporalClient } from '../../../src/temporal/client';
import { keyEntry } from './testKeys';

const ROOT = join(__dirname, '..', '..', '..');
const DIRS = ['src', 'activities', 'workflows', 'scripts', 'bench', 'test'];

function sources(): { file: string; text: string }[] {
  return DIRS.flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return { file: relative(ROOT, path).split(sep).join('/'), text: readFileSync(path, 'utf8') };
    }));
}

/**
 * Where a Temporal client or worker may be made without `createTemporalClient` / `startWorkers`, and why; each of
 * them must pass a data converter of src/codec itself.
 */
const OWN_DATA_CONVERTER: Record<string, string> = {
  'src/worker/worker.ts': 'startWorkers: the one place production workers are made',
  'test/workflow/harness.ts': 'workflow tests: mocked activities on the time-skipping server',
  'test/replay/fixtures.ts': 'replay workers: recorded histories, encrypted ones among them',
};

/** `TestWorkflowEnvironment.createLocal` when no Temporal CLI can be had: only the server's address is used. */
const ADDRESS_ONLY = 'src/temporal/localServer.ts';

describe('every Temporal client and worker has the payload codec (none sends a payload in clear when keys are set)', () => {
  const files = sources();
  const temporalClientImport = /import\s*\{[^}]*\bClient\b[^}]*\}\s*from\s*'@temporalio\/client'/u;

  it('no file but src/temporal/client.ts constructs a Client of @temporalio/client (createTemporalClient does)', () => {
    const offenders = files.filter((f) => f.file !== 'src/temporal/client.ts' && temporalClientImport.test(f.text) && /new Client\(/u.test(f.text)).map((f) => f.file);
    expect(offenders, 'make the client with createTemporalClient / clientFor (src/temporal/client.ts)').toEqual([]);
    expect(files.filter((f) => /new (Workflow|Schedule|AsyncCompletion)Client\(/u.test(f.text)).map((f) => f.file)).toEqual([]);
  });

  it('workers and test environments are made only where a data converter of src/codec is passed', () => {
    const makers = files.filter((f) => /Worker\.create\(|Worker\.runReplayHistor\w*\(|TestWorkflowEnvironment\.create\w*\(/u.test(f.text)).map((f) => f.file);
    const unexpected = makers.filter((f) => !(f in OWN_DATA_CONVERTER) && f !== ADDRESS_ONLY && f !== 'test/unit/codec/clientsUseCodec.test.ts');
    expect(unexpected, 'make workers with startWorkers (src/worker/worker.ts)').toEqual([]);
    for (const file of Object.keys(OWN_DATA_CONVERTER)) {
      const text = files.find((f) => f.file === file)?.text ?? '';
      expect(/\b(payloadDataConverter|dataConverterFor)\(/u.test(text) && /\bdataConverter\b\s*[:,]/u.test(text), `${file} passes a data converter of src/codec`).toBe(true);
    }
  });

  it("createTemporalClient's client carries the codec of SITECHAT_PAYLOAD_KEYS", () => {
    const saved = process.env.SITECHAT_PAYLOAD_KEYS;
    try {
      delete process.env.SITECHAT_PAYLOAD_KEYS;
      expect(createTemporalClient(undefined).options.loadedDataConverter.payloadCodecs[0]).toBeInstanceOf(MissingKeysCodec);
      process.env.SITECHAT_PAYLOAD_KEYS = keyEntry('k1');
      expect(createTemporalClient(undefined).options.loadedDataConverter.payloadCodecs[0]).toBeInstanceOf(EncryptionCodec);
    } finally {
      if (saved === undefined) delete process.env.SITECHAT_PAYLOAD_KEYS;
      else process.env.SITECHAT_PAYLOAD_KEYS = saved;
    }
  });
});
