/** True when the user configured a Temporal server (address, profile or config file): no embedded server then. */
export function temporalConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.TEMPORAL_ADDRESS || env.TEMPORAL_PROFILE || env.TEMPORAL_CONFIG_FILE);
}
