/**
 * One middleware that finds the operation for a request, instead of one Express route per
 * operation plus one `router.all` per path: Express 5 runs a regular expression per layer until
 * one matches, so with ~60 operations a request paid ~100 regex tests before its handler ran.
 *
 * Matching reproduces what those Express 5 routes did (router 2 + path-to-regexp 8, default
 * options): literal segments compare case-insensitively, a parameter takes one or more
 * characters other than `/` and is percent-decoded (a malformed escape is a 400 via `next(err)`),
 * one trailing slash is allowed, HEAD runs a GET operation, and candidates are tried in the
 * registry's matching order (literal segments before parameters). A known path with another
 * method goes to the `wrongMethod` handler with that path's methods.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RouteEntry } from './paths.js';

/** Answers one matched operation; `req.params` holds the decoded path parameters. */
export type RouteHandler = (req: Request, res: Response) => Promise<void>;

interface CompiledRoute {
  readonly entry: RouteEntry;
  /** upper-case method; a GET route also serves HEAD */
  readonly method: string;
  /** per segment: a lower-case literal, or null for a parameter */
  readonly literals: readonly (string | null)[];
  /** parameter name per segment (undefined for literals) */
  readonly names: readonly (string | undefined)[];
  readonly handler: RouteHandler;
  /** the methods served at this path, for the wrong-method answer */
  allow: string;
}

/** `req.route` as Express sets it, for code that reads the matched path (e.g. auth hooks). */
export interface MatchedRoute {
  path: string;
  methods: Record<string, boolean>;
}

export function createDispatcher(
  routes: readonly RouteEntry[],
  handlerOf: (entry: RouteEntry) => RouteHandler,
  wrongMethod: (req: Request, res: Response, allow: string) => void,
): RequestHandler {
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
      handler: handlerOf(entry),
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
  const matchedRoutes = new Map<CompiledRoute, MatchedRoute>(
    compiled.map((route) => [
      route,
      { path: route.entry.expressPath, methods: { [route.entry.method]: true } },
    ]),
  );

  return function dispatchOperation(req: Request, res: Response, next: NextFunction): void {
    let path = req.path;
    if (path.length > 1 && path.charCodeAt(path.length - 1) === 47 /* / */) {
      path = path.slice(0, -1);
    }
    const parts = path.split('/');
    const candidates = bySegments.get(parts.length - 1);
    if (!candidates) {
      next();
      return;
    }
    const lower = path.toLowerCase().split('/');
    const method = req.method;
    let pathMatch: CompiledRoute | undefined;
    for (const route of candidates) {
      if (!segmentsMatch(route, parts, lower)) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
        let params: Record<string, string>;
        try {
          params = paramsOf(route, parts);
        } catch (error) {
          next(error);
          return;
        }
        req.params = params;
        req.route = matchedRoutes.get(route);
        route.handler(req, res).then(undefined, next);
        return;
      }
      pathMatch ??= route;
    }
    if (!pathMatch) {
      next();
      return;
    }
    try {
      req.params = paramsOf(pathMatch, parts);
    } catch (error) {
      next(error);
      return;
    }
    wrongMethod(req, res, pathMatch.allow);
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

function paramsOf(route: CompiledRoute, parts: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  const names = route.names;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name !== undefined) params[name] = decodeParam(parts[i + 1]!);
  }
  return params;
}

/** As Express's router: decode only when there is an escape; a malformed one is a 400. */
function decodeParam(value: string): string {
  if (value.indexOf('%') === -1) return value;
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) {
      const problem = error as URIError & { status?: number; statusCode?: number };
      problem.message = `Failed to decode param '${value}'`;
      problem.status = 400;
      problem.statusCode = 400;
    }
    throw error;
  }
}
