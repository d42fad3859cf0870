/**
 * A tiny segment router: patterns like `m2m/sites/:site/chat/requests/:requestId`, matched against
 * the path after `/api/v1/` (or `/__sim/`). Parameters are percent-decoded.
 */
export interface RouteDef<T> {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  value: T;
}

interface Compiled<T> {
  method: string;
  segments: string[];
  value: T;
}

export type RouteMatch<T> =
  | { kind: 'found'; value: T; params: Record<string, string>; pattern: string }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

export class Router<T> {
  private readonly routes: Compiled<T>[];

  constructor(defs: readonly RouteDef<T>[]) {
    this.routes = defs.map((d) => ({ method: d.method, segments: d.path.split('/'), value: d.value }));
  }

  match(method: string, path: string): RouteMatch<T> {
    const parts = path.split('/');
    const allow: string[] = [];
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const pattern = route.segments[i] as string;
        const part = parts[i] as string;
        if (pattern.startsWith(':')) params[pattern.slice(1)] = decode(part);
        else ok = pattern === part;
      }
      if (!ok) continue;
      if (route.method === method) return { kind: 'found', value: route.value, params, pattern: route.segments.join('/') };
      allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}
