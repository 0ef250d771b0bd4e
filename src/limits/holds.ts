/**
 * Holding a place in several limits at once, all or none, before acting: the one way a caller
 * asks its limits (reserve/settle, reservations.ts). Asking each limit "is there room?" and
 * counting after let requests sent together all pass the question before any was counted, and a
 * request one limit refused at the count had already spent the others. So:
 *
 *   const hold = await holdAll([[perIp, ip], [perProduct, product]]);
 *   if (hold.status === 'throttled') answer429(hold.wait);
 *   const done = await act().then(() => true, () => false);
 *   await hold.settle(done);
 *
 * Every place is reserved; when any is refused, those held are given back and the request costs
 * nothing. Settling counts the places when the action happened and gives them back when it did
 * not (or counts as many of `count` as happened), except a place marked `kept`, which counts the
 * request whatever became of it.
 */
import type { Limiter } from './store.js';

/** a limit, the key it counts under, and `kept` when a failed action counts all the same */
export type Place = readonly [limiter: Limiter, key: string, kept?: 'kept'];

export type Hold =
  | {
      status: 'throttled';
      /** the longest wait among the refusals */
      wait: number;
      /** each place's wait, in the order asked (null: it had room) */
      waits: (number | null)[];
    }
  | {
      status: 'held';
      /**
       * counts the places (the action `happened`) or gives them back; a number: how many of the
       * `count` held happened, the rest given back. Never throws: a place the store fails to
       * settle stays counted until it leaves its window (or is refilled)
       */
      settle(happened: boolean | number): Promise<void>;
    };

export async function holdAll(places: readonly Place[], count = 1): Promise<Hold> {
  const held = await Promise.all(places.map(([limiter, key]) => limiter.reserve(key, count)));
  const settleEach = async (counted: (place: Place) => number) => {
    await Promise.all(
      places.map(async ([limiter, key, kept], i) => {
        const at = held[i]?.at ?? null;
        if (at === null) return;
        const happened = counted([limiter, key, kept]);
        const settle = (did: boolean, n: number) =>
          n > 0 ? limiter.settle(key, at, did, n).catch(() => {}) : undefined;
        await settle(true, happened);
        await settle(false, count - happened);
      }),
    );
  };
  const waits = held.map(({ verdict }) => (verdict.allowed ? null : verdict.retryAfterSeconds));
  if (waits.every((w) => w === null)) {
    const counted = (happened: boolean | number) => (place: Place) => {
      if (place[2] === 'kept') return count;
      const n = happened === true ? count : happened === false ? 0 : happened;
      return Math.max(0, Math.min(count, Math.floor(n)));
    };
    return { status: 'held', settle: (happened) => settleEach(counted(happened)) };
  }
  // nothing was done: a kept place is given back too
  await settleEach(() => 0);
  return { status: 'throttled', wait: Math.max(...waits.map((w) => w ?? 0)), waits };
}

/**
 * `action`'s result once its places are settled: counted as `happened` says of the result (all,
 * by default), or all given back when it threw.
 */
export async function settling<T, H extends boolean | number = boolean>(
  settle: (happened: H) => Promise<void>,
  action: Promise<T>,
  happened: (result: T) => H = () => true as H,
): Promise<T> {
  let result: T;
  try {
    result = await action;
  } catch (error) {
    await settle(false as H);
    throw error;
  }
  await settle(happened(result));
  return result;
}
