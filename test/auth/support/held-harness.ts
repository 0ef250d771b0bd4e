/**
 * A feedback authorization server over an embedded store that holds reads on demand
 * (test/support/held-reads.ts), started before the describe's tests and closed after them: the
 * sign-in race tests make requests' reads cross with it, whatever the timing.
 */
import { feedbackAuthPreset } from '../../../src/auth/index.js';
import { type HeldReads, heldReads } from '../../support/held-reads.js';
import { type Interceptor, interceptedStore } from '../../support/intercepted-store.js';
import { type Harness, startHarness } from './harness.js';

export interface HeldHarness {
  readonly reads: HeldReads;
  /** the server (from the describe's `before` on) */
  readonly h: Harness;
}

/** Call inside a `describe`: registers its `before` and `after`. */
export function harnessWithHeldReads(
  options: Partial<Parameters<typeof startHarness>[0]> = {},
): HeldHarness {
  const reads = heldReads();
  let started: Harness | undefined;
  before(async () => {
    started = await startHarness({ ...feedbackAuthPreset, ...options, openReadStore: reads.open });
  });
  after(async () => {
    await started?.close();
    reads.remove();
  });
  return {
    reads,
    get h() {
      if (!started) throw new Error('the held-reads harness starts in the describe’s before');
      return started;
    },
  };
}

/**
 * The same over a store whose calls `intercept` sees first (test/support/intercepted-store.ts):
 * a store that fails the writes a test chooses. Call inside a `describe`.
 */
export function harnessWithInterceptedStore(
  prefix: string,
  intercept: Interceptor,
  options: Partial<Parameters<typeof startHarness>[0]> = {},
): { readonly h: Harness } {
  const store = interceptedStore(prefix, intercept);
  let started: Harness | undefined;
  before(async () => {
    started = await startHarness({ ...feedbackAuthPreset, ...options, openReadStore: store.open });
  });
  after(async () => {
    await started?.close();
    store.remove();
  });
  return {
    get h() {
      if (!started) throw new Error('the harness starts in the describe’s before');
      return started;
    },
  };
}
