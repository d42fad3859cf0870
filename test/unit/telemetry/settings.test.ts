import { describe, expect, it } from 'vitest';
import { TracingConfigError, tracingDestination, tracingSettingsFromEnv } from '../../../src/observability/tracing/settings';

describe('tracing settings from OTEL_* (off unless configured)', () => {
  it('is off with no OTEL_* variable, with OTEL_TRACES_EXPORTER=none, and with OTEL_SDK_DISABLED=true whatever else is set', () => {
    expect(tracingSettingsFromEnv({})).toBeUndefined();
    expect(tracingSettingsFromEnv({ OTEL_SERVICE_NAME: 'x', OTEL_RESOURCE_ATTRIBUTES: 'a=b' })).toBeUndefined();
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBeUndefined();
    expect(tracingSettingsFromEnv({ OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
    // The spec: only "true" disables.
    expect(tracingSettingsFromEnv({ OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' })).toBeDefined();
  });

  it('an OTLP endpoint alone turns tracing on, http/protobuf by default, at the endpoint + v1/traces', () => {
    const s = tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    expect(s).toMatchObject({ exporters: ['otlp'], protocol: 'http/protobuf', endpoint: 'http://collector:4318/v1/traces', content: false });
    expect(tracingDestination(s as NonNullable<typeof s>)).toBe('OTLP http/protobuf at http://collector:4318/v1/traces');
  });

  it('the traces endpoint is used as given and wins; the traces protocol wins over the general one', () => {
    const s = tracingSettingsFromEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b.example/otlp/traces?token=t0k3n',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    // Query strings (a token) are not repeated in the start line.
    expect(s).toMatchObject({ protocol: 'http/json', endpoint: 'https://b.example/otlp/traces' });
  });

  it('OTEL_TRACES_EXPORTER=otlp,console lists both; with no endpoint the spec default localhost:4318', () => {
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'otlp, console' })).toMatchObject({ exporters: ['otlp', 'console'], endpoint: 'http://localhost:4318/v1/traces' });
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER="zipkin": zipkin not supported'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL="grpc": OTLP over gRPC is not supported'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http' }, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="http": unknown protocol'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT: collector: is not http: or https:'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: not a URL'],
    [{ SITECHAT_TRACE_CONTENT: 'yes' }, 'SITECHAT_TRACE_CONTENT="yes": must be 1 or 0'],
  ])('%o is refused naming the variable', (env, message) => {
    expect(() => tracingSettingsFromEnv(env)).toThrow(TracingConfigError);
    expect(() => tracingSettingsFromEnv(env)).toThrow(message);
  });

  it('a malformed header list is refused without repeating its value (it may hold a token)', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer s3cr3t,broken' };
    expect(() => tracingSettingsFromEnv(env)).toThrow('OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value');
    try {
      tracingSettingsFromEnv(env);
    } catch (err) {
      expect(String(err)).not.toContain('s3cr3t');
    }
  });

  it('SITECHAT_TRACE_CONTENT=1 asks for question and answer text, capped', () => {
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'console', SITECHAT_TRACE_CONTENT: '1' })).toMatchObject({ content: true, contentMaxChars: 1000 });
  });
});
