/**
 * Where the projection engine stands and who waits for it: the position every projector has
 * applied the log up to, the timed waits of read-your-writes (`waitFor`) and the untimed ones of
 * work that must wait however long a rebuild takes (`caughtUpTo`). A failure of the engine
 * fails every wait; its stop fails the timed ones and ends the untimed ones (false).
 */
import { ProjectionTimeout, WaiterList } from './waiters.js';

export function createEngineWaits(waitTimeoutMs: number) {
  const waiters = new WaiterList();
  let seen = 0n; // every projector has applied the log up to here
  let failure: Error | undefined;
  // stop() ran: the waits without a timeout end (false) rather than fail
  let stopped = false;

  return {
    /** Position every projector has applied up to (in this process). */
    position: (): bigint => seen,
    /** the error that stopped the engine, if one did */
    failure: (): Error | undefined => failure,

    /** the engine subscribes from `from` (each projector's checkpoint is at least there) */
    subscribedFrom(from: bigint): void {
      seen = from;
    },
    /** every projector applied the log up to `position`: its waiters are released */
    reached(position: bigint): void {
      seen = position;
      waiters.release(seen);
    },
    failed(error: Error): void {
      failure = error;
      waiters.rejectAll(error);
    },
    started(): void {
      stopped = false;
    },
    stopped(): void {
      stopped = true;
      waiters.rejectAll(new ProjectionTimeout('projection engine stopped'));
    },

    /** a rebuild's end: resolves at `head`, rejects when the engine stops or fails first */
    untilRebuilt(head: bigint): Promise<void> {
      return waiters.add(head);
    },

    /** Resolve once every projector has applied the log up to `position`. */
    waitFor(position: bigint, timeoutMs = waitTimeoutMs): Promise<void> {
      if (failure) return Promise.reject(failure);
      if (position <= seen) return Promise.resolve();
      return waiters.add(position, { timeoutMs });
    },

    /**
     * True once every projector has applied the log up to `position`, however long that takes
     * (the rebuild after an upgrade outlasts any request's wait); false once `signal` aborts or
     * the engine stops first. Not read-your-writes: nothing times out, nothing is counted.
     */
    async caughtUpTo(position: bigint, signal?: AbortSignal): Promise<boolean> {
      if (failure) throw failure;
      if (position <= seen) return true;
      if (stopped || signal?.aborted) return false;
      try {
        await waiters.add(position, { signal });
        return true;
      } catch (error) {
        if (stopped || signal?.aborted) return false;
        throw error;
      }
    },
  };
}
