/**
 * The environment handed to processes sitechat starts (the Temporal dev server, pip, go). They need PATH, HOME,
 * proxies and the like, never the secrets a worker holds (keys, tokens, the store URL with its password, an OTLP collector's headers): a child's environment is readable by anything that can
 * read /proc/<pid>/environ or that the child itself starts.
 */
const SECRET = /^(SITECHAT_(.*(KEY|TOKEN|SECRET|PASSWORD)|STORE_URL$)|OTEL_EXPORTER_OTLP_(TRACES_)?HEADERS$)/u;

export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET.test(name)));
}
