/**
 * The OAuth apps a user connected, and disconnecting one (issue 5 item 3): disconnecting revokes
 * the client's grants, so its refresh tokens fail and its access tokens stop at once (the
 * access-token check reads the grant live). Only the maker's own credentials reach these routes
 * (`meta.ownCredentials`, authorize.ts rule 4): an app never lists or disconnects the user's apps.
 */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import type { AuthorizationServer } from '../../../auth/index.js';
import { defineFeedbackOp, type FeedbackOperation } from '../types.js';
import { ClientId, ConnectedAppList } from './schemas.js';

const TAGS = ['Connected apps'];

export type ConnectedAppsPort = Pick<
  AuthorizationServer,
  'listConnectedApps' | 'revokeConnectedApp'
>;

export function connectedAppOperations(apps: ConnectedAppsPort): FeedbackOperation[] {
  const listConnectedApps = defineFeedbackOp({
    id: 'list_connected_apps',
    method: 'get',
    path: '/v1/me/apps',
    summary: 'List the apps you connected',
    description: 'OAuth clients holding a live grant from you, with the scopes you granted.',
    tags: TAGS,
    response: ConnectedAppList,
    errors: [401, 403],
    auth: 'bearer',
    meta: { ownCredentials: true },
    async handler(ctx) {
      return { body: { apps: await apps.listConnectedApps(ctx.principal.userId) } };
    },
  });

  const revokeConnectedApp = defineFeedbackOp({
    id: 'revoke_connected_app',
    method: 'delete',
    path: '/v1/me/apps/{clientId}',
    summary: 'Disconnect an app',
    description:
      'Revokes every grant you gave the client: its refresh tokens fail and its access tokens stop working on the next request. 404 when you had not connected it.',
    tags: TAGS,
    params: z.object({ clientId: ClientId }),
    successStatus: 204,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { ownCredentials: true },
    async handler(ctx) {
      const revoked = await apps.revokeConnectedApp(ctx.principal.userId, ctx.params.clientId);
      if (!revoked) throw new NotFound('no connected app with this client id');
      return {};
    },
  });

  return [listConnectedApps, revokeConnectedApp];
}
