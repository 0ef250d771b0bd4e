/**
 * DESIGN.md, Layout: "commands/ write side, pure … No Express, no database, no clock";
 * "projections/ … Imports event types from commands/ only"; STYLE.md: "layers import only
 * downward". Every import under commands/, projections/ and src/ is checked against the layer
 * table in layers.ts; a failure lists each offending import as `file:line imports X (rule: …)`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { importSites } from './imports.js';
import { type Import, resolveImport, ROOTS } from './layers.js';
import { EXCEPTIONS, RULES, staleExceptions, violations } from './rules.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** one folder per aggregate and per read model: the only files beside those folders */
const TOP_LEVEL_FILES: Record<string, string[]> = {
  commands: ['upcasters.ts'],
  projections: ['all.ts', 'feedback.ts', 'notes.ts', 'search-indexes.ts'],
};

function sourceFilesOnDisk(): string[] {
  return ROOTS.flatMap((root) =>
    readdirSync(join(ROOT, root), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
      .map((name) => `${root}/${name}`),
  );
}

describe('Layering', function () {
  this.timeout(60_000);
  let files: string[];
  let imports: Import[];

  before(() => {
    const parsed = importSites(ROOT, ROOTS);
    files = parsed.files;
    imports = parsed.sites.map(resolveImport);
  });

  describe('When every source file is parsed', () => {
    it('sees every .ts and .tsx file under commands/, projections/ and src/', () => {
      expect([...files].sort()).to.deep.equal(sourceFilesOnDisk().sort());
    });

    it('sees static, type-only and dynamic imports (a parse that lost them would pass every rule)', () => {
      const seen = (file: string, specifier: string) =>
        imports.some((i) => i.file === file && i.specifier === specifier);
      expect(seen('commands/item/events.ts', 'zod'), 'import … from').to.equal(true);
      expect(
        seen('projections/shared/projector.ts', '../../src/eventstore/types.js'),
        'import type',
      ).to.equal(true);
      expect(
        seen('src/platform/stores.ts', '../eventstore/embedded/index.js'),
        'import()',
      ).to.equal(true);
    });
  });

  for (const rule of RULES) {
    it(`holds: ${rule.name}`, () => {
      const broken = violations(imports).filter((v) => v.rule === rule);
      if (broken.length > 0) {
        expect.fail(
          `${broken.length} import(s) break it:\n${broken.map((v) => v.line).join('\n')}`,
        );
      }
    });
  }

  it('lists no exception that no longer matches an import', () => {
    expect(staleExceptions(imports)).to.deep.equal([]);
    for (const e of EXCEPTIONS) expect(e.reason, `${e.file} → ${e.imports}`).to.not.equal('');
  });

  for (const [root, allowed] of Object.entries(TOP_LEVEL_FILES)) {
    it(`keeps one folder per ${root === 'commands' ? 'aggregate' : 'read model'} in ${root}/: the only files beside them are ${allowed.join(', ')}`, () => {
      const loose = readdirSync(join(ROOT, root), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
      expect(loose.sort()).to.deep.equal([...allowed].sort());
    });
  }
});
