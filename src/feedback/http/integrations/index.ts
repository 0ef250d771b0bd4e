/**
 * Workspace integration credentials (issue 18, the inbound half of integrations): an admin
 * creates one per connected tool (the credential `rfi_…` is in that answer only; the service
 * keeps its hash), lists them, and revokes one — effective on its next request.
 */
import { z } from 'zod';
import { toIntegration } from '../../../../projections/integrations/queries.js';
import { integrationsOf } from '../../../../projections/integrations/projector.js';
import { integrationsOfWorkspace } from '../../../../projections/integrations/queries.js';
import { NotFound } from '../../../../commands/shared/errors.js';
import { createIntegration, revokeIntegration } from '../../actions/integrations.js';
import { Slug, Timestamp, WorkspaceParams } from '../schemas.js';
import { contextOf, workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';

const TAGS = ['Integrations'];
const DECLARED = [400, 401, 403, 404] as const;
/** admins only, and only with their own credentials: an OAuth app's credential would outlive it */
const CREDENTIAL_ADMIN = { workspace: true, admin: true, ownCredentials: true } as const;

const IntegrationId = z
  .string()
  .regex(/^int_[0-9a-f]{32}$/)
  .describe('integration id');

const Integration = z
  .object({
    id: IntegrationId,
    name: z
      .string()
      .min(1)
      .max(100)
      .describe('the connection name; writes carry `integration:<name>`'),
    createdAt: Timestamp,
    createdBy: z.string().nullable().describe('the admin who created it'),
    revoked: z.boolean(),
    revokedAt: z.number().nullable(),
  })
  .strict()
  .meta({ id: 'Integration' });

export function integrationOperations(deps: FeedbackHttpDeps): FeedbackOperation[] {
  const create = defineFeedbackOp({
    id: 'create_integration',
    honoursIfMatch: 'commands',
    method: 'post',
    path: '/v1/workspaces/{slug}/integrations',
    summary: 'Create a workspace integration credential',
    description:
      'A credential (`rfi_…`) that belongs to the workspace, not to a person: it reaches only this workspace’s routes with a member’s rights (never admin operations, never `/v1/me`). Its writes are labelled `via: integration:<name>`; its replies are `agent` replies carrying the name. The value is in this answer only; the service keeps its hash.',
    tags: TAGS,
    params: WorkspaceParams,
    body: z.object({ name: z.string().min(1).max(100) }).strict(),
    response: z.object({
      integration: Integration,
      credential: z.string().regex(/^rfi_[A-Za-z0-9_-]+$/),
    }),
    successStatus: 201,
    errors: DECLARED,
    auth: 'bearer',
    meta: CREDENTIAL_ADMIN,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { integrationId, credential, position } = await createIntegration(
        deps,
        contextOf(deps, ctx),
        { workspaceId, name: ctx.body.name },
      );
      return {
        position,
        async readBack() {
          const doc = await integrationsOf(deps.readStore).findOne({ _id: integrationId });
          if (!doc) throw new NotFound('integration not found');
          return {
            status: 201,
            headers: { 'Cache-Control': 'no-store' },
            body: { integration: toIntegration(doc), credential },
          };
        },
      };
    },
  });

  const list = defineFeedbackOp({
    id: 'list_integrations',
    method: 'get',
    path: '/v1/workspaces/{slug}/integrations',
    summary: 'List the workspace’s integration credentials',
    tags: TAGS,
    params: z.object({ slug: Slug }),
    response: z.object({
      items: z.array(Integration),
      nextCursor: z.null().meta({ description: 'always null: all in one answer' }),
    }),
    errors: DECLARED,
    auth: 'bearer',
    meta: CREDENTIAL_ADMIN,
    extraDescription: 'Oldest first, revoked ones included. Never the credentials or their hashes.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      return {
        body: {
          items: await integrationsOfWorkspace(deps.readStore, workspaceId),
          nextCursor: null,
        },
      };
    },
  });

  const revoke = defineFeedbackOp({
    id: 'revoke_integration',
    honoursIfMatch: 'commands',
    method: 'delete',
    path: '/v1/workspaces/{slug}/integrations/{integrationId}',
    summary: 'Revoke a workspace integration credential',
    tags: TAGS,
    params: z.object({ slug: Slug, integrationId: IntegrationId }),
    successStatus: 204,
    errors: DECLARED,
    auth: 'bearer',
    meta: CREDENTIAL_ADMIN,
    extraDescription:
      'The credential stops working on its very next request. Revoking twice is a no-op; another workspace’s integration is 404.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { position } = await revokeIntegration(deps, contextOf(deps, ctx), {
        workspaceId,
        integrationId: ctx.params.integrationId,
      });
      return { position };
    },
  });

  return [create, list, revoke];
}
