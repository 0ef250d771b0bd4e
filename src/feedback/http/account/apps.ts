/**
 * The OAuth apps a user connected, and disconnecting one (issue 5 item 3): disconnecting revokes
 * the client's grants, so its refresh tokens fail and its access tokens stop at once (the
 * access-token check reads the grant live), and disables the webhooks whose URL the app set
 * (actions/webhooks.ts disableWebhooksOfGrant): nothing the app set up keeps reaching it. Only the maker's own credentials reach these routes
 * (`meta.ownCredentials`, authorize.ts rule 4): an app never lists or disconnects the user's apps.
 */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import type { AuthorizationServer } from '../../../auth/index.js';
import { disableWebhooksOfGrant } from '../../actions/webhooks.js';
import { contextOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { ClientId, ConnectedAppList } from './schemas.js';

const TAGS = ['Connected apps'];

export type ConnectedAppsPort = Pick<
  AuthorizationServer,
  'listConnectedApps' | 'revokeConnectedApp' | 'isRegisteredClient'
>;

export function connectedAppOperations(
  deps: FeedbackHttpDeps & { apps: ConnectedAppsPort; catchUp(): Promise<void> },
): FeedbackOperation[] {
  const { apps } = deps;
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
    honoursIfMatch: 'handler',
    method: 'delete',
    path: '/v1/me/apps/{clientId}',
    summary: 'Disconnect an app',
    description:
      'Revokes every grant you gave the client: its refresh tokens fail and its access tokens stop working on the next request. Every webhook whose URL the app set for you is disabled, with `disabledReason` naming the app; an admin may resume it. Disconnecting an app that is not (or no longer) connected changes nothing and answers 204, so a retry is safe; 404 when no app has this client id.',
    tags: TAGS,
    params: z.object({ clientId: ClientId }),
    successStatus: 204,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { ownCredentials: true },
    async handler(ctx) {
      const grant = { userId: ctx.principal.userId, clientId: ctx.params.clientId };
      const app = (await apps.listConnectedApps(grant.userId)).find(
        (connected) => connected.clientId === grant.clientId,
      );
      // A repeat (its first answer lost, or sent again with its Idempotency-Key: the revocation
      // leaves no event to replay) finds the app disconnected and answers as the first did, as
      // revoking a revoked personal token does; only a client id no app has is 404.
      const known = app !== undefined || (await apps.isRegisteredClient(grant.clientId));
      // revoked outside the event log: a failed precondition is answered before (lifecycle.ts)
      if (ctx.unmetPrecondition)
        throw known ? ctx.unmetPrecondition : new NotFound('no app with this client id');
      const revoked = await apps.revokeConnectedApp(grant.userId, grant.clientId);
      // after the revocation, so the app cannot resume a webhook in between; a retry after a
      // crash here finds the grant gone but still disables what it left (hence the count).
      // A webhook the app was creating meanwhile is either written before the revocation —
      // then the read models hold it once caught up with the log — or checks the grant after
      // it and disables itself (actions/webhooks.ts createWebhook).
      await deps.catchUp();
      const { disabled, position } = await disableWebhooksOfGrant(deps, contextOf(deps, ctx), {
        grant,
        appName: app ? `"${app.clientName}"` : `(client ${grant.clientId})`,
        // webhooks it set before events carried its grant know it by this name only
        ...(app ? { clientName: app.clientName } : {}),
      });
      if (!revoked && disabled === 0 && !known) throw new NotFound('no app with this client id');
      return { position };
    },
  });

  return [listConnectedApps, revokeConnectedApp];
}
