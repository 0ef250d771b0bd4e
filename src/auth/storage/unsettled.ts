/**
 * Consumes a request made that no flush has stored yet, per request (oidc-provider's Koa
 * context: Provider.ctx inside its routes), each with its undo.
 *
 * A refresh token's rotation is consume() of the presented token, then save() of its successor
 * (oidc-provider lib/actions/grants/refresh_token.js); a code exchange consumes the code, then
 * saves the refresh token. Stored one after the other, a full disk let the consume through and
 * refused the save (or refused the consume, whose mark stayed in memory): the client held a used
 * token or code and nothing new, and its retry read as reuse and revoked the grant. So a consume
 * is marked at once — in memory on the embedded store, where every later request of the process
 * sees it, so a concurrent reuse is still caught and revokes the grant — but stored only with the
 * request's next write, in the same flush (one SQLite transaction), or before the request answers
 * when nothing follows (settleConsumes). When that write fails, the mark is taken back: the client
 * got nothing for what it presented, so it keeps it.
 *
 * Checking that the store can write before consuming would not do: the room can be gone by the
 * save (the projection engine writes to the same file), and the two writes would still be two
 * transactions, a crash between them losing the grant as well.
 */
import Provider from 'oidc-provider';

export type Undo = () => Promise<unknown>;

interface Unsettled {
  undos: Undo[];
  flush: () => Promise<void>;
}

const byRequest = new WeakMap<object, Unsettled>();

/**
 * Leaves a consume to be stored with the request's next write. False outside a provider
 * request (an interaction finished from our own pages): the caller stores it at once.
 */
export function deferConsume(undo: Undo, flush: () => Promise<void>): boolean {
  const request = Provider.ctx;
  if (!request) return false;
  const entry = byRequest.get(request) ?? { undos: [], flush };
  entry.undos.push(undo);
  byRequest.set(request, entry);
  return true;
}

/**
 * Runs a write and its flush: the consumes of `request` are stored with it, or taken back (newest
 * first) when it fails. An undo the store refuses as well (a lost MongoDB) leaves that consume
 * in place: the write's own error is what the client is told.
 */
async function storedWith(
  request: object | undefined,
  write: () => Promise<void>,
  own: Undo[] = [],
): Promise<void> {
  const entry = request ? byRequest.get(request) : undefined;
  if (request) byRequest.delete(request);
  const undos = [...(entry?.undos ?? []), ...own];
  try {
    await write();
  } catch (error) {
    for (const undo of undos.reverse()) await undo().catch(() => {});
    throw error;
  }
}

/** A write of the current provider request (if any), storing its consumes with it. */
export function stored(write: () => Promise<void>, own: Undo[] = []): Promise<void> {
  return storedWith(Provider.ctx, write, own);
}

/**
 * Provider middleware, inside the one that answers store refusals (unavailable.ts): consumes a
 * request made and no write stored (a code exchange without a refresh token) are stored before
 * it answers — or taken back, and the answer is 503 instead of the tokens.
 */
export async function settleConsumes(request: object, next: () => Promise<void>): Promise<void> {
  await next();
  const entry = byRequest.get(request);
  if (entry) await storedWith(request, entry.flush);
}
