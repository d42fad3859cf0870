import { describe, expect, it } from 'vitest';
import { MIN_SCRUBBED_LENGTH, REDACTED, Secret } from '../../../src/api/secret';

describe('Secret.scrub', () => {
  it('replaces a real-length secret, raw and URL-encoded', () => {
    const key = 'sk-live-12/34+56';
    expect(new Secret(key).scrub(`key ${key} and ${encodeURIComponent(key)}`)).toBe(`key ${REDACTED} and ${REDACTED}`);
  });

  it(`leaves text alone for secrets under ${MIN_SCRUBBED_LENGTH} characters, so words are not mangled`, () => {
    expect(new Secret('n').scrub('nonexistent site')).toBe('nonexistent site');
    expect(new Secret('a'.repeat(MIN_SCRUBBED_LENGTH - 1)).scrub('aaaaaaa!')).toBe('aaaaaaa!');
    expect(new Secret('a'.repeat(MIN_SCRUBBED_LENGTH)).scrub('aaaaaaaa!')).toBe(`${REDACTED}!`);
    expect(String(new Secret('n'))).toBe(REDACTED);
  });
});
