import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/**
 * Puts the site of an activity's input (`siteId`: asks, settles, closes, preflights, cleanups) into every line its
 * logger writes, the SDK's own `Activity failed` among them, so a log line says which site a failure is about. The
 * factory runs once per activity execution: the site is that execution's.
 */
export const siteInLogs: ActivityInterceptorsFactory = () => {
  let site: string | undefined;
  return {
    inbound: {
      execute: (input, next) => {
        const arg: unknown = input.args[0];
        if (typeof arg === 'object' && arg !== null && 'siteId' in arg && typeof arg.siteId === 'string') site = arg.siteId;
        return next(input);
      },
    },
    outbound: {
      getLogAttributes: (attributes, next) => next(site === undefined ? attributes : { ...attributes, site }),
    },
  };
};
