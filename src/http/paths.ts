/**
 * Paths: OpenAPI `{param}` templates turned into Express 5 routes, checked once at startup so a
 * typo in a registry entry fails the boot instead of a request.
 */
import type { HttpMethod, Operation, ServiceTypes } from './operation.js';

export interface RouteEntry {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI style, as in the document's `paths` */
  path: string;
  /** Express 5 style */
  expressPath: string;
}

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const LITERAL = /^[A-Za-z0-9._~-]*$/;

/** Thrown at startup for an inconsistent registry; never reaches a client. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

function segments(path: string): string[] {
  return path.split('/').slice(1);
}

export function toExpressPath(path: string): { expressPath: string; paramNames: string[] } {
  if (!path.startsWith('/')) throw new RegistryError(`path ${path} must start with /`);
  const paramNames: string[] = [];
  const parts = segments(path).map((segment) => {
    const param = PARAM.exec(segment);
    if (param) {
      paramNames.push(param[1]!);
      return `:${param[1]}`;
    }
    // path-to-regexp 8 gives meaning to ( ) [ ] { } ? + * ! : — keep segments plain.
    if (!LITERAL.test(segment))
      throw new RegistryError(`path ${path}: unsupported segment "${segment}"`);
    return segment;
  });
  return { expressPath: `/${parts.join('/')}`, paramNames };
}

/** Literal segments sort before parameters, so `/items/search` wins over `/items/{itemKey}`. */
export function compareSpecificity(a: string, b: string): number {
  const sa = segments(a);
  const sb = segments(b);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = PARAM.test(sa[i]!);
    const pb = PARAM.test(sb[i]!);
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

/** Validates the registry and returns its routes in matching order. */
export function planRoutes<S extends ServiceTypes>(
  operations: readonly Operation<S>[],
): RouteEntry[] {
  const ids = new Set<string>();
  const keys = new Set<string>();
  const routes: RouteEntry[] = [];
  for (const op of operations) {
    if (ids.has(op.id)) throw new RegistryError(`operation id ${op.id} is declared twice`);
    ids.add(op.id);
    const { expressPath, paramNames } = toExpressPath(op.path);
    const key = `${op.method} ${expressPath.replace(/:[A-Za-z0-9_]+/g, ':')}`;
    if (keys.has(key))
      throw new RegistryError(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    keys.add(key);
    const declared = Object.keys(op.params?.shape ?? {}).sort();
    if (declared.join() !== [...paramNames].sort().join()) {
      throw new RegistryError(
        `operation ${op.id}: path parameters {${paramNames.join(', ')}} differ from its params schema {${declared.join(', ')}}`,
      );
    }
    routes.push({ operationId: op.id, method: op.method, path: op.path, expressPath });
  }
  return routes.sort((a, b) => compareSpecificity(a.path, b.path));
}
