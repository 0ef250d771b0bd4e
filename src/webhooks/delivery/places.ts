/**
 * The places for attempts in flight that every lane of one worker shares (WEBHOOK_MAX_IN_FLIGHT).
 * A lane bounds one webhook (WEBHOOK_CONCURRENCY) and a workspace has at most
 * WEBHOOKS_PER_WORKSPACE of them, but workspaces are unbounded: many tenants' receivers that
 * hold their requests open held as many sockets and request bodies in one process. A lane that
 * finds every place taken waits its turn here; a freed place goes to the lane that waited longest,
 * so the lanes that hold places cannot keep them from the others. What waits stays queued — in
 * the lane's window or in the store — and is neither sent nor failed meanwhile.
 */
export interface AttemptPlaces {
  /** one place for an attempt, or false when every place is taken (then `wait`) */
  take(): boolean;
  /** an attempt ended */
  free(): void;
  /** the lane may start an attempt once a place is free; a lane already waiting keeps its turn */
  wait(hookKey: string): void;
  /** the lanes that waited, longest first, one at a time while a place is free */
  turns(): Generator<string>;
  /** attempts in flight now */
  taken(): number;
}

export function createAttemptPlaces(max: number): AttemptPlaces {
  let taken = 0;
  /** a Set keeps insertion order: the first is the lane that waited longest */
  const waiting = new Set<string>();
  return {
    take() {
      if (taken >= max) return false;
      taken++;
      return true;
    },
    free() {
      taken--;
    },
    wait(hookKey) {
      waiting.add(hookKey);
    },
    *turns() {
      for (const hookKey of waiting) {
        if (taken >= max) return;
        waiting.delete(hookKey);
        yield hookKey;
      }
    },
    taken: () => taken,
  };
}
