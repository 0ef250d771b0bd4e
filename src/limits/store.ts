/**
 * Limits kept in the read store (the embedded store by default, MongoDB when configured), so
 * every API process over one store counts against the same figures. One collection holds every
 * limiter's keys; a key is stored only as a hash (it is often an e-mail or an IP address).
 *
 * Each take is a read, a pure step (policies.ts) and a compare-and-set on the document's `rev`:
 * two processes taking at once cannot both spend the last unit. Within a process the takes of one
 * key run one after another, so the compare-and-set only ever races another process: fifty
 * requests of one product resuming together would otherwise all read one `rev`, and all but one
 * retry, round after round. When the store is contended past a few retries the take is refused
 * (fail closed) with a one-second retry.
 */
import { createHash } from 'node:crypto';
import { type Doc, isDuplicateKey, type ReadStore } from '../readstore/types.js';
import type { LimitState, Step, Verdict } from './limit-state.js';
import { type Policy, step } from './policies.js';
import { reserve, settle } from './reservations.js';

export interface Limiter {
  readonly name: string;
  readonly policy: Policy;
  /** counts one event (or `count`) for `key` when the policy allows it; a refusal counts nothing */
  take(key: string, count?: number): Promise<Verdict>;
  /** what take would answer now, without counting */
  peek(key: string): Promise<Verdict>;
  /**
   * holds `count` places (default 1) for events not yet known to count (reservations.ts), refused
   * as a take would be with the places held counted. `at` names the places for settle.
   */
  reserve(key: string, count?: number): Promise<{ verdict: Verdict; at: number | null }>;
  /** gives up the `count` places `at`, counting the events as a take would when they `happened` */
  settle(key: string, at: number, happened: boolean, count?: number): Promise<Verdict>;
}

export interface Limits {
  /** a limiter named `name` (unique per process: it prefixes the stored keys) */
  limiter(name: string, policy: Policy): Limiter;
}

interface LimitDoc extends Doc, LimitState {
  rev: number;
}

type Decide = (state: LimitState | null, now: number) => Step;
type Decided = { verdict: Verdict; now: number };

const RETRIES = 8;
const SWEEP_EVERY_MS = 60_000;
export const LIMITS_COLLECTION = 'rate_limits';

export function createLimits(deps: {
  readStore: ReadStore;
  /** ms since the epoch */
  now: () => number;
  collection?: string;
}): Limits {
  const col = deps.readStore.collection<LimitDoc>(deps.collection ?? LIMITS_COLLECTION);
  const names = new Set<string>();
  let indexed: Promise<unknown> | null = null;
  let lastSweep = 0;

  async function sweep(now: number): Promise<void> {
    indexed ??= col.createIndex({ keys: { expiresAt: 1 } });
    await indexed;
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    await col.deleteMany({ expiresAt: { $lte: now } });
  }

  /** the last take or peek queued per stored key; dropped once it settles with none after it */
  const queued = new Map<string, Promise<unknown>>();

  function run(name: string, key: string, decide: Decide): Promise<Decided> {
    const _id = `${name}:${createHash('sha256').update(key).digest('base64url')}`;
    const previous = queued.get(_id);
    const attempt = () => write(_id, decide);
    const result = previous ? previous.then(attempt, attempt) : attempt();
    const tail = result.catch(() => undefined);
    queued.set(_id, tail);
    void tail.then(() => {
      if (queued.get(_id) === tail) queued.delete(_id);
    });
    return result;
  }

  async function write(_id: string, decide: Decide): Promise<Decided> {
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const now = deps.now();
      const doc = await col.findOne({ _id });
      const { next, verdict } = decide(doc, now);
      if (!next) return { verdict, now };
      // the stored fields last: a state built from the document read carries its old rev
      const fresh: LimitDoc = { ...next, _id, rev: (doc?.rev ?? 0) + 1 };
      if (doc) {
        const written = await col.replaceOne({ _id, rev: doc.rev }, fresh);
        if (written.matchedCount === 0) continue;
      } else {
        try {
          await col.insertOne(fresh);
        } catch (error) {
          if (isDuplicateKey(error)) continue;
          throw error;
        }
      }
      await deps.readStore.flush();
      await sweep(now);
      return { verdict, now };
    }
    return { verdict: { allowed: false, retryAfterSeconds: 1 }, now: deps.now() };
  }

  return {
    limiter(name, policy) {
      if (names.has(name)) throw new Error(`two limiters are named ${name}`);
      names.add(name);
      return {
        name,
        policy,
        take: async (key, count = 1) =>
          (await run(name, key, (s, now) => step(policy, s, now, true, count))).verdict,
        peek: async (key) =>
          (await run(name, key, (s, now) => step(policy, s, now, false))).verdict,
        async reserve(key, count = 1) {
          const { verdict, now } = await run(name, key, (s, at) => reserve(policy, s, at, count));
          return verdict.allowed ? { verdict, at: now } : { verdict, at: null };
        },
        async settle(key, at, happened, count = 1) {
          const decide: Decide = (s, now) => settle(policy, s, now, at, happened, count);
          return (await run(name, key, decide)).verdict;
        },
      };
    },
  };
}

/** The longest wait among refusals, or null when every verdict allows. */
export function longestWait(verdicts: readonly Verdict[]): number | null {
  let wait: number | null = null;
  for (const v of verdicts) if (!v.allowed) wait = Math.max(wait ?? 0, v.retryAfterSeconds);
  return wait;
}
