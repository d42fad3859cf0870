import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

/**
 * The active OpenTelemetry context of each async call chain, in an AsyncLocalStorage: what makes an API call's span
 * the child of its activity's span. (The SDK's own `@opentelemetry/context-async-hooks` does the same; this is the
 * part of it the runner needs, without another dependency.)
 */
export class AsyncLocalContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const call = thisArg === undefined ? fn : (fn.bind(thisArg) as F);
    return this.#storage.run(context, call, ...args);
  }

  /** Functions only: the runner binds no event emitters. */
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const run = (self: unknown, args: unknown[]): unknown => this.with(context, () => (target as (...a: unknown[]) => unknown).apply(self, args));
    return function bound(this: unknown, ...args: unknown[]) {
      return run(this, args);
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.#storage.disable();
    return this;
  }
}
