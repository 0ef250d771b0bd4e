/**
 * The read-store contract: one suite every adapter must pass (embedded always, MongoDB when
 * MONGODB_URL is set). It only relies on the port in src/readstore/types.ts.
 */
import { indexContract } from './contract-indexes.js';
import type { OpenHarness } from './contract-fixtures.js';
import { persistenceContract } from './contract-persistence.js';
import { positionalContract } from './contract-positional.js';
import { queryContract } from './contract-queries.js';
import { refusedFilterContract } from './contract-refused-filters.js';
import { refusedOperandContract } from './contract-refused-operands.js';
import { updatePathContract } from './contract-update-paths.js';
import { updateTargetContract } from './contract-update-targets.js';
import { writeContract } from './contract-writes.js';

export type { OpenHarness, ReadStoreHarness } from './contract-fixtures.js';

export function readStoreContract(
  name: string,
  open: OpenHarness,
  options: { propertyRuns?: number } = {},
): void {
  describe(`Read store contract: ${name}`, () => {
    describe('querying', () => queryContract(open));
    describe('refused filters', () => refusedFilterContract(open));
    describe('refused operands', () => refusedOperandContract(open));
    describe('writing', () => writeContract(open));
    describe('update paths', () => updatePathContract(open));
    describe('update targets', () => updateTargetContract(open));
    describe('positional updates', () => positionalContract(open));
    describe('indexes', () => indexContract(open, options.propertyRuns ?? 100));
    describe('persistence', () => persistenceContract(open));
  });
}
