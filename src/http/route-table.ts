/**
 * Finding the operation for a request: one table instead of one Express route per operation
 * (Express 5 runs a regular expression per layer until one matches, so a request would pay one
 * regex test per operation declared before its own).
 *
 * Matching reproduces what Express 5 routes did (router 2 + path-to-regexp 8, default options):
 * literal segments compare case-insensitively, a parameter takes one or more characters other
 * than `/` and is percent-decoded, one trailing slash is allowed, HEAD runs a GET operation, and
 * candidates are tried in the registry's matching order (literal segments before parameters).
 */
import type { RouteEntry } from './paths.js';

export interface CompiledRoute {
  readonly entry: RouteEntry;
  /** upper-case method; a GET route also serves HEAD */
  readonly method: string;
  /** per segment: a lower-case literal, or null for a parameter */
  readonly literals: readonly (string | null)[];
  /** parameter name per segment (undefined for literals) */
  readonly names: readonly (string | undefined)[];
  /** the methods served at this path, for the wrong-method answer */
  allow: string;
}

export interface RouteMatch {
  route: CompiledRoute;
  /** false: the path is known but no operation serves this method there */
  methodMatches: boolean;
  /** the path's raw segments (parts[0] is the empty string before the leading slash) */
  parts: string[];
}

/** A path parameter whose percent-encoding does not decode: no resource can have that name. */
export class UndecodableParam extends Error {
  override readonly name = 'UndecodableParam';
}

export interface RouteTable {
  match(method: string, path: string): RouteMatch | undefined;
  /** decoded path parameters of a match; throws UndecodableParam */
  paramsOf(match: RouteMatch): Record<string, string>;
}

export function createRouteTable(routes: readonly RouteEntry[]): RouteTable {
  // Routes by segment count, each list in matching order: only same-length paths can match.
  const bySegments = new Map<number, CompiledRoute[]>();
  const allowByPath = new Map<string, Set<string>>();
  const compiled: CompiledRoute[] = [];
  for (const entry of routes) {
    const parts = entry.expressPath.split('/').slice(1);
    const route: CompiledRoute = {
      entry,
      method: entry.method.toUpperCase(),
      literals: parts.map((part) => (part.startsWith(':') ? null : part.toLowerCase())),
      names: parts.map((part) => (part.startsWith(':') ? part.slice(1) : undefined)),
      allow: '',
    };
    compiled.push(route);
    let list = bySegments.get(parts.length);
    if (!list) {
      list = [];
      bySegments.set(parts.length, list);
    }
    list.push(route);
    const methods = allowByPath.get(entry.expressPath) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    allowByPath.set(entry.expressPath, methods);
  }
  for (const route of compiled) {
    route.allow = [...allowByPath.get(route.entry.expressPath)!].join(', ');
  }

  return {
    match(method, path) {
      if (path.length > 1 && path.charCodeAt(path.length - 1) === 47 /* / */) {
        path = path.slice(0, -1);
      }
      const parts = path.split('/');
      const candidates = bySegments.get(parts.length - 1);
      if (!candidates) return undefined;
      const lower = path.toLowerCase().split('/');
      let pathMatch: CompiledRoute | undefined;
      for (const route of candidates) {
        if (!segmentsMatch(route, parts, lower)) continue;
        if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
          return { route, parts, methodMatches: true };
        }
        pathMatch ??= route;
      }
      return pathMatch ? { route: pathMatch, parts, methodMatches: false } : undefined;
    },
    paramsOf({ route, parts }) {
      const params: Record<string, string> = {};
      const names = route.names;
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (name !== undefined) params[name] = decodeParam(parts[i + 1]!);
      }
      return params;
    },
  };
}

function segmentsMatch(route: CompiledRoute, parts: string[], lower: string[]): boolean {
  const literals = route.literals;
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i];
    // parts[0] is the empty string before the leading slash
    if (literal === null) {
      if (parts[i + 1]!.length === 0) return false;
    } else if (lower[i + 1] !== literal) return false;
  }
  return true;
}

/** As Express's router: decode only when there is an escape. */
function decodeParam(value: string): string {
  if (value.indexOf('%') === -1) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new UndecodableParam(`the path segment '${value}' has invalid percent-encoding`);
  }
}
