import { tracingSettingsFromEnv } from './settings';
import { activeTracing } from './state';
import type { Tracing } from './state';

/**
 * Starts tracing when the environment configures it (OTEL_*, see `tracingSettingsFromEnv`) and returns it, for its
 * owner to shut down (which exports what is buffered); undefined when it is off or was started before. The settings are checked first (a bad one throws a `TracingConfigError`: exit 2); the SDK is loaded
 * only when tracing is on.
 */
export async function startTracingFromEnv(serviceName: string, warn: (message: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  const settings = tracingSettingsFromEnv(env);
  if (settings === undefined || activeTracing() !== undefined) return undefined;
  const { startTracing } = await import('./tracing.js');
  return startTracing(settings, { serviceName, warn });
}
