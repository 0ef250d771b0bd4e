/**
 * oidc-provider's storage adapter over the read-store port: one collection per model
 * (`<prefix>_<Model>`), documents `{_id, payload, expiresAt, grantId?, uid?, userCode?}`.
 * Expired documents read as absent and are swept out lazily. Every write is followed by
 * readStore.flush() so clients, grants, sessions and refresh tokens survive a restart of the
 * embedded store.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Collection, Doc, ReadStore } from '../../readstore/types.js';

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

/** models that hang off a grant and are revoked with it */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

const SWEEP_EVERY_MS = 60_000;

export interface AdapterContext {
  readStore: ReadStore;
  prefix: string;
  now: () => number;
}

export function collectionFor<T extends Doc = StoredArtifact>(
  ctx: AdapterContext,
  model: string,
): Collection<T> {
  return ctx.readStore.collection<T>(`${ctx.prefix}_${model}`);
}

export function createAdapterClass(ctx: AdapterContext): new (name: string) => Adapter {
  const indexed = new Set<string>();
  const lastSweep = new Map<string, number>();

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
      const now = ctx.now();
      if ((lastSweep.get(this.model) ?? 0) + SWEEP_EVERY_MS > now) return;
      lastSweep.set(this.model, now);
      await this.col.deleteMany({ expiresAt: { $ne: null, $lte: now } });
    }

    private live(doc: StoredArtifact | null): AdapterPayload | undefined {
      if (!doc) return undefined;
      if (doc.expiresAt !== null && doc.expiresAt <= ctx.now()) return undefined;
      return JSON.parse(doc.payload) as AdapterPayload;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      await this.ready();
      const expiresAt = typeof expiresIn === 'number' ? ctx.now() + expiresIn * 1000 : null;
      const doc: StoredArtifact = { _id: id, payload: JSON.stringify(payload), expiresAt };
      if (GRANTABLE.has(this.model) && payload.grantId) doc.grantId = payload.grantId;
      if (payload.uid) doc.uid = payload.uid;
      if (payload.userCode) doc.userCode = payload.userCode;
      if (this.model === 'Grant') {
        doc.accountId = payload.accountId;
        doc.clientId = payload.clientId;
      }
      await this.col.replaceOne({ _id: id }, doc, { upsert: true });
      if (this.model === 'RefreshToken' && payload.grantId && expiresAt !== null) {
        // A rotated refresh token slides its grant along, or the grant would expire under a
        // client that keeps refreshing (feedback: "connects monthly, never sees the login page").
        await extendGrant(ctx, payload.grantId, expiresAt);
      }
      await this.sweep();
      await ctx.readStore.flush();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.live(await this.col.findOne({ _id: id }));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.live(await this.col.findOne({ uid }));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.live(await this.col.findOne({ userCode }));
    }

    async consume(id: string): Promise<void> {
      const doc = await this.col.findOne({ _id: id });
      if (!doc) return;
      const payload = { ...JSON.parse(doc.payload), consumed: Math.floor(ctx.now() / 1000) };
      await this.col.updateOne({ _id: id }, { $set: { payload: JSON.stringify(payload) } });
      await ctx.readStore.flush();
    }

    async destroy(id: string): Promise<void> {
      await this.col.deleteOne({ _id: id });
      await ctx.readStore.flush();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await this.col.deleteMany({ grantId });
      await ctx.readStore.flush();
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
