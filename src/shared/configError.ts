/**
 * A setting the process read from its environment is wrong (a SITECHAT_* or OTEL_* variable): the message names the
 * variable and the value it got. The CLI reports it as a usage error (exit 2) before anything is started.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
