import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../../src/observability/logging/scrubSecrets';

describe("the OTLP exporter's header values are scrubbed like keys", () => {
  it('each value of OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TRACES_HEADERS, as given and URL-decoded', () => {
    const env = { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20tok-0123456789,x-tenant=acme', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=k3y-abcdefgh' };
    const text = scrubSecrets('export failed: Bearer tok-0123456789 / Bearer%20tok-0123456789 / k3y-abcdefgh', env);
    expect(text).not.toContain('tok-0123456789');
    expect(text).not.toContain('k3y-abcdefgh');
    expect(text).toContain('[REDACTED]');
  });
});
