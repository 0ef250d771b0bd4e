/**
 * Which API process each request of a model run goes to in split mode (MODEL_TARGET=split), so
 * that a write answered by one is read back through the other. Drawn from seeds, not from
 * Math.random: a model run draws one for its set-up and one per command from fast-check's seed
 * (model-runs.ts), so a replay sends every request to the process the failing run sent it to,
 * and a command keeps its routing when shrinking drops the commands before it.
 */
export class Route {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Draw from `seed` from now on: a command's own seed, whatever the commands before it drew. */
  reseed(seed: number): void {
    this.state = seed >>> 0;
  }

  /** The next of `options` (mulberry32: small, fast, and enough to spread requests over two). */
  pick<T>(options: readonly T[]): T {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const draw = ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    return options[Math.floor(draw * options.length)]!;
  }
}
