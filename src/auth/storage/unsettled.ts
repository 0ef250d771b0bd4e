/**
 * Consumes a request made that no flush has stored yet, per request (oidc-provider's Koa
 * context: Provider.ctx inside its routes).
 *
 * A refresh token's rotation is consume() of the presented token, then save() of its successor
 * (oidc-provider lib/actions/grants/refresh_token.js); a code exchange consumes the code, then
 * saves the refresh token. Stored one after the other, a full disk let the consume through and
 * refused the save (or refused the consume, whose mark stayed in memory): the client held a used
 * token or code and nothing new, and its retry read as reuse and revoked the grant. So a consume
 * is stored only with the request's next write, or before the request answers when nothing
 * follows (settleConsumes), and when that write fails the client keeps what it presented:
 *
 * - On the embedded store the mark is made at once, in memory, where every later request of the
 *   process sees it, and stored in the same flush as the write (one SQLite transaction); when
 *   that fails the mark is taken back, in memory, which cannot fail.
 * - On MongoDB every write is stored when acknowledged and two writes are never one: a mark
 *   written first and taken back after a refused save needs a second write the lost server
 *   refuses too, leaving the token used up. So the mark is written after the request's write,
 *   once that is stored: a save refused leaves nothing to take back, and a mark refused after
 *   it leaves only a successor no client was given.
 *
 * On both the mark is a compare-and-set, so of two requests presenting one token at once the
 * second to mark is caught as reuse (reuse.ts).
 *
 * Checking that the store can write before consuming would not do: the room can be gone by the
 * save (the projection engine writes to the same file), and the two writes would still be two
 * transactions, a crash between them losing the grant as well.
 */
import Provider, { errors } from 'oidc-provider';

export type Undo = () => Promise<unknown>;

/** A consume not stored yet: a mark made in memory and its undo, or the mark's write itself. */
export type Consume = { undo: Undo } | { mark: () => Promise<unknown> };

interface Unsettled {
  undos: Undo[];
  marks: (() => Promise<unknown>)[];
  flush: () => Promise<void>;
}

const byRequest = new WeakMap<object, Unsettled>();

/**
 * Leaves a consume to be stored with the current provider request's next write, or stores it at
 * once outside one (an interaction finished from our own pages).
 */
export async function storeConsume(consume: Consume, flush: () => Promise<void>): Promise<void> {
  const request = Provider.ctx;
  if (!request) {
    if ('mark' in consume) await consume.mark();
    else await stored(flush, [consume.undo]);
    return;
  }
  const entry = byRequest.get(request) ?? { undos: [], marks: [], flush };
  if ('mark' in consume) entry.marks.push(consume.mark);
  else entry.undos.push(consume.undo);
  byRequest.set(request, entry);
}

/**
 * Runs a write and its flush, then the marks of `request` left to follow it: its consumes are
 * stored with it, or taken back (newest first) when it fails; a mark refused after it fails the
 * request too.
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
  for (const mark of entry?.marks ?? []) await mark();
}

/** A write of the current provider request (if any), storing its consumes with it. */
export function stored(write: () => Promise<void>, own: Undo[] = []): Promise<void> {
  return storedWith(Provider.ctx, write, own);
}

/**
 * Provider middleware, inside the one that answers store refusals (unavailable.ts): consumes a
 * request made and no write stored (a code exchange without a refresh token) are stored before
 * it answers — or taken back, and the answer is 503 instead of the tokens. A mark that finds the
 * code used meanwhile by another request (reuse.ts) turns the answer into that refusal: past the
 * route, its error handler no longer answers it.
 */
export async function settleConsumes(
  request: { status: number; body: unknown },
  next: () => Promise<void>,
): Promise<void> {
  await next();
  const entry = byRequest.get(request);
  if (!entry) return;
  try {
    await storedWith(request, entry.flush);
  } catch (error) {
    if (!(error instanceof errors.InvalidGrant)) throw error;
    request.status = error.statusCode;
    request.body = { error: error.error, error_description: error.error_description };
  }
}
