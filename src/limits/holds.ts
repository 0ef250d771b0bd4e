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
 * not, except a place marked `kept`, which counts the request whatever became of it.
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
       * counts the places (the action `happened`) or gives them back; never throws: a place the
       * store fails to settle stays counted until it leaves its window (or is refilled)
       */
      settle(happened: boolean): Promise<void>;
    };

export async function holdAll(places: readonly Place[], count = 1): Promise<Hold> {
  const held = await Promise.all(places.map(([limiter, key]) => limiter.reserve(key, count)));
  const settleEach = async (counted: (place: Place) => boolean) => {
    await Promise.all(
      places.map(async (place, i) => {
        const at = held[i]?.at ?? null;
        if (at === null) return;
        await place[0].settle(place[1], at, counted(place), count).catch(() => {});
      }),
    );
  };
  const waits = held.map(({ verdict }) => (verdict.allowed ? null : verdict.retryAfterSeconds));
  if (waits.every((w) => w === null)) {
    return { status: 'held', settle: (happened) => settleEach((p) => happened || p[2] === 'kept') };
  }
  // nothing was done: a kept place is given back too
  await settleEach(() => false);
  return { status: 'throttled', wait: Math.max(...waits.map((w) => w ?? 0)), waits };
}
