/**
 * Finding the operation for a request: one table instead of one Express route per operation
 * (Express 5 runs a regular expression per layer until one matches, so with ~60 operations a
 * request paid ~100 regex tests before its handler ran).
 *
 * Two ways in, one table and one handler per operation:
 *  - `front`, in front of the Express app: an origin-form URL whose path matches an operation
 *    with its exact method goes straight to the handler, skipping Express's per-request setup
 *    (it re-prototypes req and res, which alone halves node:http's throughput here) and its
 *    router walk; everything else goes on to the app.
 *  - `middleware`, inside the app's router: every other form — HEAD, a path Express normalises
 *    (parseurl hands anything with a space, tab or `#` to url.parse), a known path with another
 *    method (the `wrongMethod` answer), a malformed escape (a 400 via `next(err)`).
 *
 * Matching reproduces what Express 5 routes did (router 2 + path-to-regexp 8, default options):
 * literal segments compare case-insensitively, a parameter takes one or more characters other
 * than `/` and is percent-decoded, one trailing slash is allowed, HEAD runs a GET operation, and
 * candidates are tried in the registry's matching order (literal segments before parameters).
 * The query string is parsed as Express 5's default ("simple") query parser does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RouteEntry } from './paths.js';

/** What the dispatcher hands an operation's handler besides the raw request and response. */
export interface RouteTarget {
  /** decoded path parameters */
  params: Record<string, string>;
  /** the query string, parsed */
  query: Record<string, unknown>;
}

/** Answers one matched operation. */
export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  target: RouteTarget,
) => Promise<void>;

export interface Dispatcher {
  /**
   * Serve the request if it is an operation (see above) and return true; return false, having
   * done nothing, when the Express app should take it.
   */
  front(req: IncomingMessage, res: ServerResponse): boolean;
  /** the same table as Express middleware, for every request `front` passed on */
  middleware: RequestHandler;
}

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

/** Characters for which parseurl leaves its fast path (url.parse normalises them). */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

export function createDispatcher(
  routes: readonly RouteEntry[],
  handlerOf: (entry: RouteEntry) => RouteHandler,
  wrongMethod: (req: Request, res: Response, allow: string) => void,
): Dispatcher {
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

  /** The route for `path`: with `method` if one serves it, else the first with any method. */
  function find(
    method: string,
    path: string,
  ): { route: CompiledRoute; parts: string[]; methodMatches: boolean } | undefined {
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
  }

  function front(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url;
    const method = req.method;
    if (url === undefined || method === undefined || method === 'HEAD') return false;
    if (url.charCodeAt(0) !== 47 /* / */ || UNUSUAL_URL.test(url)) return false;
    const mark = url.indexOf('?');
    const found = find(method, mark === -1 ? url : url.slice(0, mark));
    if (!found?.methodMatches) return false;
    let params: Record<string, string>;
    let query: Record<string, unknown>;
    try {
      params = paramsOf(found.route, found.parts);
      query = parseQuery(mark === -1 ? '' : url.slice(mark + 1));
    } catch {
      return false; // Express answers the malformed escape
    }
    // The handler answers its own errors; a rejection here is a bug in answering one.
    found.route.handler(req, res, { params, query }).catch(() => {
      res.destroy();
    });
    return true;
  }

  function middleware(req: Request, res: Response, next: NextFunction): void {
    const found = find(req.method, req.path);
    if (!found) {
      next();
      return;
    }
    let params: Record<string, string>;
    try {
      params = paramsOf(found.route, found.parts);
    } catch (error) {
      next(error);
      return;
    }
    req.params = params;
    if (!found.methodMatches) {
      wrongMethod(req, res, found.route.allow);
      return;
    }
    const query = req.query as Record<string, unknown>;
    found.route.handler(req, res, { params, query }).then(undefined, next);
  }

  return { front, middleware };
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
