import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { codecForTemporalCli } from '../../../src/cli/commands/temporal/codec';
import { EncryptionCodec } from '../../../src/codec/encryption';
import { parsePayloadKeys, type PayloadKeys } from '../../../src/codec/keys';
import { payloadsFromJson, payloadsToJson } from '../../../src/codec/payloadJson';
import { ChildKind, childEnv } from '../../../src/temporal/childEnv';
import { keyEntry } from '../codec/testKeys';
import { postJson } from '../../helpers/postJson';


describe('`sitechat temporal` with SITECHAT_PAYLOAD_KEYS: a codec server of its own for the Temporal CLI', () => {
  const keys = keyEntry('k1');

  it('hands the CLI an endpoint and a one-time token by environment (not by argument), and decodes with them', async () => {
    const codec = await codecForTemporalCli(['workflow', 'show', '--workflow-id', 'w'], { SITECHAT_PAYLOAD_KEYS: keys });
    try {
      expect(Object.keys(codec?.env ?? {}).sort()).toEqual(['TEMPORAL_CODEC_AUTH', 'TEMPORAL_CODEC_ENDPOINT']);
      const endpoint = codec?.env.TEMPORAL_CODEC_ENDPOINT as string;
      expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
      const [sealed] = await new EncryptionCodec(parsePayloadKeys(keys) as PayloadKeys).encode([defaultPayloadConverter.toPayload('the question')]);
      const reply = await postJson(`${endpoint}/decode`, payloadsToJson([sealed as Payload]), { Authorization: codec?.env.TEMPORAL_CODEC_AUTH as string });
      expect(reply.status).toBe(200);
      expect(defaultPayloadConverter.fromPayload(payloadsFromJson(reply.body)[0] as Payload)).toBe('the question');
      expect((await postJson(`${endpoint}/decode`, payloadsToJson([sealed as Payload]))).status).toBe(401);
      // Another call gets another token.
      const other = await codecForTemporalCli([], { SITECHAT_PAYLOAD_KEYS: keys });
      expect(other?.env.TEMPORAL_CODEC_AUTH).not.toBe(codec?.env.TEMPORAL_CODEC_AUTH);
      await other?.close();
    } finally {
      await codec?.close();
    }
  });

  it('does nothing without keys, or when the user names a codec server of their own', async () => {
    expect(await codecForTemporalCli(['workflow', 'show'], {})).toBeUndefined();
    expect(await codecForTemporalCli(['workflow', 'show', '--codec-endpoint', 'http://x'], { SITECHAT_PAYLOAD_KEYS: keys })).toBeUndefined();
    expect(await codecForTemporalCli(['workflow', 'show', '--codec-endpoint=http://x'], { SITECHAT_PAYLOAD_KEYS: keys })).toBeUndefined();
    expect(await codecForTemporalCli(['workflow', 'show'], { SITECHAT_PAYLOAD_KEYS: keys, TEMPORAL_CODEC_ENDPOINT: 'http://x' })).toBeUndefined();
  });

  it('the payload keys themselves never reach a child process', () => {
    for (const kind of Object.values(ChildKind)) {
      expect(childEnv(kind, { PATH: '/bin', SITECHAT_PAYLOAD_KEYS: keys, SITECHAT_CODEC_TOKEN: 'abcdefghijklmnopqrstuvwxyz' })).toEqual({ PATH: '/bin' });
    }
  });
});
