/**
 * A wall clock (`Date.now`) the test can step — as NTP or an operator does to a running process —
 * installed before the code under test reads (or keeps a reference to) `Date.now`, until
 * `restore()`. Durations timed on the monotonic clock (`performance.now`) must not notice
 * (time audit: a step back of an hour held `/readyz` out of rotation and read-your-writes waits
 * for that hour).
 */
export function steppableWallClock(): { step(ms: number): void; restore(): void } {
  const real = Date.now;
  let offset = 0;
  Date.now = () => real() + offset;
  return {
    step(ms) {
      offset += ms;
    },
    restore() {
      Date.now = real;
    },
  };
}
