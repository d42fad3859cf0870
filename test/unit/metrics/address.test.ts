import { describe, expect, it } from 'vitest';
import { MetricsAddressError, metricsAddressFromEnv } from '../../../src/observability/metrics/address';
import { ConfigError } from '../../../src/shared/configError';

const parse = (value: string | undefined) => metricsAddressFromEnv({ SITECHAT_METRICS_ADDR: value });

describe('SITECHAT_METRICS_ADDR', () => {
  it('is off when unset or empty', () => {
    expect(parse(undefined)).toBeUndefined();
    expect(parse('  ')).toBeUndefined();
  });

  it('takes host:port, [ipv6]:port, a host name, or a bare port on loopback; port 0 is ephemeral', () => {
    expect(parse('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parse('0.0.0.0:0')).toEqual({ host: '0.0.0.0', port: 0 });
    expect(parse('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(parse('localhost:9100')).toEqual({ host: 'localhost', port: 9100 });
    expect(parse('9464')).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  it('says what is wrong with the value and what to give instead', () => {
    expect(() => parse('127.0.0.1:99999')).toThrow(
      'SITECHAT_METRICS_ADDR="127.0.0.1:99999": port 99999 is out of range 0–65535; give host:port, e.g. 127.0.0.1:9464 (port 0 picks a free one)',
    );
  });

  it.each([
    ['127.0.0.1', /not host:port/],
    [':9464', /host is missing/],
    ['127.0.0.1:70000', /out of range/],
    ['http://127.0.0.1:9464', /not host:port/],
    ['[nope]:9464', /not an IPv6 address/],
    ['exa mple:9464', /not a host name/],
  ])('refuses %s with a usage error naming the variable', (value, why) => {
    let err: unknown;
    try {
      parse(value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MetricsAddressError);
    // A worker setting error: the CLI exits 2 before anything starts.
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^SITECHAT_METRICS_ADDR=/);
    expect((err as Error).message).toMatch(why);
  });
});
