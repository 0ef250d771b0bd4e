import { Unavailable } from '../../commands/shared/errors.js';

/** The read models did not reach a write in time: the client may retry (503, Retry-After). */
export class ProjectionTimeout extends Unavailable {
  override readonly name = 'ProjectionTimeout';
}

/** Callers waiting for the projections to reach a position, released in position order. */

export interface Waiter {
  position: bigint;
  resolve(): void;
  reject(error: Error): void;
  /** undoes the timer and the abort listener: called once the waiter leaves the list */
  done(): void;
}

export interface WaitOptions {
  /** absent: waits until released or rejected (a rebuild's end, however long it takes) */
  timeoutMs?: number;
  /** an abort takes the waiter off the list and rejects it with the signal's reason */
  signal?: AbortSignal;
}

export class WaiterList {
  private waiters: Waiter[] = [];

  add(position: bigint, options: WaitOptions = {}): Promise<void> {
    const { timeoutMs, signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const leave = (error: Error) => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.done();
        reject(error);
      };
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(
              () =>
                leave(
                  new ProjectionTimeout(
                    `the read models did not reach position ${position} within ${timeoutMs} ms`,
                  ),
                ),
              timeoutMs,
            );
      const aborted = () => leave(signal!.reason as Error);
      signal?.addEventListener('abort', aborted, { once: true });
      const waiter: Waiter = {
        position,
        resolve,
        reject,
        done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
        },
      };
      this.waiters.push(waiter);
    });
  }

  release(reached: bigint): void {
    if (this.waiters.length === 0) return;
    const keep: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.position <= reached) {
        waiter.done();
        waiter.resolve();
      } else keep.push(waiter);
    }
    this.waiters = keep;
  }

  rejectAll(error: Error): void {
    for (const waiter of this.waiters) {
      waiter.done();
      waiter.reject(error);
    }
    this.waiters = [];
  }
}
