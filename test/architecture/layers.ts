/**
 * The layers of DESIGN.md ("Layout", "Event store", "Read models", "HTTP") as one table, and the
 * rules that say which way they may import. A layer imports its own files and layers of a lower
 * rank; two layers of one rank (the two services, the write side and the search engine) do not
 * import each other. A path belongs to the layer whose path is its longest prefix, so a file row
 * (the platform utilities) wins over its folder's row (the service frame).
 */
import { isBuiltin } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import type { ImportSite } from './imports.js';

export interface Layer {
  rank: number;
  name: string;
  /** folders, or files without their extension, relative to the repository root */
  paths: string[];
}

export const ROOTS = ['commands', 'projections', 'src'] as const;

export const LAYERS: Layer[] = [
  { rank: 0, name: 'decider helpers', paths: ['commands/shared'] },
  { rank: 1, name: 'deciders', paths: ['commands'] },
  { rank: 1, name: 'configuration', paths: ['src/config'] },
  // used by the event store's writer thread and the workers below the service frame
  { rank: 1, name: 'platform utilities', paths: ['src/platform/threads', 'src/platform/logger'] },
  { rank: 2, name: 'event store', paths: ['src/eventstore'] },
  { rank: 2, name: 'read store', paths: ['src/readstore'] },
  { rank: 3, name: 'read model helpers', paths: ['projections/shared'] },
  { rank: 3, name: 'leases', paths: ['src/platform/lease'] },
  { rank: 4, name: 'read models', paths: ['projections'] },
  { rank: 5, name: 'write side', paths: ['src/write'] },
  { rank: 5, name: 'projection runtime', paths: ['src/read'] },
  { rank: 5, name: 'search engine', paths: ['src/search'] },
  { rank: 5, name: 'rate limits', paths: ['src/limits'] },
  { rank: 6, name: 'HTTP', paths: ['src/http'] },
  { rank: 7, name: 'OAuth server', paths: ['src/auth'] },
  { rank: 8, name: 'MCP', paths: ['src/mcp'] },
  { rank: 9, name: 'service frame', paths: ['src/platform'] },
  { rank: 10, name: 'webhooks', paths: ['src/webhooks'] },
  { rank: 11, name: 'feedback service', paths: ['src/feedback'] },
  { rank: 11, name: 'notes service', paths: ['src/notes'] },
  { rank: 12, name: 'composition', paths: ['src/services'] },
  { rank: 12, name: 'CLI', paths: ['src/cli'] },
  { rank: 13, name: 'processes', paths: ['src/processes'] },
];

/** libraries that compute without I/O: the only packages deciders and read models import */
export const PURE_PACKAGES = ['zod', 'immutable'];
/** the ports read models are written against (DESIGN.md: "every query is written once") */
export const STORE_PORTS = ['src/eventstore/types', 'src/readstore/types'];
export const HTTP_PACKAGES = ['express', 'helmet', 'swagger-ui-express', 'cookie'];
/** the parts of each service that serve HTTP (or MCP); the rest of the service is below HTTP */
export const SERVICE_SURFACES: Record<string, string[]> = {
  'src/feedback': ['http', 'board', 'auth', 'app', 'mcp', 'service'],
  'src/notes': ['http', 'auth', 'app', 'mcp', 'mcp-local', 'service'],
};

/** what an import names: a file of the project (without extension), a package or a builtin */
export type Target =
  | { kind: 'file'; path: string; layer: Layer | undefined }
  | { kind: 'package'; name: string }
  | { kind: 'builtin'; name: string };

export interface Import extends ImportSite {
  layer: Layer;
  target: Target;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const withoutExtension = (path: string) => path.replace(/\.(js|jsx|ts|tsx|mjs|cjs)$/, '');

export function layerOf(path: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of LAYERS) {
    for (const p of layer.paths) {
      if (under(path, p) && p.length > (best?.length ?? -1)) best = { layer, length: p.length };
    }
  }
  return best?.layer;
}

export function resolveImport(site: ImportSite): Import {
  const layer = layerOf(withoutExtension(site.file));
  if (!layer) throw new Error(`${site.file} is in no layer: add its folder to LAYERS`);
  const { specifier } = site;
  let target: Target;
  if (specifier.startsWith('.')) {
    const path = withoutExtension(normalize(join(dirname(site.file), specifier)));
    target = { kind: 'file', path, layer: layerOf(path) };
  } else if (specifier.startsWith('node:') || isBuiltin(specifier)) {
    target = { kind: 'builtin', name: specifier };
  } else {
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    target = { kind: 'package', name };
  }
  return { ...site, layer, target };
}

/** HTTP as the rules mean it: the registry, any src/<folder>/http, the server libraries */
export function isHttp(target: Target): boolean {
  if (target.kind === 'package') return HTTP_PACKAGES.includes(target.name);
  if (target.kind !== 'file') return false;
  // src/http, and src/*/http: a service's http/ folder, MCP's HTTP transport (src/mcp/http.ts)
  return under(target.path, 'src/http') || /^src\/[^/]+\/http(\/|$)/.test(target.path);
}

/** below HTTP: a layer under it, or the part of a service that is not one of its surfaces */
export function isBelowHttp(file: string, layer: Layer): boolean {
  const http = LAYERS.find((l) => l.name === 'HTTP')!;
  if (layer.rank < http.rank) return true;
  const service = Object.keys(SERVICE_SURFACES).find((s) => under(file, s));
  if (!service) return false;
  const part = withoutExtension(file.slice(service.length + 1)).split('/')[0]!;
  return !SERVICE_SURFACES[service]!.includes(part);
}

export const isDeciders = (layer: Layer) => layer.paths.every((p) => under(p, 'commands'));
export const isReadModels = (layer: Layer) => layer.paths.every((p) => under(p, 'projections'));
export const isStore = (layer: Layer) => ['event store', 'read store'].includes(layer.name);
export const isUnder = under;
