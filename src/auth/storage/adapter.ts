/**
 * oidc-provider's storage adapter over the read-store port: one collection per model
 * (`<prefix>_<Model>`), documents `{_id, payload, expiresAt, grantId?, uid?, userCode?}`.
 * Expired documents read as absent and are swept out lazily; registered clients expire too,
 * unless someone uses them (client-lifetime.ts), and are swept on a timer (client-sweep.ts). Every write is followed by
 * readStore.flush() so clients, grants, sessions and refresh tokens survive a restart of the
 * embedded store.
 *
 * Bearer secrets are never stored (issue 10 item 5): for every model whose id IS the secret
 * (refresh tokens, authorization codes, opaque access tokens, session and interaction cookies,
 * ...) the document is keyed by `sha256:<hash of the id>` and the payload is kept without its
 * `jti`; find(id) hashes the presented value and puts the jti back. Whoever reads the store
 * (a backup, a local user, a MongoDB dump) learns no usable token. Clients and grants keep
 * their ids: a client id is public and a grant id is not a credential.
 *
 * A consume is a compare-and-set that catches two requests presenting one token at once (reuse.ts),
 * stored with the next write of the request that made it (on MongoDB: after it) and taken back
 * when that write fails (unsettled.ts): the client got nothing for the token it presented, so it
 * keeps it.
 */
import { createHash } from 'node:crypto';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { Collection, Doc, ReadStore } from '../../readstore/types.js';
import {
  type ClientLifetime,
  clientExpiry,
  clientHeld,
  keepClientUntil,
} from './client-lifetime.js';
import { GRANTABLE, useOnce } from './reuse.js';
import { storeConsume, stored } from './unsettled.js';

export interface StoredArtifact extends Doc {
  /** the payload as JSON: its keys (resource URLs in grants) contain dots a document store rejects */
  payload: string;
  /** ms since epoch; null = no expiry */
  expiresAt: number | null;
  grantId?: string;
  uid?: string;
  userCode?: string;
  /** Grant only: who consented to which client (connected apps are listed by these) */
  accountId?: string;
  clientId?: string;
}

/** models whose id is a bearer secret: stored under its hash only */
export const HASHED_MODELS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'ClientCredentials',
  'InitialAccessToken',
  'RegistrationAccessToken',
  'PushedAuthorizationRequest',
  'Session',
  'Interaction',
]);

const HASH_PREFIX = 'sha256:';

export function hashedId(id: string): string {
  return `${HASH_PREFIX}${createHash('sha256').update(id).digest('base64url')}`;
}

/** where an interaction's `returnTo` held its own id (the interaction cookie's value) */
const OWN_ID = '{id}';

/**
 * The payload as stored: without the secret id — nor the copy of it in an interaction's
 * `returnTo` (`…/authorize/<id>`), put back on read — and without the session cookie an
 * interaction copies.
 */
function storable(model: string, id: string, payload: AdapterPayload): AdapterPayload {
  if (!HASHED_MODELS.has(model)) return payload;
  const { jti: _secret, ...rest } = payload;
  const session = rest.session as { cookie?: string } | undefined;
  if (session?.cookie) rest.session = { ...session, cookie: hashedId(session.cookie) };
  if (typeof rest.returnTo === 'string') rest.returnTo = rest.returnTo.replaceAll(id, OWN_ID);
  return rest;
}

/** The stored payload with what storable() took out of it put back, for the presented `id`. */
function restored(payload: AdapterPayload, id: string): AdapterPayload {
  const out = { ...payload, jti: id };
  if (typeof out.returnTo === 'string') out.returnTo = out.returnTo.replaceAll(OWN_ID, id);
  return out;
}

const SWEEP_EVERY_MS = 60_000;

export interface AdapterContext {
  readStore: ReadStore;
  prefix: string;
  now: () => number;
  /** how long a registered client nobody has approved is kept (client-lifetime.ts) */
  unusedClientTtlMs: number;
}

export function collectionFor<T extends Doc = StoredArtifact>(
  ctx: Pick<AdapterContext, 'readStore' | 'prefix'>,
  model: string,
): Collection<T> {
  return ctx.readStore.collection<T>(`${ctx.prefix}_${model}`);
}

export function createAdapterClass(ctx: AdapterContext): new (name: string) => Adapter {
  const indexed = new Set<string>();
  const lastSweep = new Map<string, number>();
  const life: ClientLifetime = { ...ctx, clients: collectionFor(ctx, 'Client') };

  return class ReadStoreAdapter implements Adapter {
    private readonly col: Collection<StoredArtifact>;
    constructor(private readonly model: string) {
      this.col = collectionFor(ctx, model);
    }

    private async ready(): Promise<void> {
      if (indexed.has(this.model)) return;
      indexed.add(this.model);
      await this.col.createIndex({ keys: { grantId: 1 } });
      if (this.model === 'Grant')
        await this.col.createIndex({ keys: { accountId: 1, clientId: 1 } });
      if (this.model === 'Session') await this.col.createIndex({ keys: { uid: 1 } });
      if (this.model === 'DeviceCode') await this.col.createIndex({ keys: { userCode: 1 } });
    }

    private async sweep(): Promise<void> {
      // clients go in bounded batches, in one process, without waiting for a write (client-sweep.ts)
      if (this.model === 'Client') return;
      const now = ctx.now();
      if ((lastSweep.get(this.model) ?? 0) + SWEEP_EVERY_MS > now) return;
      lastSweep.set(this.model, now);
      await this.col.deleteMany({ expiresAt: { $ne: null, $lte: now } });
    }

    private key(id: string): string {
      return HASHED_MODELS.has(this.model) ? hashedId(id) : id;
    }

    /** `id`: the presented value, when known (a lookup by uid or user code cannot restore it) */
    private live(doc: StoredArtifact | null, id?: string): AdapterPayload | undefined {
      if (!doc) return undefined;
      if (doc.expiresAt !== null && doc.expiresAt <= ctx.now()) return undefined;
      const payload = JSON.parse(doc.payload) as AdapterPayload;
      return id !== undefined && HASHED_MODELS.has(this.model) ? restored(payload, id) : payload;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      await this.ready();
      // oidc-provider gives a client no expiry: an unused one is kept for a while (client-lifetime.ts)
      const expiresAt =
        this.model === 'Client'
          ? await clientExpiry(life, id)
          : typeof expiresIn === 'number'
            ? ctx.now() + expiresIn * 1000
            : null;
      const held = expiresAt === null ? undefined : clientHeld(this.model, payload, expiresAt);
      const _id = this.key(id);
      const doc: StoredArtifact = {
        _id,
        payload: JSON.stringify(storable(this.model, id, payload)),
        expiresAt,
      };
      if (GRANTABLE.has(this.model) && payload.grantId) doc.grantId = payload.grantId;
      if (payload.uid) doc.uid = payload.uid;
      if (payload.userCode) doc.userCode = payload.userCode;
      if (this.model === 'Grant') {
        doc.accountId = payload.accountId;
        doc.clientId = payload.clientId;
      }
      await stored(async () => {
        await this.col.replaceOne({ _id }, doc, { upsert: true });
        // a sign-in under way, a grant or a refresh token keeps its client as long (clientHeld)
        if (held) await keepClientUntil(life, held.clientId, held.until);
        if (this.model === 'RefreshToken' && payload.grantId && expiresAt !== null) {
          // A rotated refresh token slides its grant along, or the grant would expire under a
          // client that keeps refreshing (feedback: "connects monthly, never sees the login page").
          await extendGrant(ctx, payload.grantId, expiresAt);
        }
        await this.sweep();
        await ctx.readStore.flush();
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.live(await this.col.findOne({ _id: this.key(id) }), id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.live(await this.col.findOne({ uid }));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.live(await this.col.findOne({ userCode }));
    }

    async consume(id: string): Promise<void> {
      const read = await this.col.findOne({ _id: this.key(id) });
      const at = Math.floor(ctx.now() / 1000);
      const flush = () => ctx.readStore.flush();
      const collection = (model: string) => collectionFor(ctx, model);
      // made only if no other request used the token since it was read (reuse.ts)
      const use = await useOnce(collection, this.model, read, at, flush);
      // MongoDB stores each write when it is acknowledged: the mark follows the request's write
      if (ctx.readStore.adapter === 'mongodb') return storeConsume({ mark: use.mark }, flush);
      await use.mark();
      await storeConsume({ undo: use.undo }, flush);
    }

    async destroy(id: string): Promise<void> {
      let taken = true;
      await stored(async () => {
        taken = (await this.col.deleteOne({ _id: this.key(id) })).deletedCount === 1;
        await ctx.readStore.flush();
      });
      // Only a resume destroys an interaction, after reading it: one that finds it gone crossed
      // another resume of the same sign-in, which goes on alone (one approval, one code); this
      // one ends on oidc-provider's error page, as if it had read the interaction gone.
      if (!taken && this.model === 'Interaction') {
        throw new errors.SessionNotFound(
          'interaction session not found: this sign-in already went on in another tab or an earlier submission',
        );
      }
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await stored(async () => {
        await this.col.deleteMany({ grantId });
        await ctx.readStore.flush();
      });
    }
  };
}

/** moves a grant's expiry (document and the `exp` oidc-provider checks) up to `expiresAt` */
async function extendGrant(ctx: AdapterContext, grantId: string, expiresAt: number): Promise<void> {
  const grants = collectionFor(ctx, 'Grant');
  const grant = await grants.findOne({ _id: grantId });
  if (!grant || grant.expiresAt === null || grant.expiresAt >= expiresAt) return;
  const payload = { ...JSON.parse(grant.payload), exp: Math.ceil(expiresAt / 1000) };
  await grants.updateOne(
    { _id: grantId },
    { $set: { expiresAt, payload: JSON.stringify(payload) } },
  );
}

/**
 * Documents written before ids were hashed (their `_id` is the secret itself) move under the
 * hash once, at start, so no earlier refresh token or session stays readable in the store and
 * none is lost.
 */
export async function hashStoredSecrets(ctx: AdapterContext): Promise<number> {
  let moved = 0;
  for (const model of HASHED_MODELS) {
    const col = collectionFor(ctx, model);
    const legacy = await col.find({ _id: { $not: { $regex: `^${HASH_PREFIX}` } } });
    for (const doc of legacy) {
      const payload = storable(model, doc._id, JSON.parse(doc.payload) as AdapterPayload);
      await col.replaceOne(
        { _id: hashedId(doc._id) },
        { ...doc, _id: hashedId(doc._id), payload: JSON.stringify(payload) },
        { upsert: true },
      );
      await col.deleteOne({ _id: doc._id });
      moved++;
    }
  }
  if (moved > 0) await ctx.readStore.flush();
  return moved;
}
