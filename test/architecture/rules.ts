/**
 * The layering rules, each named in the words of DESIGN.md and STYLE.md. An import that breaks
 * several is reported under the first, the most specific.
 */
import {
  type Import,
  isBelowHttp,
  isDeciders,
  isHttp,
  isReadModels,
  isStore,
  isUnder,
  PURE_PACKAGES,
  ROOTS,
  STORE_PORTS,
} from './layers.js';

export interface Rule {
  name: string;
  breaks(i: Import): boolean;
}

export interface Exception {
  file: string;
  /** the specifier as written */
  imports: string;
  reason: string;
}

/** Imports that break a rule on purpose, each with its reason. */
export const EXCEPTIONS: Exception[] = [];

const pure = (i: Import) => i.target.kind === 'package' && PURE_PACKAGES.includes(i.target.name);

export const RULES: Rule[] = [
  {
    name: 'the pure deciders (commands/) import only other deciders, zod and immutable: no node: module, no src/, no projections/',
    breaks: (i) =>
      isDeciders(i.layer) &&
      !(pure(i) || (i.target.kind === 'file' && isUnder(i.target.path, 'commands'))),
  },
  {
    name: 'read models (projections/) import only deciders, other read models, the store ports (src/eventstore/types.ts, src/readstore/types.ts) and zod or immutable: no HTTP, no write side, no adapter, no I/O',
    breaks: (i) => {
      if (!isReadModels(i.layer)) return false;
      if (pure(i)) return false;
      if (i.target.kind !== 'file') return true;
      const { path } = i.target;
      return !(
        isUnder(path, 'commands') ||
        isUnder(path, 'projections') ||
        STORE_PORTS.includes(path)
      );
    },
  },
  {
    name: 'nothing below HTTP imports HTTP (src/http, src/*/http, express, helmet, swagger-ui-express, cookie)',
    breaks: (i) => isBelowHttp(i.file, i.layer) && isHttp(i.target),
  },
  {
    name: 'the event store and read store adapters import no service: only deciders, configuration and the platform utilities',
    breaks: (i) =>
      isStore(i.layer) &&
      i.target.kind === 'file' &&
      i.target.layer !== i.layer &&
      (i.target.layer?.rank ?? Infinity) >= i.layer.rank,
  },
  {
    name: `imports stay inside ${ROOTS.map((r) => `${r}/`).join(', ')}`,
    breaks: (i) => i.target.kind === 'file' && i.target.layer === undefined,
  },
  {
    name: 'every layer imports only downward: its own files and layers of a lower rank (test/architecture/layers.ts), never one above it or beside it',
    breaks: (i) =>
      i.target.kind === 'file' &&
      i.target.layer !== undefined &&
      i.target.layer !== i.layer &&
      i.target.layer.rank >= i.layer.rank,
  },
];

export interface Violation {
  rule: Rule;
  line: string;
}

function describe(i: Import): string {
  if (i.target.kind !== 'file' || !i.target.layer) return i.specifier;
  const { layer } = i.target;
  return `${i.specifier} [${layer.name}, rank ${layer.rank}; importer: ${i.layer.name}, rank ${i.layer.rank}]`;
}

/** Every import that breaks a rule and is no exception, under the first rule it breaks. */
export function violations(imports: readonly Import[]): Violation[] {
  const found: Violation[] = [];
  for (const i of imports) {
    const excepted = EXCEPTIONS.some((e) => e.file === i.file && e.imports === i.specifier);
    const rule = excepted ? undefined : RULES.find((r) => r.breaks(i));
    if (rule) {
      found.push({ rule, line: `${i.file}:${i.line} imports ${describe(i)} (rule: ${rule.name})` });
    }
  }
  return found;
}

/** The exceptions that no longer match an import: a fixed violation should leave the list too. */
export function staleExceptions(imports: readonly Import[]): Exception[] {
  return EXCEPTIONS.filter(
    (e) => !imports.some((i) => i.file === e.file && i.specifier === e.imports),
  );
}
