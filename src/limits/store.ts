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
import { type LimitState, type Policy, step, type Verdict } from './policies.js';

export interface Limiter {
  readonly name: string;
  readonly policy: Policy;
  /** counts one event for `key` when the policy allows it; a refusal counts nothing */
  take(key: string): Promise<Verdict>;
  /** what take would answer now, without counting */
  peek(key: string): Promise<Verdict>;
}

export interface Limits {
  /** a limiter named `name` (unique per process: it prefixes the stored keys) */
  limiter(name: string, policy: Policy): Limiter;
}

interface LimitDoc extends Doc, LimitState {
  rev: number;
}

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

  function run(name: string, policy: Policy, key: string, consume: boolean): Promise<Verdict> {
    const _id = `${name}:${createHash('sha256').update(key).digest('base64url')}`;
    const previous = queued.get(_id);
    const attempt = () => settle(_id, policy, consume);
    const result = previous ? previous.then(attempt, attempt) : attempt();
    const tail = result.catch(() => undefined);
    queued.set(_id, tail);
    void tail.then(() => {
      if (queued.get(_id) === tail) queued.delete(_id);
    });
    return result;
  }

  async function settle(_id: string, policy: Policy, consume: boolean): Promise<Verdict> {
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const now = deps.now();
      const doc = await col.findOne({ _id });
      const { next, verdict } = step(policy, doc, now, consume);
      if (!next) return verdict;
      const fresh: LimitDoc = { _id, rev: (doc?.rev ?? 0) + 1, ...next };
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
      return verdict;
    }
    return { allowed: false, retryAfterSeconds: 1 } satisfies Verdict;
  }

  return {
    limiter(name, policy) {
      if (names.has(name)) throw new Error(`two limiters are named ${name}`);
      names.add(name);
      return {
        name,
        policy,
        take: (key) => run(name, policy, key, true),
        peek: (key) => run(name, policy, key, false),
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
