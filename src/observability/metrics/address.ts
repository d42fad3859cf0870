import { isIP } from 'node:net';
import { ConfigError } from '../../shared/configError';

/** A SITECHAT_METRICS_ADDR the worker cannot listen on; a usage error (exit 2) like every worker setting. */
export class MetricsAddressError extends ConfigError {
  override name = 'MetricsAddressError';
}

export interface ListenAddress {
  host: string;
  /** 0: an ephemeral port, printed once listening. */
  port: number;
}

/**
 * SITECHAT_METRICS_ADDR: `host:port` (`127.0.0.1:9464`, `0.0.0.0:9464`, `[::1]:9464`, `localhost:0`) or a bare port
 * (`9464`, on 127.0.0.1). Undefined when unset or empty: metrics are off.
 */
export function metricsAddressFromEnv(env: NodeJS.ProcessEnv = process.env, name = 'SITECHAT_METRICS_ADDR'): ListenAddress | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const fail = (why: string): never => {
    throw new MetricsAddressError(`${name}=${JSON.stringify(raw)}: ${why}; give host:port, e.g. 127.0.0.1:9464 (port 0 picks a free one)`);
  };
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(raw);
  const plain = /^([^:]*):(\d+)$/.exec(raw);
  const bare = /^\d+$/.test(raw) ? raw : undefined;
  const host = bracketed?.[1] ?? plain?.[1] ?? (bare !== undefined ? '127.0.0.1' : fail('not host:port'));
  const portText = bracketed?.[2] ?? plain?.[2] ?? (bare as string);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`port ${portText} is out of range 0–65535`);
  if (host === '') fail('the host is missing');
  if (bracketed && isIP(host) !== 6) fail(`${host} is not an IPv6 address`);
  if (!bracketed && isIP(host) === 0 && !/^[A-Za-z0-9.-]+$/.test(host)) fail(`${host} is not a host name or IP address`);
  return { host, port };
}

/** `host:port` as a URL authority (IPv6 in brackets). */
export function authority(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}
