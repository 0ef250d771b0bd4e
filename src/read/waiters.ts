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
  timer: NodeJS.Timeout | undefined;
}

export class WaiterList {
  private waiters: Waiter[] = [];

  /** no `timeoutMs`: waits until released or rejected (a rebuild's end, however long it takes) */
  add(position: bigint, timeoutMs?: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        position,
        resolve,
        reject,
        timer:
          timeoutMs === undefined
            ? undefined
            : setTimeout(() => {
                this.waiters = this.waiters.filter((w) => w !== waiter);
                reject(
                  new ProjectionTimeout(
                    `the read models did not reach position ${position} within ${timeoutMs} ms`,
                  ),
                );
              }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  release(reached: bigint): void {
    if (this.waiters.length === 0) return;
    const keep: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.position <= reached) {
        clearTimeout(waiter.timer);
        waiter.resolve();
      } else keep.push(waiter);
    }
    this.waiters = keep;
  }

  rejectAll(error: Error): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters = [];
  }
}
