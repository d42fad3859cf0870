import { parseBaseUrl } from './config';

/**
 * Which API a run asks, as the run carries it (`RunOptions.api`) and a worker compares it with its own: the origin and
 * path of the base URL (`https://chat.example.com/api/v1`: no user, password, query or fragment, which the base URL
 * may not have anyway), or {@link BUILT_IN_SIMULATOR_API}. Never the key: nothing secret, so it may sit in workflow
 * inputs, histories and error messages.
 */
export type ApiIdentity = string;

/**
 * The simulator a sitechat command starts itself when SITECHAT_BASE_URL is unset. Its address changes with every
 * process, so it is named by what it is: only a worker of the process that started the Temporal server runs it
 * (`openRuntime`), so two of them never serve one server at once, and a run the embedded server kept across a
 * restart goes on with the next command's simulator.
 */
export const BUILT_IN_SIMULATOR_API: ApiIdentity = 'the built-in simulator';

/** The identity of the API at `baseUrl`; a value that is not a valid base URL is named by its origin, or not at all. */
export function apiIdentity(baseUrl: string): ApiIdentity {
  try {
    const { origin, basePath } = parseBaseUrl(baseUrl);
    return origin + basePath;
  } catch {
    // Not a base URL a worker would start with; still never echo more than scheme, host and port.
    try {
      return new URL(baseUrl).origin;
    } catch {
      return 'an API with an invalid base URL';
    }
  }
}

/** A worker's own API: the built-in simulator it was started with, or its SITECHAT_BASE_URL. */
export function workerApi(config: { baseUrl: string; builtInSimulator?: unknown }): ApiIdentity {
  return config.builtInSimulator === undefined ? apiIdentity(config.baseUrl) : BUILT_IN_SIMULATOR_API;
}
