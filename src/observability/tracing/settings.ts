import { ConfigError } from '../../shared/configError';

/** An OTEL_* or SITECHAT_TRACE_* value tracing cannot start with: a usage error (exit 2), like every worker setting. */
export class TracingConfigError extends ConfigError {
  override name = 'TracingConfigError';
}

export type TraceExporterKind = 'otlp' | 'console';
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TracingSettings {
  exporters: readonly TraceExporterKind[];
  protocol: OtlpProtocol;
  /** Where OTLP spans go, for the start line only: the exporter reads its URL and headers from the environment itself. */
  endpoint: string;
  /** SITECHAT_TRACE_CONTENT: question and answer text on API spans, each cut to `contentMaxChars`. */
  content: boolean;
  contentMaxChars: number;
}

/** The most characters of a question or answer a span holds when SITECHAT_TRACE_CONTENT asks for them. */
export const TRACE_CONTENT_MAX_CHARS = 1000;

const DEFAULT_TRACES_ENDPOINT = 'http://localhost:4318/v1/traces';

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * Tracing from the OpenTelemetry SDK environment variables, or undefined (off). Off unless configured: the spec's
 * default exporter is `otlp`, but a runner nobody asked to trace should not post spans to localhost:4318, so tracing
 * starts only when OTEL_TRACES_EXPORTER names an exporter or an OTLP endpoint is set. OTEL_SDK_DISABLED=true turns
 * it off whatever else is set. Values are checked here, before anything starts; header values are never echoed (they
 * may hold a collector's token).
 */
export function tracingSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): TracingSettings | undefined {
  const content = traceContentFromEnv(env);
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = exportersFromEnv(env);
  if (exporters === undefined || exporters.length === 0) return undefined;
  const protocol = protocolFromEnv(env);
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) checkHeaders(env, name);
  return { exporters, protocol, endpoint: endpointFromEnv(env), content, contentMaxChars: TRACE_CONTENT_MAX_CHARS };
}

/** undefined: not configured (off); [] : `none`. */
function exportersFromEnv(env: NodeJS.ProcessEnv): TraceExporterKind[] | undefined {
  const raw = env.OTEL_TRACES_EXPORTER;
  if (!isSet(raw)) return isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT) || isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ? ['otlp'] : undefined;
  const names = [...new Set(raw.split(',').map((n) => n.trim().toLowerCase()).filter((n) => n !== ''))];
  if (names.includes('none')) return [];
  const unknown = names.filter((n) => n !== 'otlp' && n !== 'console');
  if (unknown.length > 0) throw new TracingConfigError(`OTEL_TRACES_EXPORTER=${JSON.stringify(raw)}: ${unknown.join(', ')} not supported; use otlp, console or none`);
  return names as TraceExporterKind[];
}

function protocolFromEnv(env: NodeJS.ProcessEnv): OtlpProtocol {
  const name = isSet(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = env[name]?.trim();
  if (!raw) return 'http/protobuf';
  if (raw === 'http/protobuf' || raw === 'http/json') return raw;
  const why = raw === 'grpc' ? 'OTLP over gRPC is not supported' : 'unknown protocol';
  throw new TracingConfigError(`${name}=${JSON.stringify(raw)}: ${why}; use http/protobuf or http/json (a collector's OTLP/HTTP port, usually 4318)`);
}

/** As the exporter resolves it (spec): the traces endpoint as given, else the base endpoint + `v1/traces`. */
function endpointFromEnv(env: NodeJS.ProcessEnv): string {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const [name, url] = specific ? ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', specific] : base ? ['OTEL_EXPORTER_OTLP_ENDPOINT', `${base.replace(/\/$/, '')}/v1/traces`] : ['', DEFAULT_TRACES_ENDPOINT];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TracingConfigError(`${name}: not a URL; give the collector's OTLP/HTTP address, e.g. http://localhost:4318`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TracingConfigError(`${name}: ${parsed.protocol} is not http: or https:`);
  // Only origin and path: a URL may carry credentials or a token in its query.
  return `${parsed.origin}${parsed.pathname}`;
}

/** `key=value,key2=value2` (W3C baggage form, values URL-encoded). The value is not repeated in the error. */
function checkHeaders(env: NodeJS.ProcessEnv, name: string): void {
  const raw = env[name];
  if (!isSet(raw)) return;
  raw.split(',').forEach((entry, i) => {
    const eq = entry.indexOf('=');
    if (eq <= 0 || entry.slice(0, eq).trim() === '') {
      throw new TracingConfigError(`${name}: entry ${i + 1} is not key=value (the value is not shown: headers may hold a token)`);
    }
  });
}

function traceContentFromEnv(env: NodeJS.ProcessEnv): boolean {
  const raw = env.SITECHAT_TRACE_CONTENT?.trim().toLowerCase();
  if (!raw || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new TracingConfigError(`SITECHAT_TRACE_CONTENT=${JSON.stringify(env.SITECHAT_TRACE_CONTENT)}: must be 1 or 0`);
}

/** `OTLP http/protobuf to http://collector:4318/v1/traces`, for a start line. */
export function tracingDestination(settings: TracingSettings): string {
  return settings.exporters.map((kind) => (kind === 'console' ? 'stderr (console exporter)' : `OTLP ${settings.protocol} at ${settings.endpoint}`)).join(' and ');
}
