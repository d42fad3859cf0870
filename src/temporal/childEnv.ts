/**
 * The environment handed to processes sitechat starts (the Temporal dev server, the Temporal CLI, pip and go when they
 * install it). An allow-list: a child gets what it needs to run (PATH, HOME, the temp directory, the locale, …) and
 * the settings of its own kind, nothing else. A deny-list cannot work: the variables holding webhook URLs and signing
 * secrets are named by the operator (`--notify slack:MY_HOOK`), and a child's environment is readable by anything that
 * can read /proc/<pid>/environ, or that the child itself starts.
 */

/** What a child is, which decides the variables it gets beyond the common ones. */
export const ChildKind = {
  /** `temporal server start-dev`: a local server; it reads its settings from flags only. */
  temporalServer: 'temporalServer',
  /**
   * The Temporal CLI as `sitechat temporal` runs it: a client of the server sitechat uses, so its TEMPORAL_*
   * settings (address, namespace, API key, TLS, profile), its config directory, proxies and CA files pass.
   */
  temporalCli: 'temporalCli',
  /** pip, python and go installing the Temporal CLI: they download, so proxies, CA files and their own settings pass. */
  installer: 'installer',
} as const;
export type ChildKind = (typeof ChildKind)[keyof typeof ChildKind];

interface Allowed {
  names: readonly string[];
  prefixes: readonly string[];
}

/** What any process needs: where programs, home and temp are, the locale and time zone; Windows' own basics. */
const COMMON: Allowed = {
  names: [
    'PATH', 'HOME', 'USER', 'LOGNAME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LANGUAGE', 'TZ',
    'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMDATA',
  ],
  prefixes: ['LC_'],
};

/** Reaching a server through the network: proxies (as curl, Go and pip read them) and CA bundles. */
const NETWORK: Allowed = {
  names: ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE'],
  prefixes: [],
};

const BY_KIND: Record<ChildKind, Allowed> = {
  [ChildKind.temporalServer]: COMMON,
  [ChildKind.temporalCli]: {
    names: [...COMMON.names, ...NETWORK.names, 'TERM', 'COLORTERM', 'NO_COLOR', 'COLUMNS', 'LINES', 'XDG_CONFIG_HOME'],
    prefixes: [...COMMON.prefixes, 'TEMPORAL_'],
  },
  [ChildKind.installer]: {
    names: [
      ...COMMON.names, ...NETWORK.names, 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'VIRTUAL_ENV', 'PYTHONPATH', 'PYTHONHOME', 'PYTHONUSERBASE',
      // Go's own settings, by name: a prefix would let GOOGLE_APPLICATION_CREDENTIALS through.
      'GOPATH', 'GOROOT', 'GOBIN', 'GOCACHE', 'GOMODCACHE', 'GOTMPDIR', 'GOENV', 'GOFLAGS', 'GOPROXY', 'GONOPROXY', 'GOPRIVATE',
      'GOSUMDB', 'GONOSUMDB', 'GOINSECURE', 'GOTOOLCHAIN', 'CGO_ENABLED',
    ],
    prefixes: [...COMMON.prefixes, 'PIP_', 'PYENV_'],
  },
};

/** The variables of `env` a child of `kind` may see. Names compare case-insensitively (Windows: `Path`; proxies: `https_proxy`). */
export function childEnv(kind: ChildKind, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { names, prefixes } = BY_KIND[kind];
  const allowed = new Set(names);
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => {
    if (value === undefined) return false;
    const upper = name.toUpperCase();
    return allowed.has(upper) || prefixes.some((p) => upper.startsWith(p));
  }));
}
