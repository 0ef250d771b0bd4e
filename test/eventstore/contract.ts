/**
 * The event-store contract: one suite every adapter must pass (embedded always, KurrentDB when
 * EVENTSTORE_URL is set). Tests only rely on the port in src/eventstore/types.ts, use streams
 * under a random prefix and read `$all` after the head they found, so a shared server works.
 */
import { appendContract } from './contract-append.js';
import { countContract } from './contract-count.js';
import type { OpenStore } from './contract-fixtures.js';
import { readContract } from './contract-read.js';
import { subscribeContract } from './contract-subscribe.js';

export type { OpenedStore, OpenStore } from './contract-fixtures.js';

export function eventStoreContract(name: string, open: OpenStore): void {
  describe(`Event store contract: ${name}`, () => {
    describe('appending', () => appendContract(open));
    describe('reading', () => readContract(open));
    describe('subscribing', () => subscribeContract(open));
    describe('counting the events behind the head', () => countContract(open));
  });
}
